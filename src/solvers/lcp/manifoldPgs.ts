/**
 * Manifold blocks of the contact PGS (docs/theory.md §15, "Manifolds"; 002; Erleben 2005 §6).
 *
 * A face contact (a box on a box) gives up to four points with one normal between the same two
 * components. Their normal rows span only three directions (push, two tilts), so W_NN is singular
 * and point-by-point Gauss-Seidel wanders along its null space: the impulses drift between
 * diagonal corners, and each point's friction bound μθ_i drifts with them. On a stack the drift
 * and the per-point friction feed the rocking of the boxes (docs/contact.md, "Stacks"). So a
 * manifold is solved as one block:
 * - normals: the exact LCP of its ≤ 4 points, θ ≥ 0 ⊥ K θ + q ≥ 0 with K = W_NN + ρ + εI (ε tiny:
 *   the unique solution of the regularized problem, the least-norm one of the singular problem,
 *   symmetric for a symmetric load), by trying no point active, every point active, the active
 *   set of the last iterate, then every set;
 * - friction at the centre c of the points: the tangent impulse f (2 rows at c) and the twist τ
 *   about n, solved together against their 3 × 3 block, f within the disc (or box) μΣθ and |τ| ≤
 *   μΣθ_i|d_i|, the twist the points' friction can give. The change is spread over the points as
 *   Δφ_i = Δf/m + Δτ (n × d_i)/Σ|d|² (d_i = p_i − c), which gives exactly the wrench (Δf, Δτ) at c,
 *   so the points keep their impulses for reports and warm starts.
 * The centre rows are combinations of the points' rows (the rows are linear in the arm), so they and
 * their responses M⁻¹Jᵀ come from the local dynamics without another inverse.
 */
import type { LocalDynamics } from '../../contact/localDynamics.js';

/** the regularization ε of a manifold's normal block, relative to its largest diagonal entry */
const BLOCK_EPS = 1e-9;
/** a subset solution counts as feasible down to this fraction of the block's scale */
const FEASIBLE = 1e-12;

/** the manifolds of one local dynamics: consecutive contacts on the same two components with one normal */
export class Manifolds {
  /** number of manifolds (a single contact is a manifold of one point) */
  count = 0;
  /** manifolds of two points or more */
  blocks = 0;
  /** (count + 1) first contact of each manifold */
  start = new Int32Array(1);
  /** (16 per manifold) K = W_NN (+ ρ), row-major 4 × 4 */
  private K = new Float64Array(0);
  /** (16 per manifold) Cholesky factor of K + εI (lower, row-major 4 × 4); whether it exists; K's scale */
  private L = new Float64Array(0);
  private fullOk = new Uint8Array(0);
  private scale = new Float64Array(0);
  /** (36 per manifold) centre rows: side (2) × row (t₁, t₂, twist) × [linear 3, angular 3] */
  private rows = new Float64Array(0);
  /** (36 per manifold) the rows' responses M⁻¹Jᵀ, same layout */
  private resp = new Float64Array(0);
  /** (9 per manifold) inverse of the centre block W_ff; (4 per manifold) λ_max of its tangents, Σ|d|², centre B */
  private Wfi = new Float64Array(0);
  private aux = new Float64Array(0);
  /** (8 per manifold) (n × d_i)·t₁, (n × d_i)·t₂ per point; (4 per manifold) |d_i| */
  private arm = new Float64Array(0);
  private dist = new Float64Array(0);
  /** (per manifold) the twist row's free velocity */
  private twistFree = new Float64Array(0);
  private readonly Ks = new Float64Array(16);
  private readonly xs = new Float64Array(4);
  private readonly q = new Float64Array(4);
  private readonly w = new Float64Array(4);

  /** groups the contacts and prepares each manifold's blocks (once per solve) */
  prepare(ld: LocalDynamics, reg: Float64Array | null): void {
    const m = ld.count, sc = ld.sideComp, N = ld.normal;
    if (this.start.length < m + 1) this.start = new Int32Array(Math.max(m + 1, 2 * this.start.length));
    let g = 0;
    this.start[0] = 0;
    for (let i = 1; i <= m; i++) {
      const s = this.start[g]!;
      const same = i < m && i - s < 4 && sc[2 * i] === sc[2 * s] && sc[2 * i + 1] === sc[2 * s + 1]
        && N[3 * i] === N[3 * s] && N[3 * i + 1] === N[3 * s + 1] && N[3 * i + 2] === N[3 * s + 2];
      if (!same) this.start[++g] = i;
    }
    this.count = g;
    this.blocks = 0;
    this.reserve(g);
    for (let k = 0; k < g; k++) {
      const s = this.start[k]!, e = this.start[k + 1]!;
      if (e - s < 2) continue;
      this.blocks++;
      this.normalBlock(ld, k, s, e, reg);
      this.factorFull(k, e - s);
      this.centreRows(ld, k, s, e);
    }
  }

  private reserve(g: number): void {
    if (this.Wfi.length >= 9 * g) return;
    const cap = Math.max(g, 2 * (this.Wfi.length / 9));
    this.K = new Float64Array(16 * cap); this.rows = new Float64Array(36 * cap);
    this.resp = new Float64Array(36 * cap); this.Wfi = new Float64Array(9 * cap);
    this.aux = new Float64Array(4 * cap); this.arm = new Float64Array(8 * cap);
    this.dist = new Float64Array(4 * cap);
    this.twistFree = new Float64Array(cap); this.L = new Float64Array(16 * cap);
    this.fullOk = new Uint8Array(cap); this.scale = new Float64Array(cap);
  }

  /** the scale of manifold k's block and the Cholesky factor of K + εI with every point active */
  private factorFull(k: number, m: number): void {
    const K = this.K, L = this.L, o = 16 * k;
    let scale = 0;
    for (let a = 0; a < m; a++) scale = Math.max(scale, K[o + 5 * a]!);
    this.scale[k] = scale;
    for (let a = 0; a < 16; a++) L[o + a] = a < 4 * m ? K[o + a]! + (a % 5 === 0 ? BLOCK_EPS * scale : 0) : 0;
    this.fullOk[k] = scale > 0 && cholesky(L, o, m) ? 1 : 0;
  }

  /** K_ab = Σ_s H_{a,s,n} M⁻¹ H_{b,s,n}ᵀ over the sides (both contacts have the same components) */
  private normalBlock(ld: LocalDynamics, k: number, s: number, e: number, reg: Float64Array | null): void {
    const N = ld.normal, ang = ld.sideAngular, res = ld.sideResponse, sc = ld.sideComp, K = this.K, o = 16 * k;
    for (let a = 0; a < e - s; a++) {
      for (let b = 0; b < e - s; b++) {
        const i = s + a, j = s + b;
        let x = 0;
        for (let side = 0; side < 2; side++) {
          if (sc[2 * i + side]! < 0) continue;
          const A = 18 * i + 9 * side, G = 36 * j + 18 * side;
          x += N[3 * i]! * res[G]! + N[3 * i + 1]! * res[G + 1]! + N[3 * i + 2]! * res[G + 2]!
            + ang[A]! * res[G + 3]! + ang[A + 1]! * res[G + 4]! + ang[A + 2]! * res[G + 5]!;
        }
        K[o + 4 * a + b] = x + (a === b && reg !== null ? reg[i]! : 0);
      }
    }
  }

  /** the centre's tangent and twist rows, their responses, the inverse of their block and centre B */
  private centreRows(ld: LocalDynamics, k: number, s: number, e: number): void {
    const m = e - s, P = ld.point, N = ld.normal, T1 = ld.tangent1, T2 = ld.tangent2, p = 3 * s;
    const ang = ld.sideAngular, res = ld.sideResponse, sc = ld.sideComp, J = this.rows, S = this.resp, o = 36 * k;
    // the centre, each point's n × d_i in the tangent frame, Σ|d|²
    let cx = 0, cy = 0, cz = 0, D2 = 0;
    for (let i = s; i < e; i++) { cx += P[3 * i]! / m; cy += P[3 * i + 1]! / m; cz += P[3 * i + 2]! / m; }
    for (let a = 0; a < m; a++) {
      const i = s + a, dx = P[3 * i]! - cx, dy = P[3 * i + 1]! - cy, dz = P[3 * i + 2]! - cz;
      const ux = N[p + 1]! * dz - N[p + 2]! * dy, uy = N[p + 2]! * dx - N[p]! * dz;
      const uz = N[p]! * dy - N[p + 1]! * dx;
      this.arm[8 * k + 2 * a] = ux * T1[p]! + uy * T1[p + 1]! + uz * T1[p + 2]!;
      this.arm[8 * k + 2 * a + 1] = ux * T2[p]! + uy * T2[p + 1]! + uz * T2[p + 2]!;
      this.dist[4 * k + a] = Math.sqrt(dx * dx + dy * dy + dz * dz);
      D2 += dx * dx + dy * dy + dz * dz;
    }
    // rows and responses: the tangents' mean over the points, the twist Σ (n × d_i)·t_k row_{i,k} / Σ|d|²
    J.fill(0, o, o + 36); S.fill(0, o, o + 36);
    for (let side = 0; side < 2; side++) {
      if (sc[2 * s + side]! < 0) continue;
      for (let a = 0; a < m; a++) {
        const i = s + a, A = 18 * i + 9 * side, G = 36 * i + 18 * side;
        for (let t = 0; t < 2; t++) {
          const d = t === 0 ? T1 : T2, c = this.arm[8 * k + 2 * a + t]! / D2;
          const r = o + 18 * side + 6 * t, tw = o + 18 * side + 12;
          for (let x = 0; x < 3; x++) {
            J[r + x] = J[r + x]! + d[3 * i + x]! / m; J[r + 3 + x] = J[r + 3 + x]! + ang[A + 3 * (t + 1) + x]! / m;
            J[tw + x] = J[tw + x]! + c * d[3 * i + x]!;
            J[tw + 3 + x] = J[tw + 3 + x]! + c * ang[A + 3 * (t + 1) + x]!;
          }
          for (let x = 0; x < 6; x++) {
            S[r + x] = S[r + x]! + res[G + 6 * (t + 1) + x]! / m;
            S[tw + x] = S[tw + x]! + c * res[G + 6 * (t + 1) + x]!;
          }
        }
      }
    }
    this.centreBlock(ld, k, s, e, D2);
  }

  /** W_ff⁻¹, λ_max of its tangent part, Σ|d|², and the centre rows' free velocity */
  private centreBlock(ld: LocalDynamics, k: number, s: number, e: number, D2: number): void {
    const J = this.rows, S = this.resp, o = 36 * k, W = this.Ks, sc = ld.sideComp, B = ld.free, m = e - s;
    W.fill(0, 0, 9);
    for (let side = 0; side < 2; side++) {
      if (sc[2 * s + side]! < 0) continue;
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) {
        let x = 0;
        for (let c = 0; c < 6; c++) x += J[o + 18 * side + 6 * a + c]! * S[o + 18 * side + 6 * b + c]!;
        W[3 * a + b] = W[3 * a + b]! + x;
      }
    }
    invert3(this.Wfi, 9 * k, W);
    const a = W[0]!, c = W[4]!, x = 0.5 * (W[1]! + W[3]!);
    this.aux[4 * k] = 0.5 * (a + c) + Math.sqrt(0.25 * (a - c) * (a - c) + x * x);
    this.aux[4 * k + 1] = D2;
    // the centre's free velocity: B is linear in the rows
    let b0 = 0, b1 = 0, b2 = 0;
    for (let q = 0; q < m; q++) {
      const i = s + q;
      b0 += B[3 * i + 1]! / m; b1 += B[3 * i + 2]! / m;
      b2 += (this.arm[8 * k + 2 * q]! * B[3 * i + 1]! + this.arm[8 * k + 2 * q + 1]! * B[3 * i + 2]!) / D2;
    }
    this.aux[4 * k + 2] = b0; this.aux[4 * k + 3] = b1;
    this.twistFree[k] = b2;
  }

  /**
   * the normal impulses of manifold k (points s … e) ← the exact solution of its block LCP against
   * the others' current impulses; dv follows. `free` scales B (0: the position pass). Returns the
   * largest change.
   */
  solveNormals(ld: LocalDynamics, k: number, R: Float64Array, dv: Float64Array, bias: Float64Array | null,
    free: number): number {
    const s = this.start[k]!, m = this.start[k + 1]! - s, K = this.K, o = 16 * k, q = this.q;
    // q = w − Kθ: the velocities without this manifold's normal impulses
    this.normalVelocities(ld, s, m, dv, bias, free);
    let loaded = false;
    for (let a = 0; a < m; a++) if (R[3 * (s + a)] !== 0) loaded = true;
    if (loaded) {
      for (let a = 0; a < m; a++) {
        let x = q[a]!;
        for (let b = 0; b < m; b++) x -= K[o + 4 * a + b]! * R[3 * (s + b)]!;
        q[a] = x;
      }
    }
    const scale = this.scale[k]!;
    if (!(scale > 0)) return 0;
    // none active (every q ≥ 0), every point active (the factor of the step), the last active set,
    // then every set from the largest
    const full = (1 << m) - 1;
    let mask = 0, apart = true;
    for (let a = 0; a < m; a++) {
      if (R[3 * (s + a)]! > 0) mask |= 1 << a;
      if (q[a]! < 0) apart = false;
    }
    if (apart) this.xs.fill(0);
    let found = apart || this.tryFull(k, m, scale);
    if (!found && mask !== 0 && mask !== full) found = this.trySet(k, m, mask, scale);
    for (let set = full - 1; !found && set > 0; set--) if (set !== mask) found = this.trySet(k, m, set, scale);
    if (!found) this.xs.fill(0);
    // the change into R, then dv by the normal responses of both sides
    let change = 0;
    for (let a = 0; a < m; a++) {
      const i = s + a, d = this.xs[a]! - R[3 * i]!;
      this.w[a] = d;
      if (d === 0) continue;
      R[3 * i] = this.xs[a]!;
      change = Math.max(change, Math.abs(d));
    }
    if (change > 0) this.addNormalImpulses(ld, s, m, dv);
    return change;
  }

  /** dv += ± Σ_a M⁻¹H_{a,n}ᵀ w_a over the manifold's points, on both sides */
  private addNormalImpulses(ld: LocalDynamics, s: number, m: number, dv: Float64Array): void {
    const sc = ld.sideComp, res = ld.sideResponse, w = this.w;
    for (let side = 0; side < 2; side++) {
      const c = sc[2 * s + side]!;
      if (c < 0) continue;
      const o = 6 * c, sg = side === 0 ? -1 : 1;
      let x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0;
      for (let a = 0; a < m; a++) {
        const g = 36 * (s + a) + 18 * side, d = sg * w[a]!;
        x0 += res[g]! * d; x1 += res[g + 1]! * d; x2 += res[g + 2]! * d;
        x3 += res[g + 3]! * d; x4 += res[g + 4]! * d; x5 += res[g + 5]! * d;
      }
      dv[o] = dv[o]! + x0; dv[o + 1] = dv[o + 1]! + x1; dv[o + 2] = dv[o + 2]! + x2;
      dv[o + 3] = dv[o + 3]! + x3; dv[o + 4] = dv[o + 4]! + x4; dv[o + 5] = dv[o + 5]! + x5;
    }
  }

  /** q[a] ← the normal velocity of point s + a; the points share their sides and normal */
  private normalVelocities(ld: LocalDynamics, s: number, m: number, dv: Float64Array, bias: Float64Array | null,
    free: number): void {
    const sc = ld.sideComp, N = ld.normal, ang = ld.sideAngular, B = ld.free, q = this.q, p = 3 * s;
    const A = sc[2 * s]!, Bc = sc[2 * s + 1]!, nx = N[p]!, ny = N[p + 1]!, nz = N[p + 2]!;
    // the linear part, common to the points
    let lin = 0;
    if (Bc >= 0) lin += nx * dv[6 * Bc]! + ny * dv[6 * Bc + 1]! + nz * dv[6 * Bc + 2]!;
    if (A >= 0) lin -= nx * dv[6 * A]! + ny * dv[6 * A + 1]! + nz * dv[6 * A + 2]!;
    for (let a = 0; a < m; a++) {
      const i = s + a;
      let w = free * B[3 * i]! + (bias === null ? 0 : bias[i]!) + lin;
      if (Bc >= 0) {
        const g = 18 * i + 9, o = 6 * Bc + 3;
        w += ang[g]! * dv[o]! + ang[g + 1]! * dv[o + 1]! + ang[g + 2]! * dv[o + 2]!;
      }
      if (A >= 0) {
        const g = 18 * i, o = 6 * A + 3;
        w -= ang[g]! * dv[o]! + ang[g + 1]! * dv[o + 1]! + ang[g + 2]! * dv[o + 2]!;
      }
      q[a] = w;
    }
  }

  /** xs ← the solution with every point active, from the step's factor, if it is one */
  private tryFull(k: number, m: number, scale: number): boolean {
    if (this.fullOk[k] === 0) return false;
    const L = this.L, o = 16 * k, x = this.xs, q = this.q;
    for (let i = 0; i < m; i++) {
      let v = -q[i]!;
      for (let j = 0; j < i; j++) v -= L[o + 4 * i + j]! * x[j]!;
      x[i] = v / L[o + 5 * i]!;
    }
    for (let i = m - 1; i >= 0; i--) {
      let v = x[i]!;
      for (let j = i + 1; j < m; j++) v -= L[o + 4 * j + i]! * x[j]!;
      x[i] = v / L[o + 5 * i]!;
    }
    for (let a = 0; a < m; a++) {
      if (x[a]! < -FEASIBLE * scale * Math.max(1, Math.abs(x[a]!))) return false;
      if (x[a]! < 0) x[a] = 0;
    }
    return true;
  }

  /** xs ← the solution with the points of `set` active, if it is one (θ ≥ 0, the others' w ≥ 0) */
  private trySet(k: number, m: number, set: number, scale: number): boolean {
    const K = this.K, o = 16 * k, A = this.Ks, x = this.xs, q = this.q, w = this.w, eps = BLOCK_EPS * scale;
    let n = 0;
    for (let a = 0; a < m; a++) {
      if (!(set & (1 << a))) continue;
      let c = 0;
      for (let b = 0; b < m; b++) if (set & (1 << b)) A[4 * n + c++] = K[o + 4 * a + b]! + (a === b ? eps : 0);
      w[n++] = -q[a]!;
    }
    if (!choleskySolve(A, w, n)) return false;
    n = 0;
    for (let a = 0; a < m; a++) x[a] = set & (1 << a) ? w[n++]! : 0;
    for (let a = 0; a < m; a++) {
      if (x[a]! < -FEASIBLE * scale * Math.max(1, Math.abs(x[a]!))) return false;
      if (set & (1 << a)) { if (x[a]! < 0) x[a] = 0; continue; }
      let r = q[a]!;
      for (let b = 0; b < m; b++) r += K[o + 4 * a + b]! * x[b]!;
      if (r < -FEASIBLE * Math.max(scale, Math.abs(q[a]!))) return false;
    }
    return true;
  }

  /**
   * friction of manifold k at its centre: (f₁, f₂, τ) against its 3 × 3 block, within the disc (or
   * box) μΣθ and |τ| ≤ μΣθ_i|d_i|, spread over the points; dv follows. Returns the largest change.
   */
  solveFriction(ld: LocalDynamics, k: number, R: Float64Array, dv: Float64Array, coulomb: boolean): number {
    const s = this.start[k]!, m = this.start[k + 1]! - s, arm = this.arm, D2 = this.aux[4 * k + 1]!;
    // the centre impulses and bounds from the points
    let f1 = 0, f2 = 0, tau = 0, th = 0, tr = 0;
    for (let a = 0; a < m; a++) {
      const i = s + a, r1 = R[3 * i + 1]!, r2 = R[3 * i + 2]!;
      f1 += r1; f2 += r2; tau += arm[8 * k + 2 * a]! * r1 + arm[8 * k + 2 * a + 1]! * r2;
      th += R[3 * i]!; tr += R[3 * i]! * this.dist[4 * k + a]!;
    }
    const mu = ld.friction[s]!, lim = mu * th, tlim = mu * tr;
    // the centre's velocity
    let w0 = this.aux[4 * k + 2]!, w1 = this.aux[4 * k + 3]!, w2 = this.twistFree[k]!;
    const J = this.rows, o = 36 * k, sc = ld.sideComp;
    for (let side = 0; side < 2; side++) {
      const c = sc[2 * s + side]!;
      if (c < 0) continue;
      const sg = side === 0 ? -1 : 1, r = o + 18 * side, u = 6 * c;
      w0 += sg * dot6(J, r, dv, u); w1 += sg * dot6(J, r + 6, dv, u); w2 += sg * dot6(J, r + 12, dv, u);
    }
    // the sticking impulse, else the projection of a gradient step (tangents) and a clamp (twist)
    const V = this.Wfi, v = 9 * k;
    let g1 = f1 - (V[v]! * w0 + V[v + 1]! * w1 + V[v + 2]! * w2);
    let g2 = f2 - (V[v + 3]! * w0 + V[v + 4]! * w1 + V[v + 5]! * w2);
    let g3 = tau - (V[v + 6]! * w0 + V[v + 7]! * w1 + V[v + 8]! * w2);
    if (coulomb ? g1 * g1 + g2 * g2 > lim * lim : Math.abs(g1) > lim || Math.abs(g2) > lim) {
      const step = 1 / this.aux[4 * k]!;
      g1 = f1 - w0 * step; g2 = f2 - w1 * step;
      if (coulomb) {
        const l = Math.sqrt(g1 * g1 + g2 * g2);
        if (l > lim) { const sc2 = l > 0 ? lim / l : 0; g1 *= sc2; g2 *= sc2; }
      } else { g1 = Math.min(lim, Math.max(-lim, g1)); g2 = Math.min(lim, Math.max(-lim, g2)); }
    }
    g3 = Math.min(tlim, Math.max(-tlim, g3));
    const d1 = g1 - f1, d2 = g2 - f2, d3 = g3 - tau;
    if (d1 === 0 && d2 === 0 && d3 === 0) return 0;
    // spread over the points, and Δu through the centre responses
    for (let a = 0; a < m; a++) {
      const i = s + a;
      R[3 * i + 1] = R[3 * i + 1]! + d1 / m + d3 * arm[8 * k + 2 * a]! / D2;
      R[3 * i + 2] = R[3 * i + 2]! + d2 / m + d3 * arm[8 * k + 2 * a + 1]! / D2;
    }
    const S = this.resp;
    for (let side = 0; side < 2; side++) {
      const c = sc[2 * s + side]!;
      if (c < 0) continue;
      const sg = side === 0 ? -1 : 1, r = o + 18 * side, u = 6 * c;
      for (let x = 0; x < 6; x++) dv[u + x] = dv[u + x]! + sg * (S[r + x]! * d1 + S[r + 6 + x]! * d2 + S[r + 12 + x]! * d3);
    }
    return Math.max(Math.abs(d1), Math.abs(d2), Math.abs(d3));
  }
}

/** the normal velocity of contact i: free·B_n + bias + H_i Δu */
export function pointNormalVelocity(ld: LocalDynamics, i: number, dv: Float64Array, bias: Float64Array | null,
  free: number): number {
  const sc = ld.sideComp, N = ld.normal, ang = ld.sideAngular, p = 3 * i;
  let w = free * ld.free[p]! + (bias === null ? 0 : bias[i]!);
  for (let s = 0; s < 2; s++) {
    const c = sc[2 * i + s]!;
    if (c < 0) continue;
    const o = 6 * c, g = 18 * i + 9 * s, v = N[p]! * dv[o]! + N[p + 1]! * dv[o + 1]! + N[p + 2]! * dv[o + 2]!
      + ang[g]! * dv[o + 3]! + ang[g + 1]! * dv[o + 4]! + ang[g + 2]! * dv[o + 5]!;
    w += s === 0 ? -v : v;
  }
  return w;
}

/** dv += ± M⁻¹H_iᵀ (d₀, d₁, d₂) on both sides of contact i */
export function addPointImpulse(ld: LocalDynamics, i: number, dv: Float64Array, d0: number, d1: number, d2: number): void {
  const sc = ld.sideComp, res = ld.sideResponse;
  for (let s = 0; s < 2; s++) {
    const c = sc[2 * i + s]!;
    if (c < 0) continue;
    const g = 36 * i + 18 * s, sg = s === 0 ? -1 : 1, o = 6 * c;
    for (let k = 0; k < 6; k++) dv[o + k] = dv[o + k]! + sg * (res[g + k]! * d0 + res[g + 6 + k]! * d1 + res[g + 12 + k]! * d2);
  }
}

function dot6(a: Float64Array, i: number, b: Float64Array, j: number): number {
  return a[i]! * b[j]! + a[i + 1]! * b[j + 1]! + a[i + 2]! * b[j + 2]! + a[i + 3]! * b[j + 3]! + a[i + 4]! * b[j + 4]!
    + a[i + 5]! * b[j + 5]!;
}

/** A[o …] ← its lower Cholesky factor (n × n, row stride 4, in place); false when not positive definite */
function cholesky(A: Float64Array, o: number, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let d = A[o + 5 * j]!;
    for (let k = 0; k < j; k++) d -= A[o + 4 * j + k]! * A[o + 4 * j + k]!;
    if (!(d > 0)) return false;
    const l = Math.sqrt(d);
    A[o + 5 * j] = l;
    for (let i = j + 1; i < n; i++) {
      let x = A[o + 4 * i + j]!;
      for (let k = 0; k < j; k++) x -= A[o + 4 * i + k]! * A[o + 4 * j + k]!;
      A[o + 4 * i + j] = x / l;
    }
  }
  return true;
}

/** b ← A⁻¹b for the n × n (row stride 4) positive definite A by Cholesky (A destroyed); false when not positive definite */
function choleskySolve(A: Float64Array, b: Float64Array, n: number): boolean {
  if (!cholesky(A, 0, n)) return false;
  for (let i = 0; i < n; i++) { let x = b[i]!; for (let k = 0; k < i; k++) x -= A[4 * i + k]! * b[k]!; b[i] = x / A[5 * i]!; }
  for (let i = n - 1; i >= 0; i--) { let x = b[i]!; for (let k = i + 1; k < n; k++) x -= A[4 * k + i]! * b[k]!; b[i] = x / A[5 * i]!; }
  return true;
}

/** out[o …] ← the inverse of the 3 × 3 row-major W (zeros when singular) */
function invert3(out: Float64Array, o: number, W: Float64Array): void {
  const a = W[0]!, b = W[1]!, c = W[2]!, d = W[3]!, e = W[4]!, f = W[5]!, g = W[6]!, h = W[7]!, i = W[8]!;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g, det = a * A + b * B + c * C;
  const scale = Math.max(Math.abs(a), Math.abs(e), Math.abs(i));
  if (!(Math.abs(det) > 1e-14 * scale * scale * scale)) { out.fill(0, o, o + 9); return; }
  const r = 1 / det;
  out[o] = A * r; out[o + 1] = -(b * i - c * h) * r; out[o + 2] = (b * f - c * e) * r;
  out[o + 3] = B * r; out[o + 4] = (a * i - c * g) * r; out[o + 5] = -(a * f - c * d) * r;
  out[o + 6] = C * r; out[o + 7] = -(a * h - b * g) * r; out[o + 8] = (a * e - b * d) * r;
}
