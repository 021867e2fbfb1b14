/** The options and the result of `Simulation.run`, and the check of a run's length. */
import { ModelError } from '../model/errors.js';

/** the most steps a run takes unless told otherwise (`RunOptions.maxSteps`, `vinculum run --max-steps`) */
export const MAX_STEPS = 1e8;

/** how far a run is, as `RunOptions.onProgress` hears it */
export interface RunProgress {
  /** steps taken in this run */
  step: number;
  /** steps the run takes in all */
  steps: number;
  /** the simulated time, s */
  time: number;
}

/** options of `Simulation.run` */
export interface RunOptions {
  /** hears the progress about a hundred times over the run; returning `false` stops the run */
  onProgress?: (progress: RunProgress) => void | boolean;
  /** the most steps the run may take (default {@link MAX_STEPS}): a longer run is an error, not a hang */
  maxSteps?: number;
}

/** what `Simulation.run` did */
export interface RunResult {
  /** steps taken */
  steps: number;
  /** true when onProgress stopped the run early */
  stopped: boolean;
}

/**
 * The steps a run of `duration` seconds takes at step h: ⌈duration/h⌉ (a step that would only
 * pass the end by rounding is not taken). A ModelError when that is not a finite number at most
 * the cap, naming the duration and the step.
 */
export function checkRunLength(duration: number, h: number, options: { maxSteps?: number } = {}): number {
  const cap = options.maxSteps ?? MAX_STEPS;
  if (typeof duration !== 'number' || !(duration >= 0) || !Number.isFinite(duration)) {
    throw new ModelError('run(duration)', `duration must be a finite number of seconds, at least 0 (got ${String(duration)})`);
  }
  if (!(cap >= 1)) throw new ModelError('run(options.maxSteps)', `must be at least 1 (got ${String(cap)})`);
  const n = Math.ceil(duration / h - 1e-9);
  if (!(n <= cap)) {
    throw new ModelError('run(duration)', `duration ${duration} s at step ${h} s is ${Number.isFinite(n) ? n.toPrecision(3) : 'more than 1e308'} steps, more than the cap of ${cap} (raise maxSteps to allow it)`);
  }
  return Math.max(0, n);
}
