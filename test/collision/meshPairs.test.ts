/**
 * Convex shapes against triangle meshes (src/collision/meshPairs.ts): a sphere rolled over a
 * triangulated floor sees only the face normal, with its exact gap and one point, over faces,
 * edges and vertices alike; a sphere on a convex ridge keeps the edge's normal (an active edge);
 * a sphere in a valley gets the two faces; a sphere against a tilted and moved mesh gives the
 * contacts of the untilted one moved; the triangle feature locator on exact points.
 */
import { describe, it, expect } from 'vitest';
import { ShapeTable, type ShapeDesc, type ShapeKindName } from '../../src/collision/shapes.js';
import { Manifold } from '../../src/collision/manifold.js';
import { convexMesh, triangleFeature } from '../../src/collision/meshPairs.js';
import { TriMesh } from '../../src/collision/mesh.js';
import { heightFieldMesh } from '../../src/collision/heightfield.js';
import { quatRotate } from '../../src/math/quat.js';
import { MAT, unit } from './geometry.js';

interface Pose { p: number[]; q: number[] }
const IDENTITY: Pose = { p: [0, 0, 0], q: [1, 0, 0, 0] };

interface Point { fa: number; fb: number; p: number[]; n: number[]; gap: number }

/** the points of convex shape (kind, params) at pose c against mesh at pose w, margin 0.02 */
function contacts(kind: ShapeKindName, params: number[], c: Pose, mesh: TriMesh, w: Pose = IDENTITY, margin = 0.02): Point[] {
  const descs: ShapeDesc[] = [
    { kind, component: 0, qOffset: 0, isBody: true, params, position: [0, 0, 0], orientation: [1, 0, 0, 0],
      material: MAT, collide: true, name: 'convex' },
    { kind: 'mesh', component: -1, qOffset: -1, isBody: false, params: [], geometry: mesh, position: w.p,
      orientation: w.q, material: MAT, collide: true, name: 'mesh' },
  ];
  const t = new ShapeTable(descs, margin);
  t.updatePoses(Float64Array.from([...c.p, ...unit(c.q)]));
  const m = new Manifold(2);
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
  it('the contacts of a moved and turned scene are the contacts moved', () => {
    const mesh = tent(0.3), rot = unit([0.9, 0.2, -0.3, 0.25]), shift = [0.4, -1.2, 2];
    const move = (x: number[]): number[] => Array.from(quatRotate(new Float64Array(3), Float64Array.from(rot), Float64Array.from(x)), (v, k) => v + shift[k]!);
    const turn = (x: number[]): number[] => Array.from(quatRotate(new Float64Array(3), Float64Array.from(rot), Float64Array.from(x)));
    for (const c of [[0.02, 0.1, 0.25], [0.6, -0.4, 0.05], [-0.45, 1.5, 0.1]]) {
      const a = contacts('sphere', [0.3], { p: c, q: [1, 0, 0, 0] }, mesh);
      const b = contacts('sphere', [0.3], { p: move(c), q: [1, 0, 0, 0] }, mesh, { p: shift, q: rot });
      expect(a.length).toBeGreaterThan(0);
      expect(b.map((x) => [x.fa, x.fb])).toEqual(a.map((x) => [x.fa, x.fb]));
      a.forEach((x, i) => {
        expect(b[i]!.gap).toBeCloseTo(x.gap, 12);
        turn(x.n).forEach((v, k) => expect(b[i]!.n[k]!).toBeCloseTo(v, 12));
        move(x.p).forEach((v, k) => expect(b[i]!.p[k]!).toBeCloseTo(v, 12));
      });
    }
  });
});

describe('triangleFeature', () => {
  it('names the vertex, edge or face of exact points', () => {
    const W = Float64Array.from([0, 0, 0, 2, 0, 0, 0, 2, 0]);
    expect([[0, 0], [2, 0], [0, 2]].map(([x, y]) => triangleFeature(W, x!, y!, 0.5))).toEqual([0, 1, 2]);
    expect([[1, 0], [1, 1], [0, 1]].map(([x, y]) => triangleFeature(W, x!, y!, -0.5))).toEqual([3, 4, 5]);
    expect(triangleFeature(W, 0.5, 0.5, 0)).toBe(6);
  });
});
