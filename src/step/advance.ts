/**
 * Stage 8, advance: q ← q ⊕ h u, translations by h v and rotations by the exponential map
 * exp(h ω/2) ⋆ q (theory.md §3; never "add and normalise"), and the same map for a displacement
 * δ of the dynamic components (the projection's position steps).
 */
import { quatIntegrateWorld } from '../math/quat.js';
import type { ComponentTable } from '../forces/componentTable.js';

export class Advance {
  private readonly qtmp = new Float64Array(4);

  /**
   * @param comps every component (advance moves non-dynamic ones with their own, constant, velocity)
   * @param blockQ (blocks) each solve block's offset in q; blockBody 1 where it is a body;
   *   blockStart each block's first entry in the solve layout
   */
  constructor(private readonly comps: ComponentTable, private readonly blockQ: Int32Array,
    private readonly blockBody: Uint8Array, private readonly blockStart: Int32Array) {}

  /** q ← q ⊕ h u for every component */
  advance(q: Float64Array, u: Float64Array, h: number): void {
    const { qOffset: Q, uOffset: U, body } = this.comps;
    for (let i = 0; i < Q.length; i++) {
      const qo = Q[i]!, uo = U[i]!;
      q[qo] = q[qo]! + h * u[uo]!; q[qo + 1] = q[qo + 1]! + h * u[uo + 1]!; q[qo + 2] = q[qo + 2]! + h * u[uo + 2]!;
      if (body[i] === 1) quatIntegrateWorld(q, qo + 3, u[uo + 3]!, u[uo + 4]!, u[uo + 5]!, h, this.qtmp);
    }
  }

  /** q ← q ⊕ δ for a solve-layout displacement δ of the dynamic components (translations, world rotation vectors) */
  displace(q: Float64Array, d: Float64Array): void {
    const Q = this.blockQ, start = this.blockStart;
    for (let b = 0; b < Q.length; b++) {
      const o = Q[b]!, s = start[b]!;
      q[o] = q[o]! + d[s]!; q[o + 1] = q[o + 1]! + d[s + 1]!; q[o + 2] = q[o + 2]! + d[s + 2]!;
      if (this.blockBody[b] === 1) quatIntegrateWorld(q, o + 3, d[s + 3]!, d[s + 4]!, d[s + 5]!, 1, this.qtmp);
    }
  }
}
