/** The options and the result of `Simulation.run`, and the check of a run's length. */
import * as z from 'zod';
import { checkStepCount, MAX_STEPS } from '../io/runLength.js';

export { MAX_STEPS } from '../io/runLength.js';

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

/** @internal RunOptions, checked (an unknown option is an error, not ignored) */
export const RunOptionsSchema = z.strictObject({
  onProgress: z.custom<RunOptions['onProgress']>((v) => typeof v === 'function', { error: 'expected a function' }).optional(),
  maxSteps: z.number().positive().optional(),
});

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
 * the cap, naming the duration and the step (src/io/runLength.ts).
 */
export function checkRunLength(duration: number, h: number, options: { maxSteps?: number } = {}): number {
  return checkStepCount(duration, h, options.maxSteps ?? MAX_STEPS, { duration: 'run(duration)', step: 'step', raise: 'options.maxSteps' });
}
