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

export class ComponentDamping implements ForceEffector {
  readonly name = 'damping';
  boundSignature = '';
  private readonly points: PointRef[];
  private slots: Int32Array = new Int32Array(0);
  private readonly B = new Float64Array(9);
  private readonly r = new Float64Array(3);
  private readonly v = new Float64Array(3);
  private readonly F = new Float64Array(3);
  private readonly w = new Float64Array(3);

  /** dLin[i], dAng[i]: linear and angular damping of component i */
  constructor(private readonly comps: readonly Component[], private readonly dLin: Float64Array, private readonly dAng: Float64Array) {
    // one point per component: the particle itself, or the body's centre of mass
    this.points = comps.map((c) => ({
      kind: c.kind === 'particle' ? POINT_PARTICLE : POINT_BODY, name: c.name, component: c.index,
      qOffset: c.qOffset, uOffset: c.uOffset, block: c.block,
      local: c.kind === 'body' ? c.com : new Float64Array(3),
    }));
  }

  setup(pattern: BlockPattern): void {
    this.slots = Int32Array.from(this.comps.map((c) => (c.block >= 0 ? pattern.couple(c.block, c.block) : -1)));
  }

  /** F = −d_t (velocity of the damped point); returns false if the component is undamped */
  private pointForce(ctx: ForceContext, i: number): boolean {
    const p = this.points[i]!;
    ctx.kin.leverArm(this.r, p);
    ctx.kin.velocity(this.v, p, ctx.u, this.r);
    const d = this.dLin[i]!;
    this.F[0] = -d * this.v[0]!; this.F[1] = -d * this.v[1]!; this.F[2] = -d * this.v[2]!;
    return d !== 0 || this.dAng[i]! !== 0;
  }

  addForces(ctx: ForceContext, f: Float64Array): void {
    for (let i = 0; i < this.comps.length; i++) {
      if (!this.pointForce(ctx, i)) continue;
      const c = this.comps[i]!;
      ctx.pm.addForce(f, this.points[i]!, this.F, this.r);
      if (c.kind === 'body') {
        const o = c.uOffset + 3, d = this.dAng[i]!;
        f[o] = f[o]! - d * ctx.u[o]!; f[o + 1] = f[o + 1]! - d * ctx.u[o + 1]!; f[o + 2] = f[o + 2]! - d * ctx.u[o + 2]!;
      }
    }
  }

  addJacobians(ctx: ForceContext, K: BlockMatrix, D: BlockMatrix): void {
    for (let i = 0; i < this.comps.length; i++) {
      const s = this.slots[i]!;
      if (s < 0 || !this.pointForce(ctx, i)) continue;
      const p = this.points[i]!, c = this.comps[i]!;
      identity3(this.B, -this.dLin[i]!);
      if (c.kind === 'body') { const o = c.uOffset + 3; this.w[0] = ctx.u[o]!; this.w[1] = ctx.u[o + 1]!; this.w[2] = ctx.u[o + 2]!; }
      ctx.pm.addPair(K, D, s, p, this.r, p, this.r, this.w, null, this.B);
      ctx.pm.addLeverArm(K, s, p, this.F, this.r);
      if (c.kind === 'body') D.addDiag3(s, 3, 3, this.dAng, i, -1);
    }
  }

  potentialEnergy(): number { return 0; }
}
