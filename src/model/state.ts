/**
 * The mutable state: time t, positions q (nq) and velocities u (nu), as flat Float64Arrays
 * laid out by the model (src/model/model.ts). Checkpoints copy everything that affects the
 * future of a run, so restoring one reproduces the run bit for bit.
 */
import type { Model } from './model.js';

export interface Checkpoint {
  readonly t: number;
  readonly step: number;
  readonly q: Float64Array;
  readonly u: Float64Array;
  /**
   * what a simulation carries from step to step besides q and u (Simulation.checkpoint): the
   * constraint forces λ (geometric stiffness), the projection's multipliers (its curvature) and
   * the regularization R of redundant hard rows (0 until found)
   */
  readonly carried?: Float64Array;
}

export class State {
  t = 0;
  step = 0;                    // steps taken since t = 0
  readonly q: Float64Array;    // (nq)
  readonly u: Float64Array;    // (nu)

  constructor(model: Model) {
    this.q = model.initialQ.slice();
    this.u = model.initialU.slice();
  }

  checkpoint(): Checkpoint {
    return { t: this.t, step: this.step, q: this.q.slice(), u: this.u.slice() };
  }

  restore(c: Checkpoint): void {
    if (c.q.length !== this.q.length || c.u.length !== this.u.length) throw new Error('checkpoint does not match this model');
    this.t = c.t;
    this.step = c.step;
    this.q.set(c.q);
    this.u.set(c.u);
  }
}
