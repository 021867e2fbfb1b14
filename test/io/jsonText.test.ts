/**
 * The JSON text scanner (src/io/jsonText.ts) and the value printer of messages
 * (src/model/format.ts): syntax errors at their offset on any nesting depth, duplicate keys with
 * their path, characters shown visibly, and values printed as they are, bounded, whatever they are.
 */
import { describe, it, expect } from 'vitest';
import { scanJson, lineColumn, showChar, stripByteOrderMark } from '../../src/io/jsonText.js';
import { formatValue, quote } from '../../src/model/format.js';

describe('scanJson', () => {
  it('finds nothing wrong in what JSON.parse accepts', () => {
    for (const t of ['{}', '[]', ' 0 ', '-1.5e-3', '"a\\"b\\\\"', '{"a": [1, {"b": null, "c": true}], "d": false}', '[[[]], [{}]]', '{"\\\\": 1, "\\"": 2}']) {
      expect(() => JSON.parse(t)).not.toThrow();
      expect(scanJson(t, false)).toBeNull();
      expect(scanJson(t, true)).toBeNull();
    }
  });

  it('reports the first syntax error at its offset', () => {
    const cases: [string, number, string][] = [
      ['', 0, 'unexpected end of input'],
      ['{"a": 1,}', 8, 'unexpected "}", expected a property name in double quotes'],
      ['[1, 2,]', 6, 'unexpected "]"'],
      ['{"a" 1}', 5, 'unexpected "1", expected ":"'],
      ['[1 2]', 3, 'unexpected "2", expected "," or "]"'],
      ['{"a": 01}', 7, 'unexpected "1", expected "," or "}"'],
      ['[-]', 1, 'invalid number'],
      ['["a\\x"]', 4, 'invalid escape in a string'],
      ['["\\u12G4"]', 3, 'invalid \\u escape'],
      ['["a\tb"]', 3, 'control character in a string'],
      ['["abc', 5, 'unterminated string'],
      ['{} x', 3, 'unexpected "x" after the JSON value'],
      ['[tru]', 1, 'unexpected "t"'],
    ];
    for (const [t, pos, what] of cases) {
      expect(() => JSON.parse(t)).toThrow();
      expect(scanJson(t, false)).toEqual({ kind: 'syntax', pos, what });
    }
  });

  it('scans any depth with its own stack', () => {
    const d = 200_000;
    expect(scanJson('['.repeat(d) + ']'.repeat(d), false)).toBeNull();
    expect(scanJson('['.repeat(d) + ']'.repeat(d), true)).toBeNull();
    expect(scanJson('['.repeat(d), false)).toEqual({ kind: 'syntax', pos: d, what: 'unexpected end of input' });
  });

  it('finds a key given twice in one object, with the path and both offsets', () => {
    const t = '{"a": [{"x": 1}, {"x": 1, "y": 2, "x": 3}], "b": 0}';
    expect(scanJson(t, true)).toEqual({ kind: 'duplicate', path: ['a', 1, 'x'], key: 'x', first: 18, second: 34 });
    expect(scanJson(t, false)).toBeNull();
    // keys compare after their escapes; siblings and nested objects have keys of their own
    expect(scanJson('{"a\\u0062": 1, "ab": 2}', true)).toMatchObject({ kind: 'duplicate', path: ['ab'], first: 1, second: 15 });
    expect(scanJson('{"a": {"a": {"a": 1}}, "b": {"a": 2}}', true)).toBeNull();
    // an object of many keys (a map beyond 16)
    const keys = Array.from({ length: 100 }, (_, k) => `"k${k}": 0`);
    expect(scanJson(`{${keys.join(',')}}`, true)).toBeNull();
    expect(scanJson(`{${keys.join(',')}, "k99": 1}`, true)).toMatchObject({ kind: 'duplicate', path: ['k99'], key: 'k99' });
    expect(scanJson(`{${keys.join(',')}, "k3": 1}`, true)).toMatchObject({ kind: 'duplicate', path: ['k3'], key: 'k3' });
  });

  it('lines, columns and visible characters', () => {
    expect(lineColumn('ab\ncd\n\nef', 7)).toEqual({ line: 4, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(showChar('x', 0)).toBe('"x"');
    expect(showChar('\uFEFF', 0)).toBe('U+FEFF (a byte-order mark)');
    expect(showChar('\u200D', 0)).toBe('U+200D');
    expect(showChar('😀', 0)).toBe('"😀"');
    expect(stripByteOrderMark('\uFEFF{}')).toBe('{}');
    expect(stripByteOrderMark('{}\uFEFF')).toBe('{}\uFEFF');
  });
});

describe('formatValue', () => {
  it('prints numbers as numbers, in the compact style of JSON', () => {
    expect(formatValue([Infinity, 1.5e299, NaN, -0, -Infinity])).toBe('[Infinity,1.5e+299,NaN,0,-Infinity]');
    expect(formatValue({ a: [1, 2], b: 'x', c: null, d: true })).toBe('{"a":[1,2],"b":"x","c":null,"d":true}');
    expect(formatValue([1, 1, 1, 2, 0, 0])).toBe(JSON.stringify([1, 1, 1, 2, 0, 0]));
  });

  it('prints what JSON cannot hold by its kind', () => {
    expect(formatValue(undefined)).toBe('undefined');
    expect(formatValue(() => 1)).toBe('a function');
    expect(formatValue(5n)).toBe('5n');
    expect(formatValue(Symbol('s'))).toBe('a symbol');
    expect(formatValue(new Map())).toBe('a Map');
    expect(formatValue(new Int32Array(2))).toBe('an Int32Array');
    expect(formatValue([new Date(0), Object.create(null)])).toBe('[a Date,{}]');
  });

  it('is bounded and one line for cycles, deep nesting, long and invisible strings', () => {
    const cyclic: unknown[] = [1];
    cyclic.push(cyclic);
    expect(formatValue(cyclic)).toBe('[1,[1,[1,[…]]]]');
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    expect(formatValue(deep)).toBe('[[[[…]]]]');
    expect(formatValue(Array.from({ length: 20 }, (_, k) => k))).toBe('[0,1,2,3,4,5,6,7,…]');
    expect(formatValue('x'.repeat(100))).toBe(`"${'x'.repeat(59)}…"`);
    expect(formatValue(Array.from({ length: 8 }, () => 'y'.repeat(50))).length).toBeLessThanOrEqual(120);
    expect(quote('a\nb\u2028c\uFEFF\ud800"')).toBe('"a\\nb\\u2028c\\ufeff\\ud800\\""');
    const getter = Object.defineProperty({}, 'x', { enumerable: true, get() { throw new Error('no'); } });
    expect(formatValue(getter)).toBe('{"x":?}');
  });
});
