/**
 * The BVH of src/collision/bvh.ts against brute force: every query returns exactly the boxes that
 * overlap the query box, on random box sets (fast-check), in an order fixed by the input; the tree
 * is balanced (depth bound of the median split) and every item sits in exactly one leaf.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Bvh } from '../../src/collision/bvh.js';

const coord = fc.double({ min: -10, max: 10, noNaN: true });
const size = fc.double({ min: 0, max: 3, noNaN: true });
/** a box as [min x, y, z, max x, y, z] */
const arbBox = fc.tuple(coord, coord, coord, size, size, size)
  .map(([x, y, z, a, b, c]) => [x, y, z, x + a, y + b, z + c]);

function overlaps(a: ArrayLike<number>, o: number, q: readonly number[]): boolean {
  for (let k = 0; k < 3; k++) if (a[o + k]! > q[3 + k]! || a[o + 3 + k]! < q[k]!) return false;
  return true;
}

function bruteForce(boxes: Float64Array, q: readonly number[]): number[] {
  const hits: number[] = [];
  for (let i = 0; 6 * i < boxes.length; i++) if (overlaps(boxes, 6 * i, q)) hits.push(i);
  return hits;
}

function queryAll(t: Bvh, q: readonly number[]): number[] {
  const out = new Int32Array(t.itemCount), n = t.query(t.makeStack(), out, q[0]!, q[1]!, q[2]!, q[3]!, q[4]!, q[5]!);
  return Array.from(out.subarray(0, n));
}

describe('Bvh', () => {
  it('finds exactly the boxes that brute force finds', () => {
    fc.assert(fc.property(fc.array(arbBox, { minLength: 1, maxLength: 200 }), fc.array(arbBox, { minLength: 1, maxLength: 8 }),
      (items, queries) => {
        const boxes = Float64Array.from(items.flat()), t = new Bvh(boxes);
        for (const q of queries) {
          const got = queryAll(t, q);
          expect([...got].sort((a, b) => a - b)).toEqual(bruteForce(boxes, q));
          expect(new Set(got).size).toBe(got.length);
        }
      }), { seed: 42, numRuns: 150 });
  });

  it('counts touching boxes as overlapping', () => {
    const t = new Bvh(Float64Array.from([0, 0, 0, 1, 1, 1, 2, 0, 0, 3, 1, 1]));
    expect(queryAll(t, [1, 0, 0, 2, 1, 1])).toEqual([0, 1]);
    expect(queryAll(t, [1 + 1e-12, 0, 0, 2 - 1e-12, 1, 1])).toEqual([]);
  });

  it('is balanced, holds every item once and returns items in a fixed order', () => {
    // a 64 × 64 grid of unit boxes: 4096 items, leaves of 4 → depth ⌈log₂ 1024⌉ + 1 = 11
    const items: number[] = [];
    for (let i = 0; i < 64; i++) for (let j = 0; j < 64; j++) items.push(i, j, 0, i + 1, j + 1, 0.5);
    const boxes = Float64Array.from(items), t = new Bvh(boxes);
    expect(t.depth).toBe(11);
    expect(t.nodeCount).toBeLessThanOrEqual(2 * t.itemCount - 1);
    const seen = new Int32Array(t.itemCount);
    for (let i = 0; i < t.nodeCount; i++) for (let k = 0; k < t.count[i]!; k++) seen[t.order[t.start[i]! + k]!]!++;
    expect(seen.every((c) => c === 1)).toBe(true);
    const q = [10.5, 20.5, -1, 13.2, 22.1, 1];
    const a = queryAll(t, q), b = queryAll(new Bvh(boxes), q);
    expect(a).toEqual(b);
    expect(a.length).toBe(4 * 3);
  });

  it('refuses an empty set', () => {
    expect(() => new Bvh(new Float64Array(0))).toThrow(/at least one box/);
  });
});
