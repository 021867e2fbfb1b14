/**
 * Per-component linear damping. A particle gets f = −d v. A body gets the force −d_t v_com at
 * its centre of mass, v_com = v + ω × c_W (so the damping does not depend on where the frame
 * origin is), plus the torque −d_r ω. Exact Jacobians through pointMap.ts:
 *   D = −d_t J_cᵀ J_c − d_r [[0,0],[0,I]],   K = J_cᵀ(−d_t Ẋ_c) + [[0,0],[0,[F][c_W]]].
 */
import type { ForceEffector, ForceContext } from './force.js';
import type { Component } from '../model/model.js';
import type { BlockPattern, BlockMatrix } from '../assembly/blockSparse.js';
import { type PointRef, POINT_PARTICLE, POINT_BODY } from '../model/points.js';
import { identity3 } from '../math/mat3.js';

/** one workspace's scratch of ComponentDamping: diagonal slots and one damped point's vectors */
export class DampingScratch {
  /** (nComponents) diagonal slot of each dynamic component, −1 otherwise (`setup`) */
  slots: Int32Array = new Int32Array(0);
  readonly B = new Float64Array(9);
  readonly r = new Float64Array(3);
  readonly v = new Float64Array(3);
  readonly F = new Float64Array(3);
  readonly w = new Float64Array(3);
}

export class ComponentDamping implements ForceEffector<DampingScratch> {
  readonly name = 'damping';
  private readonly points: PointRef[];

  /** dLin[i], dAng[i]: linear and angular damping of component i */
  constructor(private readonly comps: readonly Component[], private readonly dLin: Float64Array, private readonly dAng: Float64Array) {
    // one point per component: the particle itself, or the body's centre of mass
    this.points = comps.map((c) => ({
      kind: c.kind === 'particle' ? POINT_PARTICLE : POINT_BODY, name: c.name, component: c.index,
      qOffset: c.qOffset, uOffset: c.uOffset, block: c.block,
      local: c.kind === 'body' ? c.com : new Float64Array(3),
    }));
  }

  createScratch(): DampingScratch { return new DampingScratch(); }

  setup(pattern: BlockPattern, st: DampingScratch): void {
    st.slots = Int32Array.from(this.comps.map((c) => (c.block >= 0 ? pattern.couple(c.block, c.block) : -1)));
  }

  /** F = −d_t (velocity of the damped point); returns false if the component is undamped */
  private pointForce(ctx: ForceContext, i: number, st: DampingScratch): boolean {
    const p = this.points[i]!;
    ctx.kin.leverArm(st.r, p);
    ctx.kin.velocity(st.v, p, ctx.u, st.r);
    const d = this.dLin[i]!;
    st.F[0] = -d * st.v[0]!; st.F[1] = -d * st.v[1]!; st.F[2] = -d * st.v[2]!;
    return d !== 0 || this.dAng[i]! !== 0;
  }

  addForces(ctx: ForceContext, f: Float64Array, st: DampingScratch): void {
    for (let i = 0; i < this.comps.length; i++) {
      if (!this.pointForce(ctx, i, st)) continue;
      const c = this.comps[i]!;
      ctx.pm.addForce(f, this.points[i]!, st.F, st.r);
      if (c.kind === 'body') {
        const o = c.uOffset + 3, d = this.dAng[i]!;
        f[o] = f[o]! - d * ctx.u[o]!; f[o + 1] = f[o + 1]! - d * ctx.u[o + 1]!; f[o + 2] = f[o + 2]! - d * ctx.u[o + 2]!;
      }
    }
  }

  addJacobians(ctx: ForceContext, K: BlockMatrix, D: BlockMatrix, st: DampingScratch): void {
    for (let i = 0; i < this.comps.length; i++) {
      const s = st.slots[i]!;
      if (s < 0 || !this.pointForce(ctx, i, st)) continue;
      const p = this.points[i]!, c = this.comps[i]!;
      identity3(st.B, -this.dLin[i]!);
      if (c.kind === 'body') { const o = c.uOffset + 3; st.w[0] = ctx.u[o]!; st.w[1] = ctx.u[o + 1]!; st.w[2] = ctx.u[o + 2]!; }
      ctx.pm.addPair(K, D, s, p, st.r, p, st.r, st.w, null, st.B);
      ctx.pm.addLeverArm(K, s, p, st.F, st.r);
      if (c.kind === 'body') D.addDiag3(s, 3, 3, this.dAng, i, -1);
    }
  }

  potentialEnergy(): number { return 0; }
}
