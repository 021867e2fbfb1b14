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
  /** a lever's force f (0..2) and arm r (3..5) for leverCurvature */
  readonly fr = new Float64Array(6);
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
 * f·(exp([β]) r) = f·r + f·(β × r) + ½ f·(β × (β × r)) + O(β³), whose Hessian in β is
 * sym(r fᵀ) − (f·r) I. Turns about r itself move nothing, at any order; the Hessian's entries
 * that couple them to the other turns come from the exponential coordinates (the first-order
 * term f·(β × r) is not zero), not from the lever. The metric keeps the Hessian on the turns
 * normal to r, where it is −(f·r)(I − r̂r̂ᵀ), and only where that is positive (f·r < 0, as on
 * the links of a chain under tension):
 *
 *   C = −(f·r)(I − r̂r̂ᵀ)  for f·r < 0,  0 otherwise.
 *
 * A term on r̂ would be wrong in the velocity projection, which shares the metric: it coupled
 * the free spin of a thin link about its lever (its smallest moment) to the turns the joint
 * sees, and drove that spin up to tear a 300-link chain (docs/constraints.md). P ← C for
 * f = fr[0..3) and r = fr[3..6) (an array: doubles passed to a call that V8 does not inline are
 * boxed, 16 B each); returns false when C is zero.
 */
export function leverCurvature(P: Float64Array, fr: Float64Array): boolean {
  const fx = fr[0]!, fy = fr[1]!, fz = fr[2]!, rx = fr[3]!, ry = fr[4]!, rz = fr[5]!;
  const a = fx * rx + fy * ry + fz * rz, rr = rx * rx + ry * ry + rz * rz;
  if (!(a < 0)) return false;
  // −a (I − r rᵀ / |r|²)
  const s = -a / rr;
  P[0] = -a - s * rx * rx; P[4] = -a - s * ry * ry; P[8] = -a - s * rz * rz;
  P[1] = P[3] = -s * rx * ry;
  P[2] = P[6] = -s * rx * rz;
  P[5] = P[7] = -s * ry * rz;
  return true;
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
 * out[9·blk … 9·blk+9) += the lever curvature C of the force sgn·f (fsr[0..3))
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
  if (!leverCurvature(t.P, fr)) return;
  const s = b > cap ? cap / b : 1, P = t.P;
  for (let k = 0; k < 9; k++) out[o + k] = out[o + k]! + s * P[k]!;
}
