/**
 * Restarted GMRES(m) with right preconditioning (Saad and Schultz, "GMRES: a generalized minimal
 * residual algorithm for solving nonsymmetric linear systems", SIAM J. Sci. Stat. Comput. 7(3),
 * 1986; right preconditioning as in Saad, "Iterative Methods for Sparse Linear Systems", §9.3.2).
 *
 * Solves A x = b for a non-symmetric A given a preconditioner P⁻¹ ≈ A⁻¹ (here the LDLᵀ of the
 * symmetric part of A): Arnoldi with modified Gram-Schmidt on A P⁻¹, Givens rotations for the
 * small least-squares problem. The preconditioned basis Z = P⁻¹ V is kept, so x = x₀ + Z y
 * costs no further preconditioner solve (the storage of flexible GMRES, Saad, "A flexible
 * inner-outer preconditioned GMRES algorithm", SIAM J. Sci. Comput. 14(2), 1993).
 *
 * When P = S is a factorization of a splitting A = S + N with N cheap to apply (the skew part
 * of a nearly symmetric matrix), `applyPreconditioned` gives A z = v + N z for z = S⁻¹ v
 * without a product with the whole of A. The Arnoldi process then runs on that cheap operator;
 * each cycle ends with the true residual b − A x, so rounding in S⁻¹ cannot hide a wrong
 * answer: a cycle that falls short of the tolerance is followed by another one.
 * All storage is preallocated by the constructor.
 */
export interface GmresResult {
  iterations: number;   // Arnoldi steps in all cycles
  residual: number;     // ‖b − A x‖₂ / ‖b‖₂ (absolute when b = 0)
  converged: boolean;
}

export class Gmres {
  private readonly V: Float64Array[];   // (m+1) × n Krylov basis
  private readonly Z: Float64Array[];   // m × n preconditioned basis P⁻¹ v_k
  private readonly H: Float64Array;     // (m+1) × m Hessenberg, row-major
  private readonly cs: Float64Array;    // (m) Givens cosines
  private readonly sn: Float64Array;    // (m) Givens sines
  private readonly g: Float64Array;     // (m+1) rotated residual vector
  private readonly y: Float64Array;     // (m)
  private readonly w: Float64Array;     // (n)
  readonly result: GmresResult = { iterations: 0, residual: 0, converged: false };

  constructor(readonly n: number, readonly m = 20) {
    this.V = Array.from({ length: m + 1 }, () => new Float64Array(n));
    this.Z = Array.from({ length: m }, () => new Float64Array(n));
    this.H = new Float64Array((m + 1) * m);
    this.cs = new Float64Array(m); this.sn = new Float64Array(m);
    this.g = new Float64Array(m + 1); this.y = new Float64Array(m);
    this.w = new Float64Array(n);
  }

  /**
   * x (initial guess in, solution out) for A x = b; apply(out, x) writes A x, precond(x)
   * overwrites x with P⁻¹ x; applyPreconditioned(out, v, z), if given, writes A z knowing
   * z = P⁻¹ v. Stops at ‖r‖₂ ≤ tol ‖b‖₂ (true residual) or after maxCycles restarts.
   */
  solve(apply: (out: Float64Array, x: Float64Array) => void, precond: (x: Float64Array) => void,
    b: Float64Array, x: Float64Array, tol = 1e-13, maxCycles = 10,
    applyPreconditioned: ((out: Float64Array, v: Float64Array, z: Float64Array) => void) | null = null): GmresResult {
    const { n, m, V, Z, H, cs, sn, g, y, w } = this;
    const res = this.result;
    const bn = norm(b, n), scale = bn > 0 ? bn : 1;
    res.iterations = 0; res.converged = false;
    let zeroGuess = true;
    for (let i = 0; i < n && zeroGuess; i++) zeroGuess = x[i] === 0;
    for (let cycle = 0; cycle < maxCycles; cycle++) {
      // r₀ = b − A x (b itself for a zero first guess), v₁ = r₀/β
      const v0 = V[0]!;
      if (cycle === 0 && zeroGuess) v0.set(b);
      else {
        apply(w, x);
        for (let i = 0; i < n; i++) v0[i] = b[i]! - w[i]!;
      }
      const beta = norm(v0, n);
      res.residual = beta / scale;
      if (!(beta / scale > tol)) { res.converged = beta / scale <= tol; return res; }
      for (let i = 0; i < n; i++) v0[i] = v0[i]! / beta;
      g.fill(0); g[0] = beta;
      let k = 0;
      for (; k < m; k++) {
        // z_k = P⁻¹ v_k, w = A z_k
        const zk = Z[k]!;
        zk.set(V[k]!); precond(zk);
        if (applyPreconditioned) applyPreconditioned(w, V[k]!, zk); else apply(w, zk);
        // modified Gram-Schmidt
        for (let i = 0; i <= k; i++) {
          const vi = V[i]!;
          let hik = 0;
          for (let t = 0; t < n; t++) hik += w[t]! * vi[t]!;
          H[i * m + k] = hik;
          for (let t = 0; t < n; t++) w[t] = w[t]! - hik * vi[t]!;
        }
        const hk1 = norm(w, n);
        H[(k + 1) * m + k] = hk1;
        if (hk1 > 0) { const vk1 = V[k + 1]!; for (let t = 0; t < n; t++) vk1[t] = w[t]! / hk1; }
        // apply the previous rotations to column k, then a new one to zero H[k+1][k]
        for (let i = 0; i < k; i++) {
          const a = H[i * m + k]!, c = H[(i + 1) * m + k]!;
          H[i * m + k] = cs[i]! * a + sn[i]! * c;
          H[(i + 1) * m + k] = -sn[i]! * a + cs[i]! * c;
        }
        const a = H[k * m + k]!, c = H[(k + 1) * m + k]!, r = Math.sqrt(a * a + c * c);
        cs[k] = r > 0 ? a / r : 1; sn[k] = r > 0 ? c / r : 0;
        H[k * m + k] = r; H[(k + 1) * m + k] = 0;
        g[k + 1] = -sn[k]! * g[k]!; g[k] = cs[k]! * g[k]!;
        res.iterations++;
        if (Math.abs(g[k + 1]!) <= tol * scale || hk1 === 0) { k++; break; }
      }
      // y = H⁻¹ g (upper triangular k×k); x += Z y
      for (let i = k - 1; i >= 0; i--) {
        let s = g[i]!;
        for (let j = i + 1; j < k; j++) s -= H[i * m + j]! * y[j]!;
        y[i] = s / H[i * m + i]!;
      }
      for (let j = 0; j < k; j++) { const zj = Z[j]!, yj = y[j]!; for (let t = 0; t < n; t++) x[t] = x[t]! + yj * zj[t]!; }
    }
    // final true residual
    apply(w, x);
    for (let i = 0; i < n; i++) w[i] = b[i]! - w[i]!;
    res.residual = norm(w, n) / scale;
    res.converged = res.residual <= tol;
    return res;
  }
}

/** ‖v[0 … n)‖₂ */
export function norm(v: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}
