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

export interface ForceContext {
  readonly model: Model;
  readonly q: Float64Array;       // (nq) positions
  readonly u: Float64Array;       // (nu) velocities
  readonly kin: Kinematics;       // body caches, up to date with q
  readonly pm: PointMap;          // point → component mapping with its scratch
}

export interface ForceEffector {
  /** a name for messages ("spring 'a-b'", "gravity") */
  readonly name: string;
  /**
   * Registers the blocks its Jacobians fill and keeps their slots; deterministic. A force may be
   * shared by several models (a builder built twice): `boundSignature` records the pattern whose
   * slots it holds, and the ForceSystem re-runs `setup` when it differs from its own.
   */
  setup(pattern: BlockPattern): void;
  boundSignature: string;
  /** f += f(q, u), in the velocity layout (length nu) */
  addForces(ctx: ForceContext, f: Float64Array): void;
  /** K += ∂f/∂q and D += ∂f/∂u (exact), on the solve blocks */
  addJacobians(ctx: ForceContext, K: BlockMatrix, D: BlockMatrix): void;
  /** potential energy stored in this force (J); 0 for dissipative or non-conservative forces */
  potentialEnergy(ctx: ForceContext): number;
}
