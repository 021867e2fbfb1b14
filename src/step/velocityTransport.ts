/**
 * The velocities a position correction carries along (stage 9, stabilize: integrators/
 * stabilize.ts; theory.md §8).
 *
 * The position projection turns bodies by small rotations δR. Keeping a body's world angular
 * velocity ω through that turn changes it in the body's axes: its kinetic energy ½ωᵀ(δR J δRᵀ)ω
 * is no longer ½ωᵀJω, and a thin body (moments I_s ≪ I_t) whose long axis turns by θ gains about
 * θ·|ω_t| of spin about that axis, which a joint on the axis neither sees nor removes (it grew to
 * hundreds of rad/s on a 300-link chain at h = 1/60). The correction carries the velocity with the
 * body instead, as a rigid motion of its frame: ω ← δR ω, and the centre of mass keeps its world
 * velocity, v ← v + ω × c − δR (ω × c) (v the frame origin's velocity, c = R₀ c_B the offset of the
 * centre of mass before the turn). The kinetic energy and the angular velocity in body axes are
 * kept exactly.
 */
import type { Model } from '../model/model.js';
import { loadQuat, quatConj, quatMul, quatRotate } from '../math/quat.js';
import { cross3 } from '../math/vec3.js';

export class VelocityTransport {
  /** (bodies) offset of each dynamic body's quaternion in q and of its angular velocity in u */
  private readonly qRot: Int32Array;
  private readonly uRot: Int32Array;
  /** (3 · bodies) each body's centre of mass in its own axes (zero: the origin) */
  private readonly com: Float64Array;
  // scratch: the orientations before and after and the turn δ, ω, c = R₀ c_B, ω × c and its turn
  private readonly e0 = new Float64Array(4);
  private readonly e = new Float64Array(4);
  private readonly d = new Float64Array(4);
  private readonly w = new Float64Array(3);
  private readonly c = new Float64Array(3);
  private readonly p = new Float64Array(3);
  private readonly r = new Float64Array(3);

  constructor(model: Model) {
    const bodies = model.components.filter((c) => c.kind === 'body' && c.dynamic);
    this.qRot = Int32Array.from(bodies, (c) => c.qOffset + 3);
    this.uRot = Int32Array.from(bodies, (c) => c.uOffset + 3);
    this.com = Float64Array.from(bodies.flatMap((c) => (c.kind === 'body' ? Array.from(c.com) : [])));
  }

  /**
   * u ← the velocities carried from the positions q0 to q (each body turned by δR = R R₀ᵀ);
   * returns the largest turn of a body, in rad
   */
  carry(q0: Float64Array, q: Float64Array, u: Float64Array): number {
    const { qRot, uRot, com, e0, e, d, w, c, p, r } = this;
    let largest = 0;
    for (let k = 0; k < qRot.length; k++) {
      const a = qRot[k]!, b = uRot[k]!;
      // the turn δ = e ⋆ e₀⁻¹
      loadQuat(e0, q0, a);
      quatMul(d, loadQuat(e, q, a), quatConj(d, e0));
      const s = Math.sqrt(d[1]! * d[1]! + d[2]! * d[2]! + d[3]! * d[3]!);
      if (s === 0) continue;
      largest = Math.max(largest, 2 * Math.atan2(s, Math.abs(d[0]!)));
      // ω × c with c = R₀ c_B (none for a body whose origin is its centre of mass)
      w[0] = u[b]!; w[1] = u[b + 1]!; w[2] = u[b + 2]!;
      c[0] = com[3 * k]!; c[1] = com[3 * k + 1]!; c[2] = com[3 * k + 2]!;
      const offset = c[0] !== 0 || c[1] !== 0 || c[2] !== 0;
      if (offset) cross3(p, w, quatRotate(c, e0, c));
      // ω ← δR ω
      quatRotate(r, d, w);
      u[b] = r[0]!; u[b + 1] = r[1]!; u[b + 2] = r[2]!;
      // v ← v + (ω × c) − δR (ω × c)
      if (offset) {
        quatRotate(r, d, p);
        for (let i = 0; i < 3; i++) u[b - 3 + i] = u[b - 3 + i]! + p[i]! - r[i]!;
      }
    }
    return largest;
  }
}
