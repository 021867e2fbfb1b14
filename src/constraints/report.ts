/**
 * Constraint forces in physical units (stage 10, report). The multipliers λ of the last step
 * (N or N·m per row; the force on the components is +Gᵀλ, theory.md §6) are turned into the
 * wrench a constraint applies to its side A: the force in world axes (N) and the torque about
 * the constraint's anchor (the joint frame's origin, or the first point of a distance
 * constraint) in world axes (N·m). When side A is the world, the wrench on A is minus the
 * wrench on B about the same point (action and reaction). G is evaluated at the end-of-step
 * configuration.
 */
import type { Model } from '../model/model.js';
import type { ConstraintContext } from './constraint.js';
import { wrenchShift } from '../math/transform.js';

/** scratch for `constraintWrench` (one per caller) */
export class WrenchScratch { readonly w = new Float64Array(6); readonly p = new Float64Array(3); }

/**
 * out = (f_A, τ_A about the anchor), world axes, of constraint ci from the multipliers
 * `lambda` (m, all rows) at the state in ctx, evaluated in `scratch`, the constraint's scratch
 * of the caller's workspace (ConstraintSystem.reaction)
 */
export function constraintWrench(model: Model, ctx: ConstraintContext, lambda: Float64Array, ci: number, scratch: unknown,
  out: Float64Array, s: WrenchScratch): Float64Array {
  const c = model.constraints[ci]!, r0 = model.rowStart[ci]!, blocks = c.jacobian(ctx, scratch);
  const comp = model.components[c.components[0]!]!, G = blocks[0]!, cols = comp.kind === 'particle' ? 3 : 6;
  // generalized force on the first component: Gᵀλ (force at its origin, torque about its origin)
  const w = s.w;
  w.fill(0);
  for (let j = 0; j < cols; j++) {
    let acc = 0;
    for (let r = 0; r < c.rows; r++) acc += G[r * cols + j]! * lambda[r0 + r]!;
    w[j] = acc;
  }
  // move the torque to the anchor: τ_P = τ_O − (p − x_O) × f (a particle's "origin" is itself)
  const p = c.anchor(ctx, s.p, scratch);
  for (let k = 0; k < 3; k++) p[k] = p[k]! - ctx.q[comp.qOffset + k]!;
  wrenchShift(w, w, p);
  // side A is the world: its wrench is the reaction
  const sgn = c.sideAIsWorld ? -1 : 1;
  for (let k = 0; k < 6; k++) out[k] = sgn * w[k]!;
  return out;
}
