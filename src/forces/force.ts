/**
 * The force-effector interface. A force gives f(q, u) and its exact Jacobians K = ∂f/∂q and
 * D = ∂f/∂u, assembled into block-sparse matrices over the solve blocks.
 *
 * Conventions (docs/ARCHITECTURE.md): f is a generalized force in the velocity layout u, so a
 * body gets (force at its frame origin, torque about its frame origin), both in world axes.
 * Position variations of a body are δx (world translation of the origin) and δθ (world-frame
 * rotation, R ← exp([δθ]) R), and K is taken with the world velocities u held fixed.
 */
import type { Model } from '../model/model.js';
import type { Kinematics } from '../model/kinematics.js';
import type { BlockPattern, BlockMatrix } from '../assembly/blockSparse.js';
import type { PointMap } from './pointMap.js';

/** the state one force evaluation reads, and the workspace's caches it may use */
export interface ForceContext {
  readonly model: Model;
  readonly q: Float64Array;       // (nq) positions
  readonly u: Float64Array;       // (nu) velocities
  readonly kin: Kinematics;       // body caches, up to date with q
  readonly pm: PointMap;          // point → component mapping with its scratch
}

/**
 * A force of the model. The effector itself holds parameters only and is never written after the
 * model is built; everything an evaluation computes, and the pattern slots its Jacobians fill,
 * lives in a scratch object S that each simulation's workspace makes once (`createScratch`) and
 * passes back to every call. Two simulations of one model therefore never share numbers.
 */
export interface ForceEffector<S = unknown> {
  /** a name for messages ("spring 'a-b'", "gravity") */
  readonly name: string;
  /** a new scratch for one workspace; called once, when the workspace is made (allocates) */
  createScratch(): S;
  /** registers the blocks its Jacobians fill and keeps their slots in s; deterministic */
  setup(pattern: BlockPattern, s: S): void;
  /** f += f(q, u), in the velocity layout (length nu) */
  addForces(ctx: ForceContext, f: Float64Array, s: S): void;
  /** K += ∂f/∂q and D += ∂f/∂u (exact), on the solve blocks registered by `setup` into s */
  addJacobians(ctx: ForceContext, K: BlockMatrix, D: BlockMatrix, s: S): void;
  /** potential energy stored in this force (J); 0 for dissipative or non-conservative forces */
  potentialEnergy(ctx: ForceContext, s: S): number;
}
