/**
 * Property tests of the loader on bad input: whatever parseModel is given (arbitrary values, the
 * shipped examples with arbitrary mutations, as objects and as text, with non-JSON values, cycles,
 * extreme numbers and edits of the text), it returns a Model or throws a ModelError whose message
 * is one line, and a model that loads holds finite numbers. Any other exception (a TypeError, a
 * stack overflow) fails the property. The seed is fixed so that a failure reproduces;
 * VINCULUM_FUZZ_SEED and VINCULUM_FUZZ_RUNS (a multiple of the runs) explore further.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { parseModel } from '../../src/io/loader.js';
import { ModelError } from '../../src/model/errors.js';

const seed = Number(process.env.VINCULUM_FUZZ_SEED ?? 16);
const runs = (n: number): number => Math.round(n * Number(process.env.VINCULUM_FUZZ_RUNS ?? 1));

/** the outcome the loader promises: a model, or one ModelError line */
function loadsOrExplains(input: unknown): void {
  try {
    const m = parseModel(input as string | object);
    // a model that loads holds finite numbers: nothing derived overflowed silently
    const finite = (a: ArrayLike<number>) => Array.prototype.every.call(a, Number.isFinite);
    expect(finite(m.initialQ) && finite(m.initialU)).toBe(true);
    for (const c of m.components) expect(finite([c.mass, ...(c.kind === 'body' ? c.inertia : [])])).toBe(true);
    for (const c of m.constraints) expect(finite(c.compliance) && finite(c.damping)).toBe(true);
  } catch (e) {
    if (!(e instanceof ModelError)) throw new Error(`not a ModelError: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    expect(e.message).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(e.message.length).toBeLessThan(600);
  }
}

const dir = new URL('../../examples/', import.meta.url);
const examples = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => ({ name: f, text: readFileSync(new URL(f, dir), 'utf8') }));
// the large examples take tens of milliseconds to build: fewer runs on them
const small = examples.filter((e) => e.text.length < 20_000);
const large = examples.filter((e) => e.text.length >= 20_000);

/** the paths to the values of a document, the root included: each object once, at most 12 levels down */
function paths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown, at: (string | number)[]): void => {
    out.push(at);
    if (!v || typeof v !== 'object' || seen.has(v) || at.length >= 12) return;
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...at, i]));
    else for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
  };
  walk(root, []);
  return out;
}

// the fields of the format, so that generated objects reach past the first unknown-field check
const FIELDS = ['version', 'name', 'mass', 'density', 'inertia', 'shape', 'type', 'size', 'radius', 'radii', 'length', 'position',
  'orientation', 'velocity', 'angularVelocity', 'com', 'dynamic', 'points', 'stiffness', 'damping', 'restLength', 'material',
  'bodyA', 'bodyB', 'frame', 'frameA', 'frameB', 'axis', 'compliance', 'dampingRatio', 'step', 'duration', 'gravity',
  'integrator', 'particles', 'bodies', 'markers', 'forces', 'joints', 'stabilization', 'method', 'passive', 'body', 'location',
  'toeStrain', 'toeShape', 'translationalStiffness', 'rotationalStiffness', '__proto__', 'constructor', 'a\nb',
  'length', 'valueOf', 'toString'];

const extremeNumber = fc.constantFrom(Infinity, -Infinity, NaN, 1e308, -1e308, 5e-324, -5e-324, 0, -0, 1e-300, 1e300, 2 ** 53, 1e-13);
/** arrays nested d deep (fast-check prints them by their depth: its printer recurses) */
const deep = fc.integer({ min: 1, max: 6_000 }).map((d) => {
  const v = JSON.parse('['.repeat(d) + ']'.repeat(d)) as unknown[];
  Object.defineProperty(v, fc.toStringMethod, { value: () => `<arrays nested ${d} deep>` });
  return v as unknown;
});
/** values JSON text can hold, extreme numbers and deep nesting included */
const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }), extremeNumber, deep, fc.constantFrom('world', 'hinge', 'box', 'a', 'b', ''),
    fc.array(fc.oneof(extremeNumber, fc.double()), { maxLength: 7 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('value'), { maxKeys: 6 }),
    fc.array(tie('value'), { maxLength: 4 }),
  ),
})).value;
/** anything a JavaScript caller could pass: functions, class instances, undefined, symbols, bigints, … */
const anyValue = fc.oneof(jsonish, fc.anything({
  maxDepth: 3, withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withSet: true,
  withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true,
}), fc.constantFrom(undefined, () => 1, Symbol('s'), new Error('e'), Promise.resolve(1)));

type Mutation = { at: number; kind: 'replace' | 'extreme' | 'delete' | 'cycle' | 'duplicate' | 'rename'; value: unknown; number: number; key: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(), kind: fc.constantFrom('replace', 'replace', 'extreme', 'extreme', 'delete', 'cycle', 'duplicate', 'rename'),
  value: anyValue, number: extremeNumber, key: fc.constantFrom(...FIELDS),
});

/** the document with the mutations applied, in place (a fresh parse each time) */
function mutate(text: string, ms: readonly Mutation[]): unknown {
  let doc: unknown = JSON.parse(text);
  for (const m of ms) {
    const all = paths(doc);
    const path = all[m.at % all.length]!;
    if (path.length === 0) { if (m.kind === 'replace') doc = m.value; continue; }
    try {
      const parent = path.slice(0, -1).reduce<any>((v, k) => v[k], doc);
      const k = path[path.length - 1]!;
      if (m.kind === 'replace') parent[k] = m.value;
      else if (m.kind === 'extreme') parent[k] = typeof parent[k] === 'number' ? m.number * (parent[k] || 1) : m.number;
      else if (m.kind === 'delete') { if (Array.isArray(parent)) parent.splice(k as number, 1); else delete parent[k]; }
      else if (m.kind === 'cycle') parent[k] = path.length > 1 ? path.slice(0, -2).reduce<any>((v, s) => v[s], doc) : doc;
      else if (m.kind === 'duplicate') { if (Array.isArray(parent)) parent.push(parent[k as number]); else parent[`${String(k)}_`] = parent[k]; }
      else if (!Array.isArray(parent)) { parent[m.key] = parent[k]; delete parent[k]; }
    } catch {
      // a part that cannot change (inside a generated string or frozen value): this mutation is skipped
    }
  }
  return doc;
}

/** JSON text for a document that may hold cycles and non-JSON values (a cycle makes the text of something else) */
function textOf(doc: unknown): string {
  try {
    return JSON.stringify(doc) ?? 'undefined';
  } catch {
    return '{"version": 1, "cycle": true}';
  }
}

type Edit = { at: number; kind: 'insert' | 'delete' | 'copy'; text: string; length: number };
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(), kind: fc.constantFrom('insert', 'delete', 'copy'), length: fc.integer({ min: 1, max: 40 }),
  text: fc.oneof(fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\uFEFF', '\n', '-', 'e', '.', '0', '1e400', 'null',
    '"step": -1,', '"name": "x",', '\u2028', '\ud800', '[[[[[[[['), fc.string({ maxLength: 3 })),
});

/** the text with the edits applied (insert, delete or repeat a span) */
function edited(text: string, es: readonly Edit[]): string {
  let t = text;
  for (const e of es) {
    const at = e.at % (t.length + 1);
    if (e.kind === 'insert') t = t.slice(0, at) + e.text + t.slice(at);
    else if (e.kind === 'delete') t = t.slice(0, at) + t.slice(at + e.length);
    else t = t.slice(0, at) + t.slice(at, at + e.length) + t.slice(at);
  }
  return t;
}

describe('parseModel on bad input: a Model or one ModelError line, never another exception', () => {
  it('arbitrary values, as the model and as its fields', () => {
    fc.assert(fc.property(anyValue, (v) => loadsOrExplains(v)), { seed, numRuns: runs(300) });
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 8 }), (fields) => {
      loadsOrExplains({ version: 1, ...fields });
      loadsOrExplains(textOf({ version: 1, ...fields }));
    }), { seed, numRuns: runs(400) });
  });

  it('the examples with mutated values, as objects and as text', () => {
    for (const [set, n] of [[small, 600], [large, 30]] as const) {
      fc.assert(fc.property(fc.constantFrom(...set), fc.array(mutation, { minLength: 1, maxLength: 3 }), (ex, ms) => {
        const doc = mutate(ex.text, ms);
        loadsOrExplains(doc);
        loadsOrExplains(textOf(doc));
      }), { seed, numRuns: runs(n) });
    }
  }, 120_000);

  it('the examples with edited text', () => {
    fc.assert(fc.property(fc.constantFrom(...small), fc.array(edit, { minLength: 1, maxLength: 4 }), (ex, es) => {
      loadsOrExplains(edited(ex.text, es));
    }), { seed, numRuns: runs(600) });
  }, 120_000);
});
