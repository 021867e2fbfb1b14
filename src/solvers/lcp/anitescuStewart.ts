/**
 * The Anitescu–Stewart LCP of polyhedral (pyramidal) friction, 000 §0.10 with the signs of the
 * errata (A.1: the contact impulses act as +Nᵀθ, +Dᵀβ), solved by Lemke's method (theory.md §14).
 *
 * Derivation in brief. With the step matrix A (M̂, after any bilateral rows are eliminated), the
 * velocity after the step is u⁺ = A⁻¹(p + Nᵀθ + Dᵀβ), so the contact velocities are
 *   [N; D] u⁺ = W [θ; β] + b,   W = [N; D] A⁻¹ [N; D]ᵀ,   b = [N; D] A⁻¹ p  (free velocities).
 * Each contact c has a normal row and k direction rows d_cj (unit tangents spanning the plane
 * symmetrically, `polyhedralDirections`); E groups the k rows of each contact (E_(cj),c = 1). The
 * LCP in (θ, β, ξ) ≥ 0 is
 *   w_n = W_nn θ + W_nd β + b_n          ⊥ θ   (no penetration velocity)
 *   w_d = W_dn θ + W_dd β + E ξ + b_d    ⊥ β   (d_cj·v + ξ_c ≥ 0: ξ_c ≥ max_j(−d_cj·v))
 *   w_ξ = μ θ − Eᵀ β                     ⊥ ξ   (Σ_j β_cj ≤ μ_c θ_c: the friction cone)
 * A sliding contact (ξ_c > 0) is on the cone and pushes only along the directions most opposed to
 * its velocity, with ξ_c = max_j(−d_cj·v) its speed along them: maximal dissipation over the
 * polyhedral cone. A sticking contact has ξ_c = 0 and v_t = 0 within the polyhedral
 * approximation. For W positive semidefinite this LCP is copositive-plus, so Lemke's method ends
 * at a solution (Anitescu & Potra 1997).
 *
 * Layout: rows of W and b are [N (nc rows, contact order); D (nc·k rows, contact-major: row
 * nc + c·k + j is direction j of contact c)]. The assembled LCP has n = nc·(k + 2) unknowns
 * [θ; β; ξ]. Buffers are preallocated and grow with the largest problem seen.
 */
import { ModelError } from '../../model/errors.js';
import { Lemke, type LemkeOptions } from './lemke.js';
import { DenseLcpMatrix, type LcpMatrix, type LcpReport } from './types.js';

/** the data of one Anitescu–Stewart problem */
export interface FrictionLcpProblem {
  /** number of contacts */
  nc: number;
  /** friction directions per contact (≥ 3 for a cone that encloses the origin of the plane) */
  k: number;
  /** W = [N; D] A⁻¹ [N; D]ᵀ over the nc·(1 + k) rows [N; D] */
  W: LcpMatrix;
  /** free velocities b = [b_n; b_d] (nc·(1 + k)) */
  b: Float64Array;
  /** friction coefficient per contact (nc, each ≥ 0) */
  mu: Float64Array;
}

/** where a solve writes its result (arrays of at least the sizes given) */
export interface FrictionLcpResult {
  /** normal impulse per contact (nc) */
  theta: Float64Array;
  /** friction impulse per direction (nc·k, contact-major) */
  beta: Float64Array;
  /** sliding-speed estimate per contact, max_j(−d_cj·v⁺) when sliding, 0 when sticking (nc) */
  xi: Float64Array;
}

/**
 * Assembles and solves the Anitescu–Stewart LCP by Lemke's method. One instance serves many
 * solves; its buffers grow to the largest problem seen.
 */
export class AnitescuStewart {
  private readonly lemke: Lemke;
  private readonly mat = new DenseLcpMatrix(0, new Float64Array(0));
  private q = new Float64Array(0);
  private z = new Float64Array(0);
  private col = new Float64Array(0);

  /** @param capacity number of LCP unknowns nc·(k + 2) to allocate for */
  constructor(capacity = 0) {
    this.lemke = new Lemke(capacity);
    this.reserve(capacity);
  }

  /** makes room for an LCP of n = nc·(k + 2) unknowns */
  reserve(n: number): void {
    if (n <= this.q.length) return;
    const cap = Math.max(n, 2 * this.q.length);
    this.mat.a = new Float64Array(cap * cap);
    this.q = new Float64Array(cap); this.z = new Float64Array(cap); this.col = new Float64Array(cap);
    this.lemke.reserve(cap);
  }

  /**
   * Solves the friction LCP of `p` and writes θ, β and ξ into `out`. The report is Lemke's, on
   * the assembled LCP (its residual covers the cone and dissipation rows too).
   */
  solve(p: FrictionLcpProblem, out: FrictionLcpResult, opts?: LemkeOptions): LcpReport {
    checkProblem(p, out);
    const { nc, k } = p;
    const n = nc * (k + 2);
    this.reserve(n);
    this.assemble(p);
    const report = this.lemke.solve(this.mat, this.q, this.z, opts);
    // unpack z = [θ; β; ξ]
    const z = this.z, nd = nc * k;
    for (let c = 0; c < nc; c++) { out.theta[c] = z[c]; out.xi[c] = z[nc + nd + c]; }
    for (let r = 0; r < nd; r++) out.beta[r] = z[nc + r];
    return report;
  }

  /** fills the dense LCP matrix [[W, [0; E]], [μ, −Eᵀ, 0]] and q = [b; 0] */
  private assemble(p: FrictionLcpProblem): void {
    const { nc, k, W, b, mu } = p;
    const m = nc * (k + 1), n = m + nc, a = this.mat.a, col = this.col, q = this.q;
    this.mat.n = n;
    a.fill(0, 0, n * n);
    // W in the top-left block, column by column
    for (let j = 0; j < m; j++) {
      W.column(j, col);
      for (let i = 0; i < m; i++) a[i * n + j] = col[i];
    }
    for (let c = 0; c < nc; c++) {
      const xiCol = m + c, xiRow = (m + c) * n;
      // E: each direction row of contact c sees ξ_c
      for (let j = 0; j < k; j++) a[(nc + c * k + j) * n + xiCol] = 1;
      // the cone row: μ_c θ_c − Σ_j β_cj
      a[xiRow + c] = mu[c];
      for (let j = 0; j < k; j++) a[xiRow + nc + c * k + j] = -1;
    }
    for (let i = 0; i < m; i++) q[i] = b[i];
    for (let i = m; i < n; i++) q[i] = 0;
  }
}

/** throws a ModelError naming the first inconsistent input */
function checkProblem(p: FrictionLcpProblem, out: FrictionLcpResult): void {
  const { nc, k, W, b, mu } = p;
  const where = 'AnitescuStewart.solve';
  if (!Number.isInteger(nc) || nc < 0) {
    throw new ModelError(`${where}(nc)`, `must be an integer ≥ 0, got ${nc}`);
  }
  if (!Number.isInteger(k) || k < 1) {
    throw new ModelError(`${where}(k)`, `must be an integer ≥ 1, got ${k}`);
  }
  const m = nc * (k + 1);
  if (W.n !== m) throw new ModelError(`${where}(W)`, `is ${W.n} × ${W.n}, expected nc·(1 + k) = ${m}`);
  if (b.length < m) throw new ModelError(`${where}(b)`, `has ${b.length} entries, expected ${m}`);
  if (mu.length < nc) throw new ModelError(`${where}(mu)`, `has ${mu.length} entries, expected ${nc}`);
  for (let c = 0; c < nc; c++) {
    if (!(mu[c] >= 0)) throw new ModelError(`${where}(mu[${c}])`, `must be ≥ 0, got ${mu[c]}`);
  }
  if (out.theta.length < nc || out.xi.length < nc || out.beta.length < nc * k) {
    throw new ModelError(`${where}(out)`, `needs theta and xi of ${nc} and beta of ${nc * k} entries`);
  }
}

/**
 * out[3j … 3j+2] ← d_j = cos(2πj/k) t₁ + sin(2πj/k) t₂ for j = 0 … k−1: k unit directions
 * evenly spread over the tangent plane of the orthonormal t₁, t₂ (the polyhedral cone's edges).
 */
export function polyhedralDirections(
  out: Float64Array, t1: ArrayLike<number>, t2: ArrayLike<number>, k: number,
): Float64Array {
  for (let j = 0; j < k; j++) {
    const a = (2 * Math.PI * j) / k, c = Math.cos(a), s = Math.sin(a);
    out[3 * j] = c * t1[0] + s * t2[0];
    out[3 * j + 1] = c * t1[1] + s * t2[1];
    out[3 * j + 2] = c * t1[2] + s * t2[2];
  }
  return out;
}
