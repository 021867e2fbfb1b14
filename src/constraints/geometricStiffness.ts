/**
 * The geometric stiffness of a joint's translational rows (theory.md §12: K_g = ∂(Gᵀλ)/∂q at fixed
 * λ), added to K by the implicit integrators when `geometricStiffness` is on.
 *
 * The rows g_k = c_kᵀ d (c_k = R_WC e_k, d = x_D − x_C) at fixed multipliers λ_k have the
 * potential Φ = Σ λ_k g_k = fᵀ d with the world force f = Σ λ_k c_k, which turns with body A.
 * Since (R f)·(R r_C) does not change when A turns, Φ = f·(x_D − x_A) − f·r_C up to a constant,
 * and the generalized force Gᵀλ = ∂Φ/∂(a, α, b, β) (displacements a, b and world rotation
 * vectors α, β of A and B, as in every Jacobian of the step) is
 *
 *   F_A = −f,   τ_A = f × s   (s = x_D − x_A = r_C + d),
 *   F_B =  f,   τ_B = r_D × f,
 *
 * with ∂f/∂α = −[f], ∂s/∂a = −I, ∂s/∂b = I, ∂s/∂β = −[r_D], ∂r_D/∂β = −[r_D]:
 *
 *   ∂F_A/∂α = [f]                 ∂F_B/∂α = −[f]
 *   ∂τ_A/∂a = −[f]   ∂τ_A/∂α = [s][f]   ∂τ_A/∂b = [f]   ∂τ_A/∂β = −[f][r_D]
 *   ∂τ_B/∂α = −[r_D][f]           ∂τ_B/∂β = [f][r_D]
 *
 * (every other block zero). The off-diagonal pairs are transposes of each other; the two
 * rotational diagonal blocks carry the skew parts ½[s × f] and ½[f × r_D], i.e. −½[τ] of their
 * body, as every moment of a turning force does. Checked against finite differences of Gᵀλ.
 * The lock and universal rows' curvature is not included (docs/constraints.md).
 */
import type { BlockMatrix } from '../assembly/blockSparse.js';
import { skew, mul3 } from '../math/mat3.js';

/** scratch of addTranslationalStiffness ([f], [s] or [r_D], and a product) and addLeverCurvature (P) */
export class StiffnessScratch {
  /** f, s and r_D of one joint's translational rows (stiffnessVectors, jointRows.ts) */
  readonly fsr = new Float64Array(9);
  readonly Sf = new Float64Array(9);
  readonly Sv = new Float64Array(9);
  readonly P = new Float64Array(9);
  readonly v = new Float64Array(3);
  /** a lever's force f (0..2) and arm r (3..5) for leverCurvature, which uses 6..9 as its own scratch */
  readonly fr = new Float64Array(10);
}

/**
 * K += the blocks above. `fsr` holds f, s and r_D (9 numbers from o); slots are the pattern
 * slots of (A, A), (A, B), (B, A), (B, B), −1 where a side is the world or not dynamic.
 */
export function addTranslationalStiffness(K: BlockMatrix, fsr: Float64Array, o: number,
  sAA: number, sAB: number, sBA: number, sBB: number, t: StiffnessScratch): void {
  const { Sf, Sv, P, v } = t;
  v[0] = fsr[o]!; v[1] = fsr[o + 1]!; v[2] = fsr[o + 2]!;
  skew(Sf, v);
  // side A: ∂F_A/∂α = [f], ∂τ_A/∂a = −[f], ∂τ_A/∂α = [s][f]
  if (sAA >= 0) {
    K.add3(sAA, 0, 3, Sf, 1);
    K.add3(sAA, 3, 0, Sf, -1);
    v[0] = fsr[o + 3]!; v[1] = fsr[o + 4]!; v[2] = fsr[o + 5]!;
    K.add3(sAA, 3, 3, mul3(P, skew(Sv, v), Sf), 1);
  }
  // the couplings through the shared force: ∂τ_A/∂b = [f], ∂F_B/∂α = −[f]
  if (sAB >= 0) K.add3(sAB, 3, 0, Sf, 1);
  if (sBA >= 0) K.add3(sBA, 0, 3, Sf, -1);
  // the lever arm r_D: ∂τ_A/∂β = −[f][r_D], ∂τ_B/∂α = −[r_D][f], ∂τ_B/∂β = [f][r_D]
  v[0] = fsr[o + 6]!; v[1] = fsr[o + 7]!; v[2] = fsr[o + 8]!;
  skew(Sv, v);
  if (sAB >= 0) K.add3(sAB, 3, 3, mul3(P, Sf, Sv), -1);
  if (sBA >= 0) K.add3(sBA, 3, 3, mul3(P, Sv, Sf), -1);
  if (sBB >= 0) K.add3(sBB, 3, 3, mul3(P, Sf, Sv), 1);
}

/**
 * The curvature of a lever (the position projection's Newton step, step/stabilize.ts): a
 * fixed world force f at the point x + r of a body turned by the world rotation vector β has
 * f·(exp([β]) r) = f·r + f·(β × r) + ½ f·(β × (β × r)) + O(β³), so its Hessian in β is
 *
 *   H = sym(r fᵀ) − (f·r) I,
 *
 * with eigenvalues ½(b − a) ≥ 0 on r̂ + f̂, −½(a + b) ≤ 0 on r̂ − f̂ and −a on r̂ × f̂ (a = f·r,
 * b = |f||r|), for f = fr[0..3) and r = fr[3..6) (an array: doubles passed to a call that V8
 * does not inline are boxed, 16 B each; fr[6..10) is overwritten as scratch). P ← H, or with `positive` its positive semidefinite part
 * (the negative eigenvalues removed); returns false when there is nothing (f or r zero, or H ≤ 0).
 */
export function leverCurvature(P: Float64Array, fr: Float64Array, positive: boolean): boolean {
  const fx = fr[0]!, fy = fr[1]!, fz = fr[2]!, rx = fr[3]!, ry = fr[4]!, rz = fr[5]!;
  const fn = Math.sqrt(fx * fx + fy * fy + fz * fz), rn = Math.sqrt(rx * rx + ry * ry + rz * rz);
  if (fn === 0 || rn === 0) return false;
  const a = fx * rx + fy * ry + fz * rz, b = fn * rn;
  // H
  P[0] = rx * fx - a; P[4] = ry * fy - a; P[8] = rz * fz - a;
  P[1] = P[3] = 0.5 * (rx * fy + fx * ry);
  P[2] = P[6] = 0.5 * (rx * fz + fx * rz);
  P[5] = P[7] = 0.5 * (ry * fz + fy * rz);
  if (!positive) return true;
  const ux = fx / fn, uy = fy / fn, uz = fz / fn, vx = rx / rn, vy = ry / rn, vz = rz / rn;
  // minus the negative eigenvalue on r̂ − f̂; within 1e-3 rad of r̂ = f̂, where the difference
  // loses digits (error b·ε/|r̂ − f̂|), H⁺ (≤ b·θ²/4) is taken as zero
  const ex = vx - ux, ey = vy - uy, ez = vz - uz, ee = ex * ex + ey * ey + ez * ez;
  if (ee < 1e-6) return false;
  fr[6] = ex; fr[7] = ey; fr[8] = ez; fr[9] = (0.5 * (a + b)) / ee;
  addOuter(P, fr);
  // and the one on r̂ × f̂ when a > 0
  if (a > 0) {
    const nx = vy * uz - vz * uy, ny = vz * ux - vx * uz, nz = vx * uy - vy * ux, nn = nx * nx + ny * ny + nz * nz;
    if (nn > 1e-6) { fr[6] = nx; fr[7] = ny; fr[8] = nz; fr[9] = a / nn; addOuter(P, fr); }
  }
  return true;
}

/** P += s v vᵀ (3×3) for v = w[6..9), s = w[9] (read from the array: no boxed doubles) */
function addOuter(P: Float64Array, w: Float64Array): void {
  const x = w[6]!, y = w[7]!, z = w[8]!, s = w[9]!;
  P[0] = P[0]! + s * x * x; P[4] = P[4]! + s * y * y; P[8] = P[8]! + s * z * z;
  const xy = s * x * y, xz = s * x * z, yz = s * y * z;
  P[1] = P[1]! + xy; P[3] = P[3]! + xy; P[2] = P[2]! + xz; P[6] = P[6]! + xz; P[5] = P[5]! + yz; P[7] = P[7]! + yz;
}

/**
 * each joint's curvature added to a body's rotational block is scaled down to |f||r| ≤ this
 * multiple of the trace of the body's rotational inertia block (without any curvature). Without
 * a cap the 100-link chain at h = 1/30 diverges from perturbed starts (the multipliers of a
 * projection far from the manifold are large and wrong). Measured with this reference (whole
 * 1000-step runs of the 1000-link chain, implicit Euler / trapezoidal; three 1200-step starts of
 * the 100-link chain at h = 1/30): cap 1 2.69 / 3.48 factorizations per step, one start at 3.3 m;
 * cap 2 2.33 / 2.69, one start (of three) thrown to 3.5e3 m; cap 4 2.23 / 2.71, two starts
 * thrown off.
 */
export const CURVATURE_CAP = 2;

/**
 * out[9·blk … 9·blk+9) += the positive part of the lever curvature of the force sgn·f (fsr[0..3))
 * at the lever r = fsr[r0 .. r0+3), scaled to |f||r| ≤ CURVATURE_CAP·trace, unless |f||r| is
 * below 1e-12 of trace (negligible, and no subnormal numbers reach the factorization); trace =
 * traces[blk] is that of the body's rotational block without any curvature, so the cap does not
 * depend on the order in which the joints add theirs. `out` holds each body's 3×3 (row-major) sum
 * of these terms, which the projection adds to M's rotational blocks in one pass. Only integers
 * are passed (sgn is ±1): this runs for every joint at every full projection factorization.
 */
export function addLeverCurvature(out: Float64Array, blk: number, traces: Float64Array, fsr: Float64Array, sgn: number, r0: number, t: StiffnessScratch): void {
  const fr = t.fr, trace = traces[blk]!, o = 9 * blk;
  fr[0] = sgn * fsr[0]!; fr[1] = sgn * fsr[1]!; fr[2] = sgn * fsr[2]!; fr[3] = fsr[r0]!; fr[4] = fsr[r0 + 1]!; fr[5] = fsr[r0 + 2]!;
  const b = Math.sqrt((fr[0]! * fr[0]! + fr[1]! * fr[1]! + fr[2]! * fr[2]!) * (fr[3]! * fr[3]! + fr[4]! * fr[4]! + fr[5]! * fr[5]!)), cap = CURVATURE_CAP * trace;
  if (b <= 1e-12 * trace) return;
  if (!leverCurvature(t.P, fr, true)) return;
  const s = b > cap ? cap / b : 1, P = t.P;
  for (let k = 0; k < 9; k++) out[o + k] = out[o + k]! + s * P[k]!;
}
