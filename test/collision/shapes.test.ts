/**
 * The shape table: world poses of shapes on bodies (with a centre-of-mass offset and a turned
 * shape), on particles and in the world; AABBs that hold dense samples of every kind's surface,
 * grown by half the margin, and touch them; bounding spheres; the checks on bad descriptors; and
 * cylinders and ellipsoids, accepted but without contacts.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ShapeTable, type ShapeDesc } from '../../src/collision/shapes.js';
import { ModelError } from '../../src/model/errors.js';
import { Collider } from '../../src/collision/collide.js';
import { ContactSet } from '../../src/contact/contactSet.js';
import { quatMul, quatRotate, quatToMat3 } from '../../src/math/quat.js';
import { type Solid, surfaceSamples, arbPoint, arbQuat, MAT } from './geometry.js';

const I = [1, 0, 0, 0];

function desc(over: Partial<ShapeDesc>): ShapeDesc {
  return {
    kind: 'sphere', component: 0, qOffset: 0, isBody: true, params: [0.1], position: [0, 0, 0], orientation: I,
    material: MAT, collide: true, name: 'x', ...over,
  };
}

const arbSize = fc.double({ min: 0.05, max: 0.6, noNaN: true });
const arbKind = fc.constantFrom('sphere', 'capsule', 'box', 'cylinder', 'ellipsoid').chain((kind) => {
  const n = { sphere: 1, capsule: 2, box: 3, cylinder: 2, ellipsoid: 3 }[kind];
  return fc.array(arbSize, { minLength: n, maxLength: n }).map((params) => ({ kind, params }));
});

describe('shape poses', () => {
  it('a body shape: p_W = x + R_c p_c and R_W = R_c R_s', () => {
    fc.assert(fc.property(arbPoint, arbQuat, arbPoint, arbQuat, (x, qc, pc, qs) => {
      const t = new ShapeTable([desc({ qOffset: 7, position: pc, orientation: qs })], 0);
      const q = new Float64Array(14);
      q.set(x, 7); q.set(qc, 10);
      t.updatePoses(q);
      const p = quatRotate(new Float64Array(3), Float64Array.from(qc), Float64Array.from(pc));
      for (let k = 0; k < 3; k++) expect(t.pos[k]).toBeCloseTo(x[k]! + p[k]!, 14);
      const R = quatToMat3(new Float64Array(9), quatMul(new Float64Array(4), Float64Array.from(qc), Float64Array.from(qs)));
      for (let k = 0; k < 9; k++) expect(t.rot[k]).toBeCloseTo(R[k]!, 14);
    }), { seed: 42, numRuns: 100 });
  });

  it('a particle shape translates with the particle and keeps its orientation; a world shape stays', () => {
    const qs = [Math.SQRT1_2, Math.SQRT1_2, 0, 0];
    const t = new ShapeTable([
      desc({ isBody: false, qOffset: 3, position: [0.1, 0, 0], orientation: qs }),
      desc({ component: -1, qOffset: -1, isBody: false, position: [1, 2, 3], orientation: qs }),
    ], 0.02);
    t.updatePoses(Float64Array.of(9, 9, 9, 1, 2, 3));
    expect(Array.from(t.pos)).toEqual([1.1, 2, 3, 1, 2, 3]);
    const R = quatToMat3(new Float64Array(9), Float64Array.from(qs));
    for (let k = 0; k < 9; k++) {
      expect(t.rot[k]).toBeCloseTo(R[k]!, 15);
      expect(t.rot[9 + k]).toBeCloseTo(R[k]!, 15);
    }
    t.aabb.subarray(6, 12).forEach((v, k) => expect(v).toBeCloseTo([0.89, 1.89, 2.89, 1.11, 2.11, 3.11][k]!, 15));
    expect([t.fixed[0], t.fixed[1], t.component[1]]).toEqual([0, 1, -1]);
  });
});

describe('shape boxes', () => {
  it('hold the surface grown by half the margin, and touch it', () => {
    fc.assert(fc.property(arbKind, arbPoint, arbQuat, arbSize, ({ kind, params }, p, q, margin) => {
      const t = new ShapeTable([desc({ kind: kind as ShapeDesc['kind'], params, qOffset: 0, isBody: true })], margin);
      const state = new Float64Array(7);
      state.set(p); state.set(q, 3);
      t.updatePoses(state);
      const samples = surfaceSamples({ kind: kind as Solid['kind'], params, p, q });
      for (let k = 0; k < 3; k++) {
        let lo = Infinity, hi = -Infinity, far = 0;
        for (let i = 0; i < samples.length; i += 3) {
          lo = Math.min(lo, samples[i + k]!); hi = Math.max(hi, samples[i + k]!);
          far = Math.max(far, Math.hypot(samples[i]! - p[0]!, samples[i + 1]! - p[1]!, samples[i + 2]! - p[2]!));
        }
        const tol = 2e-3 * Math.max(...params);
        expect(t.aabb[k]!).toBeLessThanOrEqual(lo - margin / 2 + 1e-12);
        expect(t.aabb[k]!).toBeGreaterThan(lo - margin / 2 - tol);
        expect(t.aabb[3 + k]!).toBeGreaterThanOrEqual(hi + margin / 2 - 1e-12);
        expect(t.aabb[3 + k]!).toBeLessThan(hi + margin / 2 + tol);
        expect(t.bound[0]!).toBeGreaterThanOrEqual(far - 1e-12);
      }
    }), { seed: 43, numRuns: 100 });
  });

  it('a plane\'s box is all of space', () => {
    const t = new ShapeTable([desc({ kind: 'plane', params: [], component: -1, qOffset: -1, isBody: false })], 0.1);
    expect(Array.from(t.aabb)).toEqual([-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity]);
  });
});

describe('shape descriptors', () => {
  const bad: [string, Partial<ShapeDesc>, RegExp][] = [
    ['an unknown kind', { kind: 'cone' as ShapeDesc['kind'] }, /unknown shape kind "cone"/],
    ['a wrong parameter count', { kind: 'box', params: [1, 1] }, /expected 3 numbers/],
    ['a negative radius', { params: [-0.1] }, /radius must be finite and > 0/],
    ['a zero box extent', { kind: 'box', params: [1, 0, 1] }, /half y must be finite and > 0/],
    ['a non-finite half length', { kind: 'capsule', params: [0.1, NaN] }, /half length/],
    ['a zero quaternion', { orientation: [0, 0, 0, 0] }, /orientation: quaternion/],
    ['a short position', { position: [0, 0] }, /position: expected 3 finite numbers/],
    ['a negative friction', { material: { ...MAT, friction: -1 } }, /material\.friction/],
    ['a restitution above 1', { material: { ...MAT, restitution: 1.5 } }, /material\.restitution: must be finite, ≥ 0 and ≤ 1/],
    ['a negative compliance', { material: { ...MAT, compliance: -1e-6 } }, /material\.compliance/],
    ['a component without a q offset', { qOffset: -1 }, /qOffset must be ≥ 0/],
  ];
  for (const [what, over, message] of bad) {
    it(`refuses ${what}, naming the shape`, () => {
      expect(() => new ShapeTable([desc({ ...over, name: 'ball' })], 0.01)).toThrow(ModelError);
      expect(() => new ShapeTable([desc({ ...over, name: 'ball' })], 0.01)).toThrow(message);
      expect(() => new ShapeTable([desc({ ...over, name: 'ball' })], 0.01)).toThrow(/^shape "ball"/);
    });
  }
  it('refuses a negative margin and accepts a capsule of length zero', () => {
    expect(() => new ShapeTable([], -1)).toThrow(/contact\.margin/);
    expect(() => new ShapeTable([desc({ kind: 'capsule', params: [0.1, 0] })], 0)).not.toThrow();
  });

  it('cylinders and ellipsoids touch planes and each other', () => {
    const floor = desc({ kind: 'plane', params: [], component: -1, qOffset: -1, isBody: false, name: 'floor' });
    const c = new Collider([floor, desc({ kind: 'cylinder', params: [0.2, 0.3] }), desc({ kind: 'ellipsoid', params: [0.2, 0.3, 0.4], component: 1, qOffset: 7 })], 0.01);
    const out = new ContactSet();
    c.collide(Float64Array.of(0, 0, 0, 1, 0, 0, 0, 0.1, 0, 0, 1, 0, 0, 0), out);
    expect(c.broadphase.pairCount).toBe(3);
    // every pair overlaps, so every pair makes a contact
    const pairs = new Set(Array.from({ length: out.count }, (_, k) => `${out.shapeA[k]}-${out.shapeB[k]}`));
    expect([...pairs].sort()).toEqual(['0-1', '0-2', '1-2']);
  });
});
