/**
 * Sphere, capsule, box and particle against a plane: exact gaps of the end spheres and vertices,
 * the deepest point against dense samples of the shape's surface, the plane as side A whatever its
 * index, the margin, an incline, feature ids of a resting box under small motions, and invariance
 * under a rigid motion of both shapes.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  type Solid, type Contact, contactsOf, sdf, surfaceSamples, extent, toWorld, rotationOf, arbPoint, arbQuat,
  arbRadius, arbHalf, unit, MAT, expectRigidInvariance,
} from './geometry.js';
import { Collider } from '../../src/collision/collide.js';
import { ContactSet } from '../../src/contact/contactSet.js';

const BIG = 100;
const I = [1, 0, 0, 0];
const arbSize = fc.double({ min: 0.05, max: 0.6, noNaN: true });
const arbPlane = fc.record({ p: arbPoint, q: arbQuat }).map(({ p, q }): Solid => ({ kind: 'plane', params: [], p, q }));
const arbShape = fc.oneof(
  fc.record({ p: arbPoint, q: arbQuat, r: arbRadius }).map(({ p, q, r }): Solid => ({ kind: 'sphere', params: [r], p, q })),
  fc.record({ p: arbPoint, q: arbQuat, r: arbRadius, h: arbHalf }).map(({ p, q, r, h }): Solid => ({ kind: 'capsule', params: [r, h], p, q })),
  fc.record({ p: arbPoint, q: arbQuat, h: fc.tuple(arbSize, arbSize, arbSize) }).map(({ p, q, h }): Solid => ({ kind: 'box', params: h, p, q })),
);

/** the plane's unit normal (its frame's z axis) */
function normalOf(plane: Solid): number[] {
  const R = rotationOf(plane);
  return [R[2]!, R[5]!, R[8]!];
}

/** the exact gaps of the shape's features against the plane: end spheres, vertices (bit j: + along axis j) */
function featureGaps(plane: Solid, s: Solid): number[] {
  if (s.kind === 'sphere') return [sdf(plane, s.p) - s.params[0]!];
  if (s.kind === 'capsule') return [-1, 1].map((e) => sdf(plane, toWorld(s, [0, 0, e * s.params[1]!])) - s.params[0]!);
  return [...Array(8).keys()].map((v) => sdf(plane, toWorld(s, s.params.map((h, j) => ((v >> j) & 1 ? h : -h)))));
}

describe('plane pairs at random poses', () => {
  it('every feature of the shape at its exact gap, normal = the plane\'s +z, plane on side A', () => {
    fc.assert(fc.property(arbPlane, arbShape, fc.boolean(), (plane, s, planeFirst) => {
      const cs = contactsOf(planeFirst ? [plane, s] : [s, plane], BIG);
      const [ip, is] = planeFirst ? [0, 1] : [1, 0];
      const gaps = featureGaps(plane, s), n = normalOf(plane);
      expect(cs.map((c) => c.featureB)).toEqual(gaps.map((_, k) => k));
      cs.forEach((c, k) => {
        expect([c.shapeA, c.shapeB, c.compA, c.compB, c.featureA]).toEqual([ip, is, -1, is, 0]);
        expect(c.gap).toBeCloseTo(gaps[k]!, 12);
        c.n.forEach((v, j) => expect(v).toBeCloseTo(n[j]!, 14));
        // the point is midway: gap/2 below it is the plane, gap/2 above it the shape's feature
        const pa = c.p.map((v, j) => v - 0.5 * c.gap * c.n[j]!), pb = c.p.map((v, j) => v + 0.5 * c.gap * c.n[j]!);
        expect(Math.abs(sdf(plane, pa))).toBeLessThan(1e-12);
        expect(sdf(s, pb)).toBeLessThan(1e-12);
      });
    }), { seed: 42, numRuns: 300 });
  });

  it('the deepest contact is the lowest point of dense samples of the surface', () => {
    fc.assert(fc.property(arbPlane, arbShape, (plane, s) => {
      const cs = contactsOf([plane, s], BIG);
      const deep = cs.reduce((m, c) => (c.gap < m.gap ? c : m));
      const n = normalOf(plane), lowest = extent(surfaceSamples(s), n)[0] - extent(Float64Array.from(plane.p), n)[0];
      // samples can only be higher than the true lowest point; a box's samples hold its vertices
      expect(lowest).toBeGreaterThan(deep.gap - 1e-12);
      expect(lowest).toBeLessThan(deep.gap + (s.kind === 'box' ? 1e-12 : 2e-3 * s.params[0]!));
      // and the deepest surface point of the shape is on its surface
      const pb = deep.p.map((v, j) => v + 0.5 * deep.gap * deep.n[j]!);
      expect(Math.abs(sdf(s, pb))).toBeLessThan(1e-12);
    }), { seed: 43, numRuns: 100 });
  });

  it('a rigid motion of plane and shape moves the contacts with them', () => {
    fc.assert(fc.property(arbPlane, arbShape, arbPoint, arbQuat, (plane, s, t, rq) => {
      expectRigidInvariance([plane, s], t, rq, BIG);
    }), { seed: 44, numRuns: 200 });
  });
});

describe('plane pairs: exact answers', () => {
  const floor: Solid = { kind: 'plane', params: [], p: [0, 0, 0], q: I };

  it('a sphere above the floor: gap, upward normal, point midway', () => {
    const [c] = contactsOf([floor, { kind: 'sphere', params: [0.5], p: [1, 2, 0.7], q: I }], BIG) as [Contact];
    expect(c.gap).toBeCloseTo(0.2, 15);
    expect(c.n).toEqual([0, 0, 1]);
    c.p.forEach((v, k) => expect(v).toBeCloseTo([1, 2, 0.1][k]!, 15));
  });

  it('a capsule lying on the floor touches it by both end spheres, features 0 and 1', () => {
    const cap: Solid = { kind: 'capsule', params: [0.1, 0.5], p: [0, 0, 0.09], q: [Math.SQRT1_2, 0, Math.SQRT1_2, 0] };
    const cs = contactsOf([floor, cap], BIG);
    expect(cs.map((c) => [c.featureA, c.featureB])).toEqual([[0, 0], [0, 1]]);
    expect(cs[0]!.p[0]).toBeCloseTo(-0.5, 15);
    expect(cs[1]!.p[0]).toBeCloseTo(0.5, 15);
    for (const c of cs) { expect(c.gap).toBeCloseTo(-0.01, 15); expect(c.p[2]).toBeCloseTo(-0.005, 15); }
  });

  it('a box reports only the vertices within the margin', () => {
    // tilted by 0.1 rad about y: the vertices at −x sit lower
    const th = 0.1, box: Solid = { kind: 'box', params: [0.5, 0.3, 0.2], p: [0, 0, 0.25], q: [Math.cos(th / 2), 0, Math.sin(th / 2), 0] };
    const all = contactsOf([floor, box], BIG);
    const margin = 0.1;
    const near = contactsOf([floor, box], margin);
    expect(near.map((c) => c.featureB)).toEqual(all.filter((c) => c.gap < margin).map((c) => c.featureB));
    expect(near.length).toBeGreaterThan(0);
    expect(near.length).toBeLessThan(8);
  });

  it('a box resting on an incline touches it by its four lowest vertices', () => {
    const th = Math.PI / 6, q = [Math.cos(th / 2), Math.sin(th / 2), 0, 0];
    const incline: Solid = { kind: 'plane', params: [], p: [0.3, -0.2, 0.1], q };
    const n = normalOf(incline), h = [0.4, 0.3, 0.2], lift = 1e-3;
    const box: Solid = { kind: 'box', params: h, p: incline.p.map((v, k) => v + (h[2]! + lift) * n[k]!), q };
    const cs = contactsOf([incline, box], 0.01);
    expect(cs.map((c) => c.featureB)).toEqual([0, 1, 2, 3]);
    for (const c of cs) {
      expect(c.gap).toBeCloseTo(lift, 14);
      c.n.forEach((v, k) => expect(v).toBeCloseTo(n[k]!, 15));
      expect(sdf(incline, c.p)).toBeCloseTo(lift / 2, 14);
    }
  });

  it('a box resting on the floor keeps the same four features over small motions', () => {
    const h = [0.4, 0.3, 0.2];
    fc.assert(fc.property(fc.tuple(arbPoint, arbPoint), ([dx, dr]) => {
      const half = [1, dr[0]! * 5e-4, dr[1]! * 5e-4, dr[2]! * 5e-4];
      const box: Solid = { kind: 'box', params: h, p: [dx[0]! * 1e-3, dx[1]! * 1e-3, h[2]! + dx[2]! * 1e-4], q: unit(half) };
      const cs = contactsOf([floor, box], 0.01);
      expect(cs.map((c) => [c.shapeA, c.shapeB, c.featureA, c.featureB])).toEqual([0, 1, 2, 3].map((v) => [0, 1, 0, v]));
    }), { seed: 46, numRuns: 200 });
  });

  it('a particle with a radius is a sphere that does not turn', () => {
    const shapes = [
      { kind: 'plane' as const, component: -1, qOffset: -1, isBody: false, params: [], position: [0, 0, 0], orientation: I, material: MAT, collide: true, name: 'floor' },
      { kind: 'sphere' as const, component: 0, qOffset: 0, isBody: false, params: [0.1], position: [0, 0, 0], orientation: I, material: MAT, collide: true, name: 'p' },
    ];
    const out = new ContactSet();
    new Collider(shapes, 0.05).collide(Float64Array.of(0.5, -0.5, 0.13), out);
    expect(out.count).toBe(1);
    expect([out.compA[0], out.compB[0], out.shapeA[0], out.shapeB[0]]).toEqual([-1, 0, 0, 1]);
    expect(out.gap[0]).toBeCloseTo(0.03, 15);
    out.p_W.subarray(0, 3).forEach((v, k) => expect(v).toBeCloseTo([0.5, -0.5, 0.015][k]!, 15));
  });
});
