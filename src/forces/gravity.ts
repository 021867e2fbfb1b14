/**
 * Uniform gravity g. A particle gets f = m g. A body gets the force m g at its centre of mass:
 * (m g, c_W × m g) about its origin, with c_W = R_WB c_B; the torque turns with the body, so
 * K_θθ = [m g][c_W] (the lever-arm term of pointMap.ts), which is not symmetric (theory.md §13).
 * Potential energy: −m g·x_com.
 */
import type { ForceEffector, ForceContext } from './force.js';
import type { Component } from '../model/model.js';
import type { BlockPattern, BlockMatrix } from '../assembly/blockSparse.js';
import { skew, mul3 } from '../math/mat3.js';
import { ComponentTable } from './componentTable.js';

/** one workspace's scratch of Gravity: the bodies' diagonal slots and the Jacobian's 3×3 blocks */
export class GravityScratch {
  /** (nComponents) diagonal slot of each dynamic body, −1 otherwise (`setup`) */
  slots: Int32Array = new Int32Array(0);
  readonly C = new Float64Array(9);
  readonly T = new Float64Array(9);
  readonly c3 = new Float64Array(3);
}

export class Gravity implements ForceEffector<GravityScratch> {
  readonly name = 'gravity';
  private readonly g: Float64Array;
  /** [g], a constant of the model */
  private readonly F = new Float64Array(9);
  private readonly table: ComponentTable;

  constructor(private readonly comps: readonly Component[], g: [number, number, number]) {
    this.g = Float64Array.from(g);
    skew(this.F, this.g);
    this.table = new ComponentTable(comps);
  }

  createScratch(): GravityScratch { return new GravityScratch(); }

  setup(pattern: BlockPattern, st: GravityScratch): void {
    st.slots = Int32Array.from(this.comps.map((c) => (c.kind === 'body' && c.block >= 0 ? pattern.couple(c.block, c.block) : -1)));
  }

  addForces(ctx: ForceContext, f: Float64Array): void {
    const g = this.g, cW = ctx.kin.cW, T = this.table;
    for (let k = 0; k < T.count; k++) {
      const o = T.uOffset[k]!, m = T.mass[k]!;
      const fx = m * g[0]!, fy = m * g[1]!, fz = m * g[2]!;
      f[o] = f[o]! + fx; f[o + 1] = f[o + 1]! + fy; f[o + 2] = f[o + 2]! + fz;
      if (T.body[k] === 1) {
        const i = 3 * T.index[k]!, cx = cW[i]!, cy = cW[i + 1]!, cz = cW[i + 2]!;
        f[o + 3] = f[o + 3]! + cy * fz - cz * fy;
        f[o + 4] = f[o + 4]! + cz * fx - cx * fz;
        f[o + 5] = f[o + 5]! + cx * fy - cy * fx;
      }
    }
  }

  addJacobians(ctx: ForceContext, K: BlockMatrix, _D: BlockMatrix, st: GravityScratch): void {
    // K_θθ = [m g][c_W] for each body ([g] is F, from the constructor)
    const T = this.table;
    for (let k = 0; k < T.count; k++) {
      const i = T.index[k]!, s = st.slots[i]!;
      if (s < 0) continue;
      const cW = ctx.kin.cW, o = 3 * i;
      // the origin at the centre of mass: the torque about it is zero, and so is its derivative
      if (ctx.kin.centred(i)) continue;
      st.c3[0] = cW[o]!; st.c3[1] = cW[o + 1]!; st.c3[2] = cW[o + 2]!;
      skew(st.C, st.c3);
      mul3(st.T, this.F, st.C);
      // scaled here, not by add3: a non-integer argument of a call V8 does not inline is boxed
      const m = T.mass[k]!;
      for (let r = 0; r < 9; r++) st.T[r] = m * st.T[r]!;
      K.add3(s, 3, 3, st.T, 1);
    }
  }

  potentialEnergy(ctx: ForceContext): number {
    const g = this.g, q = ctx.q, cW = ctx.kin.cW;
    let V = 0;
    for (let i = 0; i < this.comps.length; i++) {
      const c = this.comps[i]!;
      const o = c.qOffset;
      let x = q[o]!, y = q[o + 1]!, z = q[o + 2]!;
      if (c.kind === 'body') { x += cW[3 * c.index]!; y += cW[3 * c.index + 1]!; z += cW[3 * c.index + 2]!; }
      V -= c.mass * (g[0]! * x + g[1]! * y + g[2]! * z);
    }
    return V;
  }
}
