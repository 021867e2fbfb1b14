/**
 * Material combination: the rules on exact numbers, the damping rule against the series Kelvin
 * pair it approximates (equal to first order in frequency), symmetry, and the arrays of a ContactSet
 * filled by the collide stage, and the pair overrides of named materials that replace combined fields.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { combineMaterial, combineDamping, MaterialOverrides } from '../../src/collision/materials.js';
import { Collider } from '../../src/collision/collide.js';
import { ContactSet } from '../../src/contact/contactSet.js';
import type { SurfaceMaterial } from '../../src/contact/contactSet.js';
import { sceneOf } from './geometry.js';

const arbMat = fc.record({
  friction: fc.double({ min: 0, max: 2, noNaN: true }),
  restitution: fc.double({ min: 0, max: 1, noNaN: true }),
  compliance: fc.oneof(fc.constant(0), fc.double({ min: 1e-9, max: 1e-3, noNaN: true })),
  damping: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('combineMaterial', () => {
  it('geometric-mean friction, larger restitution, compliances in series, weighted damping', () => {
    const m = combineMaterial({ friction: 0, restitution: 0, compliance: 0, damping: 0 },
      { friction: 0.4, restitution: 0.2, compliance: 1e-6, damping: 0.01 },
      { friction: 0.9, restitution: 0.5, compliance: 3e-6, damping: 0.05 });
    expect(m.friction).toBeCloseTo(0.6, 15);
    expect(m.restitution).toBe(0.5);
    expect(m.compliance).toBeCloseTo(4e-6, 20);
    expect(m.damping).toBeCloseTo((1e-6 * 0.01 + 3e-6 * 0.05) / 4e-6, 15);
  });

  it('a frictionless surface makes a frictionless pair; rigid sides leave the soft side\'s damping', () => {
    const soft = { friction: 0.8, restitution: 0, compliance: 2e-5, damping: 0.03 };
    const rigid = { friction: 0, restitution: 0.7, compliance: 0, damping: 0.2 };
    const m = combineMaterial({ ...soft }, soft, rigid);
    expect([m.friction, m.restitution, m.compliance]).toEqual([0, 0.7, 2e-5]);
    expect(m.damping).toBeCloseTo(0.03, 16);
    expect(combineDamping(0, 0.1, 0, 0.4)).toBe(0.4);
  });

  it('is symmetric, keeps equal materials, and may write over an input', () => {
    fc.assert(fc.property(arbMat, arbMat, (a, b) => {
      const ab = combineMaterial({ ...a }, a, b), ba = combineMaterial({ ...a }, b, a);
      expect(ab.friction).toBe(ba.friction);
      expect(ab.restitution).toBe(ba.restitution);
      expect(ab.compliance).toBe(ba.compliance);
      expect(ab.damping).toBeCloseTo(ba.damping, 14);
      const aa = combineMaterial({ ...a }, a, a);
      expect(aa.friction).toBeCloseTo(a.friction, 14);
      expect(aa.restitution).toBe(a.restitution);
      expect(aa.damping).toBeCloseTo(a.damping, 14);
      const alias: SurfaceMaterial = { ...a };
      combineMaterial(alias, alias, b);
      expect(alias).toEqual(ab);
    }), { seed: 42, numRuns: 200 });
  });

  it('damping: the combined Kelvin element matches the series pair to first order in frequency', () => {
    fc.assert(fc.property(arbMat, arbMat, (a, b) => {
      fc.pre(a.compliance + b.compliance > 0);
      const m = combineMaterial({ ...a }, a, b);
      // compliances C(s) = Σ α_i / (1 + β_i s): C(ε) = α − α β ε + O(ε²)
      const C = (s: number): number => a.compliance / (1 + a.damping * s) + b.compliance / (1 + b.damping * s);
      const eps = 1e-5, slope = (C(eps) - C(-eps)) / (2 * eps);
      expect(C(0)).toBeCloseTo(m.compliance, 20);
      expect(slope / m.compliance).toBeCloseTo(-m.damping, 8);
    }), { seed: 43, numRuns: 200 });
  });
});

describe('materials in the contact set', () => {
  it('every contact of a pair carries the pair\'s combined material', () => {
    const { shapes, q } = sceneOf([
      { kind: 'plane', params: [], p: [0, 0, 0], q: [1, 0, 0, 0] },
      { kind: 'box', params: [0.2, 0.2, 0.2], p: [0, 0, 0.2], q: [1, 0, 0, 0] },
      { kind: 'sphere', params: [0.1], p: [1, 0, 0.1], q: [1, 0, 0, 0] },
    ]);
    const mats = [
      { friction: 0.25, restitution: 0.1, compliance: 0, damping: 0 },
      { friction: 1, restitution: 0.3, compliance: 1e-6, damping: 0.02 },
      { friction: 0.5, restitution: 0.9, compliance: 2e-6, damping: 0.04 },
    ];
    shapes.forEach((s, i) => { s.material = mats[i]!; });
    const out = new ContactSet(1);
    new Collider(shapes, 0.01).collide(q, out);
    expect(out.count).toBe(5);
    for (let i = 0; i < out.count; i++) {
      const m = combineMaterial({ ...mats[0]! }, mats[out.shapeA[i]!]!, mats[out.shapeB[i]!]!);
      expect([out.friction[i], out.restitution[i], out.compliance[i], out.damping[i]]).toEqual([m.friction, m.restitution, m.compliance, m.damping]);
    }
    expect(Array.from(out.shapeB.subarray(0, 5))).toEqual([1, 1, 1, 1, 2]);
  });
});

describe('pair overrides of named materials', () => {
  const solids = () => sceneOf([
    { kind: 'plane', params: [], p: [0, 0, 0], q: [1, 0, 0, 0] },
    { kind: 'sphere', params: [0.1], p: [0, 0, 0.1], q: [1, 0, 0, 0] },
    { kind: 'sphere', params: [0.1], p: [1, 0, 0.1], q: [1, 0, 0, 0] },
    { kind: 'sphere', params: [0.1], p: [2, 0, 0.1], q: [1, 0, 0, 0] },
  ]);
  const mats = [
    { friction: 0.25, restitution: 0.1, compliance: 1e-6, damping: 0.1 },
    { friction: 1, restitution: 0.3, compliance: 3e-6, damping: 0.02 },
    { friction: 0.5, restitution: 0.9, compliance: 0, damping: 0 },
    { friction: 0.5, restitution: 0.9, compliance: 0, damping: 0 },
  ];

  it('replace the fields they give for their pair only; the others keep the combined values', () => {
    const { shapes, q } = solids();
    // plane: material 0, sphere 1: material 1, sphere 2: material 2, sphere 3: no named material
    shapes.forEach((s, i) => { s.material = mats[i]!; if (i < 3) s.materialId = i; });
    const o = new MaterialOverrides(3, [{ a: 1, b: 0, friction: 0.05, damping: 0.7 }, { a: 2, b: 2, restitution: 0 }]);
    const out = new ContactSet(1);
    new Collider(shapes, 0.01, [], o).collide(q, out);
    expect(Array.from(out.shapeB.subarray(0, out.count))).toEqual([1, 2, 3]);
    const row = (i: number) => [out.friction[i], out.restitution[i], out.compliance[i], out.damping[i]];
    const combined = (b: number) => {
      const m = combineMaterial({ ...mats[0]! }, mats[0]!, mats[b]!);
      return [m.friction, m.restitution, m.compliance, m.damping];
    };
    const c1 = combined(1);
    expect(row(0)).toEqual([0.05, c1[1], c1[2], 0.7]);
    expect(row(1)).toEqual(combined(2));
    expect(row(2)).toEqual(combined(3));
  });

  it('a table is symmetric, and no pair or no material means no row', () => {
    const o = new MaterialOverrides(3, [{ a: 2, b: 0, friction: 1 }]);
    expect([o.row(0, 2), o.row(2, 0), o.row(0, 0), o.row(1, 2), o.row(-1, 2), o.row(2, -1)]).toEqual([0, 0, -1, -1, -1, -1]);
    expect([o.friction[0], o.restitution[0]]).toEqual([1, NaN]);
    expect(() => new MaterialOverrides(2, [{ a: 0, b: 2 }])).toThrow(RangeError);
  });
});
