/**
 * GJK and EPA (through convexDistance, the signed distance of two convex shapes) against exact
 * answers (spheres, a sphere and a box, aligned boxes, whose Minkowski difference is a box), against
 * the exact polytope reference (the hull of the differences of the core vertices) at random poses,
 * and on cylinders and ellipsoids against a certificate: the support separation s(n) along the
 * returned normal is a lower bound of the signed distance and the witness pair on the two surfaces an
 * upper bound, so their agreement proves the gap; deep overlaps against EPA's own bracket and a
 * brute-force maximum of s. Degenerate simplices (point and segment cores), touching, coincident
 * centres, the early exit past the margin, and determinism.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ConvexWorkspace, convexDistance } from '../../../src/collision/convex/convexPair.js';
import { gjk, GjkWorkspace, GJK_BEYOND, GJK_SEPARATED } from '../../../src/collision/convex/gjk.js';
import { arbPoint, arbQuat, sdf, rotationOf, unit, moveSolid } from '../geometry.js';
import { quatRotate } from '../../../src/math/quat.js';
import {
  type ConvexSolid, convexesOf, referenceDistance, polytopeDistance, separationAlong, surfaceResidual, arbBox,
  arbCylinder, arbEllipsoid, arbHull, arbSphere, arbCapsule,
} from './gjkFixtures.js';

const BIG = 100;
const I = [1, 0, 0, 0];

/** the signed distance of the solids by convexDistance, and the workspace */
function distance(a: ConvexSolid, b: ConvexSolid, ws = new ConvexWorkspace()): ConvexWorkspace {
  const [A, B] = convexesOf([a, b]);
  expect(convexDistance(ws, A!, B!, BIG)).toBe(true);
  return ws;
}

/** unit normal, witnesses the gap apart along it and on both surfaces */
function expectWitnesses(a: ConvexSolid, b: ConvexSolid, ws: ConvexWorkspace, tol: number): void {
  const n = ws.normal, pa = Array.from(ws.pA), pb = Array.from(ws.pB);
  expect(Math.hypot(n[0]!, n[1]!, n[2]!)).toBeCloseTo(1, 12);
  for (let k = 0; k < 3; k++) expect(Math.abs(pb[k]! - pa[k]! - ws.gap * n[k]!)).toBeLessThan(tol);
  expect(Math.abs(surfaceResidual(a, pa))).toBeLessThan(tol);
  expect(Math.abs(surfaceResidual(b, pb))).toBeLessThan(tol);
}

function angle(u: ArrayLike<number>, v: ArrayLike<number>): number {
  const c = u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;
  return Math.acos(Math.max(-1, Math.min(1, c)));
}

/** the exact signed distance of the origin-centred box of half extents e to the point x */
function boxSdf(e: readonly number[], x: readonly number[]): number {
  const d = x.map((v, k) => Math.abs(v) - e[k]!);
  return Math.hypot(Math.max(d[0]!, 0), Math.max(d[1]!, 0), Math.max(d[2]!, 0)) + Math.min(Math.max(d[0]!, d[1]!, d[2]!), 0);
}

describe('GJK/EPA: exact answers', () => {
  it('sphere-sphere: gap |c_B − c_A| − r_A − r_B, normal along c_B − c_A, witnesses on the surfaces', () => {
    fc.assert(fc.property(arbSphere, arbSphere, (a, b) => {
      const ws = distance(a, b), d = b.p.map((v, k) => v - a.p[k]!), l = Math.hypot(...d);
      expect(ws.gap).toBeCloseTo(l - a.params[0]! - b.params[0]!, 12);
      if (l > 1e-9) d.forEach((v, k) => expect(ws.normal[k]!).toBeCloseTo(v / l, 9));
      expectWitnesses(a, b, ws, 1e-12);
    }), { seed: 42, numRuns: 200, endOnFailure: true });
  });

  it('box-sphere and sphere-box: the box\'s exact distance to the centre minus r; normal = its gradient', () => {
    fc.assert(fc.property(arbBox, arbSphere, (box, s) => {
      const g = sdf(box, s.p) - s.params[0]!;
      for (const [a, b, sign] of [[box, s, 1], [s, box, -1]] as const) {
        const ws = distance(a, b);
        expect(ws.gap).toBeCloseTo(g, 12);
        // the gradient of the box's distance at the centre, by central differences
        const e = 1e-7, grad = [0, 1, 2].map((k) => {
          const xp = [...s.p], xm = [...s.p];
          xp[k] += e; xm[k] -= e;
          return (sdf(box, xp) - sdf(box, xm)) / (2 * e);
        });
        // away from the box's medial surface (inside) the gradient is a unit face or corner direction
        if (Math.abs(Math.hypot(...grad) - 1) < 1e-6) grad.forEach((v, k) => expect(sign * ws.normal[k]!).toBeCloseTo(v, 5));
        expectWitnesses(a, b, ws, 1e-12);
      }
    }), { seed: 43, numRuns: 200, endOnFailure: true });
  });

  it('aligned boxes: the gap is the distance of the origin to the box of half extents h_A + h_B at c_A − c_B', () => {
    const size = fc.double({ min: 0.05, max: 0.6, noNaN: true });
    fc.assert(fc.property(fc.tuple(size, size, size), fc.tuple(size, size, size), arbPoint, arbQuat, (ha, hb, d, q) => {
      const a: ConvexSolid = { kind: 'box', params: ha, p: [0.3, -0.2, 0.1], q };
      const b: ConvexSolid = { kind: 'box', params: hb, p: a.p.map((v, k) => v + d[k]!), q };
      const ws = distance(a, b), R = rotationOf(a);
      // the offset in the boxes' frame
      const l = [0, 1, 2].map((c) => R[c]! * d[0]! + R[3 + c]! * d[1]! + R[6 + c]! * d[2]!);
      const e = ha.map((v, k) => v + hb[k]!);
      expect(ws.gap).toBeCloseTo(boxSdf(e, l), 11);
      // the normal realizes the gap (s(n) = gap, to first order in the normal's error)
      const [A, B] = convexesOf([a, b]);
      expect(Math.abs(separationAlong(A!, B!, ws.normal) - ws.gap)).toBeLessThan(1e-11);
    }), { seed: 44, numRuns: 300, endOnFailure: true });
  });

  it('boxes with coincident centres: depth min_k (h_A,k + h_B,k), normal along that axis', () => {
    const a: ConvexSolid = { kind: 'box', params: [0.5, 0.3, 0.2], p: [1, 2, 3], q: [0.9, 0.1, -0.3, 0.2] };
    const b: ConvexSolid = { kind: 'box', params: [0.4, 0.35, 0.1], p: [1, 2, 3], q: a.q };
    const ws = distance(a, b), R = rotationOf(a);
    expect(ws.penetrating).toBe(true);
    expect(ws.gap).toBeCloseTo(-0.3, 12);
    expect(Math.abs(ws.normal[0]! * R[2]! + ws.normal[1]! * R[5]! + ws.normal[2]! * R[8]!)).toBeCloseTo(1, 12);
  });

  it('touching exactly: faces flush, a corner on a face, a sphere on a face: gap 0, the face normal', () => {
    const floor: ConvexSolid = { kind: 'box', params: [1, 1, 0.5], p: [0, 0, -0.5], q: I };
    const turned = unit([Math.cos(0.35), 0, 0, Math.sin(0.35)]);
    // a corner down: a cube turned so its diagonal is vertical (corner at the origin)
    const c = 0.5 * Math.sqrt(3), half = 0.5 * Math.acos(1 / Math.sqrt(3)), sh = Math.sin(half) / Math.sqrt(2);
    const tilt = [Math.cos(half), sh, -sh, 0];
    const cases: ConvexSolid[] = [
      { kind: 'box', params: [0.2, 0.3, 0.25], p: [0.1, -0.2, 0.25], q: turned },
      { kind: 'box', params: [0.5, 0.5, 0.5], p: [0, 0, c], q: tilt },
      { kind: 'sphere', params: [0.3], p: [0.2, 0.4, 0.3], q: I },
      { kind: 'cylinder', params: [0.3, 0.2], p: [0.2, 0.1, 0.2], q: I },
    ];
    for (const s of cases) {
      for (const [a, b, sign] of [[floor, s, 1], [s, floor, -1]] as const) {
        const ws = distance(a, b);
        expect(Math.abs(ws.gap)).toBeLessThan(1e-12);
        expect(sign * ws.normal[2]!).toBeCloseTo(1, 9);
      }
    }
  });
});

/** arbitrary pairs of the given kinds, both orders */
function pairsOf(kinds: readonly (readonly [string, fc.Arbitrary<ConvexSolid>])[], keep: (a: string, b: string) => boolean) {
  const out: [string, fc.Arbitrary<ConvexSolid>, fc.Arbitrary<ConvexSolid>][] = [];
  for (const [na, aa] of kinds) for (const [nb, ab] of kinds) if (keep(na, nb)) out.push([`${na}-${nb}`, aa, ab]);
  return out;
}

const POLYTOPES = [['box', arbBox], ['hull', arbHull], ['sphere', arbSphere], ['capsule', arbCapsule]] as const;
const CURVED = [['cylinder', arbCylinder], ['ellipsoid', arbEllipsoid], ...POLYTOPES] as const;
const isPoly = (k: string): boolean => k === 'box' || k === 'hull';
const isCurved = (k: string): boolean => k === 'cylinder' || k === 'ellipsoid';

describe('GJK/EPA against the exact polytope reference at random poses', () => {
  // boxes and hulls with each other and with spheres and capsules (whose cores are a point and a segment)
  for (const [name, aa, ab] of pairsOf(POLYTOPES, (a, b) => isPoly(a) || isPoly(b))) {
    it(`${name}: the gap and normal of the reference; the normal's s(n) and the witnesses agree with the gap`, () => {
      fc.assert(fc.property(aa, ab, (a, b) => {
        const [A, B] = convexesOf([a, b]), ws = new ConvexWorkspace();
        convexDistance(ws, A!, B!, BIG);
        const ref = polytopeDistance(A!, B!);
        // the reference hull merges faces within 1e-9 of coplanar and averages their planes: nearly
        // aligned shapes (tilts of 1e-6, frequent in these arbitraries) put it 1e-7 off
        expect(Math.abs(ws.gap - ref.gap)).toBeLessThan(1e-6);
        // exact: s(n) is a lower bound of the signed distance, the witness pair an upper bound
        expect(Math.abs(separationAlong(A!, B!, ws.normal) - ws.gap)).toBeLessThan(1e-9);
        expectWitnesses(a, b, ws, 1e-9);
        // apart, the normal is unique: the direction between D's closest point and the origin
        if (!ws.penetrating && ws.gap + A!.radius + B!.radius > 1e-3) expect(angle(ws.normal, ref.n)).toBeLessThan(1e-5);
      }), { seed: 45, numRuns: 60, endOnFailure: true });
    });
  }
});

describe('GJK/EPA on cylinders and ellipsoids', () => {
  const pairs = pairsOf(CURVED, (a, b) => isCurved(a) || isCurved(b));
  for (const [name, aa, ab] of pairs) {
    it(`${name}: apart, s(n) and the witness pair agree on the gap (a proof to 1e-9); no direction does better`, () => {
      fc.assert(fc.property(aa, ab, (a, b) => {
        const [A, B] = convexesOf([a, b]), ws = new ConvexWorkspace();
        convexDistance(ws, A!, B!, BIG);
        fc.pre(!ws.penetrating);
        // lower bound s(n), upper bound |p_B − p_A| with the points on the surfaces
        expect(Math.abs(separationAlong(A!, B!, ws.normal) - ws.gap)).toBeLessThan(1e-9);
        expectWitnesses(a, b, ws, 1e-9);
        expect(referenceDistance(A!, B!).gap).toBeLessThan(ws.gap + 1e-9);
      }), { seed: 46, numRuns: 25, endOnFailure: true });
    });
  }

  for (const [name, aa, ab] of pairs) {
    it(`${name}: shallow overlaps (moved 1e-2 .. 1e-6 past touching along the normal): depth to 1e-8`, () => {
      fc.assert(fc.property(aa, ab, fc.constantFrom(1e-2, 1e-4, 1e-6), (a, b, delta) => {
        const ws = new ConvexWorkspace();
        let [A, B] = convexesOf([a, b]);
        convexDistance(ws, A!, B!, BIG);
        fc.pre(!ws.penetrating && ws.gap > 1e-3);
        const n = Array.from(ws.normal), g = ws.gap;
        const moved = { ...b, p: b.p.map((v, k) => v - (g + delta) * n[k]!) };
        [A, B] = convexesOf([a, moved]);
        convexDistance(ws, A!, B!, BIG);
        // the true depth lies between EPA's face (−gap) and the support along its normal (−s(n)):
        // the bracket EPA reports, under 1e-8 here
        const s = separationAlong(A!, B!, ws.normal), bracket = ws.penetrating ? ws.epa.bracket : 0;
        expect(ws.gap - s).toBeGreaterThan(-1e-12);
        expect(ws.gap - s).toBeLessThan(bracket + 1e-12);
        expect(bracket).toBeLessThan(1e-8);
        // moving back by delta separates them (depth ≤ delta), and no direction separates them sooner
        expect(ws.gap).toBeGreaterThan(-delta - 1e-9);
        expect(ws.gap).toBeLessThan(1e-12);
        expect(referenceDistance(A!, B!).gap).toBeLessThan(ws.gap + 1e-9);
        expectWitnesses(a, moved, ws, 1e-8);
      }), { seed: 47, numRuns: 25, endOnFailure: true });
    });
  }

  it('deep overlaps: the normal realizes the gap within EPA\'s bracket; no sampled direction does better', () => {
    const arb = fc.oneof(...CURVED.map(([, x]) => x));
    let worst = 0;
    fc.assert(fc.property(arb, arb, (a, b) => {
      const [A, B] = convexesOf([a, b]), ws = new ConvexWorkspace();
      convexDistance(ws, A!, B!, BIG);
      fc.pre(ws.penetrating);
      const s = separationAlong(A!, B!, ws.normal), bracket = ws.epa.bracket;
      expect(ws.gap - s).toBeGreaterThan(-1e-12);
      expect(ws.gap - s).toBeLessThan(bracket + 1e-9);
      expect(referenceDistance(A!, B!).gap).toBeLessThan(ws.gap + 1e-9);
      worst = Math.max(worst, bracket);
    }), { seed: 48, numRuns: 100, endOnFailure: true });
    // the bracket of the worst case (coincident centres of symmetric shapes) stays a small fraction of the sizes
    expect(worst).toBeLessThan(1e-2);
  });
});

describe('GJK/EPA properties', () => {
  const arb = fc.oneof(...CURVED.map(([, x]) => x));

  it('a rigid motion of both shapes moves the normal and witnesses with them and keeps the gap', () => {
    fc.assert(fc.property(arb, arb, arbPoint, arbQuat, (a, b, t, rq) => {
      const rot = Float64Array.from(rq), w0 = distance(a, b);
      const gap = w0.gap, n = Array.from(w0.normal), pen = w0.penetrating, bracket = pen ? w0.epa.bracket : 0;
      const w1 = distance(moveSolid(a, t, rot), moveSolid(b, t, rot));
      // EPA stopped short of convergence answers within its bracket
      expect(Math.abs(w1.gap - gap)).toBeLessThan(1e-9 + bracket + (pen ? w1.epa.bracket : 0));
      const [A1, B1] = convexesOf([moveSolid(a, t, rot), moveSolid(b, t, rot)]);
      // the moved normal realizes the moved gap (a normal is not unique where the depth is reached twice)
      const rn = quatRotate(new Float64Array(3), rot, Float64Array.from(n));
      expect(Math.abs(separationAlong(A1!, B1!, rn) - w1.gap)).toBeLessThan(1e-8 + bracket + (pen ? w1.epa.bracket : 0));
      if (!pen && gap + A1!.radius + B1!.radius > 1e-3) expect(angle(rn, w1.normal)).toBeLessThan(1e-6);
    }), { seed: 49, numRuns: 200, endOnFailure: true });
  });

  it('swapping the shapes flips the normal and keeps the gap', () => {
    fc.assert(fc.property(arb, arb, (a, b) => {
      const ab = distance(a, b), gap = ab.gap, n = Array.from(ab.normal), pen = ab.penetrating;
      const br = pen ? ab.epa.bracket : 0;
      const ba = distance(b, a);
      expect(Math.abs(ba.gap - gap)).toBeLessThan(1e-9 + br + (pen ? ba.epa.bracket : 0));
      if (!pen && ab.gjk.distance > 1e-3) expect(angle(ba.normal, n.map((v) => -v))).toBeLessThan(1e-6);
      const [B, A] = convexesOf([b, a]);
      expect(Math.abs(separationAlong(B!, A!, n.map((v) => -v)) - ba.gap)).toBeLessThan(1e-8 + br + (pen ? ba.epa.bracket : 0));
    }), { seed: 50, numRuns: 200, endOnFailure: true });
  });

  it('deterministic: the same query gives the same bits, whatever the workspace answered before', () => {
    const solids = fc.sample(fc.tuple(arb, arb), { seed: 51, numRuns: 40 });
    const ws = new ConvexWorkspace();
    const first = solids.map(([a, b]) => { const w = distance(a, b); return [w.gap, ...w.normal, ...w.pA, ...w.pB]; });
    const again = solids.map(([a, b]) => { const w = distance(a, b, ws); return [w.gap, ...w.normal, ...w.pA, ...w.pB]; });
    expect(again).toEqual(first);
  });
});

describe('GJK/EPA: degenerate simplices and the early exit', () => {
  it('a sphere centred on a capsule\'s axis: depth 0 of the cores, a normal across the axis', () => {
    const cap: ConvexSolid = { kind: 'capsule', params: [0.2, 0.5], p: [0.1, 0.2, 0.3], q: unit([1, 0.3, -0.2, 0.1]) };
    const R = rotationOf(cap), u = [R[2]!, R[5]!, R[8]!];
    for (const s of [-0.3, 0, 0.5]) {
      const sph: ConvexSolid = { kind: 'sphere', params: [0.1], p: cap.p.map((v, k) => v + s * u[k]!), q: I };
      for (const [a, b] of [[cap, sph], [sph, cap]] as const) {
        const ws = distance(a, b);
        expect(ws.gap).toBeCloseTo(-0.3, 12);
        expect(Math.abs(ws.normal[0]! * u[0]! + ws.normal[1]! * u[1]! + ws.normal[2]! * u[2]!)).toBeLessThan(1e-9);
        expectWitnesses(a, b, ws, 1e-12);
      }
    }
  });

  it('two capsules whose axes cross: depth 0 of the cores, the normal along u_A × u_B', () => {
    const a: ConvexSolid = { kind: 'capsule', params: [0.1, 0.5], p: [0, 0, 0], q: I };
    const b: ConvexSolid = { kind: 'capsule', params: [0.15, 0.4], p: [0, 0.1, 0.05], q: unit([1, 1, 0, 0]) };
    const ws = distance(a, b);
    expect(ws.gap).toBeCloseTo(-0.25, 12);
    expect(Math.abs(ws.normal[0]!)).toBeCloseTo(1, 12);
  });

  it('identical boxes at one pose, and a cube inside a bigger one (duplicate supports, deep)', () => {
    const a: ConvexSolid = { kind: 'box', params: [0.3, 0.2, 0.1], p: [1, -1, 0.5], q: unit([1, 2, 3, 4]) };
    expect(distance(a, a).gap).toBeCloseTo(-0.2, 12);
    const big: ConvexSolid = { kind: 'box', params: [1, 1, 1], p: [0, 0, 0], q: I };
    const small: ConvexSolid = { kind: 'box', params: [0.1, 0.1, 0.1], p: [0.2, 0.5, -0.1], q: unit([1, 0.2, 0.1, 0]) };
    const ws = distance(big, small), [A, B] = convexesOf([big, small]);
    // the cheapest way out is +y: 1 − 0.5 + the small box's extent along y
    expect(ws.normal[1]!).toBeCloseTo(1, 9);
    expect(ws.gap).toBeCloseTo(separationAlong(A!, B!, [0, 1, 0]), 12);
  });

  it('far from the origin and at disparate sizes: the same gaps to the rounding of the coordinates', () => {
    const arb = fc.oneof(...CURVED.map(([, x]) => x));
    fc.assert(fc.property(arb, arb, (a, b) => {
      const w0 = distance(a, b), gap = w0.gap, br = w0.penetrating ? w0.epa.bracket : 0;
      const far = (s: ConvexSolid): ConvexSolid => ({ ...s, p: [s.p[0]! + 1000, s.p[1]! - 500, s.p[2]! + 300] });
      const w1 = distance(far(a), far(b));
      expect(Math.abs(w1.gap - gap)).toBeLessThan(1e-9 + br + (w1.penetrating ? w1.epa.bracket : 0));
    }), { seed: 54, numRuns: 100, endOnFailure: true });
    // a 1 mm sphere resting on a 20 m box, and a 20 m box on a 1 mm one
    const big: ConvexSolid = { kind: 'box', params: [10, 10, 1], p: [0, 0, -1], q: unit([1, 0, 0, 0.3]) };
    for (const g of [1e-6, 0, -1e-6]) {
      const tiny: ConvexSolid = { kind: 'sphere', params: [1e-3], p: [3, -2, 1e-3 + g], q: I };
      expect(distance(big, tiny).gap).toBeCloseTo(g, 12);
      const chip: ConvexSolid = { kind: 'box', params: [1e-3, 1e-3, 1e-3], p: [3, -2, 1e-3 + g], q: unit([1, 0, 0, 0.1]) };
      expect(distance(big, chip).gap).toBeCloseTo(g, 12);
      expect(distance(chip, big).normal[2]!).toBeCloseTo(-1, 9);
    }
  });

  it('past the limit GJK stops early with a lower bound of the distance', () => {
    const [A, B] = convexesOf([
      { kind: 'ellipsoid', params: [0.3, 0.2, 0.1], p: [0, 0, 0], q: I },
      { kind: 'box', params: [0.2, 0.2, 0.2], p: [5, 1, 0], q: unit([1, 1, 1, 1]) },
    ]);
    const g = new GjkWorkspace();
    expect(gjk(g, A!, B!, 1)).toBe(GJK_BEYOND);
    const lower = g.distance, its = g.iterations;
    expect(gjk(g, A!, B!)).toBe(GJK_SEPARATED);
    expect(lower).toBeGreaterThan(1);
    expect(lower).toBeLessThanOrEqual(g.distance);
    expect(its).toBeLessThan(g.iterations);
    expect(convexDistance(new ConvexWorkspace(), A!, B!, 1)).toBe(false);
  });
});
