/**
 * Errors a user can act on. `ModelError` names the JSON path or component at fault; the CLI
 * prints it on one line and exits with code 2. `DivergenceError` reports the first non-finite
 * state (exit code 3). `NonFiniteError` is internal: raised inside a step, it becomes the
 * DivergenceError with the step number.
 */
import { formatValue } from './format.js';

/** bad input: a model, an option or an argument; the message is one line, `path: detail` */
export class ModelError extends Error {
  /**
   * @param path where: a JSON path (`bodies[2].inertia`) or a component or call (`body "arm".applyForce(f)`)
   * @param detail what is wrong
   */
  constructor(readonly path: string, readonly detail: string) {
    super(`${path}: ${detail}`);
    this.name = 'ModelError';
  }
}

/** raised inside a step; Simulation.step turns it into a DivergenceError with the step number */
export class NonFiniteError extends Error {
  constructor(readonly component: string, readonly detail: string) { super(`${component}: ${detail}`); }
}

/** a step whose state became non-finite or whose linear system failed; the state is the last good one */
export class DivergenceError extends Error {
  /**
   * @param step the step that failed (1 for the first)
   * @param time the time it would have reached, s
   * @param component the component, force or constraint at fault (`body "arm"`)
   * @param detail what happened
   */
  constructor(readonly step: number, readonly time: number, readonly component: string, readonly detail: string) {
    super(`diverged at step ${step} (t = ${time.toPrecision(6)} s): ${component}: ${detail}`);
    this.name = 'DivergenceError';
  }
}

/**
 * q [w, x, y, z] normalised; a zero-length or non-finite quaternion is a ModelError at `path`
 * (every orientation a model file or builder takes goes through this one check)
 */
export function unitQuaternion(path: string, q: readonly number[]): Float64Array {
  const n = q.length === 4 ? Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!) : NaN;
  // finite entries whose length overflows still give a direction: scale by a power of two first
  const s = n === Infinity && q.every(Number.isFinite) ? 2 ** -600 : 1;
  const ns = s === 1 ? n : Math.hypot(q[0]! * s, q[1]! * s, q[2]! * s, q[3]! * s);
  if (!Number.isFinite(ns) || !(n > 1e-12)) throw new ModelError(path, `quaternion ${formatValue(q)} is zero or not finite`);
  return Float64Array.from(q, (v) => (v * s) / ns);
}
