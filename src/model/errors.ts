/**
 * Errors a user can act on. `ModelError` names the JSON path or component at fault; the CLI
 * prints it on one line and exits with code 2. `DivergenceError` reports the first non-finite
 * state (exit code 3).
 */
export class ModelError extends Error {
  constructor(readonly path: string, readonly detail: string) {
    super(`${path}: ${detail}`);
    this.name = 'ModelError';
  }
}

export class DivergenceError extends Error {
  constructor(readonly step: number, readonly time: number, readonly component: string, readonly detail: string) {
    super(`diverged at step ${step} (t = ${time.toPrecision(6)} s): ${component}: ${detail}`);
    this.name = 'DivergenceError';
  }
}
