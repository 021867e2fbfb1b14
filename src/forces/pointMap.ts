/**
 * Exact mapping of point forces and point-force Jacobians onto components.
 *
 * A body point at world lever arm r from its body's origin moves with ẋ = v + ω × r = J u,
 * J = [I, −[r]] (theory.md §1), so a force F at the point is the generalized force
 * Jᵀ F = (F, r × F). For a force F_i at point i that depends on the position x_j and velocity
 * ẋ_j of point j, with A = ∂F_i/∂x_j and B = ∂F_i/∂ẋ_j:
 *
 *   D_ij += J_iᵀ B J_j
 *   K_ij += J_iᵀ (A J_j + B Ẋ_j),    Ẋ_j = ∂ẋ_j/∂q_j = [0, −[ω_j][r_j]]  (r_j rotates with the body)
 *   K_ii += [[0, 0], [0, [F_i][r_i]]]                  (the lever arm rotates: δ(r × F) = [F][r] δθ)
 *
 * For particles J = I and Ẋ = 0. These are exact (tested against finite differences).
 */
import { POINT_PARTICLE, POINT_BODY, type PointRef } from '../model/points.js';
import type { BlockMatrix } from '../assembly/blockSparse.js';
import type { Vec3 } from '../math/vec3.js';
import { type Mat3, skew, mul3 } from '../math/mat3.js';

export class PointMap {
  private readonly Ri = new Float64Array(9);
  private readonly Rj = new Float64Array(9);
  private readonly W = new Float64Array(9);
  private readonly T = new Float64Array(9);
  private readonly C2 = new Float64Array(9);   // right 3×3 of A J_j + B Ẋ_j
  private readonly E = new Float64Array(9);    // right 3×3 of B J_j
  private readonly S = new Float64Array(9);

  /** f += Jᵀ F for a force F (world) at point p with lever arm r */
  addForce(f: Float64Array, p: PointRef, F: Vec3, r: Vec3): void {
    if (p.kind === POINT_PARTICLE || p.kind === POINT_BODY) {
      const o = p.uOffset;
      f[o] = f[o]! + F[0]!; f[o + 1] = f[o + 1]! + F[1]!; f[o + 2] = f[o + 2]! + F[2]!;
      if (p.kind === POINT_BODY) {
        f[o + 3] = f[o + 3]! + r[1]! * F[2]! - r[2]! * F[1]!;
        f[o + 4] = f[o + 4]! + r[2]! * F[0]! - r[0]! * F[2]!;
        f[o + 5] = f[o + 5]! + r[0]! * F[1]! - r[1]! * F[0]!;
      }
    }
  }

  /**
   * Adds the pair term for ∂F_i/∂x_j = A and ∂F_i/∂ẋ_j = B (either may be null) at block slot
   * `slot` = (block of i, block of j). ω_j is the angular velocity of j's body (ignored otherwise).
   */
  addPair(K: BlockMatrix, D: BlockMatrix | null, slot: number, pi: PointRef, ri: Vec3, pj: PointRef, rj: Vec3,
    wj: Vec3, A: Mat3 | null, B: Mat3 | null): void {
    if (pi.block < 0 || pj.block < 0) return;
    const bodyI = pi.kind === POINT_BODY, bodyJ = pj.kind === POINT_BODY;
    // right column blocks (θ_j) of A J_j + B Ẋ_j and of B J_j
    if (bodyJ) {
      skew(this.Rj, rj);
      this.C2.fill(0);
      if (A) { mul3(this.T, A, this.Rj); for (let k = 0; k < 9; k++) this.C2[k] = -this.T[k]!; }
      if (B) {
        skew(this.W, wj);
        mul3(this.T, this.W, this.Rj);
        mul3(this.S, B, this.T);
        for (let k = 0; k < 9; k++) this.C2[k] = this.C2[k]! - this.S[k]!;
        mul3(this.E, B, this.Rj);
        for (let k = 0; k < 9; k++) this.E[k] = -this.E[k]!;
      }
    }
    if (bodyI) skew(this.Ri, ri);
    // K: rows x_i
    if (A) K.add3(slot, 0, 0, A, 1);
    if (bodyJ) K.add3(slot, 0, 3, this.C2, 1);
    // K: rows θ_i = [r_i] (rows x_i)
    if (bodyI) {
      if (A) { mul3(this.T, this.Ri, A); K.add3(slot, 3, 0, this.T, 1); }
      if (bodyJ) { mul3(this.T, this.Ri, this.C2); K.add3(slot, 3, 3, this.T, 1); }
    }
    if (!B || !D) return;
    // D: the same with B J_j
    D.add3(slot, 0, 0, B, 1);
    if (bodyJ) D.add3(slot, 0, 3, this.E, 1);
    if (bodyI) {
      mul3(this.T, this.Ri, B); D.add3(slot, 3, 0, this.T, 1);
      if (bodyJ) { mul3(this.T, this.Ri, this.E); D.add3(slot, 3, 3, this.T, 1); }
    }
  }

  /** adds the lever-arm rotation term [F][r] to the θθ block of a body point's own slot */
  addLeverArm(K: BlockMatrix, slotII: number, p: PointRef, F: Vec3, r: Vec3): void {
    if (p.kind !== POINT_BODY || p.block < 0) return;
    skew(this.W, F);
    skew(this.Ri, r);
    mul3(this.T, this.W, this.Ri);
    K.add3(slotII, 3, 3, this.T, 1);
  }
}
