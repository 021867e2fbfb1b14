/**
 * Model-file helpers for the loader tests: a version-1 file from its fields, loading it, and the
 * one-line ModelError that loading raises.
 */
import { expect } from 'vitest';
import { parseModel } from '../../src/io/loader.js';
import { ModelError } from '../../src/model/errors.js';
import type { Model } from '../../src/model/model.js';

/** a version-1 file with these fields; the string "INF" becomes the literal 1e400 */
export function text(fields: Record<string, unknown>): string {
  return JSON.stringify({ version: 1, ...fields }).replace(/"INF"/g, '1e400');
}

export const load = (fields: Record<string, unknown>): Model => parseModel(text(fields));

/** the ModelError that loading raises (one line); fails the test if it loads or throws something else */
export function errorOf(src: string, source?: string): ModelError {
  try {
    parseModel(src, { source });
  } catch (e) {
    if (e instanceof ModelError) {
      expect(e.message).not.toContain('\n');
      return e;
    }
    throw e;
  }
  throw new Error('the model loaded without an error');
}
