/**
 * Sphere-sphere, sphere-capsule and capsule-capsule contacts against exact answers, against a
 * reference core distance (ternary search), and against dense samples of the surfaces (the support
 * separation s(d), whose maximum over directions is the signed distance) at random poses; invariance
 * under a rigid motion of both shapes; swapping the pair flips the normal and the features.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  type Solid, type Contact, contactsOf, sdf, surfaceSamples, separation, roundDistance, randomDirections,
  arbPoint, arbQuat, arbRadius, arbHalf, dot, expectRigidInvariance,
} from './geometry.js';
import { quatMul } from '../../src/math/quat.js';

const BIG = 100;

/**
 * checks every contact of A (index 0) and B (index 1): unit normal, points inside or on both shapes,
 * the deepest one's exactly on both surfaces (unless the cores touch, where the normal is a convention)
 */
function checkContacts(a: Solid, b: Solid, cs: Contact[], tol = 1e-9): Contact {
  expect(cs.length).toBeGreaterThan(0);
  for (const c of cs) {
    expect(Math.hypot(...c.n)).toBeCloseTo(1, 12);
    expect([c.shapeA, c.shapeB, c.compA, c.compB]).toEqual([0, 1, 0, 1]);
    const pa = c.p.map((v, k) => v - 0.5 * c.gap * c.n[k]!), pb = c.p.map((v, k) => v + 0.5 * c.gap * c.n[k]!);
    expect(sdf(a, pa)).toBeLessThan(tol);
    expect(sdf(b, pb)).toBeLessThan(tol);
  }
  // the deepest point has both surface points exactly on the surfaces
  const deep = cs.reduce((m, c) => (c.gap < m.gap ? c : m));
  if (!distinctCores(a, b)) return deep;
  const pa = deep.p.map((v, k) => v - 0.5 * deep.gap * deep.n[k]!), pb = deep.p.map((v, k) => v + 0.5 * deep.gap * deep.n[k]!);
  expect(Math.abs(sdf(a, pa))).toBeLessThan(tol);
  expect(Math.abs(sdf(b, pb))).toBeLessThan(tol);
  return deep;
}

/** the cores are apart (1e-6 m or more): the normal is then unique */
function distinctCores(a: Solid, b: Solid): boolean {
  return roundDistance(a, b) + a.params[0]! + b.params[0]! > 1e-6;
}

const arbRound = (kind: 'sphere' | 'capsule') => fc.record({
  p: arbPoint, q: arbQuat, r: arbRadius, h: arbHalf,
}).map(({ p, q, r, h }): Solid => ({ kind, params: kind === 'sphere' ? [r] : [r, h], p, q }));

const PAIRS: [string, 'sphere' | 'capsule', 'sphere' | 'capsule'][] = [
  ['sphere-sphere', 'sphere', 'sphere'], ['sphere-capsule', 'sphere', 'capsule'],
  ['capsule-sphere', 'capsule', 'sphere'], ['capsule-capsule', 'capsule', 'capsule'],
];

describe('round pairs at random poses', () => {
  for (const [name, ka, kb] of PAIRS) {
    it(`${name}: gap equals the reference distance; points on both surfaces`, () => {
      fc.assert(fc.property(arbRound(ka), arbRound(kb), (a, b) => {
        const deep = checkContacts(a, b, contactsOf([a, b], BIG));
        expect(deep.gap).toBeCloseTo(roundDistance(a, b), 9);
      }), { seed: 42, numRuns: 200 });
    });

    it(`${name}: the normal maximizes the support separation of dense surface samples`, () => {
      const dirs = randomDirections(300, 7);
      fc.assert(fc.property(arbRound(ka), arbRound(kb), (a, b) => {
        const deep = checkContacts(a, b, contactsOf([a, b], BIG));
        const sa = surfaceSamples(a), sb = surfaceSamples(b);
        const tol = 5e-3 * (a.params[0]! + b.params[0]!);
        // along n the samples are separated by the gap (samples only overestimate s(d))
        const sn = separation(sa, sb, deep.n);
        expect(sn).toBeGreaterThan(deep.gap - 1e-9);
        expect(sn).toBeLessThan(deep.gap + tol);
        // and no direction separates them more
        for (const d of dirs) expect(separation(sa, sb, d)).toBeLessThan(deep.gap + tol);
      }), { seed: 43, numRuns: 25 });
    });

    it(`${name}: a rigid motion of both shapes moves the contacts with them`, () => {
      fc.assert(fc.property(arbRound(ka), arbRound(kb), arbPoint, arbQuat, (a, b, t, rq) => {
        fc.pre(distinctCores(a, b));
        expectRigidInvariance([a, b], t, rq, BIG);
      }), { seed: 44, numRuns: 200 });
    });

    it(`${name}: swapping the pair flips the normal and swaps the features`, () => {
      fc.assert(fc.property(arbRound(ka), arbRound(kb), (a, b) => {
        fc.pre(distinctCores(a, b));
        const ab = contactsOf([a, b], BIG), ba = contactsOf([b, a], BIG);
        expect(ba.length).toBe(ab.length);
        const key = (c: Contact): string => `${c.featureA},${c.featureB}`;
        const byKey = new Map(ba.map((c) => [`${c.featureB},${c.featureA}`, c]));
        for (const c of ab) {
          const d = byKey.get(key(c))!;
          expect(d).toBeDefined();
          expect(d.gap).toBeCloseTo(c.gap, 13);
          for (let k = 0; k < 3; k++) {
            expect(d.n[k]!).toBeCloseTo(-c.n[k]!, 12);
            expect(d.p[k]!).toBeCloseTo(c.p[k]!, 12);
          }
        }
      }), { seed: 45, numRuns: 200 });
    });
  }
});

const I = [1, 0, 0, 0];
/** a quaternion turning z onto x (a capsule lying along x) */
const Z_TO_X = [Math.SQRT1_2, 0, Math.SQRT1_2, 0];
const Z_TO_Y = [Math.SQRT1_2, -Math.SQRT1_2, 0, 0];

describe('round pairs: exact answers', () => {
  it('two spheres: gap, normal from A to B, point midway between the surfaces', () => {
    const [c] = contactsOf([{ kind: 'sphere', params: [0.5], p: [0, 0, 0], q: I }, { kind: 'sphere', params: [0.25], p: [1, 0, 0], q: I }], BIG);
    expect(c!.gap).toBeCloseTo(0.25, 15);
    expect(c!.n).toEqual([1, 0, 0]);
    expect(c!.p[0]).toBeCloseTo(0.625, 15);
    expect([c!.featureA, c!.featureB]).toEqual([0, 0]);
  });

  it('the margin: a contact exists exactly while the gap is below it', () => {
    const pair = (x: number): Solid[] => [{ kind: 'sphere', params: [0.5], p: [0, 0, 0], q: I }, { kind: 'sphere', params: [0.5], p: [x, 0, 0], q: I }];
    expect(contactsOf(pair(1.0999), 0.1)).toHaveLength(1);
    expect(contactsOf(pair(1.1001), 0.1)).toHaveLength(0);
    expect(contactsOf(pair(0.9), 0)[0]!.gap).toBeCloseTo(-0.1, 15);
    expect(contactsOf(pair(1.0001), 0)).toHaveLength(0);
  });

  it('sphere and capsule: side feature 2, end features 0 and 1', () => {
    const cap: Solid = { kind: 'capsule', params: [0.1, 1], p: [0, 0, 0], q: I };
    const side = contactsOf([{ kind: 'sphere', params: [0.2], p: [0.5, 0, 0.3], q: I }, cap], BIG)[0]!;
    expect(side.featureB).toBe(2);
    expect(side.gap).toBeCloseTo(0.2, 15);
    expect(side.n[0]).toBeCloseTo(-1, 15);
    const top = contactsOf([{ kind: 'sphere', params: [0.2], p: [0, 0, 2], q: I }, cap], BIG)[0]!;
    expect(top.featureB).toBe(1);
    expect(top.gap).toBeCloseTo(0.7, 15);
    expect(top.n).toEqual([0, 0, -1]);
    const bottom = contactsOf([cap, { kind: 'sphere', params: [0.2], p: [0, 0, -1.5], q: I }], BIG)[0]!;
    expect([bottom.featureA, bottom.featureB]).toEqual([0, 0]);
    expect(bottom.gap).toBeCloseTo(0.2, 15);
    expect(bottom.p[2]).toBeCloseTo(-1.2, 15);
  });

  it('crossed capsules: one contact between the sides along the common normal', () => {
    const cs = contactsOf([{ kind: 'capsule', params: [0.1, 1], p: [0, 0, 0], q: Z_TO_X }, { kind: 'capsule', params: [0.2, 1], p: [0.3, 0.1, 0.5], q: Z_TO_Y }], BIG);
    expect(cs).toHaveLength(1);
    expect([cs[0]!.featureA, cs[0]!.featureB]).toEqual([2, 2]);
    expect(cs[0]!.gap).toBeCloseTo(0.2, 14);
    expect(cs[0]!.n[2]).toBeCloseTo(1, 14);
    expect(cs[0]!.p[0]).toBeCloseTo(0.3, 14);
    expect(cs[0]!.p[2]).toBeCloseTo(0.2, 14);
  });

  it('parallel capsules get a contact at each end of their overlap, told apart by features', () => {
    // A along x on [−1, 1]; B along x on [0.5, 2.5], 0.5 above
    const a: Solid = { kind: 'capsule', params: [0.1, 1], p: [0, 0, 0], q: Z_TO_X };
    const b: Solid = { kind: 'capsule', params: [0.1, 1], p: [1.5, 0, 0.5], q: Z_TO_X };
    const cs = contactsOf([a, b], BIG);
    expect(cs.map((c) => [c.featureA, c.featureB])).toEqual([[1, 2], [2, 0]]);
    expect(cs[0]!.p[0]).toBeCloseTo(1, 14);
    expect(cs[1]!.p[0]).toBeCloseTo(0.5, 14);
    for (const c of cs) {
      expect(c.gap).toBeCloseTo(0.3, 14);
      c.n.forEach((v, k) => expect(v).toBeCloseTo([0, 0, 1][k]!, 14));
      expect(c.p[2]).toBeCloseTo(0.25, 14);
    }
    // B reversed (its +z end at the low x end): the same points, B's end feature 1
    const rev = contactsOf([a, { ...b, q: [Math.SQRT1_2, 0, -Math.SQRT1_2, 0] }], BIG);
    expect(rev.map((c) => [c.featureA, c.featureB])).toEqual([[1, 2], [2, 1]]);
  });

  it('nearly parallel capsules crossing shallowly also get their closest pair', () => {
    // A along x; B 0.2 above, turned by 1e-3 rad about z: the closest pair is mid-length, the ends are farther
    const th = 1e-3, a: Solid = { kind: 'capsule', params: [0.1, 1], p: [0, 0, 0], q: Z_TO_X };
    const qb = Array.from(quatMul(new Float64Array(4), Float64Array.of(Math.cos(th / 2), 0, 0, Math.sin(th / 2)), Float64Array.from(Z_TO_X)));
    const b: Solid = { kind: 'capsule', params: [0.05, 1], p: [0, 0, 0.2], q: qb };
    const cs = contactsOf([a, b], BIG);
    expect(cs.map((c) => [c.featureA, c.featureB])).toEqual([[2, 0], [2, 1], [2, 2]]);
    const deep = cs[2]!;
    expect(deep.gap).toBeCloseTo(0.05, 14);
    expect(deep.n[2]).toBeCloseTo(1, 14);
    expect(deep.gap).toBeCloseTo(roundDistance(a, b), 14);
    expect(cs[0]!.gap).toBeGreaterThan(deep.gap + 2e-6);
    expect(cs[1]!.gap).toBeGreaterThan(deep.gap + 2e-6);
  });

  it('coincident cores still give a unit normal and the full depth', () => {
    const s = contactsOf([{ kind: 'sphere', params: [0.3], p: [1, 2, 3], q: I }, { kind: 'sphere', params: [0.2], p: [1, 2, 3], q: I }], BIG)[0]!;
    expect(s.n).toEqual([0, 0, 1]);
    expect(s.gap).toBeCloseTo(-0.5, 15);
    const c = contactsOf([{ kind: 'sphere', params: [0.3], p: [0, 0, 0.4], q: I }, { kind: 'capsule', params: [0.2, 1], p: [0, 0, 0], q: I }], BIG)[0]!;
    expect(dot(c.n, [0, 0, 1])).toBeCloseTo(0, 15);
    expect(Math.hypot(...c.n)).toBeCloseTo(1, 15);
    expect(c.gap).toBeCloseTo(-0.5, 15);
    const x = contactsOf([{ kind: 'capsule', params: [0.1, 1], p: [0, 0, 0], q: Z_TO_X }, { kind: 'capsule', params: [0.1, 1], p: [0, 0, 0], q: Z_TO_Y }], BIG)[0]!;
    expect(Math.abs(x.n[2]!)).toBeCloseTo(1, 15);
    expect(x.gap).toBeCloseTo(-0.2, 15);
  });
});
