/**
 * Test geometry for the collision module: scenes of shapes at world poses (each finite shape on a
 * body of its own, planes in the world), exact signed distance functions, dense surface samples,
 * the support separation s(d) = min_B d·y − max_A d·x (whose maximum over unit d is the signed
 * distance of two convex shapes), and fast-check arbitraries for poses.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { Collider } from '../../src/collision/collide.js';
import type { ShapeDesc, ShapeKindName } from '../../src/collision/shapes.js';
import { ContactSet } from '../../src/contact/contactSet.js';
import { quatMul, quatRotate, quatToMat3 } from '../../src/math/quat.js';

export const MAT = { friction: 0.5, restitution: 0.2, compliance: 0, damping: 0 };

/** a shape at a world pose (its frame is the body frame; com at the origin) */
export interface Solid {
  kind: ShapeKindName;
  params: number[];
  p: number[];
  q: number[];
}

export interface Contact {
  shapeA: number; shapeB: number; featureA: number; featureB: number; compA: number; compB: number;
  p: number[]; n: number[]; gap: number;
}

/** descriptors and q for solids: planes in the world, each other solid on body i (q offset 7i) */
export function sceneOf(solids: readonly Solid[]): { shapes: ShapeDesc[]; q: Float64Array } {
  const q = new Float64Array(7 * solids.length);
  const shapes = solids.map((s, i): ShapeDesc => {
    const world = s.kind === 'plane';
    if (!world) { q.set(s.p, 7 * i); q.set(unit(s.q), 7 * i + 3); }
    return {
      kind: s.kind, component: world ? -1 : i, qOffset: world ? -1 : 7 * i, isBody: !world, params: s.params,
      position: world ? s.p : [0, 0, 0], orientation: world ? s.q : [1, 0, 0, 0], material: MAT, collide: true,
      name: `s${i}`,
    };
  });
  return { shapes, q };
}

/** the contacts of solids with the given margin, as plain objects */
export function contactsOf(solids: readonly Solid[], margin: number): Contact[] {
  const { shapes, q } = sceneOf(solids);
  const out = new ContactSet(2);
  new Collider(shapes, margin).collide(q, out);
  return readContacts(out);
}

export function readContacts(out: ContactSet): Contact[] {
  const list: Contact[] = [];
  for (let i = 0; i < out.count; i++) {
    list.push({
      shapeA: out.shapeA[i]!, shapeB: out.shapeB[i]!, featureA: out.featureA[i]!, featureB: out.featureB[i]!,
      compA: out.compA[i]!, compB: out.compB[i]!, gap: out.gap[i]!,
      p: Array.from(out.p_W.subarray(3 * i, 3 * i + 3)), n: Array.from(out.n_W.subarray(3 * i, 3 * i + 3)),
    });
  }
  return list;
}

export function unit(v: readonly number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

export function dot(a: readonly number[], b: readonly number[]): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
}

/** the rotation matrix of s, row-major */
export function rotationOf(s: Solid): Float64Array {
  return quatToMat3(new Float64Array(9), unit(s.q));
}

/** world point of the local point x of s */
export function toWorld(s: Solid, x: readonly number[]): number[] {
  const R = rotationOf(s);
  return [0, 1, 2].map((r) => s.p[r]! + R[3 * r]! * x[0]! + R[3 * r + 1]! * x[1]! + R[3 * r + 2]! * x[2]!);
}

/** local coordinates of the world point x */
export function toLocal(s: Solid, x: readonly number[]): number[] {
  const R = rotationOf(s), d = [x[0]! - s.p[0]!, x[1]! - s.p[1]!, x[2]! - s.p[2]!];
  return [0, 1, 2].map((c) => R[c]! * d[0]! + R[3 + c]! * d[1]! + R[6 + c]! * d[2]!);
}

/** exact signed distance of the world point x to the surface of s (< 0 inside) */
export function sdf(s: Solid, x: readonly number[]): number {
  const l = toLocal(s, x);
  switch (s.kind) {
    case 'sphere': return Math.hypot(l[0]!, l[1]!, l[2]!) - s.params[0]!;
    case 'capsule': {
      const h = s.params[1]!, z = Math.max(-h, Math.min(h, l[2]!));
      return Math.hypot(l[0]!, l[1]!, l[2]! - z) - s.params[0]!;
    }
    case 'box': {
      const d = l.map((v, k) => Math.abs(v) - s.params[k]!);
      const out = Math.hypot(Math.max(d[0]!, 0), Math.max(d[1]!, 0), Math.max(d[2]!, 0));
      return out + Math.min(Math.max(d[0]!, d[1]!, d[2]!), 0);
    }
    case 'plane': return l[2]!;
    default: throw new Error(`no sdf for ${s.kind}`);
  }
}

/** points of the unit sphere (Fibonacci lattice) */
function fibonacci(n: number): number[][] {
  const pts: number[][] = [], g = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const z = 1 - (2 * i + 1) / n, r = Math.sqrt(1 - z * z);
    pts.push([r * Math.cos(g * i), r * Math.sin(g * i), z]);
  }
  return pts;
}

/** dense samples of the surface of s in world coordinates (a flat array of xyz) */
export function surfaceSamples(s: Solid, n = 3000): Float64Array {
  const local: number[][] = [];
  const r = s.params[0]!;
  if (s.kind === 'sphere') for (const u of fibonacci(n)) local.push(u.map((v) => r * v));
  if (s.kind === 'capsule') {
    const h = s.params[1]!;
    // the two end spheres (their inner halves lie inside and never set a support) and the side
    for (const u of fibonacci(n)) local.push([r * u[0]!, r * u[1]!, r * u[2]! + (u[2]! >= 0 ? h : -h)]);
    for (let i = 0; i <= 40; i++) for (let k = 0; k < 80; k++) {
      const a = (2 * Math.PI * k) / 80;
      local.push([r * Math.cos(a), r * Math.sin(a), -h + (2 * h * i) / 40]);
    }
  }
  if (s.kind === 'box') {
    const k = 12;
    for (let f = 0; f < 6; f++) for (let i = 0; i <= k; i++) for (let j = 0; j <= k; j++) {
      const ax = f >> 1, sgn = f & 1 ? 1 : -1, u = -1 + (2 * i) / k, v = -1 + (2 * j) / k;
      const x = [0, 0, 0];
      x[ax] = sgn; x[(ax + 1) % 3] = u; x[(ax + 2) % 3] = v;
      local.push(x.map((c, m) => c * s.params[m]!));
    }
  }
  if (s.kind === 'cylinder') {
    const h = s.params[1]!;
    for (let i = 0; i <= 20; i++) for (let k = 0; k < 120; k++) {
      const a = (2 * Math.PI * k) / 120;
      local.push([r * Math.cos(a), r * Math.sin(a), -h + (2 * h * i) / 20]);
      for (const z of [-h, h]) local.push([(r * i * Math.cos(a)) / 20, (r * i * Math.sin(a)) / 20, z]);
    }
  }
  if (s.kind === 'ellipsoid') for (const u of fibonacci(n)) local.push(u.map((v, k) => s.params[k]! * v));
  const out = new Float64Array(3 * local.length);
  local.forEach((x, i) => out.set(toWorld(s, x), 3 * i));
  return out;
}

/** min and max of d·x over the samples */
export function extent(samples: Float64Array, d: readonly number[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < samples.length; i += 3) {
    const v = d[0]! * samples[i]! + d[1]! * samples[i + 1]! + d[2]! * samples[i + 2]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** support separation s(d) = min_B d·y − max_A d·x from samples */
export function separation(a: Float64Array, b: Float64Array, d: readonly number[]): number {
  return extent(b, d)[0] - extent(a, d)[1];
}

/** the closest distance of the point x to the segment c ± h u */
function pointSegment(x: readonly number[], c: readonly number[], u: readonly number[], h: number): number {
  const t = Math.max(-h, Math.min(h, (x[0]! - c[0]!) * u[0]! + (x[1]! - c[1]!) * u[1]! + (x[2]! - c[2]!) * u[2]!));
  return Math.hypot(x[0]! - c[0]! - t * u[0]!, x[1]! - c[1]! - t * u[1]!, x[2]! - c[2]! - t * u[2]!);
}

/** the core segment (centre, unit axis, half length) of a sphere or capsule */
function core(s: Solid): { c: number[]; u: number[]; h: number } {
  const R = rotationOf(s);
  return { c: s.p, u: [R[2]!, R[5]!, R[8]!], h: s.kind === 'capsule' ? s.params[1]! : 0 };
}

/**
 * reference signed distance of two round shapes (spheres, capsules): the distance of their cores by
 * ternary search over A's segment (the distance to a segment is convex along a segment), minus the radii
 */
export function roundDistance(a: Solid, b: Solid): number {
  const A = core(a), B = core(b);
  const f = (s: number): number => pointSegment([0, 1, 2].map((k) => A.c[k]! + s * A.u[k]!), B.c, B.u, B.h);
  let lo = -A.h, hi = A.h;
  for (let i = 0; i < 200 && hi - lo > 1e-15; i++) {
    const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) <= f(m2)) hi = m2; else lo = m1;
  }
  return Math.min(f(lo), f(-A.h), f(A.h)) - a.params[0]! - b.params[0]!;
}

/** s moved by the rigid motion x ↦ rot x + t */
export function moveSolid(s: Solid, t: readonly number[], rot: Float64Array): Solid {
  const p = quatRotate(new Float64Array(3), rot, Float64Array.from(s.p));
  return { ...s, p: Array.from(p, (v, k) => v + t[k]!), q: Array.from(quatMul(new Float64Array(4), rot, Float64Array.from(unit(s.q)))) };
}

/** the contacts of the solids moved by x ↦ rot x + t are their contacts moved: same features and gaps */
export function expectRigidInvariance(solids: readonly Solid[], t: readonly number[], rq: readonly number[], margin: number): void {
  const rot = Float64Array.from(rq);
  const c0 = contactsOf(solids, margin), c1 = contactsOf(solids.map((s) => moveSolid(s, t, rot)), margin);
  expect(c1.map((c) => [c.featureA, c.featureB])).toEqual(c0.map((c) => [c.featureA, c.featureB]));
  c0.forEach((c, i) => {
    const d = c1[i]!;
    expect(d.gap).toBeCloseTo(c.gap, 10);
    const n = quatRotate(new Float64Array(3), rot, Float64Array.from(c.n));
    const p = quatRotate(new Float64Array(3), rot, Float64Array.from(c.p));
    for (let k = 0; k < 3; k++) {
      expect(d.n[k]!).toBeCloseTo(n[k]!, 8);
      expect(d.p[k]!).toBeCloseTo(p[k]! + t[k]!, 9);
    }
  });
}

// fast-check arbitraries
const coord = fc.double({ min: -1, max: 1, noNaN: true });
export const arbPoint = fc.tuple(coord, coord, coord);
export const arbQuat = fc.tuple(coord, coord, coord, coord).filter((q) => Math.hypot(...q) > 0.1).map(unit);
export const arbRadius = fc.double({ min: 0.05, max: 0.6, noNaN: true });
/** a capsule's half length: 0 (a sphere) or at least 1e-3 (shorter ones sit inside rounding, where the end features are ambiguous) */
export const arbHalf = fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 0.8, noNaN: true }));

/** unit direction of a quaternion's z axis (a random direction) */
export function randomDirections(count: number, seed: number): number[][] {
  let x = seed >>> 0;
  const rnd = (): number => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x / 2 ** 32 * 2 - 1; };
  const out: number[][] = [];
  while (out.length < count) {
    const v = [rnd(), rnd(), rnd()], n = Math.hypot(...v);
    if (n > 0.1 && n <= 1) out.push(v.map((c) => c / n));
  }
  return out;
}
