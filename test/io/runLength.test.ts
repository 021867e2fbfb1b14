/**
 * checkStepCount: the step count of a run, ⌈duration / step⌉ as the command line takes it, and a
 * one-line ModelError naming the fields when it is not a finite number within the cap
 * (`"step": 1e-300` with the default duration, `--duration 1e308`, ran for ever).
 */
import { describe, it, expect } from 'vitest';
import { checkStepCount, MAX_STEPS } from '../../src/io/runLength.js';
import { ModelError } from '../../src/model/errors.js';

function messageOf(f: () => unknown): string {
  try { f(); } catch (e) { if (e instanceof ModelError) return e.message; throw e; }
  throw new Error('no error');
}

describe('checkStepCount', () => {
  it('counts ⌈duration / step⌉ steps, at least one, a ratio within 1e-9 of an integer being that integer', () => {
    expect(checkStepCount(5, 0.01)).toBe(500);          // 5 / 0.01 = 500.00000000000006
    expect(checkStepCount(3, 0.01)).toBe(300);          // 3 / 0.01 = 299.99999999999994
    expect(checkStepCount(1, 0.3)).toBe(4);
    expect(checkStepCount(0, 0.01)).toBe(0);
    expect(checkStepCount(1e-3, 0.01)).toBe(1);
    expect(checkStepCount(MAX_STEPS * 0.01, 0.01)).toBe(MAX_STEPS);
  });

  it('rejects a count above the cap, naming the fields and how to raise it', () => {
    expect(MAX_STEPS).toBe(1e8);
    expect(messageOf(() => checkStepCount(5, 1e-300, MAX_STEPS, { duration: 'duration', step: 'step', raise: '--max-steps' })))
      .toBe('duration / step: 5 s / 1e-300 s = 5e300 steps, more than the cap of 1e8 (raise it with --max-steps)');
    expect(messageOf(() => checkStepCount(1e308, 0.01, MAX_STEPS, { duration: '--duration', step: 'model.json: step', raise: '--max-steps' })))
      .toBe('--duration / model.json: step: 1e+308 s / 0.01 s = Infinity steps, more than the cap of 1e8 (raise it with --max-steps)');
    expect(messageOf(() => checkStepCount(1.0000001, 1e-8))).toBe('duration / step: 1.0000001 s / 1e-8 s = 100000010 steps, more than the cap of 1e8');
    expect(messageOf(() => checkStepCount(10, 0.01, 999))).toBe('duration / step: 10 s / 0.01 s = 1000 steps, more than the cap of 999');
  });

  it('takes a raised cap, but never more steps than a double counts exactly', () => {
    expect(checkStepCount(1e4, 1e-6, 1e10)).toBe(1e10);
    expect(checkStepCount(1, 1e-12, Infinity)).toBe(1e12);
    expect(messageOf(() => checkStepCount(1e10, 1e-10, Infinity, { duration: 'duration', step: 'step', raise: '--max-steps' })))
      .toBe('duration / step: 10000000000 s / 1e-10 s = 1e20 steps, more than the cap of 9007199254740991');
  });

  it('rejects a duration, step or cap that is not a number of the right sign', () => {
    expect(messageOf(() => checkStepCount(-1, 0.01))).toBe('duration: must be a finite number >= 0 s (got -1)');
    expect(messageOf(() => checkStepCount(NaN, 0.01))).toBe('duration: must be a finite number >= 0 s (got NaN)');
    expect(messageOf(() => checkStepCount(Infinity, 0.01, MAX_STEPS, { duration: '--duration', step: 'step' })))
      .toBe('--duration: must be a finite number >= 0 s (got Infinity)');
    expect(messageOf(() => checkStepCount(5, 0))).toBe('step: must be a positive finite number of seconds (got 0)');
    expect(messageOf(() => checkStepCount(5, -Infinity))).toBe('step: must be a positive finite number of seconds (got -Infinity)');
    expect(messageOf(() => checkStepCount(5, 0.01, 0, { duration: 'duration', step: 'step', raise: '--max-steps' })))
      .toBe('--max-steps: the cap on the step count must be a positive number (got 0)');
  });
});
