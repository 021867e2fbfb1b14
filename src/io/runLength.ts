/**
 * The length of a run in steps. The model file cannot know it (the duration may come from the
 * command line), so the run checks it before it starts: `"step": 1e-300` with the default
 * duration, or `--duration 1e308`, would otherwise run for ever (docs/model-format.md, Limits).
 */
import { ModelError } from '../model/errors.js';
import { formatValue } from '../model/format.js';

/**
 * The default cap on the steps of one run: 100 s of wall time for the smallest models (about 1 µs
 * per step), more than a day for mid-size ones (1 ms per step).
 */
export const MAX_STEPS = 1e8;

/** how the fields of checkStepCount are named in its messages */
export interface StepCountFields {
  /** the duration's field or flag (`duration`, `--duration`) */
  duration: string;
  /** the step's field or flag (`step`, `--step`) */
  step: string;
  /** how to raise the cap (`--max-steps`), for the message */
  raise?: string;
}

/** `1e8`, `5e300`, `100000010`, `1.235e20`: a count for a message, exact where a double holds it */
function count(n: number): string {
  if (!Number.isFinite(n)) return formatValue(n);
  const short = Number(n.toPrecision(4));
  const exp = (x: number) => x.toExponential().replace('e+', 'e');
  if (n >= 1e6 && short === n) return exp(n);
  return Number.isSafeInteger(n) ? String(n) : exp(short);
}

/**
 * The number of steps of a run of `duration` seconds at step `step`: ⌈duration / step⌉ (a ratio
 * within 1e-9 of an integer counts as that integer; 0 for a duration of 0).
 * Throws a ModelError naming the fields when the duration is not a finite number ≥ 0, the step
 * not a positive finite number, or the count is not finite or exceeds `cap`
 * (`duration / step: 5 s / 1e-300 s = 5e300 steps, more than the cap of 1e8 (raise it with
 * --max-steps)`). The cap itself must be a positive number (Infinity lifts it; the count must
 * still be a safe integer).
 */
export function checkStepCount(duration: number, step: number, cap: number = MAX_STEPS,
  fields: StepCountFields = { duration: 'duration', step: 'step' }): number {
  if (typeof duration !== 'number' || !(duration >= 0) || !Number.isFinite(duration)) {
    throw new ModelError(fields.duration, `must be a finite number >= 0 s (got ${formatValue(duration)})`);
  }
  if (typeof step !== 'number' || !(step > 0) || !Number.isFinite(step)) {
    throw new ModelError(fields.step, `must be a positive finite number of seconds (got ${formatValue(step)})`);
  }
  if (typeof cap !== 'number' || !(cap > 0)) {
    throw new ModelError(fields.raise ?? 'max steps',
      `the cap on the step count must be a positive number (got ${formatValue(cap)})`);
  }
  const n = Math.max(0, Math.ceil(duration / step - 1e-9));
  const limit = Math.min(cap, Number.MAX_SAFE_INTEGER);
  if (!(n <= limit)) {
    const raise = fields.raise && limit === cap ? ` (raise it with ${fields.raise})` : '';
    throw new ModelError(`${fields.duration} / ${fields.step}`,
      `${formatValue(duration)} s / ${formatValue(step)} s = ${count(n)} steps,`
      + ` more than the cap of ${count(limit)}${raise}`);
  }
  return n;
}
