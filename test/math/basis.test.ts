/**
 * Tests of the orthonormal tangent basis (Duff et al. 2017): orthonormality, right-handedness
 * t₁ × t₂ = n, the poles n = ±z exactly, offsets, and continuity in n away from n_z = 0.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { orthonormalBasis } from '../../src/math/basis.js';

const dot = (a: ArrayLike<number>, b: ArrayLike<number>, o = 0): number =>
  a[o]! * b[o]! + a[o + 1]! * b[o + 1]! + a[o + 2]! * b[o + 2]!;

function unit(x: number, y: number, z: number): Float64Array {
  const l = Math.hypot(x, y, z);
  return Float64Array.of(x / l, y / l, z / l);
}

const direction = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true })).filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-3);

describe('orthonormalBasis', () => {
  it('gives an orthonormal right-handed frame for every unit normal', () => {
    fc.assert(fc.property(direction, ([x, y, z]) => {
      const n = unit(x, y, z), t1 = new Float64Array(3), t2 = new Float64Array(3);
      orthonormalBasis(t1, t2, n);
      expect(Math.abs(dot(t1, t1) - 1)).toBeLessThan(1e-14);
      expect(Math.abs(dot(t2, t2) - 1)).toBeLessThan(1e-14);
      expect(Math.abs(dot(t1, t2))).toBeLessThan(1e-14);
      expect(Math.abs(dot(t1, n))).toBeLessThan(1e-14);
      expect(Math.abs(dot(t2, n))).toBeLessThan(1e-14);
      const c = [t1[1]! * t2[2]! - t1[2]! * t2[1]!, t1[2]! * t2[0]! - t1[0]! * t2[2]!,
        t1[0]! * t2[1]! - t1[1]! * t2[0]!];
      for (let k = 0; k < 3; k++) expect(Math.abs(c[k]! - n[k]!)).toBeLessThan(1e-14);
    }), { seed: 42, numRuns: 500 });
  });

  it('is exact at the poles, including n = −z and a negative zero', () => {
    const t1 = new Float64Array(3), t2 = new Float64Array(3);
    const frame = (): number[] => [...t1, ...t2].map((x) => x + 0);
    orthonormalBasis(t1, t2, [0, 0, 1]);
    expect(frame()).toEqual([1, 0, 0, 0, 1, 0]);
    orthonormalBasis(t1, t2, [0, 0, -1]);
    expect(frame()).toEqual([1, 0, 0, 0, -1, 0]);
    orthonormalBasis(t1, t2, [1, 0, -0]);
    expect(frame()).toEqual([0, 0, -1, 0, 1, 0]);
  });

  it('reads and writes at an offset, leaving the rest untouched', () => {
    const n = Float64Array.of(9, 9, 9, ...unit(0.3, -0.5, 0.8));
    const t1 = new Float64Array(6).fill(7), t2 = new Float64Array(6).fill(7);
    orthonormalBasis(t1, t2, n, 3);
    expect([...t1.subarray(0, 3), ...t2.subarray(0, 3)]).toEqual([7, 7, 7, 7, 7, 7]);
    expect(Math.abs(dot(t1, n, 3))).toBeLessThan(1e-15);
    expect(Math.abs(dot(t1, t2, 3))).toBeLessThan(1e-15);
  });

  it('moves continuously with n on each side of n_z = 0', () => {
    fc.assert(fc.property(direction, fc.double({ min: -1, max: 1, noNaN: true }), ([x, y, z], e) => {
      const n = unit(x, y, z);
      if (Math.abs(n[2]!) < 0.1) return;
      const m = unit(n[0]! + 1e-7 * e, n[1]! - 1e-7 * e, n[2]! + 1e-7 * e);
      const a1 = new Float64Array(3), a2 = new Float64Array(3), b1 = new Float64Array(3), b2 = new Float64Array(3);
      orthonormalBasis(a1, a2, n); orthonormalBasis(b1, b2, m);
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(a1[k]! - b1[k]!)).toBeLessThan(1e-5);
        expect(Math.abs(a2[k]! - b2[k]!)).toBeLessThan(1e-5);
      }
    }), { seed: 42, numRuns: 300 });
  });
});
