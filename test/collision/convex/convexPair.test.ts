/**
 * The general convex pair's manifolds: a hull resting on a hull (four points, the face's corners,
 * with ids that survive small motions), a box on a hull, a cylinder standing on a box, an ellipsoid
 * on a box (one point), the margin, and at random poses of every kind pair: at most four points,
 * all on the pair's normal, each point's two surface points inside both shapes, the deepest at
 * the signed distance; convexConvex reads the shapes from a table.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ConvexWorkspace, convexPair, convexConvex, convexDistance } from '../../../src/collision/convex/convexPair.js';
import { Manifold } from '../../../src/collision/manifold.js';
import { unit } from '../geometry.js';
import {
  type ConvexSolid, convexesOf, tableOf, cubeHull, surfaceResidual, arbBox, arbCylinder, arbEllipsoid, arbHull,
  arbSphere, arbCapsule,
} from './gjkFixtures.js';

const I = [1, 0, 0, 0];

interface Point { fa: number; fb: number; p: number[]; n: number[]; gap: number }

/** the manifold of the solids by convexPair, as plain points */
function pairPoints(a: ConvexSolid, b: ConvexSolid, margin: number, ws = new ConvexWorkspace()): Point[] {
  const [A, B] = convexesOf([a, b]), m = new Manifold(2);
  convexPair(ws, A!, B!, margin, m);
  return [...Array(m.count).keys()].map((i) => ({
    fa: m.featureA[i]!, fb: m.featureB[i]!, gap: m.gap[i]!,
    p: Array.from(m.point.subarray(3 * i, 3 * i + 3)), n: Array.from(m.normal.subarray(3 * i, 3 * i + 3)),
  }));
}

/** each point's surface points p ∓ (gap/2) n lie in A and in B (to a tolerance, or one per point) */
function expectInside(a: ConvexSolid, b: ConvexSolid, pts: Point[], tol: number | ((c: Point) => number)): void {
  for (const c of pts) {
    const pa = c.p.map((v, k) => v - 0.5 * c.gap * c.n[k]!), pb = c.p.map((v, k) => v + 0.5 * c.gap * c.n[k]!);
    const t = typeof tol === 'number' ? tol : tol(c);
    expect(surfaceResidual(a, pa)).toBeLessThan(t);
    expect(surfaceResidual(b, pb)).toBeLessThan(t);
  }
}

const byIds = (pts: Point[]): number[][] => pts.map((c) => [c.fa, c.fb]).sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);

describe('convexPair: resting contacts', () => {
  const cube = cubeHull(0.5);
  const floor: ConvexSolid = { kind: 'hull', params: [], p: [0, 0, -1], q: I, hull: cubeHull(1) };

  it('a cube hull resting on a hull, turned about the normal: four points at the gap, the upper face\'s corners', () => {
    for (const gap of [-1e-3, 0, 2e-3]) {
      const top: ConvexSolid = { kind: 'hull', params: [], p: [0.1, -0.2, 0.5 + gap], q: unit([Math.cos(0.2), 0, 0, Math.sin(0.2)]), hull: cube };
      const pts = pairPoints(floor, top, 0.01);
      expect(pts.length).toBe(4);
      for (const c of pts) {
        expect(c.gap).toBeCloseTo(gap, 12);
        expect(c.n[2]!).toBeCloseTo(1, 12);
      }
      // the corners of the upper cube's bottom face, midway between the surfaces
      const corners = pts.map((c) => c.p[2]!);
      corners.forEach((z) => expect(z).toBeCloseTo(0.5 * gap, 12));
      expectInside(floor, top, pts, 1e-12);
    }
  });

  it('the ids of the resting points stay the same under small motions', () => {
    const at = (dx: number, dz: number, turn: number): number[][] => byIds(pairPoints(floor,
      { kind: 'hull', params: [], p: [0.1 + dx, -0.2, 0.5 + dz], q: unit([Math.cos(0.2 + turn), 0, 0, Math.sin(0.2 + turn)]), hull: cube }, 0.01));
    const ids = at(0, 0, 0);
    expect(ids.length).toBe(4);
    for (const [dx, dz, turn] of [[1e-4, -1e-4, 1e-4], [-3e-4, 2e-4, -2e-4], [2e-3, 5e-4, 1e-3]]) expect(at(dx!, dz!, turn!)).toEqual(ids);
  });

  it('a box on a hull, a cylinder standing on a box: face contacts of at least three points', () => {
    const box: ConvexSolid = { kind: 'box', params: [0.3, 0.2, 0.1], p: [0, 0.1, 0.1 - 1e-3], q: unit([1, 0, 0, 0.3]) };
    const boxPts = pairPoints(floor, box, 0.01);
    expect(boxPts.length).toBe(4);
    boxPts.forEach((c) => expect(c.gap).toBeCloseTo(-1e-3, 12));
    expectInside(floor, box, boxPts, 1e-12);
    const base: ConvexSolid = { kind: 'box', params: [1, 1, 0.5], p: [0, 0, -0.5], q: I };
    const cyl: ConvexSolid = { kind: 'cylinder', params: [0.2, 0.3], p: [0.1, 0, 0.3 + 5e-4], q: I };
    const cylPts = pairPoints(base, cyl, 0.01);
    expect(cylPts.length).toBeGreaterThanOrEqual(3);
    cylPts.forEach((c) => { expect(c.gap).toBeCloseTo(5e-4, 12); expect(c.n[2]!).toBeCloseTo(1, 12); });
    expectInside(base, cyl, cylPts, 1e-12);
  });

  it('an ellipsoid on a box: one point, at the signed distance, below the centre', () => {
    const base: ConvexSolid = { kind: 'box', params: [1, 1, 0.5], p: [0, 0, -0.5], q: I };
    const ell: ConvexSolid = { kind: 'ellipsoid', params: [0.3, 0.2, 0.1], p: [0.2, 0.1, 0.1 - 2e-3], q: I };
    const pts = pairPoints(base, ell, 0.01);
    expect(pts.length).toBe(1);
    expect(pts[0]!.gap).toBeCloseTo(-2e-3, 12);
    [0.2, 0.1, -1e-3].forEach((v, k) => expect(pts[0]!.p[k]!).toBeCloseTo(v, 9));
  });

  it('nothing at or beyond the margin; each point below it', () => {
    const top: ConvexSolid = { kind: 'hull', params: [], p: [0.1, -0.2, 0.5 + 0.01], q: unit([1, 0, 0, 0.2]), hull: cube };
    expect(pairPoints(floor, top, 0.005)).toEqual([]);
    const pts = pairPoints(floor, top, 0.02);
    expect(pts.length).toBeGreaterThan(0);
    pts.forEach((c) => expect(c.gap).toBeLessThan(0.02));
  });
});

describe('convexPair at random poses', () => {
  const arb = fc.oneof(arbBox, arbCylinder, arbEllipsoid, arbHull, arbSphere, arbCapsule);
  it('at most four points on the pair\'s normal, inside both shapes, the deepest at the signed distance', () => {
    fc.assert(fc.property(arb, arb, (a, b) => {
      const ws = new ConvexWorkspace(), pts = pairPoints(a, b, 100, ws);
      const [A, B] = convexesOf([a, b]);
      convexDistance(ws, A!, B!, 100);
      expect(pts.length).toBeGreaterThan(0);
      expect(pts.length).toBeLessThanOrEqual(4);
      for (const c of pts) c.n.forEach((v, k) => expect(v).toBe(ws.normal[k]));
      // the deepest point is at the signed distance; clipped against a reference face within 10° of
      // the normal (./clip.ts), points measure their gap along n to the face's plane: up to
      // 1/cos 10° − 1 of the depth deeper while shallow, a few per cent in deep overlaps
      const deep = Math.min(...pts.map((c) => c.gap)), depth = Math.max(0, -ws.gap);
      expect(deep).toBeLessThan(ws.gap + 1e-9 + (ws.penetrating ? ws.epa.bracket : 0));
      if (depth < 1e-3) expect(deep).toBeGreaterThan(ws.gap - 1e-9 - (1 / Math.cos(Math.asin(0.17)) - 1) * depth);
      // points clipped by the prism normal to a reference face within 10° of n land on that face's
      // plane along n up to |gap| tan 10° beyond its polygon
      expectInside(a, b, pts, (c) => 1e-9 + 0.18 * Math.abs(c.gap));
    }), { seed: 52, numRuns: 300, endOnFailure: true });
  });

  it('convexConvex reads the shapes from the table and matches convexPair', () => {
    fc.assert(fc.property(arb, arb, (a, b) => {
      const t = tableOf([a, b], 0.05), m = new Manifold(2);
      convexConvex(t, 0, 1, m);
      const pts = pairPoints(a, b, 0.05);
      expect(m.count).toBe(pts.length);
      pts.forEach((c, i) => { expect(m.gap[i]).toBe(c.gap); expect(m.featureA[i]).toBe(c.fa); });
      // the workspace lives on the manifold: a second call reuses it
      const scratch = m.convexScratch;
      convexConvex(t, 0, 1, m);
      expect(m.convexScratch).toBe(scratch);
    }), { seed: 53, numRuns: 100, endOnFailure: true });
  });
});
