/**
 * Convex hulls from points (src/collision/hull.ts): the cube with interior and duplicate points,
 * the structure of every hull (Euler's formula, faces convex and counter-clockwise from outside,
 * edges with their two faces, every point inside or on it), integer grids against a brute-force
 * hull of exact integer planes (the degenerate case: many coplanar and collinear points), the same
 * grids turned by a rotation (coplanarity up to rounding), and the one-line errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConvexHull } from '../../src/collision/hull.js';
import { ModelError } from '../../src/model/errors.js';
import { quatToMat3 } from '../../src/math/quat.js';
import { arbPoint, arbQuat, randomDirections } from './geometry.js';

/** face k's vertex indices */
function faceOf(h: ConvexHull, k: number): number[] {
  return Array.from(h.faceVertices.subarray(h.faceStart[k]!, h.faceStart[k + 1]!));
}

function vertex(h: ConvexHull, i: number): number[] {
  return Array.from(h.vertices.subarray(3 * i, 3 * i + 3));
}

const sub = (a: number[], b: number[]) => a.map((x, j) => x - b[j]!);
const cross = (a: number[], b: number[]) =>
  [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
/** R x + t for R row-major (9) */
const turn = (R: Float64Array, x: readonly number[], t: readonly number[] = [0, 0, 0]) =>
  [0, 1, 2].map((i) => t[i]! + R[3 * i]! * x[0]! + R[3 * i + 1]! * x[1]! + R[3 * i + 2]! * x[2]!);
const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

/** the largest n·p − d over the faces: > 0 outside the hull */
function outside(h: ConvexHull, p: number[]): number {
  let worst = -Infinity;
  for (let k = 0; k < h.faceCount; k++) {
    worst = Math.max(worst, dot(Array.from(h.faceNormals.subarray(3 * k, 3 * k + 3)), p) - h.faceOffsets[k]!);
  }
  return worst;
}

/**
 * every structural property of a hull of the points: Euler's formula, unit normals, faces convex
 * (no vertex more than 2τ inside the chord of its neighbours) and counter-clockwise about their
 * normal with their vertices on their plane within 2τ, every vertex on three faces or more, each
 * edge in its two faces (once each way), the points inside or on it within 2τ, the bounds tight
 * (collected first: one expect per property keeps it fast)
 */
function expectValidHull(h: ConvexHull, points: readonly number[][], convex = true): void {
  const tol = 2 * h.tolerance;
  expect(h.vertexCount - h.edgeCount + h.faceCount).toBe(2);
  const facesAt = new Array<number>(h.vertexCount).fill(0), directed = new Map<string, number>();
  let offPlane = 0, worstTurn = Infinity, worstUnit = 0, fewest = Infinity;
  for (let k = 0; k < h.faceCount; k++) {
    const f = faceOf(h, k), n = Array.from(h.faceNormals.subarray(3 * k, 3 * k + 3));
    fewest = Math.min(fewest, f.length);
    worstUnit = Math.max(worstUnit, Math.abs(Math.hypot(...n) - 1));
    f.forEach((i, j) => {
      const a = vertex(h, i), b = vertex(h, f[(j + 1) % f.length]!), c = vertex(h, f[(j + 2) % f.length]!);
      offPlane = Math.max(offPlane, Math.abs(dot(n, a) - h.faceOffsets[k]!));
      // a left turn at every vertex, seen from outside: b's distance outside the chord a c (≥ −2τ)
      worstTurn = Math.min(worstTurn, dot(cross(sub(b, a), sub(c, b)), n) / Math.hypot(...sub(c, a)));
      facesAt[i]!++;
      directed.set(`${i},${f[(j + 1) % f.length]}`, k);
    });
  }
  expect([fewest >= 3, worstUnit < 1e-14, offPlane <= tol, worstTurn >= -tol || !convex]).toEqual([true, true, true, true]);
  expect(Math.min(...facesAt)).toBeGreaterThanOrEqual(3);
  expect(directed.size).toBe(2 * h.edgeCount);
  const edgeFaults = [];
  for (let e = 0; e < h.edgeCount; e++) {
    const u = h.edges[2 * e]!, v = h.edges[2 * e + 1]!;
    const ok = u < v && directed.get(`${u},${v}`) === h.edgeFaces[2 * e]
      && directed.get(`${v},${u}`) === h.edgeFaces[2 * e + 1];
    if (!ok) {
      edgeFaults.push(e);
    }
  }
  expect(edgeFaults).toEqual([]);
  expect(Math.max(...points.map((p) => outside(h, p)))).toBeLessThanOrEqual(tol);
  const verts = Array.from({ length: h.vertexCount }, (_, i) => vertex(h, i));
  expect(verts.map((v) => v.map((x) => x + 0))).toEqual(Array.from(h.sourceIndex, (i) => points[i]!.map((x) => x + 0)));
  const lo = [0, 1, 2].map((j) => Math.min(...verts.map((v) => v[j]!)));
  const hi = [0, 1, 2].map((j) => Math.max(...verts.map((v) => v[j]!)));
  expect(Array.from(h.boxCenter)).toEqual(lo.map((l, j) => 0.5 * (l + hi[j]!)));
  expect(Array.from(h.boxHalf)).toEqual(lo.map((l, j) => 0.5 * (hi[j]! - l)));
  expect(h.radius).toBe(Math.max(...verts.map((v) => Math.hypot(...v))));
}

/**
 * the hull of integer points by brute force, exactly: the facet planes are the planes through three
 * points with every point on one side (normals reduced by their gcd); a point is a vertex when it lies
 * on three facets or more. Returns null when all points are coplanar.
 */
function integerHull(points: readonly number[][]): { V: number; F: number } | null {
  const planes = new Set<string>();
  const unique = [...new Set(points.map((p) => p.join(',')))].map((s) => s.split(',').map(Number));
  const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));
  const n = unique.length;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) {
    let m = cross(sub(unique[j]!, unique[i]!), sub(unique[k]!, unique[i]!));
    if (m.every((x) => x === 0)) continue;
    const g = gcd(gcd(m[0]!, m[1]!), m[2]!);
    m = m.map((x) => x / g);
    const side = unique.map((p) => Math.sign(dot(m, sub(p, unique[i]!))));
    if (side.every((s) => s <= 0)) planes.add([...m, dot(m, unique[i]!)].join(','));
    if (side.every((s) => s >= 0)) planes.add([...m.map((x) => -x), -dot(m, unique[i]!)].join(','));
  }
  const list = [...planes].map((s) => s.split(',').map(Number));
  // two opposite planes through every point: all coplanar
  if (list.length === 2 && list[0]![3] === -list[1]![3]!) return null;
  const V = unique.filter((p) => list.filter((q) => dot(q, p) === q[3]).length >= 3).length;
  return { V, F: list.length };
}

/**
 * how far the points are from lying in one plane: the least, over planes through three of them, of
 * the largest distance of a point from it (brute force)
 */
function flatness(points: readonly number[][]): number {
  let best = Infinity;
  const n = points.length;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) {
    const m = cross(sub(points[j]!, points[i]!), sub(points[k]!, points[i]!)), s = Math.hypot(...m);
    if (!(s > 1e-12)) continue;
    best = Math.min(best, Math.max(...points.map((p) => Math.abs(dot(m, sub(p, points[i]!))) / s)));
  }
  // no three points span a triangle: collinear or coincident, flat too
  return best === Infinity ? 0 : best;
}

/** the hull of the points is valid, or they lie in one plane (within 1e-6) and the error says so */
function expectHullOrFlat(points: readonly number[][], name: string): ConvexHull | null {
  let h: ConvexHull;
  try { h = ConvexHull.fromPoints(points, name); } catch (e) {
    expect((e as Error).message).toMatch(/fewer than 4 non-coplanar points/);
    expect(flatness(points)).toBeLessThan(1e-5);
    return null;
  }
  expectValidHull(h, points);
  return h;
}

const arbGrid = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: -1, max: 2 })),
  { minLength: 4, maxLength: 24 });

describe('ConvexHull.fromPoints', () => {
  it('keeps the 8 corners of a cube among interior, duplicate, face and edge points', () => {
    const corners: number[][] = [];
    for (const x of [-1, 1]) for (const y of [-1, 1]) for (const z of [-1, 1]) corners.push([x, y, z]);
    const points = [[0, 0, 0], ...corners, [1, 1, 1], [0.2, -0.3, 0.5], [0, 0, 1], [1, 0, 1], [-1, -1, 0.25],
      [0.5, 0.2, -1]];
    const h = ConvexHull.fromPoints(points, 'cube');
    expect([h.vertexCount, h.faceCount, h.edgeCount]).toEqual([8, 6, 12]);
    // the first copy of each corner, in the order given
    expect(Array.from(h.sourceIndex)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (let k = 0; k < 6; k++) {
      expect(faceOf(h, k)).toHaveLength(4);
      const n = Array.from(h.faceNormals.subarray(3 * k, 3 * k + 3));
      // exactly ±e_j, offset exactly 1
      expect(n.filter((x) => x === 0)).toHaveLength(2);
      expect(n.filter((x) => Math.abs(x) === 1)).toHaveLength(1);
      expect(h.faceOffsets[k]).toBe(1);
    }
    expect(Array.from(h.boxCenter)).toEqual([0, 0, 0]);
    expect(Array.from(h.boxHalf)).toEqual([1, 1, 1]);
    expect(h.radius).toBe(Math.sqrt(3));
    expectValidHull(h, points);
  });

  it('takes flat arrays and nested arrays alike, and gives the same hull twice', () => {
    const points = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.1, 0.1, 0.1], [1, 1, 1]];
    const a = ConvexHull.fromPoints(points, 'p'), b = ConvexHull.fromPoints(Float64Array.from(points.flat()), 'p');
    expect(b).toEqual(a);
    expect([a.vertexCount, a.faceCount, a.edgeCount]).toEqual([5, 6, 9]);
  });

  it('builds a valid hull of random clouds holding every point (fast-check)', () => {
    fc.assert(fc.property(fc.array(arbPoint, { minLength: 4, maxLength: 80 }), (pts) => {
      expectHullOrFlat(pts.map((p) => [...p]), 'cloud');
    }), { seed: 42, numRuns: 150 });
  });

  it('keeps every point of a cloud on a sphere', () => {
    fc.assert(fc.property(fc.integer({ min: 4, max: 40 }), fc.integer({ min: 0, max: 2 ** 31 }), (count, seed) => {
      const points = randomDirections(count, seed);
      // points 0.02 apart: each stands about 0.02²/8 = 5e-5 ≫ τ = 3e-6 above the planes of its
      // neighbours, so it is a vertex
      fc.pre(points.every((p, i) => points.every((q, j) => j <= i || Math.hypot(...sub(p, q)) > 0.02)));
      const h = ConvexHull.fromPoints(points, 'sphere');
      expectValidHull(h, points);
      expect(h.vertexCount).toBe(points.length);
    }), { seed: 42, numRuns: 60 });
  });

  it('matches the exact hull of integer grid points, coplanar and collinear ones among them', () => {
    fc.assert(fc.property(arbGrid, (points) => {
      const exact = integerHull(points);
      if (!exact) {
        expect(() => ConvexHull.fromPoints(points, 'grid')).toThrow(/fewer than 4 non-coplanar points/);
        return;
      }
      const h = ConvexHull.fromPoints(points, 'grid');
      expect([h.vertexCount, h.faceCount]).toEqual([exact.V, exact.F]);
      expectValidHull(h, points);
    }), { seed: 42, numRuns: 300 });
  });

  it('finds the same faces on a turned grid, where coplanar points are coplanar only up to rounding', () => {
    fc.assert(fc.property(arbGrid, arbQuat, arbPoint, (grid, q, t) => {
      const exact = integerHull(grid);
      if (!exact) return;
      const R = quatToMat3(new Float64Array(9), q);
      const points = grid.map((p) => turn(R, p, t.map((x) => 10 * x)));
      const h = ConvexHull.fromPoints(points, 'turned');
      expect([h.vertexCount, h.faceCount]).toEqual([exact.V, exact.F]);
      expectValidHull(h, points);
    }), { seed: 42, numRuns: 300 });
  });

  it('closes the hull around points scattered about planes, and holds them all', () => {
    // points on a cube's faces (τ = 3e-6), moved off them by up to 10τ: valid and holding every point;
    // faces stay convex while the points stay within τ/20 of their planes, and may turn inward in
    // their plane beyond (see hull.ts)
    const arbNoisy = fc.tuple(fc.array(fc.tuple(arbPoint, fc.nat(5), arbPoint), { minLength: 8, maxLength: 100 }),
      fc.constantFrom(0, 1e-12, 1e-9, 1e-7, 3e-6, 3e-5), arbQuat);
    fc.assert(fc.property(arbNoisy, ([raw, noise, q]) => {
      const R = quatToMat3(new Float64Array(9), q);
      const points = raw.map(([p, face, e]) => {
        const x = [...p];
        x[face % 3] = face < 3 ? -1 : 1;
        return turn(R, x.map((v, j) => v + noise * e[j]!));
      });
      let h: ConvexHull;
      try { h = ConvexHull.fromPoints(points, 'noisy'); } catch (e) {
        expect(flatness(points)).toBeLessThan(1e-5);
        return;
      }
      expectValidHull(h, points, noise <= h.tolerance / 20);
    }), { seed: 42, numRuns: 300 });
  });

  it('merges the faces of a turned box and prism whose points are rounded to single precision', () => {
    fc.assert(fc.property(arbQuat, arbPoint, (q, t) => {
      const R = quatToMat3(new Float64Array(9), q), box: number[][] = [], prism: number[][] = [];
      for (const x of [-0.5, 0.5]) for (const y of [-1, 1]) for (const z of [-2, 2]) box.push([x, y, z]);
      for (let k = 0; k < 64; k++) for (const z of [-1, 1]) prism.push([Math.cos(k * Math.PI / 32), Math.sin(k * Math.PI / 32), z]);
      const single = (ps: number[][]) => ps.map((p) => turn(R, p, t).map(Math.fround));
      const hb = ConvexHull.fromPoints(single(box), 'box'), hp = ConvexHull.fromPoints(single(prism), 'prism');
      expect([hb.vertexCount, hb.faceCount, hb.edgeCount, hp.vertexCount, hp.faceCount]).toEqual([8, 6, 12, 128, 66]);
      expectValidHull(hb, single(box));
      expectValidHull(hp, single(prism));
    }), { seed: 42, numRuns: 40 });
  });

  it('makes a 64-sided prism of 128 vertices, 66 faces and 192 edges', () => {
    const points: number[][] = [];
    for (let k = 0; k < 64; k++) {
      const a = (2 * Math.PI * k) / 64;
      const [c, s] = [Math.cos(a), Math.sin(a)];
      points.push([c, s, -1], [c, s, 1], [0.5 * c, 0.5 * s, 0]);
    }
    const h = ConvexHull.fromPoints(points, 'prism');
    expect([h.vertexCount, h.faceCount, h.edgeCount]).toEqual([128, 66, 192]);
    const sizes = [...Array(h.faceCount).keys()].map((k) => faceOf(h, k).length).sort((a, b) => b - a);
    expect(sizes.slice(0, 3)).toEqual([64, 64, 4]);
    expectValidHull(h, points);
  });

  describe('errors: one line, naming the shape', () => {
    const few = 'fewer than 4 non-coplanar points';
    const cases: [string, number[][], RegExp][] = [
      ['coplanar', [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0.3, 0.2, 0]], RegExp(`${few}: the 5 points are coplanar`)],
      ['collinear', [[0, 0, 0], [1, 1, 1], [2, 2, 2], [-3, -3, -3]], RegExp(`${few}: the 4 points are collinear`)],
      ['coincident', [[1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3]], RegExp(`${few}: the 4 points are coincident`)],
      ['3 points', [[0, 0, 0], [1, 0, 0], [0, 1, 0]], RegExp(`${few}: 3 given`)],
      ['NaN', [[0, 0, 0], [1, 0, 0], [0, NaN, 0], [0, 0, 1]], /point 2 is \[0,NaN,0\], not finite/],
      ['Infinity', [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, Infinity]], /point 3 is \[0,0,Infinity\], not finite/],
      ['huge', [[0, 0, 0], [1, 0, 0], [0, 1e81, 0], [0, 0, 1]], /point 2 is \[0,1e\+81,0\], beyond ±1e80/],
      ['tiny', [[0, 0, 0], [1e-90, 0, 0], [0, 1e-90, 0], [0, 0, 1e-90]],
        /the points lie within 2\.9+8e-90 of the origin, below 1e-80/],
    ];
    for (const [label, points, message] of cases) {
      it(label, () => {
        let error: unknown;
        try { ConvexHull.fromPoints(points, 'bodies[2].shapes[1]'); } catch (e) { error = e; }
        expect(error).toBeInstanceOf(ModelError);
        expect((error as ModelError).path).toBe('bodies[2].shapes[1]');
        expect((error as ModelError).message).toMatch(message);
        expect((error as ModelError).message).not.toContain('\n');
      });
    }

    it('coplanar up to rounding: a turned square grid', () => {
      const R = quatToMat3(new Float64Array(9), [0.8, 0.2, -0.4, 0.4]);
      const points: number[][] = [];
      for (let x = 0; x < 3; x++) for (let y = 0; y < 3; y++) points.push(turn(R, [x, y, 0]));
      expect(() => ConvexHull.fromPoints(points, 'flat')).toThrow(RegExp(`^flat: ${few}: the 9 points are coplanar$`));
    });
  });
});
