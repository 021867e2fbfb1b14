/**
 * The mutable state: time t, positions q (nq) and velocities u (nu), as flat Float64Arrays
 * laid out by the model (src/model/model.ts). Checkpoints copy everything that affects the
 * future of a run, so restoring one reproduces the run bit for bit.
 */
import type { Model } from './model.js';
import { ModelError } from './errors.js';

/** a copy of everything the rest of a run depends on (Simulation.checkpoint) */
export interface Checkpoint {
  /** time, s */
  readonly t: number;
  /** steps taken since t = 0 */
  readonly step: number;
  /** (nq) positions */
  readonly q: Float64Array;
  /** (nu) velocities */
  readonly u: Float64Array;
  /**
   * what a simulation carries from step to step besides q and u (Simulation.checkpoint): the
   * constraint forces λ (geometric stiffness), the projection's multipliers (its curvature) and
   * the regularization R of redundant hard rows, per row, with the dependencies it belongs to
   */
  readonly carried?: Float64Array;
}

/** the mutable state of a simulation: time, positions q and velocities u, laid out by the model */
export class State {
  /** time, s */
  t = 0;
  /** steps taken since t = 0 */
  step = 0;
  /** (nq) positions: per particle x, y, z; per body the origin and the quaternion [w, x, y, z] */
  readonly q: Float64Array;
  /** (nu) velocities: per particle v; per body the origin's v and ω, world axes */
  readonly u: Float64Array;

  constructor(model: Model) {
    this.q = model.initialQ.slice();
    this.u = model.initialU.slice();
  }

  /** a copy of t, q and u */
  checkpoint(): Checkpoint {
    return { t: this.t, step: this.step, q: this.q.slice(), u: this.u.slice() };
  }

  /** t, q and u from a checkpoint of the same model */
  restore(c: Checkpoint): void {
    if (c.q.length !== this.q.length || c.u.length !== this.u.length) throw new ModelError('restore(checkpoint)', 'the checkpoint is of another model');
    this.t = c.t;
    this.step = c.step;
    this.q.set(c.q);
    this.u.set(c.u);
  }
}
