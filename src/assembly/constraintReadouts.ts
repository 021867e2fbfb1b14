/**
 * The constraint readouts of one simulation: a joint's coordinates, their rates and whether they
 * are singular, and any constraint's reaction wrench, at a state (q, u) the caller passes in.
 * They are answered in the workspace's constraint scratch, with the workspace's body caches.
 *
 * Cost: a readout reads the positions of the constraint's own components (two at most) and the
 * body caches of those, so it brings only those up to date (`Kinematics.updateComponents`):
 * it compares their 14 or fewer entries of q with the cached ones, never all of q. Reading every
 * joint after a step is then linear in the number of joints, where a full compare per readout
 * made it quadratic. A state written by any path (a step, a restore, a user writing the state's
 * array in place) is seen, because the compare is by value over every entry the readout depends
 * on (src/model/kinematics.ts, freshness).
 */
import type { Model } from '../model/model.js';
import type { Kinematics } from '../model/kinematics.js';
import type { ConstraintContext } from '../constraints/constraint.js';
import { Joint, GIMBAL_SINGULAR_TOL, type JointScratch } from '../constraints/joint.js';
import { constraintWrench, WrenchScratch } from '../constraints/report.js';
import { coordinateRow, coordinateValue } from '../constraints/coordinateRows.js';

/** |cos φ| below which a gimbal's θ and ψ take no limit or motor row (the singularity warning's) */
export const LIMIT_SINGULAR_TOL = 1e-2;

export class ConstraintReadouts {
  private readonly wrenchScratch = new WrenchScratch();
  // the readouts' context: the last one, rebuilt only when q or u is another array
  private ctx: ConstraintContext;

  /**
   * `kin`: the workspace's body caches; `scratch`: each constraint's scratch in that workspace, in
   * model order (ConstraintSystem)
   */
  constructor(private readonly model: Model, private readonly kin: Kinematics,
    private readonly scratch: readonly unknown[]) {
    this.ctx = { model, q: model.initialQ, u: model.initialU, kin };
  }

  /** a context at (q, u) with the body caches of constraint ci's components up to date with q */
  context(ci: number, q: Float64Array, u: Float64Array): ConstraintContext {
    if (this.ctx.q !== q || this.ctx.u !== u) this.ctx = { model: this.model, q, u, kin: this.kin };
    this.kin.updateComponents(q, this.model.constraints[ci]!.components);
    return this.ctx;
  }

  /** constraint ci as a joint, or null */
  private joint(ci: number): Joint | null {
    const c = this.model.constraints[ci];
    return c instanceof Joint ? c : null;
  }

  /**
   * The coordinates of joint ci (its `coordinateNames`, m and rad) at q into out[0 …]; returns
   * their number (0, out untouched, when constraint ci is not a joint). u is not read.
   */
  jointCoordinates(ci: number, q: Float64Array, u: Float64Array, out: Float64Array): number {
    const j = this.joint(ci);
    if (!j) return 0;
    j.coordinates(this.context(ci, q, u), out, 0, this.scratch[ci] as JointScratch);
    return j.coordinateNames.length;
  }

  /** the rates of those coordinates at (q, u) into out[0 …] (finite everywhere); returns their number */
  jointRates(ci: number, q: Float64Array, u: Float64Array, out: Float64Array): number {
    const j = this.joint(ci);
    if (!j) return 0;
    j.coordinateRates(this.context(ci, q, u), out, 0, this.scratch[ci] as JointScratch);
    return j.coordinateNames.length;
  }

  /**
   * Coordinate k of joint ci at q, with its velocity row into out12 (coordinateRow); NaN when
   * constraint ci is not a joint or the row is singular at q (|cos φ| < LIMIT_SINGULAR_TOL for a
   * gimbal's θ and ψ, whose rows grow as 1/cos φ)
   */
  coordinateRow(out12: Float64Array, ci: number, k: number, q: Float64Array, u: Float64Array): number {
    const j = this.joint(ci);
    if (!j) return NaN;
    const ctx = this.context(ci, q, u), s = this.scratch[ci] as JointScratch;
    if (coordinateRow(out12, j, ctx, s, k, LIMIT_SINGULAR_TOL)) return NaN;
    return coordinateValue(j, ctx, s, k);
  }

  /**
   * true when joint ci's coordinate rates are not defined at q (a gimbal with |cos φ| < tol, a
   * degenerate angle or universal map: Joint.isSingular); false for other constraints
   */
  isSingular(ci: number, q: Float64Array, u: Float64Array, tol = GIMBAL_SINGULAR_TOL): boolean {
    const j = this.joint(ci);
    if (!j) return false;
    return j.isSingular(this.context(ci, q, u), this.scratch[ci] as JointScratch, tol);
  }

  /**
   * The wrench constraint ci applies to its side A from the multipliers `lambda` (all m rows,
   * N or N·m) at (q, u): out[0..3) the force, out[3..6) the torque about the constraint's anchor,
   * world axes (constraints/report.ts)
   */
  reaction(ci: number, q: Float64Array, u: Float64Array, lambda: Float64Array, out: Float64Array): Float64Array {
    const ctx = this.context(ci, q, u);
    return constraintWrench(this.model, ctx, lambda, ci, this.scratch[ci], out, this.wrenchScratch);
  }
}
