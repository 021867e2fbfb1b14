/**
 * The geometric stiffness of a joint's translational rows (seed 003: K_g = ∂(Gᵀλ)/∂q at fixed
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

/** scratch of addTranslationalStiffness: [f], [s] or [r_D], and a product */
export class StiffnessScratch {
  readonly Sf = new Float64Array(9);
  readonly Sv = new Float64Array(9);
  readonly P = new Float64Array(9);
  readonly v = new Float64Array(3);
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
