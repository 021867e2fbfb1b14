/**
 * Convex shapes against triangle meshes (src/collision/meshPairs.ts): a sphere rolled over a
 * triangulated floor sees only the face normal, with its exact gap and one point, over faces,
 * edges and vertices alike; a sphere on a convex ridge keeps the edge's normal (an active edge);
 * a sphere in a valley gets the two faces; a sphere against a tilted and moved mesh gives the
 * contacts of the untilted one moved; the triangle feature locator on exact points.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ShapeTable, type ShapeDesc, type ShapeKindName } from '../../src/collision/shapes.js';
import { Manifold } from '../../src/collision/manifold.js';
import { convexMesh, triangleFeature, barycentric } from '../../src/collision/meshPairs.js';
import { TriMesh } from '../../src/collision/mesh.js';
import { heightFieldMesh } from '../../src/collision/heightfield.js';
import { quatMul, quatRotate } from '../../src/math/quat.js';
import { ConvexHull } from '../../src/collision/hull.js';
import { MAT, unit, arbPoint, arbQuat } from './geometry.js';

interface Pose { p: number[]; q: number[] }
const IDENTITY: Pose = { p: [0, 0, 0], q: [1, 0, 0, 0] };

interface Point { fa: number; fb: number; p: number[]; n: number[]; gap: number }

/** one manifold for every call, as a collider keeps one (its mesh scratch is made once) */
const MANIFOLD = new Manifold(2);

/** the points of convex shape (kind, params) at pose c against mesh at pose w, margin 0.02 */
function contacts(kind: ShapeKindName, params: number[], c: Pose, mesh: TriMesh, w: Pose = IDENTITY, margin = 0.02,
  hull?: ConvexHull): Point[] {
  const descs: ShapeDesc[] = [
    { kind, component: 0, qOffset: 0, isBody: true, params, position: [0, 0, 0], orientation: [1, 0, 0, 0],
      material: MAT, collide: true, name: 'convex', ...(hull ? { geometry: hull } : {}) },
    { kind: 'mesh', component: -1, qOffset: -1, isBody: false, params: [], geometry: mesh, position: w.p,
      orientation: w.q, material: MAT, collide: true, name: 'mesh' },
  ];
  const t = new ShapeTable(descs, margin);
  t.updatePoses(Float64Array.from([...c.p, ...unit(c.q)]));
  const m = MANIFOLD;
  m.count = 0;
  convexMesh(t, 0, 1, m);
  return Array.from({ length: m.count }, (_, i) => ({
    fa: m.featureA[i]!, fb: m.featureB[i]!, gap: m.gap[i]!,
    p: Array.from(m.point.subarray(3 * i, 3 * i + 3)), n: Array.from(m.normal.subarray(3 * i, 3 * i + 3)),
  }));
}

/** a 6 × 6 floor of unit cells in z = 0, centred on the origin */
function floor(): TriMesh {
  return heightFieldMesh({ size: [6, 6], heights: Array.from({ length: 7 }, () => new Array<number>(7).fill(0)) }, 'floor');
}

describe('sphere on a triangulated floor', () => {
  it('sees one point with the face normal and its exact gap over faces, edges and vertices', () => {
    const mesh = floor(), r = 0.3, depth = 0.004;
    // a path over cell interiors, across edges and diagonals, and through vertices
    const path: number[][] = [[0, 0], [1, 1], [-1, 0], [0.5, 0], [0.5, 0.5], [-0.25, -0.25], [1, 0.3]];
    for (let k = 0; k <= 60; k++) path.push([-2 + (4 * k) / 60, -1.7 + (3.1 * k) / 60]);
    for (const [x, y] of path) {
      const pts = contacts('sphere', [r], { p: [x!, y!, r - depth], q: [1, 0, 0, 0] }, mesh);
      expect(pts.length).toBe(1);
      expect(pts[0]!.n).toEqual([-0, -0, -1]);
      expect(pts[0]!.gap).toBeCloseTo(-depth, 14);
      expect(pts[0]!.p[0]).toBeCloseTo(x!, 14);
      expect(pts[0]!.p[1]).toBeCloseTo(y!, 14);
      expect(pts[0]!.p[2]).toBeCloseTo(-depth / 2, 14);
    }
  });

  it('keeps the normal of a border edge', () => {
    // the sphere past the floor's edge x = 3, level with it: the normal points at the edge
    const pts = contacts('sphere', [0.3], { p: [3.2, 0.5, 0.1], q: [1, 0, 0, 0] }, floor());
    expect(pts.length).toBe(1);
    const d = Math.hypot(0.2, 0.1);
    expect(pts[0]!.n[0]).toBeCloseTo(-0.2 / d, 14);
    expect(pts[0]!.n[2]).toBeCloseTo(-0.1 / d, 14);
    expect(pts[0]!.gap).toBeCloseTo(d - 0.3, 14);
  });
});

/** the rotation quaternion of angle a about the unit axis u */
function turn(u: number[], a: number): number[] {
  return [Math.cos(a / 2), ...u.map((x) => x * Math.sin(a / 2))];
}

describe('box on a triangulated floor', () => {
  it('gets the floor normal and the exact gap at every point, over edges and vertices', () => {
    const mesh = floor(), h = [0.5, 0.35, 0.2], depth = 0.003;
    for (let k = 0; k < 40; k++) {
      // positions and yaws that put corners and edges over triangle edges and vertices
      const x = -1.5 + 0.075 * k, y = 1 - 0.05 * k, yaw = 0.15 * k;
      const pts = contacts('box', h, { p: [x, y, h[2]! - depth], q: turn([0, 0, 1], yaw) }, mesh);
      expect(pts.length).toBe(4);
      const c = Math.cos(yaw), s = Math.sin(yaw);
      for (const p of pts) {
        expect(p.n).toEqual([-0, -0, -1]);
        expect(p.gap).toBeCloseTo(-depth, 13);
        expect(p.p[2]).toBeCloseTo(-depth / 2, 13);
        // inside the box's bottom face
        const dx = p.p[0]! - x, dy = p.p[1]! - y;
        expect(Math.abs(c * dx + s * dy)).toBeLessThanOrEqual(h[0]! + 1e-12);
        expect(Math.abs(-s * dx + c * dy)).toBeLessThanOrEqual(h[1]! + 1e-12);
      }
    }
  });

  it('sliding across the floor, edges flush with triangle edges, keeps the floor normal and its corners', () => {
    const mesh = floor(), h = [0.5, 0.5, 0.2], depth = 0.002;
    for (let k = 0; k <= 400; k++) {
      const x = -2 + 0.01 * k, pts = contacts('box', h, { p: [x, 0, h[2]! - depth], q: [1, 0, 0, 0] }, mesh);
      expect(pts.length).toBe(4);
      for (const p of pts) {
        expect(p.n).toEqual([-0, -0, -1]);
        expect(p.gap).toBeCloseTo(-depth, 13);
      }
      // on the bottom face, their hull holding the centre: some triangle of three points holds it
      for (const p of pts) expect(Math.max(Math.abs(p.p[0]! - x), Math.abs(p.p[1]!))).toBeLessThanOrEqual(0.5 + 1e-12);
      const xy = pts.map((p) => [p.p[0]! - x, p.p[1]!]);
      const cross = (a: number[], b: number[]): number => a[0]! * b[1]! - a[1]! * b[0]!;
      const holds = (a: number[], b: number[], c: number[]): boolean => {
        const s1 = cross([b[0]! - a[0]!, b[1]! - a[1]!], [-a[0]!, -a[1]!]), s2 = cross([c[0]! - b[0]!, c[1]! - b[1]!], [-b[0]!, -b[1]!]);
        const s3 = cross([a[0]! - c[0]!, a[1]! - c[1]!], [-c[0]!, -c[1]!]);
        // inside or on the border of a triangle of positive area
        const area = cross([b[0]! - a[0]!, b[1]! - a[1]!], [c[0]! - a[0]!, c[1]! - a[1]!]);
        return Math.abs(area) > 0.1 && ((s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0));
      };
      expect([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]].some(([a, b, c]) => holds(xy[a!]!, xy[b!]!, xy[c!]!))).toBe(true);
      // corners away from the grid lines and the diagonals (farther than the manifold builder's
      // clustering, 2% of an edge, ./convex/clip.ts): the points are the four corners, whichever
      // triangles they lie on (corner x ± 0.5 from a grid line, x from a diagonal y − x = n)
      const off = (v: number): number => Math.abs(v - Math.round(v));
      if (off(x + 0.5) > 0.03 && off(x) > 0.03) {
        const corners = xy.map((p) => p.map((v) => Math.round(v * 1e9) / 1e9).join(',')).sort();
        expect(corners).toEqual(['-0.5,-0.5', '-0.5,0.5', '0.5,-0.5', '0.5,0.5']);
      }
    }
  });

  it('a large box on many small triangles rests on its four corners', () => {
    // 6400 triangles of 0.1 m under a box of 4 m × 3 m
    const n = 80, fine = heightFieldMesh({ size: [8, 8], heights: Array.from({ length: n + 1 }, () => new Array<number>(n + 1).fill(0)) }, 'fine');
    const h = [2.013, 1.527, 0.2], pts = contacts('box', h, { p: [0.031, -0.046, h[2]! - 0.001], q: [1, 0, 0, 0] }, fine);
    expect(pts.length).toBe(4);
    const corners = pts.map((p) => [p.p[0]! - 0.031, p.p[1]! + 0.046].map((v) => Math.round(v * 1e9) / 1e9).join(',')).sort();
    expect(corners).toEqual(['-2.013,-1.527', '-2.013,1.527', '2.013,-1.527', '2.013,1.527']);
    for (const p of pts) { expect(p.n).toEqual([-0, -0, -1]); expect(p.gap).toBeCloseTo(-0.001, 13); }
  });

  it('tilted a little, still gets only the floor normal, its deepest corner exact', () => {
    const mesh = floor(), h = [0.5, 0.35, 0.2];
    for (let k = 0; k < 30; k++) {
      const tilt = turn(unit([Math.cos(k), Math.sin(k), 0]), 0.02), yaw = turn([0, 0, 1], 0.3 * k);
      const q = [tilt[0]! * yaw[0]! - tilt[3]! * yaw[3]!, tilt[1]! * yaw[0]! - tilt[2]! * yaw[3]!,
        tilt[2]! * yaw[0]! + tilt[1]! * yaw[3]!, tilt[3]! * yaw[0]! + tilt[0]! * yaw[3]!];
      // the lowest corner: the box's extent along z
      const R = quatRotate(new Float64Array(3), Float64Array.from(q), Float64Array.from([0, 0, 1]));
      const ex = [0, 1, 2].map((j) => {
        const e = [0, 0, 0]; e[j] = 1;
        return Math.abs(quatRotate(new Float64Array(3), Float64Array.from(q), Float64Array.from(e))[2]!) * h[j]!;
      }).reduce((a, b) => a + b, 0);
      expect(R[2]).toBeGreaterThan(0.99);
      const z = ex - 0.002, pts = contacts('box', h, { p: [-1 + 0.07 * k, 0.4 - 0.05 * k, z], q }, mesh);
      expect(pts.length).toBeGreaterThan(0);
      for (const p of pts) expect(p.n).toEqual([-0, -0, -1]);
      expect(Math.min(...pts.map((p) => p.gap))).toBeCloseTo(-0.002, 13);
    }
  });
});

describe('every convex kind on a triangulated floor', () => {
  it('gets the floor normal and the exact lowest gap', () => {
    const mesh = floor(), depth = 0.004;
    const hull = ConvexHull.fromPoints([[0, 0, -0.3], [0.4, 0, 0.2], [-0.2, 0.35, 0.2], [-0.2, -0.35, 0.2], [0.1, 0.1, 0.25]], 'hull');
    // kind, sizes, lowest point below the centre, points expected (a lying capsule and cylinder
    // rest on their two ends, a box on its four corners, the others on one point)
    const kinds: [ShapeKindName, number[], number, number][] = [
      ['sphere', [0.3], 0.3, 1], ['capsule', [0.2, 0.4], 0.2, 2], ['box', [0.3, 0.2, 0.1], 0.1, 4],
      ['cylinder', [0.3, 0.25], 0.3, 2], ['ellipsoid', [0.4, 0.3, 0.2], 0.3, 1], ['hull', [], 0.3, 1],
    ];
    // lying down: turned a quarter about x (capsule and cylinder on their side, ellipsoid on its y axis)
    const lying = turn([1, 0, 0], Math.PI / 2);
    for (const [kind, params, low, count] of kinds) {
      for (let k = 0; k < 12; k++) {
        const q = kind === 'box' || kind === 'hull' ? turn([0, 0, 1], 0.4 * k) : lying;
        const pts = contacts(kind, params, { p: [-1.3 + 0.21 * k, 0.9 - 0.17 * k, low - depth], q }, mesh, IDENTITY, 0.02,
          kind === 'hull' ? hull : undefined);
        expect(pts.length, kind).toBe(count);
        for (const p of pts) expect(p.n, kind).toEqual([-0, -0, -1]);
        expect(Math.min(...pts.map((p) => p.gap)), kind).toBeCloseTo(-depth, kind === 'cylinder' || kind === 'ellipsoid' ? 9 : 13);
      }
    }
  });
});

/** a tent along y: z = −s|x| for x in [−1, 1], y in [−2, 2], crest at x = 0 */
function tent(s: number): TriMesh {
  return heightFieldMesh({ size: [2, 4], heights: Array.from({ length: 5 }, () => [-s, 0, -s]) }, 'tent');
}

describe('sphere on a ridge and in a valley', () => {
  it('a convex ridge keeps the edge normal (active edge)', () => {
    const r = 0.3;
    for (const [x, y] of [[0, 0.3], [0.05, -0.5], [-0.03, 1]]) {
      const c = [x!, y!, r - 0.01];
      const pts = contacts('sphere', [r], { p: c, q: [1, 0, 0, 0] }, tent(0.5));
      expect(pts.length).toBe(1);
      // the crest point (0, y, 0) is the closest: the normal runs from the centre to it
      const d = Math.hypot(x!, c[2]!);
      expect(pts[0]!.n[0]).toBeCloseTo(-x! / d, 14);
      expect(pts[0]!.n[1]).toBeCloseTo(0, 14);
      expect(pts[0]!.n[2]).toBeCloseTo(-c[2]! / d, 14);
      expect(pts[0]!.gap).toBeCloseTo(d - r, 14);
    }
  });

  it('on one face of a ridge, near its crest, the face alone pushes (no normal past the face)', () => {
    // a 20° ridge: a sphere sunk 0.01 into the face x < 0 near the crest is in that face's region,
    // and the crest's closest-point normal leans back past the face's normal
    const s = Math.tan((20 * Math.PI) / 180), r = 0.3, l = Math.hypot(1, s), f = [-s / l, 0, 1 / l];
    const c = [-0.05 + (r - 0.01) * f[0]!, 0.3, -0.05 * s + (r - 0.01) * f[2]!];
    expect(Math.hypot(c[0]!, c[2]!) - r).toBeLessThan(0.02);
    const pts = contacts('sphere', [r], { p: c, q: [1, 0, 0, 0] }, tent(s));
    expect(pts.length).toBe(1);
    f.forEach((v, k) => expect(pts[0]!.n[k]!).toBeCloseTo(-v, 14));
    expect(pts[0]!.gap).toBeCloseTo(-0.01, 14);
  });

  it('a valley gives the two faces, never the concave edge', () => {
    const r = 0.3, s = 0.5, mesh = tent(-s), z = r * Math.hypot(1, s) - 0.01;
    const pts = contacts('sphere', [r], { p: [0, 0.2, z], q: [1, 0, 0, 0] }, mesh);
    const l = Math.hypot(1, s);
    // one point on each face, at the face's exact gap: (z − 0)·(1/l) − r
    expect(pts.length).toBe(2);
    for (const p of pts) {
      expect(Math.abs(p.n[0]!)).toBeCloseTo(s / l, 14);
      expect(p.n[2]).toBeCloseTo(-1 / l, 14);
      expect(p.gap).toBeCloseTo(z / l - r, 14);
    }
    expect(Math.sign(pts[0]!.n[0]!)).toBe(-Math.sign(pts[1]!.n[0]!));
  });
});

describe('mesh pose', () => {
  /** a bumpy field: some edges flat, some convex beyond the tolerance, some concave */
  const bumps = heightFieldMesh({ size: [4, 4], heights: Array.from({ length: 9 }, (_, j) =>
    Array.from({ length: 9 }, (_, i) => 0.25 * Math.sin(1.7 * i) * Math.cos(1.3 * j))) }, 'bumps');
  const kinds: [ShapeKindName, number[]][] = [['sphere', [0.3]], ['capsule', [0.2, 0.35]], ['box', [0.4, 0.3, 0.2]]];

  it('every contact of a sphere on a tilted and moved tent is the contact moved', () => {
    const mesh = tent(0.3), rot = unit([0.9, 0.2, -0.3, 0.25]), shift = [0.4, -1.2, 2], rq = Float64Array.from(rot);
    const turnV = (x: number[]): number[] => Array.from(quatRotate(new Float64Array(3), rq, Float64Array.from(x)));
    const move = (x: number[]): number[] => turnV(x).map((v, k) => v + shift[k]!);
    for (const c of [[0.02, 0.1, 0.25], [0.6, -0.4, 0.05], [-0.45, 1.5, 0.1]]) {
      const a = contacts('sphere', [0.3], { p: c, q: [1, 0, 0, 0] }, mesh);
      const b = contacts('sphere', [0.3], { p: move(c), q: [1, 0, 0, 0] }, mesh, { p: shift, q: rot });
      expect(a.length).toBeGreaterThan(0);
      expect(b.map((x) => [x.fa, x.fb])).toEqual(a.map((x) => [x.fa, x.fb]));
      a.forEach((x, i) => {
        expect(b[i]!.gap).toBeCloseTo(x.gap, 12);
        turnV(x.n).forEach((v, k) => expect(b[i]!.n[k]!).toBeCloseTo(v, 12));
        move(x.p).forEach((v, k) => expect(b[i]!.p[k]!).toBeCloseTo(v, 12));
      });
    }
  });

  it('the deepest contact of a moved and turned scene is the deepest one moved (fast-check)', () => {
    // (which four points the reduction keeps among many of other normals may turn on rounding-level
    // ties of areas, so only the deepest point, its normal and the count are compared)
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 }), arbPoint, arbQuat, arbQuat, arbPoint, (kind, p, q, rot, shift) => {
      // a generic scene: an offset and a turn keep the shape off exact ties with the grid
      const [name, params] = kinds[kind]!, c = [1.4 * p[0] + 0.0123, 1.4 * p[1] - 0.0271, 0.2 + 0.3 * p[2]];
      q = Array.from(quatMul(new Float64Array(4), Float64Array.from(q), Float64Array.from(unit([0.98, 0.061, -0.043, 0.029]))));
      const rq = Float64Array.from(rot), turnV = (x: readonly number[]): number[] => Array.from(quatRotate(new Float64Array(3), rq, Float64Array.from(x)));
      const move = (x: readonly number[]): number[] => turnV(x).map((v, k) => v + shift[k]!);
      const qq = Array.from(quatMul(new Float64Array(4), rq, Float64Array.from(q)));
      const a = contacts(name, params, { p: c, q }, bumps);
      const b = contacts(name, params, { p: move(c), q: qq }, bumps, { p: shift, q: rot });
      expect(b.length).toBe(a.length);
      if (a.length === 0) return;
      const deepest = (l: Point[]): Point => l.reduce((x, y) => (y.gap < x.gap ? y : x));
      const da = deepest(a), db = deepest(b);
      expect(db.gap).toBeCloseTo(da.gap, 9);
      turnV(da.n).forEach((v, k) => expect(db.n[k]!).toBeCloseTo(v, 9));
    }), { seed: 42, numRuns: 200 });
  });
});

describe('triangleFeature', () => {
  it('names the vertex, edge or face of exact points', () => {
    const W = Float64Array.from([0, 0, 0, 2, 0, 0, 0, 2, 0]), b = new Float64Array(3);
    const feature = (x: number, y: number, z: number): number => { barycentric(b, W, x, y, z); return triangleFeature(b); };
    expect([[0, 0], [2, 0], [0, 2]].map(([x, y]) => feature(x!, y!, 0.5))).toEqual([0, 1, 2]);
    expect([[1, 0], [1, 1], [0, 1]].map(([x, y]) => feature(x!, y!, -0.5))).toEqual([3, 4, 5]);
    expect(feature(0.5, 0.5, 0)).toBe(6);
    barycentric(b, W, 0.5, 1, 3);
    expect(Array.from(b)).toEqual([0.25, 0.25, 0.5]);
  });
});

/** the cube [−1, 1]³ as 12 outward triangles, each face split along a diagonal */
function cubeMesh(): TriMesh {
  const vertices: number[][] = [];
  for (let k = 0; k < 8; k++) vertices.push([k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1]);
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  return TriMesh.from(vertices, quads.flatMap(([a, b, c, d]) => [[a!, b!, c!], [a!, c!, d!]]), 'cube');
}

/** exact signed distance of x to the cube [−1, 1]³ */
function cubeSdf(x: readonly number[]): number {
  const d = x.map((v) => Math.abs(v) - 1);
  return Math.hypot(...d.map((v) => Math.max(v, 0))) + Math.min(Math.max(...d), 0);
}

describe('against brute force: round shapes and a closed cube mesh', () => {
  it('the deepest point has the exact signed distance (sphere and capsule, apart and sunk in)', () => {
    const mesh = cubeMesh(), margin = 0.6;
    fc.assert(fc.property(arbPoint, arbQuat, fc.double({ min: 0.1, max: 0.5, noNaN: true }), fc.double({ min: 0, max: 0.6, noNaN: true }),
      (p, q, r, h) => {
        // the centre on a shell about the cube, from 0.15 inside to 0.5 outside a face
        const c = p.map((v) => 1.6 * v);
        const R = quatRotate(new Float64Array(3), Float64Array.from(q), Float64Array.from([0, 0, 1]));
        // the capsule's core distance by ternary search along its segment (the cube's sdf is convex)
        const at = (s: number): number => cubeSdf(c.map((v, k) => v + s * R[k]!));
        let lo = -h, hi = h;
        for (let i = 0; i < 200; i++) { const a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3; if (at(a) <= at(b)) hi = b; else lo = a; }
        const exact = Math.min(at(lo), at(-h), at(h)) - r;
        fc.pre(exact > -0.15 && exact < 0.5 && Math.min(at(lo), at(-h), at(h)) > 1e-3);
        const pts = contacts(h > 0 ? 'capsule' : 'sphere', h > 0 ? [r, h] : [r], { p: c, q }, mesh, IDENTITY, margin);
        expect(pts.length).toBeGreaterThan(0);
        expect(Math.min(...pts.map((x) => x.gap))).toBeCloseTo(exact, 9);
      }), { seed: 42, numRuns: 300 });
  });

  it('a sphere through the bottom of a thick slab is not pushed up through its top', () => {
    // a slab 0.2 thick, its top a grid whose inner triangles have no active feature, turned so that
    // the boxes of its top triangles reach the sphere: a sphere of radius 1 sunk 0.1 into its bottom
    // (0.1 behind the top) meets only the bottom
    const top = heightFieldMesh({ size: [10, 10], heights: Array.from({ length: 5 }, () => new Array<number>(5).fill(0.2)) }, 'top');
    const v = Array.from(top.vertices), t = Array.from(top.triangles), nv = top.vertexCount;
    const slab = TriMesh.from([...v, -5, -5, 0, 5, -5, 0, 5, 5, 0, -5, 5, 0], [...t, nv, nv + 2, nv + 1, nv, nv + 3, nv + 2], 'slab');
    expect(Array.from(slab.activeFlags).filter((f) => f === 0).length).toBe(8);
    const rot = turn([1, 0, 0], 0.7), R = (x: number[]): number[] => Array.from(quatRotate(new Float64Array(3), Float64Array.from(rot), Float64Array.from(x)));
    const pts = contacts('sphere', [1], { p: R([0.3, -0.2, -0.9]), q: [1, 0, 0, 0] }, slab, { p: [0, 0, 0], q: rot }, 0.05);
    expect(pts.length).toBe(1);
    R([0, 0, 1]).forEach((x, k) => expect(pts[0]!.n[k]!).toBeCloseTo(x, 15));
    expect(pts[0]!.gap).toBeCloseTo(-0.1, 14);
  });
});
