/**
 * The text of a model file: a leading byte-order mark is dropped, JSON.parse reads the rest, and
 * one iterative pass over the text finds what JSON.parse does not report: where a syntax error is
 * (line, column and the character, visible), and a key given twice in one object (JSON.parse keeps
 * the last silently). The pass keeps its own stack, so no nesting depth overflows it.
 */
import type { PathSegment } from './messages.js';

/** what the scan found: nothing, a syntax error at an offset, or a key given twice in one object */
export type ScanResult =
  | null
  | { kind: 'syntax'; pos: number; what: string }
  | { kind: 'duplicate'; path: PathSegment[]; key: string; first: number; second: number };

/** the text without a leading U+FEFF (a UTF-8 byte-order mark that survived decoding) */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column (in UTF-16 code units) of an offset */
export function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1, start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: pos - start + 1 };
}

/** `line 3, column 5` */
export function textPosition(text: string, pos: number): string {
  const { line, column } = lineColumn(text, pos);
  return `line ${line}, column ${column}`;
}

/** names of the invisible characters most often found in JSON text by mistake */
const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  0xfeff: 'a byte-order mark', 0xa0: 'a no-break space', 0x200b: 'a zero-width space', 0x09: 'a tab',
  0x0a: 'a line break', 0x0d: 'a carriage return', 0x20: 'a space',
};

/** a character for a message: quoted when visible, else its code point (`U+FEFF`, a byte-order mark) */
export function showChar(s: string, i: number): string {
  const cp = s.codePointAt(i)!;
  const c = String.fromCodePoint(cp);
  if (cp > 0x20 && !/[\p{C}\p{Z}]/u.test(c)) return JSON.stringify(c);
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHARACTER_NAMES[cp];
  return name ? `${hex} (${name})` : hex;
}

// character codes
const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c;
const OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d;
/** the characters after a backslash that JSON allows, besides u: " \ / b f n r t */
const ESCAPES: ReadonlySet<number> = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
/** keys an object holds before its duplicate check moves from a linear search to a map */
const MAP_FROM = 16;

class Stop { constructor(readonly what: string) {} }

/**
 * Scans JSON text once, with an explicit stack: the first syntax error (offset and reason), or,
 * with `keys`, the first key that repeats within one object (its path and both offsets), or null.
 * Run with `keys` only on text JSON.parse accepted (it then finds no syntax error).
 */
export function scanJson(s: string, keys: boolean): ScanResult {
  const scan = new Scanner(s, keys);
  try {
    return scan.run();
  } catch (e) {
    if (e instanceof Stop) return { kind: 'syntax', pos: scan.i, what: e.what };
    throw e;
  }
}

class Scanner {
  i = 0;
  private readonly n: number;
  // per open container: object or array, the current key or index, where its keys start in `names`
  private readonly isObject: boolean[] = [];
  private readonly path: PathSegment[] = [];
  private readonly firstName: number[] = [];
  // with `keys`: the keys of the open objects, innermost last, and their offsets in the text; an
  // object with many keys also gets a map (a linear search is faster for the few keys of most)
  private readonly names: string[] = [];
  private readonly offsets: number[] = [];
  private readonly maps: (Map<string, number> | undefined)[] = [];
  // sticky patterns, per scanner (their lastIndex is state)
  private readonly number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  private readonly hex4 = /[0-9a-fA-F]{4}/y;

  constructor(private readonly s: string, private readonly keys: boolean) { this.n = s.length; }

  run(): ScanResult {
    for (;;) {
      // a value; an opened container goes on with its first item
      const opened = this.value();
      if (opened) { if (opened !== true) return opened; continue; }
      // after a value: a comma goes on to the next item, a bracket closes the container
      for (;;) {
        this.ws();
        const d = this.isObject.length - 1;
        if (d < 0) {
          if (this.i < this.n) this.fail(`${this.shown()} after the JSON value`);
          return null;
        }
        const c = this.s.charCodeAt(this.i), close = this.isObject[d] ? CLOSE_OBJECT : CLOSE_ARRAY;
        if (c === COMMA) {
          this.i++;
          if (this.isObject[d]) { const dup = this.key(); if (dup) return dup; }
          else this.path[d] = (this.path[d] as number) + 1;
          break;
        }
        if (c === close) { this.i++; this.close(); continue; }
        this.fail(`${this.shown()}, expected "," or "${String.fromCharCode(close)}"`);
      }
    }
  }

  /** one value at i: true when it opens a non-empty container, a duplicate found in its first key, or false */
  private value(): boolean | ScanResult {
    this.ws();
    const s = this.s, c = s.charCodeAt(this.i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      this.i++; this.ws();
      if (s.charCodeAt(this.i) === (c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) { this.i++; return false; }
      this.isObject.push(c === OPEN_OBJECT);
      this.path.push(0);
      this.firstName.push(this.names.length);
      this.maps.push(undefined);
      return c === OPEN_OBJECT ? this.key() ?? true : true;
    }
    if (c === QUOTE) this.str();
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (this.keys) this.skipNumber();
      else {
        this.number.lastIndex = this.i;
        if (!this.number.test(s)) this.fail('invalid number');
        this.i = this.number.lastIndex;
      }
    } else if (s.startsWith('true', this.i) || s.startsWith('null', this.i)) this.i += 4;
    else if (s.startsWith('false', this.i)) this.i += 5;
    else this.fail(this.shown());
    return false;
  }

  /** a key at i (after "{" or ","), then the colon; records it when tracking keys */
  private key(): ScanResult {
    this.ws();
    const s = this.s;
    if (s.charCodeAt(this.i) !== QUOTE) this.fail(`${this.shown()}, expected a property name in double quotes`);
    const start = this.i;
    this.str();
    if (this.keys) {
      const raw = s.slice(start + 1, this.i - 1);
      const dup = this.record(raw.includes('\\') ? (JSON.parse(s.slice(start, this.i)) as string) : raw, start);
      if (dup) return dup;
    }
    this.ws();
    if (s.charCodeAt(this.i) !== COLON) this.fail(`${this.shown()}, expected ":"`);
    this.i++;
    return null;
  }

  /** records key k of the innermost object at offset `at`; a duplicate if the object had it */
  private record(k: string, at: number): ScanResult {
    const d = this.path.length - 1, from = this.firstName[d]!, names = this.names;
    let map = this.maps[d], first: number | undefined;
    if (map) first = map.get(k);
    else {
      for (let j = from; j < names.length; j++) if (names[j] === k) { first = this.offsets[j]; break; }
      if (names.length - from >= MAP_FROM) {
        map = new Map();
        for (let j = from; j < names.length; j++) map.set(names[j]!, this.offsets[j]!);
        this.maps[d] = map;
      }
    }
    if (first !== undefined) {
      return { kind: 'duplicate', path: [...this.path.slice(0, d), k], key: k, first, second: at };
    }
    if (map) map.set(k, at);
    else { names.push(k); this.offsets.push(at); }
    this.path[d] = k;
    return null;
  }

  /** leaves the innermost container */
  private close(): void {
    this.isObject.pop();
    this.path.pop();
    this.maps.pop();
    const from = this.firstName.pop()!;
    this.names.length = from;
    this.offsets.length = from;
  }

  /** a string starting at the quote at i; i ends after the closing quote */
  private str(): void {
    if (this.keys) { this.skipString(); return; }
    const s = this.s, n = this.n;
    for (this.i++; this.i < n; this.i++) {
      const c = s.charCodeAt(this.i);
      if (c === QUOTE) { this.i++; return; }
      if (c < 0x20) this.fail('control character in a string');
      if (c === BACKSLASH) {
        const e = s.charCodeAt(++this.i);
        if (e === 0x75) {
          this.hex4.lastIndex = this.i + 1;
          if (!this.hex4.test(s)) this.fail('invalid \\u escape');
          this.i += 4;
        } else if (!ESCAPES.has(e)) this.fail('invalid escape in a string');
      }
    }
    this.fail('unterminated string');
  }

  /** str() on text JSON.parse accepted: the closing quote is the next one not escaped */
  private skipString(): void {
    const s = this.s;
    let j = s.indexOf('"', this.i + 1);
    for (;;) {
      let k = j - 1;
      while (s.charCodeAt(k) === BACKSLASH) k--;
      if ((j - k) % 2 === 1) break;   // an even number of backslashes before it: not escaped
      j = s.indexOf('"', j + 1);
    }
    this.i = j + 1;
  }

  /** a number on text JSON.parse accepted: digits, sign, point and exponent */
  private skipNumber(): void {
    const s = this.s, n = this.n;
    for (this.i++; this.i < n; this.i++) {
      const c = s.charCodeAt(this.i);
      const digit = c >= 0x30 && c <= 0x39;
      if (!(digit || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d)) return;  // . e E + -
    }
  }

  private ws(): void {
    const s = this.s, n = this.n;
    for (; this.i < n; this.i++) {
      const c = s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    }
  }

  private shown(): string {
    return this.i < this.n ? `unexpected ${showChar(this.s, this.i)}` : 'unexpected end of input';
  }

  private fail(what: string): never { throw new Stop(what); }
}
