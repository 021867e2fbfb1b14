/**
 * Cylinders, ellipsoids and hulls against a plane: exact gaps (the lowest point of a cylinder, of an
 * ellipsoid, the lowest vertex of a hull), a cylinder standing (four rim points fixed in the body,
 * kept under small tilts), tilted (its true lowest point among them) and lying (the ends of its
 * lowest line), a cube hull resting flat (its four bottom corners), the margin, points midway
 * between the plane and the shape's surface, and invariance under a rigid motion of both.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { planeCylinder, planeEllipsoid, planeHull } from '../../../src/collision/convex/planeConvex.js';
import { Manifold } from '../../../src/collision/manifold.js';
import { type Solid, arbPoint, arbQuat, rotationOf, unit, moveSolid, toWorld } from '../geometry.js';
import {
  type ConvexSolid, tableOf, cubeHull, surfaceResidual, arbCylinder, arbEllipsoid, arbHull, hullOf, blobPoints,
} from './gjkFixtures.js';

const I = [1, 0, 0, 0];
const FLOOR: Solid = { kind: 'plane', params: [], p: [0, 0, 0], q: I };

interface Point { fb: number; p: number[]; n: number[]; gap: number }

/** the contacts of plane and shape by the pair function of the shape's kind */
function planePoints(plane: Solid, s: ConvexSolid, margin: number): Point[] {
  const t = tableOf([plane, s], margin), m = new Manifold(2);
  const f = s.kind === 'cylinder' ? planeCylinder : s.kind === 'ellipsoid' ? planeEllipsoid : planeHull;
  f(t, 0, 1, m);
  return [...Array(m.count).keys()].map((i) => {
    expect(m.featureA[i]).toBe(0);
    return { fb: m.featureB[i]!, gap: m.gap[i]!, p: Array.from(m.point.subarray(3 * i, 3 * i + 3)), n: Array.from(m.normal.subarray(3 * i, 3 * i + 3)) };
  });
}

/** the plane's unit normal and its offset n·p₀ */
function planeOf(plane: Solid): { n: number[]; d: number } {
  const R = rotationOf(plane), n = [R[2]!, R[5]!, R[8]!];
  return { n, d: n[0]! * plane.p[0]! + n[1]! * plane.p[1]! + n[2]! * plane.p[2]! };
}

/** the exact lowest gap of the shape above the plane */
function lowestGap(plane: Solid, s: ConvexSolid): number {
  const { n, d } = planeOf(plane), R = rotationOf(s);
  // n in the shape frame
  const l = [0, 1, 2].map((c) => R[c]! * n[0]! + R[3 + c]! * n[1]! + R[6 + c]! * n[2]!);
  const c = n[0]! * s.p[0]! + n[1]! * s.p[1]! + n[2]! * s.p[2]! - d;
  if (s.kind === 'cylinder') return c - s.params[1]! * Math.abs(l[2]!) - s.params[0]! * Math.hypot(l[0]!, l[1]!);
  if (s.kind === 'ellipsoid') return c - Math.hypot(s.params[0]! * l[0]!, s.params[1]! * l[1]!, s.params[2]! * l[2]!);
  const V = s.hull!.vertices;
  let lo = Infinity;
  for (let v = 0; v < s.hull!.vertexCount; v++) lo = Math.min(lo, l[0]! * V[3 * v]! + l[1]! * V[3 * v + 1]! + l[2]! * V[3 * v + 2]!);
  return c + lo;
}

/** every point: the plane's normal, the plane gap/2 below it, the shape's surface gap/2 above it */
function expectMidway(plane: Solid, s: ConvexSolid, pts: Point[], tol: number): void {
  const { n, d } = planeOf(plane);
  for (const c of pts) {
    c.n.forEach((v, k) => expect(v).toBeCloseTo(n[k]!, 14));
    const pa = c.p.map((v, k) => v - 0.5 * c.gap * n[k]!), pb = c.p.map((v, k) => v + 0.5 * c.gap * n[k]!);
    expect(Math.abs(n[0]! * pa[0]! + n[1]! * pa[1]! + n[2]! * pa[2]! - d)).toBeLessThan(tol);
    expect(Math.abs(surfaceResidual(s, pb))).toBeLessThan(tol);
  }
}

const arbPlane = fc.record({ p: arbPoint, q: arbQuat }).map(({ p, q }): Solid => ({ kind: 'plane', params: [], p, q }));
const arbShape = fc.oneof(arbCylinder, arbEllipsoid, arbHull);

describe('plane-convex at random poses', () => {
  it('the deepest point at the exact lowest gap; every point midway on the plane\'s normal; at most four', () => {
    fc.assert(fc.property(arbPlane, arbShape, (plane, s) => {
      const pts = planePoints(plane, s, 100);
      expect(pts.length).toBeGreaterThan(0);
      expect(pts.length).toBeLessThanOrEqual(4);
      // a cylinder near upright keeps its rim points fixed: within 0.3 r ρ of the lowest (ρ < 1e-3)
      const tol = s.kind === 'cylinder' ? 3e-4 * s.params[0]! : 1e-12;
      const deep = Math.min(...pts.map((c) => c.gap)), exact = lowestGap(plane, s);
      expect(deep).toBeGreaterThanOrEqual(exact - 1e-12);
      expect(deep).toBeLessThan(exact + tol);
      expectMidway(plane, s, pts, 1e-12);
      expect(new Set(pts.map((c) => c.fb)).size).toBe(pts.length);
    }), { seed: 60, numRuns: 300, endOnFailure: true });
  });

  it('the margin: exactly the points below it', () => {
    fc.assert(fc.property(arbPlane, arbShape, fc.double({ min: 0, max: 0.5, noNaN: true }), (plane, s, margin) => {
      const all = planePoints(plane, s, 100), some = planePoints(plane, s, margin);
      some.forEach((c) => expect(c.gap).toBeLessThan(margin));
      // the hull's reduction to four chooses among those below the margin; the others keep their points
      if (s.kind !== 'hull') expect(some).toEqual(all.filter((c) => c.gap < margin));
    }), { seed: 61, numRuns: 200, endOnFailure: true });
  });

  it('a rigid motion of plane and shape moves the points with them, same features and gaps', () => {
    fc.assert(fc.property(arbPlane, arbShape, arbPoint, arbQuat, (plane, s, t, rq) => {
      // (a cylinder whose caps are at one height, or whose lowest rim direction is halfway between two
      // of its rim points, names its points by a tie that rounding may break either way)
      if (s.kind === 'cylinder') {
        const { n } = planeOf(plane), R = rotationOf(s);
        const l = [0, 1, 2].map((c) => R[c]! * n[0]! + R[3 + c]! * n[1]! + R[6 + c]! * n[2]!);
        const a = Math.atan2(l[1]!, l[0]!) / (Math.PI / 2);
        fc.pre(Math.abs(l[2]!) > 1e-9 && Math.abs(Math.abs(a - Math.round(a)) - 0.5) > 1e-9);
      }
      const rot = Float64Array.from(rq), p0 = planePoints(plane, s, 100);
      const p1 = planePoints(moveSolid(plane, t, rot), moveSolid(s, t, rot) as ConvexSolid, 100);
      expect(p1.map((c) => c.fb)).toEqual(p0.map((c) => c.fb));
      p0.forEach((c, i) => expect(p1[i]!.gap).toBeCloseTo(c.gap, 9));
    }), { seed: 62, numRuns: 200, endOnFailure: true });
  });
});

describe('plane-cylinder', () => {
  const r = 0.3, h = 0.2;
  /** a cylinder turned by spin about its axis, then tilted by `tilt` about the horizontal direction dir */
  function spinAbout(tilt: number, dir: number, z: number, spin: number): ConvexSolid {
    const qs = [Math.cos(spin / 2), 0, 0, Math.sin(spin / 2)];
    const qt = [Math.cos(tilt / 2), Math.sin(tilt / 2) * Math.cos(dir), Math.sin(tilt / 2) * Math.sin(dir), 0];
    const q = [
      qt[0]! * qs[0]! - qt[3]! * qs[3]!, qt[1]! * qs[0]! + qt[2]! * qs[3]!, qt[2]! * qs[0]! - qt[1]! * qs[3]!, qt[0]! * qs[3]! + qt[3]! * qs[0]!,
    ];
    return { kind: 'cylinder', params: [r, h], p: [0.5, -0.2, z], q };
  }

  it('standing: the lower cap\'s four rim points at the body\'s 0, 90, 180, 270 degrees, features 0..3', () => {
    const s = spinAbout(0, 0, h - 1e-3, 0.4), pts = planePoints(FLOOR, s, 0.01);
    expect(pts.map((c) => c.fb)).toEqual([0, 1, 2, 3]);
    pts.forEach((c, k) => {
      expect(c.gap).toBeCloseTo(-1e-3, 12);
      const rim = toWorld(s, [r * Math.cos((k * Math.PI) / 2), r * Math.sin((k * Math.PI) / 2), -h]);
      [rim[0]!, rim[1]!, -5e-4].forEach((v, j) => expect(c.p[j]!).toBeCloseTo(v, 12));
    });
    // upside down, the other cap: features 4..7
    expect(planePoints(FLOOR, spinAbout(Math.PI, 0.3, h - 1e-3, 0.4), 0.01).map((c) => c.fb)).toEqual([4, 5, 6, 7]);
  });

  it('tilted by less than 1e-3 rad in any direction: the same four features, the points barely move', () => {
    const ids = planePoints(FLOOR, spinAbout(0, 0, h, 0.4), 0.01).map((c) => c.fb);
    for (const [tilt, dir] of [[1e-6, 0.1], [1e-5, 2], [5e-4, -1.3], [9e-4, 3]]) {
      const s = spinAbout(tilt!, dir!, h, 0.4), pts = planePoints(FLOOR, s, 0.01);
      expect(pts.map((c) => c.fb)).toEqual(ids);
      pts.forEach((c) => expect(Math.abs(c.gap)).toBeLessThan(r * tilt! + 1e-12));
      expect(Math.min(...pts.map((c) => c.gap))).toBeLessThan(lowestGap(FLOOR, s) + 0.3 * r * tilt!);
    }
  });

  it('tilted: the lowest rim point is a contact at the exact gap; a small rotation keeps the features', () => {
    for (const dir of [0, 0.7, 2.5, -2]) {
      const s = spinAbout(0.3, dir, 0.5, 0.4), pts = planePoints(FLOOR, s, 1);
      expect(Math.min(...pts.map((c) => c.gap))).toBeCloseTo(lowestGap(FLOOR, s), 12);
      const moved = planePoints(FLOOR, spinAbout(0.3 + 1e-4, dir + 1e-4, 0.5, 0.4), 1);
      expect(moved.map((c) => c.fb)).toEqual(pts.map((c) => c.fb));
    }
  });

  it('lying on its side: the two ends of the lowest line, one on each cap, at one gap', () => {
    const s = spinAbout(Math.PI / 2, 0.6, r - 2e-3, 0.4), pts = planePoints(FLOOR, s, 0.01);
    expect(pts.length).toBe(2);
    expect(pts.map((c) => c.fb >> 2).sort()).toEqual([0, 1]);
    pts.forEach((c) => expect(c.gap).toBeCloseTo(-2e-3, 12));
    expectMidway(FLOOR, s, pts, 1e-12);
  });
});

describe('plane-ellipsoid and plane-hull', () => {
  it('an ellipsoid: one point below its centre\'s support, at the exact gap', () => {
    const s: ConvexSolid = { kind: 'ellipsoid', params: [0.3, 0.2, 0.1], p: [0.1, 0.2, 0.1 - 1e-3], q: I };
    const pts = planePoints(FLOOR, s, 0.01);
    expect(pts.length).toBe(1);
    expect(pts[0]!.gap).toBeCloseTo(-1e-3, 12);
    [0.1, 0.2, -5e-4].forEach((v, k) => expect(pts[0]!.p[k]!).toBeCloseTo(v, 12));
  });

  it('a cube hull resting flat: its four bottom vertices, and the same ones after a small motion', () => {
    const cube = cubeHull(0.5);
    const at = (dx: number, tilt: number): Point[] => planePoints(FLOOR,
      { kind: 'hull', params: [], p: [dx, 0, 0.5 - 1e-3], q: unit([1, tilt, 0.5 * tilt, 0.2]), hull: cube }, 0.01);
    const pts = at(0, 0);
    expect(pts.length).toBe(4);
    pts.forEach((c) => { expect(c.gap).toBeCloseTo(-1e-3, 12); expect(cube.vertices[3 * c.fb + 2]).toBe(-0.5); });
    expect(at(1e-3, 1e-4).map((c) => c.fb)).toEqual(pts.map((c) => c.fb));
  });

  it('a rounded hull on its many-vertex side: four of the vertices below the margin, the deepest among them', () => {
    const blob = hullOf(blobPoints());
    for (const q of [I, unit([1, 0.3, 0, 0]), unit([0.2, 1, 0.4, -0.3])]) {
      const s: ConvexSolid = { kind: 'hull', params: [], p: [0, 0, 0.2], q, hull: blob };
      const pts = planePoints(FLOOR, s, 0.3);
      expect(pts.length).toBeLessThanOrEqual(4);
      expect(Math.min(...pts.map((c) => c.gap))).toBeCloseTo(lowestGap(FLOOR, s), 12);
      pts.forEach((c) => expect(c.gap).toBeLessThan(0.3));
    }
  });
});
