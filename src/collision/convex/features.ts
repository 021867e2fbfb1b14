/**
 * Supporting features of convex shapes and their ids (docs/theory.md §17): the face, edge or point
 * of a shape that touches a plane of normal d, as a small polygon in world coordinates, for the
 * manifold builder (./clip.ts) and the box pairs (../boxPairs.ts).
 *
 * A shape's support in direction d is a face when d is within FACE_SIN of a face normal, an edge
 * when d is within that angle of being normal to an edge, else a point. Any feature chosen so
 * contains the shape's support point along d, so the deepest point of a contact is among the
 * feature's points: the angle only decides how many points describe the contact. The one exception
 * is a cylinder's cap, a polygon inscribed in the rim, which misses the rim's support point by up
 * to r (1 − cos(π/CYL_SIDES)); ./clip.ts (clipManifold) restores the deepest point there.
 *
 * Feature ids (Int32, per shape; each feature's vertices, edges and face get distinct ids):
 * - box: vertex k = 0..7 (bit j set: + along axis j, as in ../planePairs.ts); edge along axis a with
 *   the signs of axes a+1 and a+2 (mod 3) in bits 0 and 1: BOX_EDGE + 4a + bits (8..19); face of
 *   axis a, sign s: BOX_FACE + 2a + (s > 0) (20..25);
 * - capsule: 0 its −z end, 1 its +z end, 2 its side (as in ../roundPairs.ts); sphere, ellipsoid: 0;
 * - cylinder (caps as regular CYL_SIDES-gons fixed in the shape): vertex k of cap c (c = 0 at −z,
 *   1 at +z): c·N + k; the cap edge from vertex k to k+1: 2N + c·N + k; cap c: 4N + c; the side
 *   line: 4N + 2 + (0 at its −z end, 1 at its +z end, 2 between); a rim point: 4N + 5;
 * - hull with V vertices: vertex v; edge (lo, hi): V + lo·V + hi; face f: V + V² + f;
 * - mesh triangle t: 8t + (vertex 0..2, edge k (k to k+1) 3 + k, face 6).
 */
import { SPHERE, CAPSULE, BOX, CYLINDER, ELLIPSOID, HULL } from '../shapes.js';
import { type Convex, TRIANGLE, supportCore, hullSupportVertex } from './convex.js';

/** first box edge id and first box face id */
export const BOX_EDGE = 8;
export const BOX_FACE = 20;
/** vertices of a cylinder cap polygon */
export const CYL_SIDES = 12;
/** a direction within this sine of a face normal (or of being normal to an edge) selects the face (edge) */
export const FACE_SIN = 0.17;

/** the id of the box edge joining vertices v1 and v2 (which differ in one bit) */
export function boxEdgeId(v1: number, v2: number): number {
  const a = (v1 ^ v2) === 1 ? 0 : (v1 ^ v2) === 2 ? 1 : 2;
  const b0 = (v1 >> ((a + 1) % 3)) & 1, b1 = (v1 >> ((a + 2) % 3)) & 1;
  return BOX_EDGE + 4 * a + b0 + 2 * b1;
}

/**
 * A feature: count = 1 a point, 2 an edge, ≥ 3 a face (counter-clockwise about its outward normal),
 * with the ids of its vertices, of its edges (edge k joins vertex k and k + 1) and its own id.
 */
export class FeaturePolygon {
  count = 0;
  /** the feature's own id (face, edge or point) */
  id = 0;
  xyz: Float64Array;
  vertexId: Int32Array;
  edgeId: Int32Array;
  /** (3) outward unit normal of a face */
  readonly normal = new Float64Array(3);

  constructor(capacity = 16) {
    this.xyz = new Float64Array(3 * capacity);
    this.vertexId = new Int32Array(capacity); this.edgeId = new Int32Array(capacity);
  }

  /** room for n vertices (grows outside the per-point loops) */
  reserve(n: number): void {
    if (n <= this.vertexId.length) return;
    const xyz = new Float64Array(3 * n), vi = new Int32Array(n), ei = new Int32Array(n);
    xyz.set(this.xyz); vi.set(this.vertexId); ei.set(this.edgeId);
    this.xyz = xyz; this.vertexId = vi; this.edgeId = ei;
  }

  /** sets vertex k to the shape point p + R s (s in the shape frame) */
  setLocal(k: number, p: Float64Array, R: Float64Array, sx: number, sy: number, sz: number, id: number,
    po = 0, ro = 0): void {
    const o = 3 * k;
    this.xyz[o] = p[po]! + R[ro]! * sx + R[ro + 1]! * sy + R[ro + 2]! * sz;
    this.xyz[o + 1] = p[po + 1]! + R[ro + 3]! * sx + R[ro + 4]! * sy + R[ro + 5]! * sz;
    this.xyz[o + 2] = p[po + 2]! + R[ro + 6]! * sx + R[ro + 7]! * sy + R[ro + 8]! * sz;
    this.vertexId[k] = id;
  }

  /** sets the outward normal to R n (n in the shape frame; R from offset ro) */
  setNormal(R: Float64Array, nx: number, ny: number, nz: number, ro = 0): void {
    const N = this.normal;
    N[0] = R[ro]! * nx + R[ro + 1]! * ny + R[ro + 2]! * nz;
    N[1] = R[ro + 3]! * nx + R[ro + 4]! * ny + R[ro + 5]! * nz;
    N[2] = R[ro + 6]! * nx + R[ro + 7]! * ny + R[ro + 8]! * nz;
  }
}

/**
 * the vertex ids of each box face (index 2·axis + (s > 0)) counter-clockwise about its outward
 * normal s·e_axis: corners (−,−), (+,−), (+,+), (−,+) in the next two axes (j, k), e_j × e_k = e_axis,
 * reversed in j for s < 0; and the ids of the edges from each corner to the next
 */
const FACE_VERTICES = new Int32Array(24);
const FACE_EDGES = new Int32Array(24);
for (let f = 0; f < 6; f++) {
  const axis = f >> 1, s = f & 1 ? 1 : -1, j = (axis + 1) % 3, k = (axis + 2) % 3;
  for (let c = 0; c < 4; c++) {
    const cj = c === 1 || c === 2 ? 1 : -1, ck = c >= 2 ? 1 : -1, sj = s > 0 ? cj : -cj;
    FACE_VERTICES[4 * f + c] = (s > 0 ? 1 << axis : 0) | (sj > 0 ? 1 << j : 0) | (ck > 0 ? 1 << k : 0);
  }
  for (let c = 0; c < 4; c++) FACE_EDGES[4 * f + c] = boxEdgeId(FACE_VERTICES[4 * f + c]!, FACE_VERTICES[4 * f + ((c + 1) & 3)]!);
}

/**
 * the face of the box (centre p[po..], rotation R[ro..], half extents h) whose outward normal is
 * s·e_axis, into out: its four vertices counter-clockwise about that normal, their ids, its edges
 * and its id
 */
export function boxFace(out: FeaturePolygon, p: Float64Array, R: Float64Array,
  hx: number, hy: number, hz: number, axis: number, s: number, po = 0, ro = 0): void {
  const f = 2 * axis + (s > 0 ? 1 : 0);
  out.count = 4; out.id = BOX_FACE + f;
  for (let c = 0; c < 4; c++) {
    const v = FACE_VERTICES[4 * f + c]!;
    out.setLocal(c, p, R, v & 1 ? hx : -hx, v & 2 ? hy : -hy, v & 4 ? hz : -hz, v, po, ro);
    out.edgeId[c] = FACE_EDGES[4 * f + c]!;
  }
  out.setNormal(R, axis === 0 ? s : 0, axis === 1 ? s : 0, axis === 2 ? s : 0, ro);
}

/** the supporting feature of box c in the shape-frame direction l (unit) */
function boxFeature(out: FeaturePolygon, c: Convex, lx: number, ly: number, lz: number): void {
  const ax = Math.abs(lx), ay = Math.abs(ly), az = Math.abs(lz);
  const fx = ax <= FACE_SIN, fy = ay <= FACE_SIN, fz = az <= FACE_SIN;
  const free = (fx ? 1 : 0) + (fy ? 1 : 0) + (fz ? 1 : 0);
  if (free === 2) {
    const axis = fx ? (fy ? 2 : 1) : 0, s = (axis === 0 ? lx : axis === 1 ? ly : lz) >= 0 ? 1 : -1;
    boxFace(out, c.p, c.R, c.a, c.b, c.c, axis, s);
    return;
  }
  const sx = lx >= 0 ? 1 : -1, sy = ly >= 0 ? 1 : -1, sz = lz >= 0 ? 1 : -1;
  const v = (sx > 0 ? 1 : 0) | (sy > 0 ? 2 : 0) | (sz > 0 ? 4 : 0);
  if (free === 1) {
    // the edge along the free axis through the support vertex
    const axis = fx ? 0 : fy ? 1 : 2, w = v ^ (1 << axis);
    out.count = 2;
    out.setLocal(0, c.p, c.R, (v & 1 ? 1 : -1) * c.a, (v & 2 ? 1 : -1) * c.b, (v & 4 ? 1 : -1) * c.c, v);
    out.setLocal(1, c.p, c.R, (w & 1 ? 1 : -1) * c.a, (w & 2 ? 1 : -1) * c.b, (w & 4 ? 1 : -1) * c.c, w);
    out.edgeId[0] = boxEdgeId(v, w); out.id = out.edgeId[0]!;
    return;
  }
  out.count = 1; out.id = v;
  out.setLocal(0, c.p, c.R, sx * c.a, sy * c.b, sz * c.c, v);
}

/** cos and sin of the angles 2πk/CYL_SIDES of the cap polygon's vertices */
const CAP_COS = new Float64Array(CYL_SIDES);
const CAP_SIN = new Float64Array(CYL_SIDES);
for (let k = 0; k < CYL_SIDES; k++) {
  CAP_COS[k] = Math.cos((2 * Math.PI * k) / CYL_SIDES); CAP_SIN[k] = Math.sin((2 * Math.PI * k) / CYL_SIDES);
}

/** the supporting feature of cylinder c in the shape-frame direction l (unit) */
function cylinderFeature(out: FeaturePolygon, c: Convex, lx: number, ly: number, lz: number): void {
  const N = CYL_SIDES, r = c.a, h = c.b;
  if (Math.sqrt(lx * lx + ly * ly) <= FACE_SIN) {
    // a cap: the regular N-gon inscribed in its rim, counter-clockwise about the outward normal
    const cap = lz >= 0 ? 1 : 0, s = cap === 1 ? 1 : -1;
    out.reserve(N); out.count = N; out.id = 4 * N + cap;
    for (let k = 0; k < N; k++) {
      const kk = s > 0 ? k : N - 1 - k;
      out.setLocal(k, c.p, c.R, r * CAP_COS[kk]!, r * CAP_SIN[kk]!, s * h, cap * N + kk);
    }
    for (let k = 0; k < N; k++) {
      const a = out.vertexId[k]! - cap * N, b = out.vertexId[(k + 1) % N]! - cap * N;
      out.edgeId[k] = 2 * N + cap * N + (s > 0 ? a : b);
    }
    out.setNormal(c.R, 0, 0, s);
    return;
  }
  const rho = Math.sqrt(lx * lx + ly * ly), ex = (r * lx) / rho, ey = (r * ly) / rho;
  if (Math.abs(lz) <= FACE_SIN) {
    // the side line through the rim point of direction l
    out.count = 2; out.id = 4 * N + 4; out.edgeId[0] = 4 * N + 4;
    out.setLocal(0, c.p, c.R, ex, ey, -h, 4 * N + 2);
    out.setLocal(1, c.p, c.R, ex, ey, h, 4 * N + 3);
    return;
  }
  out.count = 1; out.id = 4 * N + 5;
  out.setLocal(0, c.p, c.R, ex, ey, lz >= 0 ? h : -h, out.id);
}

/** the supporting feature of hull c in the shape-frame direction l (unit) */
function hullFeature(out: FeaturePolygon, c: Convex, lx: number, ly: number, lz: number): void {
  const g = c.hull!, V = g.vertexCount, fn = g.faceNormals;
  // the face whose normal is closest to l (lowest index among equals)
  let best = -Infinity, f = 0;
  for (let k = 0; k < g.faceCount; k++) {
    const s = fn[3 * k]! * lx + fn[3 * k + 1]! * ly + fn[3 * k + 2]! * lz;
    if (s > best) { best = s; f = k; }
  }
  if (best * best >= 1 - FACE_SIN * FACE_SIN) {
    const s0 = g.faceStart[f]!, n = g.faceStart[f + 1]! - s0, fv = g.faceVertices, v = g.vertices;
    out.reserve(n); out.count = n; out.id = V + V * V + f;
    for (let k = 0; k < n; k++) {
      const i = fv[s0 + k]!;
      out.setLocal(k, c.p, c.R, v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!, i);
    }
    for (let k = 0; k < n; k++) {
      const a = fv[s0 + k]!, b = fv[s0 + (k + 1) % n]!;
      out.edgeId[k] = V + Math.min(a, b) * V + Math.max(a, b);
    }
    out.setNormal(c.R, fn[3 * f]!, fn[3 * f + 1]!, fn[3 * f + 2]!);
    return;
  }
  hullEdgeOrVertex(out, c, lx, ly, lz);
}

/** a hull's edge at its support vertex most nearly normal to l (within FACE_SIN), else the vertex */
function hullEdgeOrVertex(out: FeaturePolygon, c: Convex, lx: number, ly: number, lz: number): void {
  const g = c.hull!, V = g.vertexCount, v = g.vertices, E = g.edges, sv = hullSupportVertex(g, lx, ly, lz);
  let other = -1, bestSin = FACE_SIN;
  for (let e = 0; e < g.edgeCount; e++) {
    const a = E[2 * e]!, b = E[2 * e + 1]!;
    if (a !== sv && b !== sv) continue;
    const w = a === sv ? b : a;
    const dx = v[3 * w]! - v[3 * sv]!, dy = v[3 * w + 1]! - v[3 * sv + 1]!, dz = v[3 * w + 2]! - v[3 * sv + 2]!;
    const sin = Math.abs(dx * lx + dy * ly + dz * lz) / Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (sin <= bestSin) { bestSin = sin; other = w; }
  }
  out.count = other < 0 ? 1 : 2; out.id = sv;
  out.setLocal(0, c.p, c.R, v[3 * sv]!, v[3 * sv + 1]!, v[3 * sv + 2]!, sv);
  if (other < 0) return;
  out.setLocal(1, c.p, c.R, v[3 * other]!, v[3 * other + 1]!, v[3 * other + 2]!, other);
  out.edgeId[0] = V + Math.min(sv, other) * V + Math.max(sv, other); out.id = out.edgeId[0]!;
}

/** the supporting feature of triangle c in the world direction d (unit), either side */
function triangleFeature(out: FeaturePolygon, c: Convex, dx: number, dy: number, dz: number): void {
  const T = c.tri, base = 8 * c.triangle;
  const ux = T[3]! - T[0]!, uy = T[4]! - T[1]!, uz = T[5]! - T[2]!;
  const vx = T[6]! - T[0]!, vy = T[7]! - T[1]!, vz = T[8]! - T[2]!;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  nx /= l; ny /= l; nz /= l;
  const cos = nx * dx + ny * dy + nz * dz;
  if (cos * cos >= 1 - FACE_SIN * FACE_SIN) {
    // the triangle, counter-clockwise about the normal on d's side
    const s = cos >= 0 ? 1 : -1;
    out.count = 3; out.id = base + 6;
    for (let k = 0; k < 3; k++) {
      const i = s > 0 ? k : 2 - k;
      out.xyz[3 * k] = T[3 * i]!; out.xyz[3 * k + 1] = T[3 * i + 1]!; out.xyz[3 * k + 2] = T[3 * i + 2]!;
      out.vertexId[k] = base + i;
    }
    for (let k = 0; k < 3; k++) {
      const a = out.vertexId[k]! - base, b = out.vertexId[(k + 1) % 3]! - base;
      out.edgeId[k] = base + 3 + ((b === (a + 1) % 3) ? a : b);
    }
    out.normal[0] = s * nx; out.normal[1] = s * ny; out.normal[2] = s * nz;
    return;
  }
  triangleEdgeOrVertex(out, c, dx, dy, dz);
}

/** a triangle's edge at its support vertex most nearly normal to d (within FACE_SIN), else the vertex */
function triangleEdgeOrVertex(out: FeaturePolygon, c: Convex, dx: number, dy: number, dz: number): void {
  const T = c.tri, base = 8 * c.triangle, sv = supportCore(out.xyz, 0, c, dx, dy, dz);
  let other = -1, bestSin = FACE_SIN;
  for (let w = 0; w < 3; w++) {
    if (w === sv) continue;
    const ex = T[3 * w]! - T[3 * sv]!, ey = T[3 * w + 1]! - T[3 * sv + 1]!, ez = T[3 * w + 2]! - T[3 * sv + 2]!;
    const sin = Math.abs(ex * dx + ey * dy + ez * dz) / Math.sqrt(ex * ex + ey * ey + ez * ez);
    if (sin <= bestSin) { bestSin = sin; other = w; }
  }
  out.vertexId[0] = base + sv; out.id = base + sv; out.count = other < 0 ? 1 : 2;
  if (other < 0) return;
  out.xyz[3] = T[3 * other]!; out.xyz[4] = T[3 * other + 1]!; out.xyz[5] = T[3 * other + 2]!;
  out.vertexId[1] = base + other;
  out.edgeId[0] = base + 3 + (other === (sv + 1) % 3 ? sv : other); out.id = out.edgeId[0]!;
}

/**
 * the supporting feature of c (its whole surface, radius included) in the world direction d (unit)
 * into out
 */
export function supportFeature(out: FeaturePolygon, c: Convex, dx: number, dy: number, dz: number): void {
  if (c.kind === TRIANGLE) { triangleFeature(out, c, dx, dy, dz); return; }
  const R = c.R;
  const lx = R[0]! * dx + R[3]! * dy + R[6]! * dz;
  const ly = R[1]! * dx + R[4]! * dy + R[7]! * dz;
  const lz = R[2]! * dx + R[5]! * dy + R[8]! * dz;
  switch (c.kind) {
    case BOX: boxFeature(out, c, lx, ly, lz); return;
    case CYLINDER: cylinderFeature(out, c, lx, ly, lz); return;
    case HULL: hullFeature(out, c, lx, ly, lz); return;
    case CAPSULE: {
      // the core segment when d is nearly normal to the axis, else the end; swept by r along d
      const r = c.a, h = c.b;
      if (Math.abs(lz) <= FACE_SIN && h > 0) {
        out.count = 2; out.id = 2; out.edgeId[0] = 2;
        out.setLocal(0, c.p, R, r * lx, r * ly, r * lz - h, 0);
        out.setLocal(1, c.p, R, r * lx, r * ly, r * lz + h, 1);
        return;
      }
      out.count = 1; out.id = lz >= 0 ? 1 : 0;
      out.setLocal(0, c.p, R, r * lx, r * ly, r * lz + (lz >= 0 ? h : -h), out.id);
      return;
    }
    case SPHERE: out.count = 1; out.id = 0; out.setLocal(0, c.p, R, c.a * lx, c.a * ly, c.a * lz, 0); return;
    case ELLIPSOID: default:
      out.count = 1; out.id = 0; out.vertexId[0] = 0;
      supportCore(out.xyz, 0, c, dx, dy, dz);
  }
}
