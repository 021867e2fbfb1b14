/**
 * Mutation checks for model files: a document changed at up to three random places (a value set or
 * a field dropped) must load, or fail with one ModelError line, never another exception.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { parseModel, type ParseOptions } from '../../src/io/loader.js';
import { ModelError } from '../../src/model/errors.js';

type JsonRecord = Record<string | number, unknown>;
/** one change: the value at path number `at` set to `value`, or dropped */
interface Change { at: number; value: unknown; drop: boolean }

/** every value's path in a JSON document */
export function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const inner = Array.isArray(v) ? v.flatMap((x, i) => paths(x, [...at, i]))
    : v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k])) : [];
  return [at, ...inner];
}

/** asserts that every mutation of the JSON text `base` by `values` loads or gives one ModelError line */
export function checkMutations(base: string, values: fc.Arbitrary<unknown>, options: ParseOptions = {},
  params: fc.Parameters<[Change[]]> = { seed: 42, numRuns: 400 }): void {
  const all = paths(JSON.parse(base)).filter((p) => p.length > 0);
  const change = fc.record({ at: fc.nat(), value: values, drop: fc.boolean() });
  fc.assert(fc.property(fc.array(change, { minLength: 1, maxLength: 3 }), (changes) => {
    const doc = JSON.parse(base) as Record<string, unknown>;
    for (const c of changes) {
      const path = all[c.at % all.length]!;
      const parent = path.slice(0, -1).reduce<unknown>((v, k) => (v as JsonRecord | undefined)?.[k], doc);
      if (!parent || typeof parent !== 'object') continue;
      const key = path[path.length - 1]!;
      if (c.drop && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key];
      else (parent as JsonRecord)[key] = structuredClone(c.value);
    }
    try {
      parseModel(doc, options);
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      expect(e.message).not.toMatch(/[\n\r]/);
    }
  }), params);
}
