/**
 * The words of the loader's messages: JSON paths (`bodies[2].inertia`, forces and joints with
 * their type and name: `forces[0] (axial-spring "s1").points[1]`), values as the user wrote them
 * (src/model/format.ts) and one zod issue as one line. Every function here is bounded in depth
 * and length whatever the document holds (cycles, deep nesting, non-JSON values).
 */
import type * as z from 'zod';
import { FORCE_TYPES, JOINT_KINDS, EXPLAINED_RULES } from './schema.js';
import { formatValue, quote, className, isPlainData } from '../model/format.js';

/** one step of a JSON path: a key or an array index */
export type PathSegment = string | number;

/** the document a message is about: the value validated, and whether it came from JSON text */
export interface DocumentContext {
  raw: unknown;
  /** from text: a non-finite number there is a literal that overflowed (1e400) */
  fromText: boolean;
}

/** a non-null object that is not an array */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** the value at a path in the raw document, or undefined */
export function valueAt(raw: unknown, path: readonly PathSegment[]): unknown {
  let v = raw;
  for (const k of path) {
    if (Array.isArray(v) && typeof k === 'number') v = v[k];
    else if (isRecord(v) && typeof k === 'string' && Object.hasOwn(v, k)) v = v[k];
    else return undefined;
  }
  return v;
}

/** what a value is, for "got …": `number 7`, `the string "x"`, `an array of 2`, `a Map` */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return `the string ${quote(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${v}`;
  if (typeof v === 'object') return isPlainData(v) ? 'an object' : className(v);
  if (typeof v === 'bigint') return `the bigint ${v}n`;
  return formatValue(v);
}

/** the types each labelled section knows */
const SECTION_TYPES: Record<'forces' | 'joints', readonly string[]> = {
  forces: FORCE_TYPES, joints: JOINT_KINDS,
};

/**
 * The name of an unnamed force or joint: its type and its index in its section (`hinge#2`), as
 * the loader names it and `vinculum info` shows it (docs/model-format.md).
 */
export function defaultName(type: string, index: number): string {
  return `${type}#${index}`;
}

/** `forces[0] (axial-spring "s1")` or `joints[1] (hinge "knee")`, from whatever the raw document has */
export function itemLabel(section: 'forces' | 'joints', i: number, raw: unknown): string {
  const f = valueAt(raw, [section, i]);
  const known = isRecord(f) && typeof f.type === 'string' && SECTION_TYPES[section].includes(f.type);
  const type = known ? (f.type as string) : undefined;
  const name = isRecord(f) && typeof f.name === 'string' ? f.name : undefined;
  if (!type && name === undefined) return `${section}[${i}]`;
  return `${section}[${i}] (${[type, name !== undefined ? quote(name) : undefined].filter(Boolean).join(' ')})`;
}

/** `bodies[2].inertia`; forces and joints carry their type and name */
export function formatPath(path: readonly PathSegment[], raw: unknown): string {
  let s = '';
  let k = 0;
  if ((path[0] === 'forces' || path[0] === 'joints') && typeof path[1] === 'number') {
    s = itemLabel(path[0], path[1], raw);
    k = 2;
  }
  for (; k < path.length; k++) {
    const seg = path[k]!;
    if (typeof seg === 'number') s += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) s += s ? `.${seg}` : seg;
    else s += `[${quote(seg)}]`;
  }
  return s;
}

const EXPECTED: Record<string, string> = {
  number: 'a number', int: 'an integer', string: 'a string', boolean: 'true or false', array: 'an array',
  object: 'an object', tuple: 'an array',
};

function list(values: readonly unknown[]): string {
  const v = values.map((x) => formatValue(x));
  return v.length <= 1 ? v.join('') : `${v.slice(0, -1).join(', ')} or ${v[v.length - 1]}`;
}

/** why a number is not finite: a literal that overflowed, or the value itself */
function notFinite(value: number, fromText: boolean): string {
  // JSON text has no NaN: a non-finite number there is a literal beyond ±1.8e308
  const overflow = fromText && value === value;
  return `must be a finite number (${overflow ? `this value overflows to ${value}` : `got ${value}`})`;
}

/**
 * One zod issue → a path and a one-line explanation, using the raw document for context. A union
 * with exactly one alternative of the value's base type is explained by that alternative's first
 * issue (followed down nested unions in a loop).
 */
export function describeIssue(first: z.core.$ZodIssue, doc: DocumentContext): {
  path: PathSegment[];
  detail: string;
} {
  let issue = first, prefix: PathSegment[] = [];
  for (;;) {
    const path = [...prefix, ...issue.path.filter((p): p is PathSegment => typeof p !== 'symbol')];
    if (issue.code === 'unrecognized_keys') {
      return { path: [...path, issue.keys[0]!], detail: explain(issue, path, doc) };
    }
    if (issue.code !== 'invalid_union' || isDiscriminated(issue)) {
      return { path, detail: explain(issue, path, doc) };
    }
    // a plain union: explain the one alternative whose base type matched, if exactly one did
    const rootMismatch = (i: z.core.$ZodIssue) => i.path.length === 0
      && (i.code === 'invalid_type' || i.code === 'invalid_value' || i.code === 'invalid_union');
    const near = issue.errors.filter((branch) => branch.length > 0 && !branch.some(rootMismatch));
    if (near.length !== 1) return { path, detail: explain(issue, path, doc) };
    issue = near[0]![0]!;
    prefix = path;
  }
}

/** a discriminated union's issue: the "type" matches no option */
function isDiscriminated(issue: z.core.$ZodIssueInvalidUnion): boolean {
  return issue.discriminator !== undefined && 'options' in issue && !!issue.options;
}

/** why a type is unknown where it was given, when it is known elsewhere */
function typeHint(path: readonly PathSegment[], value: unknown): string {
  // a body's `shape`, or one of its `shapes`
  const n = path.length;
  const inShape = path[n - 2] === 'shape' || (path[0] === 'bodies' && path[n - 3] === 'shapes');
  return inShape && value === 'plane' ? ' (a plane is a world shape: give it in world.shapes)' : '';
}

/** the detail of one issue at its full path */
function explain(issue: z.core.$ZodIssue, path: PathSegment[], doc: DocumentContext): string {
  const value = valueAt(doc.raw, path);
  const missing = value === undefined && isRecord(valueAt(doc.raw, path.slice(0, -1)));
  switch (issue.code) {
    case 'invalid_type': {
      if (missing) return 'missing required field';
      if (typeof value === 'number' && !Number.isFinite(value)) return notFinite(value, doc.fromText);
      if (issue.expected === 'int' && typeof value === 'number') return `must be an integer (got ${value})`;
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(value)}`;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = small ? issue.minimum : issue.maximum;
      if (issue.origin === 'array' || issue.origin === 'set') {
        const n = Array.isArray(value) ? value.length : 0;
        return `expected ${small ? 'at least' : 'at most'} ${bound} item${bound === 1 ? '' : 's'}, got ${n}`;
      }
      if (issue.origin === 'string') return small ? 'must not be empty' : `is longer than ${bound} characters`;
      const op = small ? (issue.inclusive ? '>=' : '>') : (issue.inclusive ? '<=' : '<');
      const sign = issue.inclusive ? 'must be non-negative' : 'must be positive';
      const what = small && bound === 0 ? sign : `must be ${op} ${bound}`;
      const why = EXPLAINED_RULES.has(issue.message) ? `: ${issue.message}` : '';
      return `${what} (got ${formatValue(value)})${why}`;
    }
    case 'invalid_value':
      return `expected ${list(issue.values)}, got ${missing ? 'nothing' : formatValue(value)}`;
    case 'unrecognized_keys': {
      const also = issue.keys.slice(1, 6).map((k) => quote(k)).join(', ') + (issue.keys.length > 6 ? ', …' : '');
      const others = issue.keys.length > 1 ? ` (also ${also})` : '';
      return `unknown field ${quote(issue.keys[0]!)}${others}`;
    }
    case 'invalid_union': {
      if (isDiscriminated(issue) && 'options' in issue && issue.options) {
        const opts = list(issue.options);
        if (missing) return `missing required field; expected ${opts}`;
        return `unknown type ${formatValue(value)}; expected ${opts}${typeHint(path, value)}`;
      }
      return missing ? 'missing required field' : `${issue.message}, got ${describeValue(value)}`;
    }
    case 'invalid_format':
      const what = path[path.length - 1] === 'name' ? 'name ' : '';
      return `invalid ${what}${formatValue(value)}: ${oneLine(issue.message, QUOTED_TEXT_MAX)}`;
    default:
      return oneLine(issue.message, QUOTED_TEXT_MAX);
  }
}

/** the longest text of another library's (zod's, JSON.parse's) that a message quotes, in characters */
export const QUOTED_TEXT_MAX = 200;

/**
 * The text on one line: runs of white space, line breaks included, become one space. With `max`,
 * a longer result is cut to `max` characters ending in `...`: text quoted from another library
 * may hold a whole document. Without it nothing is cut, for messages whose makers bound them
 * (the command line prints every message through this).
 */
export function oneLine(s: string, max = Infinity): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, Math.max(0, max - 3))}...` : t;
}
