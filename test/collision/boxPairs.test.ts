/**
 * Sphere-box, capsule-box and box-box contacts against brute-force references: exact signed
 * distances (the box's sdf, vertex/edge distances of two boxes, a ternary search along a capsule's
 * core), the exact support separation of the polytopes over the 15 SAT axes and dense directions,
 * the points on both surfaces; a box resting on a box (4 points, overlap corners, ids that survive
 * 1000 small perturbations), the 45° octagon reduced to 4, edge-edge crossing, and the cost per call.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ShapeTable } from '../../src/collision/shapes.js';
import { Manifold } from '../../src/collision/manifold.js';
import { boxBox, capsuleBox, sphereBox } from '../../src/collision/boxPairs.js';
import type { PairFunction } from '../../src/collision/pairs.js';
import {
  type Solid, sceneOf, sdf, toWorld, rotationOf, arbPoint, arbQuat, arbRadius, arbHalf, unit, randomDirections, contactsOf, expectRigidInvariance,
} from './geometry.js';
import { rng } from './scenes.js';

interface Pt { fa: number; fb: number; p: number[]; n: number[]; gap: number }

/** the points of fn on solids[0], solids[1] with the margin */
function run(fn: PairFunction, solids: Solid[], margin: number, m = new Manifold()): Pt[] {
  const { shapes, q } = sceneOf(solids);
  const t = new ShapeTable(shapes, margin);
  t.updatePoses(q);
  m.count = 0;
  fn(t, 0, 1, m);
  const out: Pt[] = [];
  for (let i = 0; i < m.count; i++) {
    out.push({ fa: m.featureA[i]!, fb: m.featureB[i]!, gap: m.gap[i]!,
      p: Array.from(m.point.subarray(3 * i, 3 * i + 3)), n: Array.from(m.normal.subarray(3 * i, 3 * i + 3)) });
  }
  return out;
}

const I = [1, 0, 0, 0];
const BIG = 100;

/** the eight world vertices of a box solid */
function vertices(s: Solid): number[][] {
  return [0, 1, 2, 3, 4, 5, 6, 7].map((v) => toWorld(s, [0, 1, 2].map((j) => ((v >> j) & 1 ? 1 : -1) * s.params[j]!)));
}

/** the core points of a solid (box vertices, capsule ends, sphere centre) and its radius, cached */
const cores = new WeakMap<Solid, { pts: number[][]; r: number }>();
function coreOf(s: Solid): { pts: number[][]; r: number } {
  let c = cores.get(s);
  if (!c) {
    const R = rotationOf(s), h = s.kind === 'capsule' ? s.params[1]! : 0, u = [R[2]!, R[5]!, R[8]!];
    c = s.kind === 'box' ? { pts: vertices(s), r: 0 }
      : { pts: [s.p.map((v, k) => v - h * u[k]!), s.p.map((v, k) => v + h * u[k]!)], r: s.params[0]! };
    cores.set(s, c);
  }
  return c;
}

/** the support of a solid along the unit d: max over its core points of d·x, plus its radius */
function supportValue(s: Solid, d: number[]): number {
  const c = coreOf(s);
  let best = -Infinity;
  for (const x of c.pts) best = Math.max(best, dot(x, d));
  return best + c.r;
}

function dot(a: number[], b: number[]): number { return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!; }
function cross(a: number[], b: number[]): number[] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}
function sub(a: number[], b: number[]): number[] { return [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!]; }

/** exact support separation s(d) = min_B d·y − max_A d·x (d unit) */
function separationOf(a: Solid, b: Solid, d: number[]): number {
  return -supportValue(b, d.map((x) => -x)) - supportValue(a, d);
}

/** the box axes of a solid (world) */
function axes(s: Solid): number[][] {
  const R = rotationOf(s);
  return [0, 1, 2].map((j) => [R[j]!, R[3 + j]!, R[6 + j]!]);
}

/** max over the 15 SAT axes and dense directions of the exact support separation */
function maxSeparation(a: Solid, b: Solid, extra: number[][]): number {
  const dirs = [...axes(a), ...axes(b), ...extra, ...FIB];
  for (const x of axes(a)) for (const y of axes(b)) { const c = cross(x, y); if (Math.hypot(...c) > 1e-9) dirs.push(unit(c)); }
  let best = -Infinity;
  for (const d of dirs) for (const s of [1, -1]) best = Math.max(best, separationOf(a, b, d.map((x) => s * x)));
  return best;
}

/** dense directions for the reference separations */
const FIB = randomDirections(1500, 11);

/** the distance of segments p0p1, q0q1 by ternary search (distance to a segment is convex along the other) */
function segmentDistance(p0: number[], p1: number[], q0: number[], q1: number[]): number {
  const at = (s: number): number => pointSegment(p0.map((v, k) => v + s * (p1[k]! - v)), q0, q1);
  let lo = 0, hi = 1;
  for (let i = 0; i < 60; i++) { const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3; if (at(m1) <= at(m2)) hi = m2; else lo = m1; }
  return Math.min(at(lo), at(0), at(1));
}
function pointSegment(x: number[], a: number[], b: number[]): number {
  const ab = sub(b, a), l2 = dot(ab, ab), t = l2 > 0 ? Math.max(0, Math.min(1, dot(sub(x, a), ab) / l2)) : 0;
  return Math.hypot(...sub(x, a.map((v, k) => v + t * ab[k]!)));
}

/** the box edges (pairs of vertices differing in one bit) */
function edges(s: Solid): number[][][] {
  const v = vertices(s), out: number[][][] = [];
  for (let i = 0; i < 8; i++) for (let j = 0; j < 3; j++) if (!((i >> j) & 1)) out.push([v[i]!, v[i | (1 << j)]!]);
  return out;
}

/** exact distance of two separated boxes: vertices against the other box, edges against edges */
function boxDistance(a: Solid, b: Solid): number {
  let d = Math.min(...vertices(a).map((x) => sdf(b, x)), ...vertices(b).map((x) => sdf(a, x)));
  for (const [p0, p1] of edges(a)) for (const [q0, q1] of edges(b)) d = Math.min(d, segmentDistance(p0!, p1!, q0!, q1!));
  return d;
}

/** each point's two surface points p ∓ (g/2) n lie on the surfaces */
function expectOnSurfaces(a: Solid, b: Solid, pts: Pt[], tol: number): void {
  for (const c of pts) {
    expect(Math.hypot(...c.n)).toBeCloseTo(1, 12);
    const pa = c.p.map((v, k) => v - 0.5 * c.gap * c.n[k]!), pb = c.p.map((v, k) => v + 0.5 * c.gap * c.n[k]!);
    expect(Math.abs(sdf(a, pa))).toBeLessThan(tol);
    expect(Math.abs(sdf(b, pb))).toBeLessThan(tol);
  }
}

const arbBox = fc.record({ p: arbPoint, q: arbQuat, h: fc.tuple(arbRadius, arbRadius, arbRadius) })
  .map(({ p, q, h }): Solid => ({ kind: 'box', params: h, p, q }));
const arbSphere = fc.record({ p: arbPoint, r: arbRadius }).map(({ p, r }): Solid => ({ kind: 'sphere', params: [r], p, q: I }));
const arbCapsule = fc.record({ p: arbPoint, q: arbQuat, r: arbRadius, h: arbHalf })
  .map(({ p, q, r, h }): Solid => ({ kind: 'capsule', params: [r, h], p, q }));
const deepest = (pts: Pt[]): Pt => pts.reduce((m, c) => (c.gap < m.gap ? c : m));

describe('sphere-box', () => {
  it('gap is the exact signed distance; points on both surfaces; one point', () => {
    fc.assert(fc.property(arbSphere, arbBox, (s, b) => {
      const pts = run(sphereBox, [s, b], BIG);
      expect(pts).toHaveLength(1);
      const ref = sdf(b, s.p) - s.params[0]!;
      expect(pts[0]!.gap).toBeCloseTo(ref, 12);
      expectOnSurfaces(s, b, pts, 1e-12);
      // the normal realizes the gap: the exact support separation along it
      expect(separationOf(s, b, pts[0]!.n)).toBeCloseTo(ref, 12);
    }), { seed: 42, numRuns: 300 });
  });

  it('features: face, edge, vertex of the closest point; inside: the nearest face', () => {
    const box: Solid = { kind: 'box', params: [1, 2, 3], p: [0, 0, 0], q: I };
    const at = (p: number[]): Pt => run(sphereBox, [{ kind: 'sphere', params: [0.5], p, q: I }, box], BIG)[0]!;
    expect(at([0, 0, 4]).fb).toBe(25);
    expect(at([0, 0, 4]).n).toEqual([0, 0, -1]);
    expect(at([0, 0, 4]).gap).toBeCloseTo(0.5, 15);
    expect(at([2, 3, 0]).fb).toBe(8 + 4 * 2 + 3);
    expect(at([-2, -3, -4]).fb).toBe(0);
    const inside = at([0.9, 0, 0]);
    expect(inside.fb).toBe(21);
    expect(inside.n).toEqual([-1, 0, 0]);
    expect(inside.gap).toBeCloseTo(-0.6, 14);
    expect(run(sphereBox, [{ kind: 'sphere', params: [0.5], p: [0, 0, 3.6], q: I }, box], 0.1)).toHaveLength(0);
    expect(run(sphereBox, [{ kind: 'sphere', params: [0.5], p: [0, 0, 3.59], q: I }, box], 0.1)).toHaveLength(1);
  });
});

/** the signed distance of a capsule and a box: core outside the box exactly, else the best separation */
function capsuleBoxReference(c: Solid, b: Solid): { exact: boolean; d: number } {
  const R = rotationOf(c), h = c.params[1]!, u = [R[2]!, R[5]!, R[8]!];
  const at = (s: number): number => sdf(b, c.p.map((v, k) => v + s * u[k]!));
  let lo = -h, hi = h;
  for (let i = 0; i < 200; i++) { const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3; if (at(m1) <= at(m2)) hi = m2; else lo = m1; }
  const core = Math.min(at(lo), at(-h), at(h));
  if (core > 1e-9) return { exact: true, d: core - c.params[0]! };
  const extra = axes(b).map((e) => cross(u, e)).filter((x) => Math.hypot(...x) > 1e-9).map(unit);
  return { exact: false, d: maxSeparation(c, b, extra) };
}

describe('capsule-box', () => {
  it('gap: the exact distance when the core is outside, the least overlap when it reaches in', () => {
    fc.assert(fc.property(arbCapsule, arbBox, (c, b) => {
      const pts = run(capsuleBox, [c, b], BIG), ref = capsuleBoxReference(c, b);
      expect(pts.length).toBeGreaterThan(0);
      expect(pts.length).toBeLessThanOrEqual(2);
      expect(new Set(idsOf(pts)).size).toBe(pts.length);
      const g = deepest(pts).gap;
      if (ref.exact) expect(g).toBeCloseTo(ref.d, 9);
      // overlapping: the best of the 6 axes, within the face preference (1e-3 of the smallest extent)
      else { expect(g).toBeLessThan(ref.d + 1e-12); expect(g).toBeGreaterThan(ref.d - 1e-3 * Math.min(...b.params) - 1e-12); }
      for (const p of pts) expect(separationOf(c, b, p.n)).toBeGreaterThan(g - 1e-9);
      if (ref.exact) expectOnSurfaces(c, b, [deepest(pts)], 1e-9);
    }), { seed: 43, numRuns: 300 });
  });

  it('a capsule lying on a face: two points at its clipped ends, features end / side', () => {
    const box: Solid = { kind: 'box', params: [1, 1, 0.5], p: [0, 0, 0], q: I };
    // along x from −0.5 to 1.5, radius 0.1, sinking 0.01 into the top face
    const cap: Solid = { kind: 'capsule', params: [0.1, 1], p: [0.5, 0.2, 0.59], q: [Math.SQRT1_2, 0, Math.SQRT1_2, 0] };
    const pts = run(capsuleBox, [cap, box], 0.05);
    expect(pts).toHaveLength(2);
    const xs = pts.map((p) => p.p[0]!).sort((x, y) => x - y);
    expect(xs[0]).toBeCloseTo(-0.5, 14);
    expect(xs[1]).toBeCloseTo(1, 14);
    for (const p of pts) { expect(p.gap).toBeCloseTo(-0.01, 14); expect(p.n[2]).toBeCloseTo(-1, 15); expect(p.p[2]).toBeCloseTo(0.495, 14); }
    // the +z end (at x = 1.5 after the turn) hangs over: the side on the box's edge (along y at +x, +z);
    // the −z end inside the face
    const ids = pts.map((p) => [p.fa, p.fb]).sort();
    expect(ids).toEqual([[0, 25], [2, 8 + 4 * 1 + 1 + 2]]);
  });
});

describe('box-box at random poses', () => {
  it('gap vs the exact distance (apart: pairs of surface points, mostly the closest) and the depth (overlapping)', () => {
    let apart = 0, exact = 0, over = 0;
    fc.assert(fc.property(arbBox, arbBox, (a, b) => {
      const pts = run(boxBox, [a, b], BIG);
      expect(pts.length).toBeGreaterThan(0);
      expect(pts.length).toBeLessThanOrEqual(4);
      const g = deepest(pts).gap, ref = maxSeparation(a, b, []);
      const bias = 1e-3 * Math.min(...a.params, ...b.params);
      if (ref < 0) {
        // overlapping: the best axis (the 15 contain the exact depth), or one preferred within 5% + bias
        over++;
        expect(g).toBeLessThan(ref + 1e-12);
        expect(g).toBeGreaterThan(ref - 0.05 * Math.abs(ref) - 2 * bias - 1e-12);
      } else {
        // apart: every point is a pair of surface points, never closer than the distance
        const d = boxDistance(a, b);
        apart++;
        expect(g).toBeGreaterThan(d - 1e-9);
        if (g < d + 1e-9) exact++;
      }
      // distinct names; every normal is one normal; no gap is below the support separation along it
      expect(new Set(idsOf(pts)).size).toBe(pts.length);
      for (const p of pts) p.n.forEach((v, k) => expect(v).toBeCloseTo(pts[0]!.n[k]!, 14));
      expect(separationOf(a, b, pts[0]!.n)).toBeLessThan(g + 1e-12);
      expectOnSurfaces(a, b, pts, 1e-9);
    }), { seed: 44, numRuns: 300, endOnFailure: true });
    console.log(`box-box: ${over} overlapping, ${apart} apart, ${exact} of them at the exact distance`);
    expect(apart).toBeGreaterThan(30);
    expect(over).toBeGreaterThan(30);
    expect(exact).toBeGreaterThan(0.7 * apart);
  });

  it('both orders: the same deepest gap (within the face preference), the normal reversed', () => {
    fc.assert(fc.property(arbBox, arbBox, (a, b) => {
      const ab = run(boxBox, [a, b], BIG), ba = run(boxBox, [b, a], BIG);
      const bias = 1e-3 * Math.min(...a.params, ...b.params), ga = deepest(ab).gap, gb = deepest(ba).gap;
      expect(Math.abs(ga - gb)).toBeLessThan(0.05 * Math.abs(ga) + 2 * bias + 1e-12);
      // the swapped normal, turned back, is a normal of (a, b) with that gap
      expect(separationOf(a, b, deepest(ba).n.map((v) => -v))).toBeLessThan(gb + 1e-12);
    }), { seed: 45, numRuns: 200 });
  });

  it('margin: nothing when an axis separates by the margin or more', () => {
    const a: Solid = { kind: 'box', params: [0.5, 0.5, 0.5], p: [0, 0, 0], q: I };
    expect(run(boxBox, [a, { ...a, p: [0, 0, 1.0999] }], 0.1)).toHaveLength(4);
    expect(run(boxBox, [a, { ...a, p: [0, 0, 1.1001] }], 0.1)).toHaveLength(0);
    for (const p of run(boxBox, [a, { ...a, p: [0, 0, 1.05] }], 0.1)) expect(p.gap).toBeCloseTo(0.05, 14);
  });
});

/** a quaternion turning by angle about the unit axis */
function turn(axis: number[], angle: number): number[] {
  const s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), s * axis[0]!, s * axis[1]!, s * axis[2]!];
}

/** the ids of the points as sorted strings */
const idsOf = (pts: Pt[]): string[] => pts.map((p) => `${p.fa},${p.fb}`).sort();

/** perturbs the pose of s by up to dp in position and da radians in orientation */
function perturbed(s: Solid, r: () => number, dp: number, da: number): Solid {
  const ax = unit([r() - 0.5, r() - 0.5, r() - 0.5]), q = turn(ax, da * (2 * r() - 1));
  const qs = s.q;
  const w = q[0]! * qs[0]! - q[1]! * qs[1]! - q[2]! * qs[2]! - q[3]! * qs[3]!;
  const x = q[0]! * qs[1]! + q[1]! * qs[0]! + q[2]! * qs[3]! - q[3]! * qs[2]!;
  const y = q[0]! * qs[2]! - q[1]! * qs[3]! + q[2]! * qs[0]! + q[3]! * qs[1]!;
  const z = q[0]! * qs[3]! + q[1]! * qs[2]! - q[2]! * qs[1]! + q[3]! * qs[0]!;
  return { ...s, p: s.p.map((v) => v + dp * (2 * r() - 1)), q: [w, x, y, z] };
}

describe('box resting on a box', () => {
  const ground: Solid = { kind: 'box', params: [1, 1, 0.5], p: [0, 0, 0], q: I };
  const cube: Solid = { kind: 'box', params: [0.5, 0.5, 0.5], p: [0, 0, 0], q: I };

  it('a small box on a large one: 4 points at its corners, ids stable under 1000 perturbations', () => {
    const top: Solid = { kind: 'box', params: [0.3, 0.2, 0.25], p: [0.1, -0.2, 0.749], q: turn([0, 0, 1], 0.3) };
    const pts = run(boxBox, [ground, top], 0.02);
    expect(pts).toHaveLength(4);
    const corners = vertices(top).filter((v) => v[2]! < 0.6);
    for (const p of pts) {
      expect(p.gap).toBeCloseTo(-0.001, 14);
      expect(p.p[2]).toBeCloseTo(0.4995, 14);
      expect(corners.some((c) => Math.hypot(c[0]! - p.p[0]!, c[1]! - p.p[1]!) < 1e-14)).toBe(true);
      expect(p.fa).toBe(25);
    }
    const ids = idsOf(pts), flipped = idsOf(pts.map((p) => ({ ...p, fa: p.fb, fb: p.fa }))), r = rng(7), m = new Manifold();
    for (let i = 0; i < 1000; i++) {
      const moved = perturbed(top, r, 1e-4, 1e-3);
      expect(idsOf(run(boxBox, [ground, moved], 0.02, m))).toEqual(ids);
      // the small box first: its face may be the reference, the names stay
      expect(idsOf(run(boxBox, [moved, ground], 0.02, m))).toEqual(flipped);
    }
  });

  it('equal cubes stacked flush: 4 (vertex, vertex) points, stable under 1000 perturbations in either order', () => {
    const up: Solid = { ...cube, p: [0, 0, 0.999] };
    const pts = run(boxBox, [cube, up], 0.02);
    expect(pts).toHaveLength(4);
    for (const p of pts) {
      expect(Math.abs(p.p[0]!)).toBeCloseTo(0.5, 14); expect(Math.abs(p.p[1]!)).toBeCloseTo(0.5, 14);
      expect(p.fa).toBeGreaterThanOrEqual(4); expect(p.fa).toBeLessThan(8); expect(p.fb).toBeLessThan(4);
      expect(p.fb).toBe(p.fa - 4);
    }
    const ids = idsOf(pts), flipped = idsOf(pts.map((p) => ({ ...p, fa: p.fb, fb: p.fa }))), r = rng(8);
    for (let i = 0; i < 1000; i++) {
      const lo = perturbed(cube, r, 1e-4, 1e-3), hi = perturbed(up, r, 1e-4, 1e-3);
      expect(idsOf(run(boxBox, [lo, hi], 0.02))).toEqual(ids);
      expect(idsOf(run(boxBox, [hi, lo], 0.02))).toEqual(flipped);
    }
    // larger motions too: 1 mm and 10 mrad
    for (let i = 0; i < 1000; i++) {
      expect(idsOf(run(boxBox, [perturbed(cube, r, 1e-3, 1e-2), perturbed(up, r, 1e-3, 1e-2)], 0.02))).toEqual(ids);
    }
  });

  it('equal cubes flush, both turned alike (up to 1e-15): the points stay on the corners through rounding', () => {
    const r = rng(10);
    for (let i = 0; i < 200; i++) {
      const th = 2 * Math.PI * r(), q = turn([0, 0, 1], th), lo: Solid = { ...cube, q };
      const up = perturbed({ ...cube, p: [0, 0, 0.999], q }, r, 1e-15, 1e-15);
      const pts = run(boxBox, [lo, up], 0.02);
      expect(pts).toHaveLength(4);
      for (const p of pts) {
        // in the cubes' frame each point is a corner (±0.5, ±0.5)
        const x = Math.cos(th) * p.p[0]! + Math.sin(th) * p.p[1]!, y = -Math.sin(th) * p.p[0]! + Math.cos(th) * p.p[1]!;
        expect(Math.abs(Math.abs(x) - 0.5)).toBeLessThan(1e-12);
        expect(Math.abs(Math.abs(y) - 0.5)).toBeLessThan(1e-12);
      }
    }
  });

  it('equal cubes at rounding-level poses of a simulated stack: the points on the corners', () => {
    // sides lying on side lines: rounding makes crossings anywhere along them; the corners stand
    const lo: Solid = { ...cube, p: [8.677918352569135e-15, -1.1982638246315342e-14, 0.4999999999999948],
      q: [1, -1.6842395999132843e-16, 5.121598724168819e-15, -1.1585177261964847e-14] };
    const up: Solid = { ...cube, p: [-1.42048089728275e-14, -1.0272781877253211e-14, 1.4999999999999822],
      q: [1, 9.284928412908101e-15, 8.326157272498542e-15, -3.271880225286385e-16] };
    const pts = run(boxBox, [lo, up], 0.02);
    expect(idsOf(pts)).toEqual(['4,0', '5,1', '6,2', '7,3']);
    for (const p of pts) for (let k = 0; k < 2; k++) expect(Math.abs(Math.abs(p.p[k]!) - 0.5)).toBeLessThan(1e-12);
  });

  it('equal cubes offset: the overlap rectangle corners, stable ids', () => {
    const up: Solid = { ...cube, p: [0.3, 0.1, 0.999] };
    const pts = run(boxBox, [cube, up], 0.02);
    expect(pts).toHaveLength(4);
    const xs = pts.map((p) => p.p[0]!.toFixed(12)).sort(), ys = pts.map((p) => p.p[1]!.toFixed(12)).sort();
    expect(xs).toEqual(['-0.200000000000', '-0.200000000000', '0.500000000000', '0.500000000000']);
    expect(ys).toEqual(['-0.400000000000', '-0.400000000000', '0.500000000000', '0.500000000000']);
    const ids = idsOf(pts), r = rng(9);
    for (let i = 0; i < 1000; i++) expect(idsOf(run(boxBox, [perturbed(cube, r, 1e-4, 1e-3), perturbed(up, r, 1e-4, 1e-3)], 0.02))).toEqual(ids);
  });

  it('a cube turned 45° on a cube: the octagon reduced to the 4 points of largest area', () => {
    const up: Solid = { ...cube, p: [0, 0, 0.999], q: turn([0, 0, 1], Math.PI / 4) };
    const pts = run(boxBox, [cube, up], 0.02);
    expect(pts).toHaveLength(4);
    // the octagon: |x|, |y| ≤ 0.5 and |x| + |y| ≤ 0.5√2; its vertices have one coordinate ±0.5
    const a = 0.5, b = Math.SQRT1_2 - 0.5;
    for (const p of pts) {
      const x = Math.abs(p.p[0]!), y = Math.abs(p.p[1]!);
      expect(Math.min(Math.abs(x - a) + Math.abs(y - b), Math.abs(x - b) + Math.abs(y - a))).toBeLessThan(1e-12);
    }
    // the largest quadrilateral on an octagon of these vertices: area 2ab·2 + ... compare with brute force
    const oct: number[][] = [];
    for (const [x, y] of [[a, b], [b, a]]) for (const sx of [1, -1]) for (const sy of [1, -1]) oct.push([sx * x!, sy * y!]);
    expect(hullArea(pts.map((p) => [p.p[0]!, p.p[1]!]))).toBeCloseTo(bestQuad(oct), 12);
  });

  it('edge-edge crossing: one point at the closest points of the edges', () => {
    const s2 = Math.SQRT1_2;
    const a: Solid = { ...cube, q: turn([0, 1, 0], Math.PI / 4) };
    const b: Solid = { ...cube, p: [0.01, -0.02, 2 * s2 - 0.01], q: turn([1, 0, 0], Math.PI / 4) };
    const pts = run(boxBox, [a, b], 0.02);
    expect(pts).toHaveLength(1);
    const p = pts[0]!;
    expect(p.gap).toBeCloseTo(-0.01, 14);
    p.n.forEach((v, k) => expect(v).toBeCloseTo([0, 0, 1][k]!, 14));
    [0, -0.02, s2 - 0.005].forEach((v, k) => expect(p.p[k]!).toBeCloseTo(v, 14));
    // A's top edge runs along y, B's bottom edge along x
    expect(p.fa).toBeGreaterThanOrEqual(12); expect(p.fa).toBeLessThan(16);
    expect(p.fb).toBeGreaterThanOrEqual(8); expect(p.fb).toBeLessThan(12);
  });
});

/** area of the convex hull of 2D points (brute force: gift wrapping via the max over orderings of 4) */
function hullArea(p: number[][]): number {
  const tri = (a: number[], b: number[], c: number[]): number => Math.abs((b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!)) / 2;
  // sort by angle about the centroid (the points are in convex position here or a triangle plus one inside)
  const cx = p.reduce((s, q) => s + q[0]!, 0) / p.length, cy = p.reduce((s, q) => s + q[1]!, 0) / p.length;
  const s = [...p].sort((u, v) => Math.atan2(u[1]! - cy, u[0]! - cx) - Math.atan2(v[1]! - cy, v[0]! - cx));
  let area = 0;
  for (let i = 1; i + 1 < s.length; i++) area += tri(s[0]!, s[i]!, s[i + 1]!);
  return area;
}

function bestQuad(p: number[][]): number {
  let best = 0;
  for (let i = 0; i < p.length; i++) for (let j = i + 1; j < p.length; j++) for (let k = j + 1; k < p.length; k++) {
    for (let l = k + 1; l < p.length; l++) best = Math.max(best, hullArea([p[i]!, p[j]!, p[k]!, p[l]!]));
  }
  return best;
}

describe('box-box cost', () => {
  it('a resting pair costs a few microseconds per call', () => {
    const cube: Solid = { kind: 'box', params: [0.5, 0.5, 0.5], p: [0, 0, 0], q: I };
    const { shapes, q } = sceneOf([cube, perturbed({ ...cube, p: [0.01, 0.02, 0.999] }, rng(3), 1e-4, 1e-3)]);
    const t = new ShapeTable(shapes, 0.02), m = new Manifold();
    t.updatePoses(q);
    const calls = 40000;
    let best = Infinity;
    for (let rep = 0; rep < 5; rep++) {
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) { m.count = 0; boxBox(t, 0, 1, m); }
      best = Math.min(best, ((performance.now() - t0) * 1000) / calls);
    }
    console.log(`box-box resting pair: ${best.toFixed(3)} µs per call, ${m.count} points`);
    expect(m.count).toBe(4);
    expect(best).toBeLessThan(10);
  });
});

describe('box pairs through the collider', () => {
  it('sphere-box, capsule-box: swapping the pair flips the normal and swaps the features', () => {
    fc.assert(fc.property(fc.oneof(arbSphere, arbCapsule), arbBox, (s, b) => {
      const ab = contactsOf([s, b], BIG), ba = contactsOf([b, s], BIG);
      expect(ba.length).toBe(ab.length);
      const byKey = new Map(ba.map((c) => [`${c.featureB},${c.featureA}`, c]));
      for (const c of ab) {
        const d = byKey.get(`${c.featureA},${c.featureB}`)!;
        expect(d).toBeDefined();
        expect(d.gap).toBeCloseTo(c.gap, 13);
        for (let k = 0; k < 3; k++) { expect(d.n[k]!).toBeCloseTo(-c.n[k]!, 12); expect(d.p[k]!).toBeCloseTo(c.p[k]!, 12); }
      }
    }), { seed: 46, numRuns: 200 });
  });

  it('every box pair: a rigid motion of both shapes moves the contacts with them', () => {
    fc.assert(fc.property(fc.oneof(arbSphere, arbCapsule, arbBox), arbBox, arbPoint, arbQuat, (s, b, t, rq) => {
      // (coincident centres tie every axis: any answer is right, and rounding picks one)
      fc.pre(Math.hypot(...sub(s.p, b.p)) > 0.05);
      expectRigidInvariance([s, b], t, rq, BIG);
    }), { seed: 47, numRuns: 200 });
  });
});
