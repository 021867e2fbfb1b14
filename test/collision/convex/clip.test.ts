/**
 * The manifold builder: reduceManifold against a brute-force search over subsets (the deepest point
 * kept, the largest area, ids and order preserved), and clipManifold on convex views: box on box
 * (the box pair's points and ids), a cylinder cap on a box (the 12-gon reduced to 4 rim points), a
 * box on a mesh triangle, a tilted cylinder cap on a triangle (the rim's lowest point kept), a
 * capsule lying on a box, and the witness pair for a sphere and for crossing edges.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { HULL, ShapeTable } from '../../../src/collision/shapes.js';
import { Manifold } from '../../../src/collision/manifold.js';
import { Convex, loadShape, loadTriangle, support } from '../../../src/collision/convex/convex.js';
import { ClipWorkspace, clipManifold } from '../../../src/collision/convex/clip.js';
import { reduceManifold } from '../../../src/collision/convex/reduce.js';
import { boxBox } from '../../../src/collision/boxPairs.js';
import { ConvexHull } from '../../../src/collision/hull.js';
import { type Solid, sceneOf } from '../geometry.js';

/** twice the area of the convex hull of 2D points (monotone chain) */
function hullArea2(p: number[][]): number {
  const s = [...p].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  const cr = (o: number[], a: number[], b: number[]): number => (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const half = (pts: number[][]): number[][] => {
    const h: number[][] = [];
    for (const q of pts) { while (h.length >= 2 && cr(h[h.length - 2]!, h[h.length - 1]!, q) <= 0) h.pop(); h.push(q); }
    return h;
  };
  const hull = [...half(s).slice(0, -1), ...half([...s].reverse()).slice(0, -1)];
  let a = 0;
  for (let i = 0; i < hull.length; i++) { const u = hull[i]!, v = hull[(i + 1) % hull.length]!; a += u[0]! * v[1]! - u[1]! * v[0]!; }
  return Math.abs(a);
}

/** the largest hull area of 4 points including index deep, brute force */
function bestArea(p: number[][], deep: number): number {
  let best = 0;
  const n = p.length;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) {
    if (i === deep || j === deep || k === deep) continue;
    best = Math.max(best, hullArea2([p[deep]!, p[i]!, p[j]!, p[k]!]));
  }
  return best;
}

const arbPoints = (lo: number, hi: number) => fc.array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -0.1, max: 0.1, noNaN: true })), { minLength: lo, maxLength: hi });

/** a manifold of the given points (x, y, gap) in the plane z = 0.3, normal +z, after two leading points */
function manifoldOf(pts: [number, number, number][]): Manifold {
  const m = new Manifold(2);
  m.add(-1, -1, 9, 9, 9, 0, 0, 1, 5); m.add(-2, -2, 9, 9, 9, 0, 0, 1, 5);
  pts.forEach(([x, y, g], i) => m.add(i, 100 + i, x, y, 0.3, 0, 0, 1, g));
  return m;
}

describe('reduceManifold', () => {
  it('keeps the deepest point and the 4 of largest area (exact up to 16 points), ids and order', () => {
    fc.assert(fc.property(arbPoints(5, 16), (pts) => {
      const m = manifoldOf(pts);
      reduceManifold(m, 2, 4);
      expect(m.count).toBe(6);
      expect([m.featureA[0], m.featureA[1]]).toEqual([-1, -2]);
      const kept = [2, 3, 4, 5].map((i) => m.featureA[i]!);
      // order and ids preserved, each kept point unchanged
      expect([...kept].sort((a, b) => a - b)).toEqual(kept);
      for (let s = 2; s < 6; s++) {
        const i = m.featureA[s]!;
        expect(m.featureB[s]).toBe(100 + i);
        expect([m.point[3 * s], m.point[3 * s + 1], m.gap[s]]).toEqual([pts[i]![0], pts[i]![1], pts[i]![2]]);
      }
      // the deepest (first of equals) is kept, with the largest area
      const gaps = pts.map((p) => p[2]), deep = gaps.indexOf(Math.min(...gaps));
      expect(kept).toContain(deep);
      const area = hullArea2(kept.map((i) => [pts[i]![0], pts[i]![1]]));
      expect(area).toBeGreaterThan(bestArea(pts.map((p) => [p[0], p[1]]), deep) * (1 - 1e-12) - 1e-15);
    }), { seed: 42, numRuns: 300 });
  });

  it('many points: the deepest and a greedy quadrilateral of at least half the best area', () => {
    fc.assert(fc.property(arbPoints(17, 30), (pts) => {
      const m = manifoldOf(pts);
      reduceManifold(m, 2, 4);
      expect(m.count).toBe(6);
      const kept = [2, 3, 4, 5].map((i) => m.featureA[i]!), gaps = pts.map((p) => p[2]);
      const deep = gaps.indexOf(Math.min(...gaps));
      expect(kept).toContain(deep);
      const area = hullArea2(kept.map((i) => [pts[i]![0], pts[i]![1]]));
      expect(area).toBeGreaterThan(0.5 * bestArea(pts.map((p) => [p[0], p[1]]), deep));
    }), { seed: 43, numRuns: 40 });
  });

  it('fewer points than max: unchanged; max 1: the deepest alone', () => {
    const m = manifoldOf([[0, 0, 0.1], [1, 0, -0.2], [0, 1, 0.3]]);
    reduceManifold(m, 2, 4);
    expect(m.count).toBe(5);
    reduceManifold(m, 2, 1);
    expect(m.count).toBe(3);
    expect(m.featureA[2]).toBe(1);
  });
});

const I = [1, 0, 0, 0];

/** the convex views of solids 0 and 1 */
function views(solids: Solid[]): { A: Convex; B: Convex; t: ShapeTable } {
  const { shapes, q } = sceneOf(solids);
  const t = new ShapeTable(shapes, 0.05);
  t.updatePoses(q);
  const A = new Convex(), B = new Convex();
  loadShape(A, t, 0); loadShape(B, t, 1);
  return { A, B, t };
}

function pointsOf(m: Manifold): { fa: number; fb: number; p: number[]; gap: number }[] {
  return Array.from({ length: m.count }, (_, i) => ({ fa: m.featureA[i]!, fb: m.featureB[i]!, gap: m.gap[i]!,
    p: Array.from(m.point.subarray(3 * i, 3 * i + 3)) }));
}

const ws = new ClipWorkspace();
const NONE = new Float64Array(3);

describe('clipManifold', () => {
  it('box on box along the face normal: the box pair\'s points and ids', () => {
    const solids: Solid[] = [{ kind: 'box', params: [1, 1, 0.5], p: [0, 0, 0], q: I },
      { kind: 'box', params: [0.3, 0.2, 0.25], p: [0.1, -0.2, 0.749], q: [Math.cos(0.15), 0, 0, Math.sin(0.15)] }];
    const { A, B, t } = views(solids);
    const m = new Manifold(), ref = new Manifold();
    clipManifold(ws, A, B, 0, 0, 1, NONE, NONE, -0.001, 0.05, m);
    boxBox(t, 0, 1, ref);
    expect(pointsOf(m)).toEqual(pointsOf(ref));
    expect(m.count).toBe(4);
  });

  it('a box resting on a hull: the corners of the box on the hull\'s top face', () => {
    const pts8: number[][] = [];
    for (let v = 0; v < 8; v++) pts8.push([v & 1 ? 1 : -1, v & 2 ? 1 : -1, v & 4 ? 0.5 : -0.5]);
    const hull = ConvexHull.fromPoints(pts8, 'slab');
    const top3: Solid = { kind: 'box', params: [0.3, 0.2, 0.25], p: [0.1, -0.2, 0.749], q: [Math.cos(0.15), 0, 0, Math.sin(0.15)] };
    const { A: boxA, B } = views([{ kind: 'box', params: [1, 1, 0.5], p: [0, 0, 0], q: I }, top3]);
    const H = new Convex();
    H.kind = HULL; H.hull = hull; H.shape = 0; H.R.set([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const m = new Manifold(), ref = new Manifold();
    clipManifold(ws, H, B, 0, 0, 1, NONE, NONE, -0.001, 0.05, m);
    const V = hull.vertexCount;
    let top = -1;
    for (let f = 0; f < hull.faceCount; f++) if (hull.faceNormals[3 * f + 2]! > 0.5) top = f;
    expect(m.count).toBe(4);
    clipManifold(ws, boxA, B, 0, 0, 1, NONE, NONE, -0.001, 0.05, ref);
    const a = pointsOf(m), b = pointsOf(ref);
    for (let i = 0; i < 4; i++) {
      expect(a[i]!.fa).toBe(V + V * V + top);
      expect(a[i]!.fb).toBe(b[i]!.fb);
      expect(a[i]!.gap).toBeCloseTo(-0.001, 14);
      a[i]!.p.forEach((x, k) => expect(x).toBeCloseTo(b[i]!.p[k]!, 14));
    }
  });

  it('a cylinder standing on a box: its cap polygon clipped and reduced to 4 rim points', () => {
    const { A, B } = views([{ kind: 'box', params: [1, 1, 0.5], p: [0, 0, 0], q: I },
      { kind: 'cylinder', params: [0.3, 0.4], p: [0.2, 0.1, 0.898], q: I }]);
    const m = new Manifold();
    clipManifold(ws, A, B, 0, 0, 1, NONE, NONE, -0.002, 0.05, m);
    expect(m.count).toBe(4);
    const ids = new Set<number>();
    for (const c of pointsOf(m)) {
      expect(c.gap).toBeCloseTo(-0.002, 14);
      expect(c.p[2]).toBeCloseTo(0.499, 14);
      expect(Math.hypot(c.p[0]! - 0.2, c.p[1]! - 0.1)).toBeCloseTo(0.3, 14);
      expect(c.fa).toBe(25);
      ids.add(c.fb);
    }
    expect(ids.size).toBe(4);
  });

  it('a box resting on a mesh triangle: the box corners, named by triangle face and box vertex', () => {
    const { shapes, q } = sceneOf([{ kind: 'box', params: [0.2, 0.2, 0.2], p: [0, 0, 0.199], q: I }]);
    const t = new ShapeTable(shapes, 0.05);
    t.updatePoses(q);
    const tri = new Convex(), box = new Convex();
    loadTriangle(tri, [-5, -5, 0, 5, -5, 0, 0, 5, 0], 0, 7, 3);
    loadShape(box, t, 0);
    const m = new Manifold();
    clipManifold(ws, tri, box, 0, 0, 1, NONE, NONE, -0.001, 0.05, m);
    const pts = pointsOf(m);
    expect(pts.map((c) => [c.fa, c.fb]).sort((x, y) => x[1]! - y[1]!)).toEqual([[62, 0], [62, 1], [62, 2], [62, 3]]);
    for (const c of pts) { expect(c.gap).toBeCloseTo(-0.001, 15); expect(Math.abs(c.p[0]!)).toBeCloseTo(0.2, 15); }
  });

  it('a tilted cylinder cap on a mesh triangle: the rim\'s lowest point, between polygon vertices, kept', () => {
    // tilted 0.12 towards 15°, midway between two of the cap polygon's vertices (30° apart)
    const tilt = 0.12, phi = Math.PI / 12, r = 0.5, h = 0.3, sh = Math.sin(tilt / 2);
    const q = [Math.cos(tilt / 2), -Math.sin(phi) * sh, Math.cos(phi) * sh, 0];
    const z = h * Math.cos(tilt) + r * Math.sin(tilt) - 0.004;
    const { shapes, q: pose } = sceneOf([{ kind: 'cylinder', params: [r, h], p: [0.3, 0.2, z], q }]);
    const t = new ShapeTable(shapes, 0.05);
    t.updatePoses(pose);
    const cyl = new Convex(), tri = new Convex();
    loadShape(cyl, t, 0);
    loadTriangle(tri, [-5, -5, 0, 5, -5, 0, 0, 5, 0], 0, 7, 3);
    // the exact witnesses: the rim's lowest point and its foot on the triangle
    const pA = new Float64Array(3), pB = new Float64Array(3);
    support(pA, 0, cyl, 0, 0, -1);
    pB.set([pA[0]!, pA[1]!, 0]);
    const gap = pA[2]!;
    expect(gap).toBeCloseTo(-0.004, 14);
    const m = new Manifold();
    clipManifold(ws, cyl, tri, 0, 0, -1, pA, pB, gap, 0.05, m);
    const pts = pointsOf(m), deep = pts.reduce((a, c) => (c.gap < a.gap ? c : a));
    expect(pts.length).toBeLessThanOrEqual(4);
    expect(deep.gap).toBeCloseTo(gap, 14);
    [pA[0]!, pA[1]!, gap / 2].forEach((v, k) => expect(deep.p[k]!).toBeCloseTo(v, 14));
  });

  it('a capsule lying on a box: its core clipped, two points', () => {
    const { A, B } = views([{ kind: 'capsule', params: [0.1, 0.5], p: [0, 0, 0.599], q: [Math.SQRT1_2, 0, Math.SQRT1_2, 0] },
      { kind: 'box', params: [1, 1, 0.5], p: [0, 0, 0], q: I }]);
    const m = new Manifold();
    clipManifold(ws, A, B, 0, 0, -1, NONE, NONE, -0.001, 0.05, m);
    const pts = pointsOf(m).sort((x, y) => x.p[0]! - y.p[0]!);
    expect(pts.map((c) => [c.fa, c.fb])).toEqual([[0, 25], [1, 25]]);
    expect(pts[0]!.p[0]).toBeCloseTo(-0.5, 14);
    for (const c of pts) { expect(c.gap).toBeCloseTo(-0.001, 14); expect(c.p[2]).toBeCloseTo(0.4995, 14); }
  });

  it('a sphere, and two crossing box edges: the witness pair midway', () => {
    const { A, B } = views([{ kind: 'sphere', params: [0.2], p: [0, 0, 0.7], q: I }, { kind: 'box', params: [1, 1, 0.5], p: [0, 0, 0], q: I }]);
    const m = new Manifold();
    clipManifold(ws, A, B, 0, 0, -1, Float64Array.of(0, 0, 0.5), Float64Array.of(0, 0, 0.5), 0, 0.05, m);
    expect(pointsOf(m)).toEqual([{ fa: 0, fb: 25, gap: 0, p: [0, 0, 0.5] }]);
    // edges: A turned 45° about y (top edge along y), B 45° about x (bottom edge along x)
    const c = Math.cos(Math.PI / 8), s = Math.sin(Math.PI / 8);
    const e = views([{ kind: 'box', params: [0.5, 0.5, 0.5], p: [0, 0, 0], q: [c, 0, s, 0] },
      { kind: 'box', params: [0.5, 0.5, 0.5], p: [0, 0, 1.4], q: [c, s, 0, 0] }]);
    m.count = 0;
    clipManifold(ws, e.A, e.B, 0, 0, 1, Float64Array.of(0, 0, 0.7071), Float64Array.of(0, 0, 0.6929), -0.0142, 0.05, m);
    expect(m.count).toBe(1);
    expect(m.featureA[0]).toBe(8 + 4 + 1);
    expect(m.featureB[0]).toBe(8);
    expect(m.point[2]).toBeCloseTo(0.7, 14);
    // beyond the margin: nothing
    m.count = 0;
    clipManifold(ws, e.A, e.B, 0, 0, 1, NONE, NONE, 0.06, 0.05, m);
    expect(m.count).toBe(0);
  });
});
