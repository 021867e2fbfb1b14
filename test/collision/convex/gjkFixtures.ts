/**
 * Test fixtures for the general convex narrowphase: convex solids (the test/collision/geometry.ts
 * solids plus cylinders, ellipsoids and hulls) loaded into a shape table and Convex views, and the
 * brute-force reference of the signed distance: the maximum over unit directions d of the support
 * separation s(d) = min_B d·y − max_A d·x (exact support functions of the shapes, whole shapes with
 * their radii), found on a Fibonacci lattice of directions and refined by a (1+1) evolution
 * strategy with a fixed seed (it climbs ridges of the non-smooth s of polytopes, where a
 * coordinate search would stall).
 */
import fc from 'fast-check';
import { ShapeTable, SPHERE, CAPSULE, BOX, HULL } from '../../../src/collision/shapes.js';
import { Convex, loadShape, support } from '../../../src/collision/convex/convex.js';
import { ConvexHull } from '../../../src/collision/hull.js';
import type { HullData } from '../../../src/collision/geometry.js';
import { type Solid, sceneOf, arbPoint, arbQuat, unit, toLocal, sdf } from '../geometry.js';

/** a solid with a hull's data (kind 'hull') */
export interface ConvexSolid extends Solid {
  hull?: HullData;
}

/** the solids in a shape table at their poses (margin m) */
export function tableOf(solids: readonly ConvexSolid[], margin = 100): ShapeTable {
  const { shapes, q } = sceneOf(solids);
  solids.forEach((s, i) => { if (s.hull) shapes[i]!.geometry = s.hull; });
  const t = new ShapeTable(shapes, margin);
  t.updatePoses(q);
  return t;
}

/** Convex views of the solids, loaded from a table */
export function convexesOf(solids: readonly ConvexSolid[]): Convex[] {
  const t = tableOf(solids);
  return solids.map((_, i) => { const c = new Convex(); loadShape(c, t, i); return c; });
}

/** the hull of the points (flat xyz or triples) */
export function hullOf(points: readonly (readonly number[])[]): ConvexHull {
  return ConvexHull.fromPoints(points, 'test hull');
}

/** the cube of half extent h as a hull */
export function cubeHull(h: number): ConvexHull {
  const p: number[][] = [];
  for (let v = 0; v < 8; v++) p.push([v & 1 ? h : -h, v & 2 ? h : -h, v & 4 ? h : -h]);
  return hullOf(p);
}

/** an irregular tetrahedron */
const TETRA = [[0.4, -0.1, -0.2], [-0.3, 0.35, -0.15], [-0.2, -0.3, 0.1], [0.05, 0.1, 0.45]];

/** a rounded irregular polytope: 24 points on an ellipsoid-like surface (fixed, deterministic) */
export function blobPoints(): number[][] {
  const pts: number[][] = [];
  for (let i = 0; i < 24; i++) {
    const z = 1 - (2 * i + 1) / 24, r = Math.sqrt(1 - z * z), a = 2.399963 * i;
    pts.push([0.45 * r * Math.cos(a), 0.3 * r * Math.sin(a), 0.35 * z]);
  }
  return pts;
}

/** the signed distance and normal (from A to B) as s(d)'s maximum: brute force */
export function referenceDistance(A: Convex, B: Convex): { gap: number; n: number[] } {
  const tmp = new Float64Array(6);
  const s = (d: number[]): number => {
    support(tmp, 0, A, d[0]!, d[1]!, d[2]!);
    support(tmp, 3, B, -d[0]!, -d[1]!, -d[2]!);
    return d[0]! * (tmp[3]! - tmp[0]!) + d[1]! * (tmp[4]! - tmp[1]!) + d[2]! * (tmp[5]! - tmp[2]!);
  };
  // coarse: a Fibonacci lattice
  let best = [0, 0, 1], bs = -Infinity;
  const N = 3000, g = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < N; i++) {
    const z = 1 - (2 * i + 1) / N, r = Math.sqrt(1 - z * z), d = [r * Math.cos(g * i), r * Math.sin(g * i), z];
    const v = s(d);
    if (v > bs) { bs = v; best = d; }
  }
  // fine: (1+1)-ES with the one-fifth rule
  let seed = 12345;
  const rnd = (): number => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 2 ** 32 - 0.5; };
  let sigma = 0.05;
  for (let it = 0; it < 20000 && sigma > 1e-13; it++) {
    const d = unit([best[0]! + sigma * rnd(), best[1]! + sigma * rnd(), best[2]! + sigma * rnd()]);
    const v = s(d);
    if (v > bs) { bs = v; best = d; sigma *= 1.5; } else sigma *= 0.93;
  }
  return { gap: bs, n: best };
}

/** the world vertices of a polytope core (sphere: its centre; capsule: its ends; box; hull) */
function coreVertices(c: Convex): number[][] {
  const local: number[][] = [];
  if (c.kind === SPHERE) local.push([0, 0, 0]);
  if (c.kind === CAPSULE) local.push([0, 0, -c.b], [0, 0, c.b]);
  if (c.kind === BOX) for (let v = 0; v < 8; v++) local.push([v & 1 ? c.a : -c.a, v & 2 ? c.b : -c.b, v & 4 ? c.c : -c.c]);
  if (c.kind === HULL) for (let v = 0; v < c.hull!.vertexCount; v++) local.push(Array.from(c.hull!.vertices.subarray(3 * v, 3 * v + 3)));
  const R = c.R;
  return local.map((x) => [0, 1, 2].map((r) => c.p[r]! + R[3 * r]! * x[0]! + R[3 * r + 1]! * x[1]! + R[3 * r + 2]! * x[2]!));
}

/** the distance of the origin to the segment a b, and the closest point */
function pointSegment(a: number[], b: number[]): { d: number; x: number[] } {
  const e = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!], ee = e[0]! ** 2 + e[1]! ** 2 + e[2]! ** 2;
  const t = ee > 0 ? Math.max(0, Math.min(1, -(a[0]! * e[0]! + a[1]! * e[1]! + a[2]! * e[2]!) / ee)) : 0;
  const x = [0, 1, 2].map((k) => a[k]! + t * e[k]!);
  return { d: Math.hypot(x[0]!, x[1]!, x[2]!), x };
}

/**
 * exact signed distance and normal of two shapes with polytope cores (sphere, capsule, box, hull):
 * the hull of the differences of their core vertices is the cores' Minkowski difference D; inside
 * it, the depth is the smallest face offset (normal: that face's); outside, the distance is the
 * smallest distance to a face polygon (normal: from the closest point to the origin); minus the radii
 */
export function polytopeDistance(A: Convex, B: Convex): { gap: number; n: number[] } {
  const va = coreVertices(A), vb = coreVertices(B), pts: number[][] = [];
  for (const a of va) for (const b of vb) pts.push([a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!]);
  const D = hullOf(pts), r = A.radius + B.radius, V = D.vertices;
  let inside = true, depth = Infinity, nIn: number[] = [], dist = Infinity, xOut: number[] = [];
  for (let f = 0; f < D.faceCount; f++) {
    const n = Array.from(D.faceNormals.subarray(3 * f, 3 * f + 3)), d = D.faceOffsets[f]!;
    if (d < 0) inside = false;
    if (d < depth) { depth = d; nIn = n; }
    // the origin's projection d n inside the polygon, else its closest edge
    const vs: number[][] = [];
    for (let k = D.faceStart[f]!; k < D.faceStart[f + 1]!; k++) vs.push(Array.from(V.subarray(3 * D.faceVertices[k]!, 3 * D.faceVertices[k]! + 3)));
    const p = n.map((c) => c * d);
    const within = vs.every((v, k) => {
      const w = vs[(k + 1) % vs.length]!, e = [0, 1, 2].map((j) => w[j]! - v[j]!), q = [0, 1, 2].map((j) => p[j]! - v[j]!);
      return n[0]! * (e[1]! * q[2]! - e[2]! * q[1]!) + n[1]! * (e[2]! * q[0]! - e[0]! * q[2]!) + n[2]! * (e[0]! * q[1]! - e[1]! * q[0]!) >= 0;
    });
    if (within) { if (Math.abs(d) < dist) { dist = Math.abs(d); xOut = p; } continue; }
    vs.forEach((v, k) => { const s = pointSegment(v, vs[(k + 1) % vs.length]!); if (s.d < dist) { dist = s.d; xOut = s.x; } });
  }
  if (inside) return { gap: -depth - r, n: nIn };
  return { gap: dist - r, n: xOut.map((c) => -c / dist) };
}

/** s(d) = min_B d·y − max_A d·x by the exact supports */
export function separationAlong(A: Convex, B: Convex, d: ArrayLike<number>): number {
  const t = new Float64Array(6);
  support(t, 0, A, d[0]!, d[1]!, d[2]!);
  support(t, 3, B, -d[0]!, -d[1]!, -d[2]!);
  return d[0]! * (t[3]! - t[0]!) + d[1]! * (t[4]! - t[1]!) + d[2]! * (t[5]! - t[2]!);
}

/** the exact signed distance to the surface of s (cylinder, hull: exact near the surface; ellipsoid: scaled level set) */
export function surfaceResidual(s: ConvexSolid, x: readonly number[]): number {
  const l = toLocal(s, x);
  if (s.kind === 'cylinder') {
    const dr = Math.hypot(l[0]!, l[1]!) - s.params[0]!, dz = Math.abs(l[2]!) - s.params[1]!;
    return Math.min(Math.max(dr, dz), 0) + Math.hypot(Math.max(dr, 0), Math.max(dz, 0));
  }
  if (s.kind === 'ellipsoid') {
    const r = s.params;
    return (Math.hypot(l[0]! / r[0]!, l[1]! / r[1]!, l[2]! / r[2]!) - 1) * Math.min(r[0]!, r[1]!, r[2]!);
  }
  if (s.kind === 'hull') {
    const h = s.hull!;
    let m = -Infinity;
    for (let f = 0; f < h.faceCount; f++) {
      const n = h.faceNormals;
      m = Math.max(m, n[3 * f]! * l[0]! + n[3 * f + 1]! * l[1]! + n[3 * f + 2]! * l[2]! - h.faceOffsets[f]!);
    }
    return m;
  }
  return sdf(s, x);
}

// arbitraries of convex solids
const size = fc.double({ min: 0.08, max: 0.6, noNaN: true });
export const arbBox = fc.record({ p: arbPoint, q: arbQuat, h: fc.tuple(size, size, size) })
  .map(({ p, q, h }): ConvexSolid => ({ kind: 'box', params: h, p, q }));
export const arbCylinder = fc.record({ p: arbPoint, q: arbQuat, r: size, h: size })
  .map(({ p, q, r, h }): ConvexSolid => ({ kind: 'cylinder', params: [r, h], p, q }));
export const arbEllipsoid = fc.record({ p: arbPoint, q: arbQuat, r: fc.tuple(size, size, size) })
  .map(({ p, q, r }): ConvexSolid => ({ kind: 'ellipsoid', params: r, p, q }));
export const arbSphere = fc.record({ p: arbPoint, q: arbQuat, r: size })
  .map(({ p, q, r }): ConvexSolid => ({ kind: 'sphere', params: [r], p, q }));
export const arbCapsule = fc.record({ p: arbPoint, q: arbQuat, r: size, h: size })
  .map(({ p, q, r, h }): ConvexSolid => ({ kind: 'capsule', params: [r, h], p, q }));
const TETRA_HULL = hullOf(TETRA), BLOB_HULL = hullOf(blobPoints());
export const arbHull = fc.record({ p: arbPoint, q: arbQuat, blob: fc.boolean() })
  .map(({ p, q, blob }): ConvexSolid => ({ kind: 'hull', params: [], p, q, hull: blob ? BLOB_HULL : TETRA_HULL }));
