/**
 * Values in error messages. `JSON.stringify` prints Infinity and NaN as `null`, throws on cycles and
 * BigInt, overflows the stack on deeply nested values and lets line breaks and invisible characters
 * through; `formatValue` prints what the value is, in JSON's compact style (`[1,1,1,2,0,0]`,
 * `[Infinity,1.5e+299,NaN]`), on one line and of bounded length, whatever it is given.
 */

/** deepest nesting shown; deeper arrays and objects print as `[…]` and `{…}` */
const MAX_DEPTH = 3;
/** items shown per array or object; the rest print as `…` */
const MAX_ITEMS = 8;
/** characters shown of a string */
const MAX_STRING = 60;
/** characters shown of a whole value */
const MAX_LENGTH = 120;

/**
 * characters a message must not carry raw: controls, format characters (the byte-order mark), line
 * and paragraph separators, lone surrogates
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/**
 * A string in double quotes, JSON-escaped, with every invisible character as a `\uXXXX` escape and
 * long strings cut to `max` characters (`"a very long na…"`).
 */
export function quote(s: string, max = MAX_STRING): string {
  const cut = s.length > max ? `${s.slice(0, max - 1)}…` : s;
  return JSON.stringify(cut).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `a Map`, `a Uint8Array`, `an Int32Array`: the class of an object that is not plain data */
export function className(v: object): string {
  let name: unknown;
  try {
    name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  } catch {
    name = undefined;  // a proxy or getter that throws: still a message, not a second error
  }
  const n = typeof name === 'string' && /^[A-Za-z_$][\w$]{0,39}$/.test(name) ? name : 'object';
  return `${/^[AEIO]/i.test(n) ? 'an' : 'a'} ${n}`;
}

/**
 * true for an object JSON.parse could make: an array, or an object whose prototype is a realm's
 * Object.prototype or null
 */
export function isPlainData(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * A value for a message: numbers as numbers (`Infinity`, `-Infinity`, `NaN`), strings quoted,
 * arrays and objects in JSON's compact style down to a few levels and items, anything else by
 * its kind (`undefined`, `a function`, `a Map`). One line, bounded length, never throws.
 */
export function formatValue(v: unknown): string {
  const s = format(v, 0);
  return s.length > MAX_LENGTH ? `${s.slice(0, MAX_LENGTH - 1)}…` : s;
}

function format(v: unknown, depth: number): string {
  switch (typeof v) {
    case 'number': return String(v);
    case 'string': return quote(v);
    case 'boolean': return String(v);
    case 'undefined': return 'undefined';
    case 'bigint': return `${v}n`;
    case 'symbol': return 'a symbol';
    case 'function': return 'a function';
  }
  if (v === null) return 'null';
  const o = v as object;
  if (!isPlainData(o)) return className(o);
  const isArray = Array.isArray(o);
  if (depth >= MAX_DEPTH) return isArray ? '[…]' : '{…}';
  const keys = isArray ? null : Object.keys(o);
  const n = isArray ? (o as unknown[]).length : keys!.length;
  const parts: string[] = [];
  for (let k = 0; k < Math.min(n, MAX_ITEMS); k++) {
    const key = isArray ? k : keys![k]!;
    let item: string;
    try {
      item = format((o as Record<string | number, unknown>)[key], depth + 1);
    } catch {
      item = '?';  // a getter that throws
    }
    parts.push(isArray ? item : `${quote(String(key))}:${item}`);
  }
  if (n > MAX_ITEMS) parts.push('…');
  return isArray ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}
