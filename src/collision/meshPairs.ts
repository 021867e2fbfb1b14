/**
 * Narrowphase of convex shapes (sphere, capsule, box, cylinder, ellipsoid, hull) against a triangle
 * mesh (./mesh.ts; a height field is one), with the internal-edge problem handled
 * (docs/theory.md §17). The convex shape has the lower kind code, so it is the first shape: every
 * normal here points from the convex shape into the mesh.
 *
 * Candidates. The convex shape's world box (already grown by margin/2) is grown by another margin/2
 * and carried into the mesh frame as the box that holds it (centre Rᵀ(c − p), half extents
 * Σ_j |R_ji| e_j); the mesh's BVH gives the triangles whose boxes overlap it, in its fixed order.
 *
 * Per triangle. The triangle, in world, is loaded as a convex of kind TRIANGLE; the general
 * convex distance (./convex/convexPair.ts convexDistance: GJK, EPA when the cores overlap) gives the normal,
 * the gap and the witness points, and the manifold builder (./convex/clip.ts) clips the supporting
 * features along that normal. Points carry the convex's feature and the triangle's, 8 t + local
 * (vertex 0..2, edge 3 + k, face 6; ./convex/features.ts).
 *
 * Internal edges. A mesh is one-sided: its outside is where its normals point. A normal within
 * FACE_COS of the face normal f is taken as −f exactly. Any other normal comes from an edge or a
 * vertex of the triangle (where the triangle's witness point lies), or from behind the triangle;
 * it is kept only when that feature is active (a border, or convex beyond the mesh's angle
 * tolerance, see ./mesh.ts) and, on an edge between two triangles, lies between their two normals
 * (a normal past a face belongs to that face: a sphere on one face near a ridge is not pushed back
 * by the ridge). Otherwise the closest-point search saw the face from the side, and
 * the contact is taken along −f instead: the convex's support point s along −f against the face's
 * plane gives the gap f·(s − v₀) (exact for every kind, rounded ones included), and the features
 * are clipped along −f, so a box over a flat mesh gets the floor's normal at every point, over
 * faces, edges and vertices alike. A support point whose foot falls off the triangle is left to
 * the triangle under it; a convex wholly behind the face's plane by the margin gets nothing from
 * it. A triangle with no active feature can only be met so, and goes there without the distance
 * query. Points that repeat one of another triangle (same place, same normal: a sphere over a flat
 * edge meets both triangles at its lowest point) are dropped.
 *
 * Reduction. When all points share one normal (a flat patch), a point inside the convex hull of
 * the others in the contact plane, or on its border between two corners, adds no support: the
 * gap is affine over a flat patch, so it is never deeper than the corners (it is kept when it is,
 * to rounding); such points are dropped, so a box on a floor keeps its corners whichever
 * triangles meet it. All points of the pair are then cut to at most four (./convex/clip.ts). A
 * large shape on many small triangles is compacted so as its points come (past COMPACT_AT), which
 * keeps the work per point bounded; on a flat patch this loses nothing.
 */
import type { ShapeTable } from './shapes.js';
import type { Manifold } from './manifold.js';
import { Convex, loadShape, loadTriangle, support } from './convex/convex.js';
import { ConvexWorkspace, convexDistance } from './convex/convexPair.js';
import { ClipWorkspace, clipManifold } from './convex/clip.js';
import { reduceManifold } from './convex/reduce.js';
import { TriMesh, EDGE_ACTIVE, VERTEX_ACTIVE } from './mesh.js';

/** a normal within this cosine of the face normal is the face normal */
const FACE_COS = 1 - 1e-9;
/** a barycentric coordinate at or below this puts a point on the opposite edge */
const BARY_TOL = 1e-7;
/** two points of a pair closer than this × (1 + |p|), with the same normal, are one */
const SAME_POINT = 1e-9;
/** the points of a pair are compacted whenever they pass this many (compactPoints) */
const COMPACT_AT = 32;
/** an edge normal this far (relative) past the arc of its faces' normals is still within it */
const ARC_TOL = 1e-9;
/** local triangle feature of a face point */
const FACE = 6;

/** the scratch of the mesh pairs, one per manifold (so per collider): nothing is allocated per call */
export class MeshPairScratch {
  readonly convex = new Convex();
  readonly triangleShape = new Convex();
  /** BVH traversal stack and the triangles found, grown to the largest mesh met */
  stack: Int32Array = new Int32Array(32);
  hits: Int32Array = new Int32Array(64);
  /** the convex distance and the manifold builder */
  readonly pair = new ConvexWorkspace();
  readonly clip = new ClipWorkspace();
  /** (9) the current triangle in world, (3) its world normal, and its index */
  readonly tri = new Float64Array(9);
  readonly face = new Float64Array(3);
  triangle = -1;
  /** the mesh of the pair and (9) its rotation to world */
  mesh: TriMesh | null = null;
  readonly rot = new Float64Array(9);
  /** (3) barycentric coordinates */
  readonly bary = new Float64Array(3);
  /** the support hull's scratch: points in the contact plane, their order, the hull, kept flags */
  hx: Float64Array = new Float64Array(16);
  hy: Float64Array = new Float64Array(16);
  order: Int32Array = new Int32Array(16);
  hull: Int32Array = new Int32Array(17);
  keep: Uint8Array = new Uint8Array(16);

  /** room for n points in the hull scratch */
  reserve(n: number): void {
    if (n <= this.order.length) return;
    this.hx = new Float64Array(2 * n); this.hy = new Float64Array(2 * n); this.order = new Int32Array(2 * n);
    this.hull = new Int32Array(2 * n + 1); this.keep = new Uint8Array(2 * n);
  }
}

/** the scratch kept on manifold m, made on its first use */
function scratchOf(m: Manifold, mesh: TriMesh): MeshPairScratch {
  const kept = m.meshScratch;
  const s = kept instanceof MeshPairScratch ? kept : new MeshPairScratch();
  m.meshScratch = s;
  // room for a query of this mesh (grown outside the per-triangle loop)
  if (s.stack.length < mesh.bvh.depth + 1) s.stack = mesh.bvh.makeStack();
  if (s.hits.length < mesh.triangleCount) s.hits = new Int32Array(mesh.triangleCount);
  return s;
}

/** convex shape a (sphere, capsule, box, cylinder, ellipsoid or hull), mesh b: normals from a to b */
export function convexMesh(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const mesh = t.geometry[b];
  if (!(mesh instanceof TriMesh)) return;
  const s = scratchOf(m, mesh), first = m.count, margin = t.margin;
  loadShape(s.convex, t, a);
  s.mesh = mesh;
  for (let j = 0; j < 9; j++) s.rot[j] = t.rot[9 * b + j]!;
  const found = queryMesh(s, t, a, b, mesh);
  for (let h = 0; h < found; h++) {
    const k = s.hits[h]!, start = m.count;
    loadWorldTriangle(s, t, b, mesh, k);
    loadTriangle(s.triangleShape, s.tri, 0, k, b);
    s.triangle = k;
    triangleContacts(s, mesh.activeFlags[k]!, margin, m);
    // the triangle's features as 8 k + local, whichever builder made them
    for (let i = start; i < m.count; i++) m.featureB[i] = 8 * k + (m.featureB[i]! & 7);
    // a large shape on many small triangles: keep the work per point bounded
    if (m.count - first > COMPACT_AT) compactPoints(s, m, first, COMPACT_AT >> 1);
  }
  compactPoints(s, m, first, 4);
}

/**
 * the points [first, m.count) without repeats and, on a flat patch, without the points inside its
 * support hull (the hull of the hull of some points and the others is the hull of all, so doing
 * it as they come loses nothing); reduced to 4 when more than `max` remain
 */
function compactPoints(s: MeshPairScratch, m: Manifold, first: number, max: number): void {
  dropDuplicates(m, first);
  dropInterior(s, m, first);
  if (m.count - first > max) reduceManifold(m, first, 4);
}

/** the triangles whose boxes overlap shape a's box, carried into mesh b's frame, into s.hits */
function queryMesh(s: MeshPairScratch, t: ShapeTable, a: number, b: number, mesh: TriMesh): number {
  const B = t.aabb, o = 6 * a, R = t.rot, r = 9 * b, P = t.pos, half = 0.5 * t.margin;
  // the world box: centre and half extents (grown to the whole margin)
  const dx = 0.5 * (B[o]! + B[o + 3]!) - P[3 * b]!, ex = 0.5 * (B[o + 3]! - B[o]!) + half;
  const dy = 0.5 * (B[o + 1]! + B[o + 4]!) - P[3 * b + 1]!, ey = 0.5 * (B[o + 4]! - B[o + 1]!) + half;
  const dz = 0.5 * (B[o + 2]! + B[o + 5]!) - P[3 * b + 2]!, ez = 0.5 * (B[o + 5]! - B[o + 2]!) + half;
  // into the mesh frame: Rᵀ d, and the box holding the turned box
  const cx = R[r]! * dx + R[r + 3]! * dy + R[r + 6]! * dz;
  const cy = R[r + 1]! * dx + R[r + 4]! * dy + R[r + 7]! * dz;
  const cz = R[r + 2]! * dx + R[r + 5]! * dy + R[r + 8]! * dz;
  const hx = Math.abs(R[r]!) * ex + Math.abs(R[r + 3]!) * ey + Math.abs(R[r + 6]!) * ez;
  const hy = Math.abs(R[r + 1]!) * ex + Math.abs(R[r + 4]!) * ey + Math.abs(R[r + 7]!) * ez;
  const hz = Math.abs(R[r + 2]!) * ex + Math.abs(R[r + 5]!) * ey + Math.abs(R[r + 8]!) * ez;
  return mesh.bvh.query(s.stack, s.hits, cx - hx, cy - hy, cz - hz, cx + hx, cy + hy, cz + hz);
}

/** triangle k of mesh b in world into s.tri, its world normal into s.face */
function loadWorldTriangle(s: MeshPairScratch, t: ShapeTable, b: number, mesh: TriMesh, k: number): void {
  const R = t.rot, r = 9 * b, P = t.pos, X = mesh.vertices, T = mesh.triangles, W = s.tri;
  for (let j = 0; j < 3; j++) {
    const v = 3 * T[3 * k + j]!, x = X[v]!, y = X[v + 1]!, z = X[v + 2]!;
    W[3 * j] = P[3 * b]! + R[r]! * x + R[r + 1]! * y + R[r + 2]! * z;
    W[3 * j + 1] = P[3 * b + 1]! + R[r + 3]! * x + R[r + 4]! * y + R[r + 5]! * z;
    W[3 * j + 2] = P[3 * b + 2]! + R[r + 6]! * x + R[r + 7]! * y + R[r + 8]! * z;
  }
  const N = mesh.triangleNormals, nx = N[3 * k]!, ny = N[3 * k + 1]!, nz = N[3 * k + 2]!;
  s.face[0] = R[r]! * nx + R[r + 1]! * ny + R[r + 2]! * nz;
  s.face[1] = R[r + 3]! * nx + R[r + 4]! * ny + R[r + 5]! * nz;
  s.face[2] = R[r + 6]! * nx + R[r + 7]! * ny + R[r + 8]! * nz;
}

/**
 * the contacts of the convex and the triangle loaded in s, of active-edge flags `flags`; a
 * triangle without an active feature can only touch by its face, so it goes there directly
 */
function triangleContacts(s: MeshPairScratch, flags: number, margin: number, m: Manifold): void {
  const ws = s.pair, n = ws.normal;
  let onFace = flags === 0;
  if (!onFace) {
    if (!convexDistance(ws, s.convex, s.triangleShape, margin)) return;
    onFace = !keepsNormal(s, flags);
  }
  if (onFace && !alongFace(s, margin)) return;
  const start = m.count;
  clipManifold(s.clip, s.convex, s.triangleShape, n[0]!, n[1]!, n[2]!, ws.pA, ws.pB, ws.gap, margin, m);
  // a support point off the triangle is the contact of the triangle under it
  if (onFace) dropOutside(s, m, start);
}

/**
 * true when the normal of s.pair may stand: the face normal (then set to −f exactly), the normal of
 * an active vertex, or of an active edge within the arc of its two faces' normals, where the
 * triangle's witness point lies
 */
function keepsNormal(s: MeshPairScratch, flags: number): boolean {
  const n = s.pair.normal, f = s.face;
  if (-(n[0]! * f[0]! + n[1]! * f[1]! + n[2]! * f[2]!) >= FACE_COS) {
    n[0] = -f[0]!; n[1] = -f[1]!; n[2] = -f[2]!;
    return true;
  }
  const q = s.pair.pB;
  barycentric(s.bary, s.tri, q[0]!, q[1]!, q[2]!);
  const local = triangleFeature(s.bary);
  if (local < 3) return (flags & (VERTEX_ACTIVE << local)) !== 0;
  return local < FACE && (flags & (EDGE_ACTIVE << (local - 3))) !== 0 && withinEdgeArc(s, local - 3);
}

/**
 * whether the outward direction d = −n lies between the normals of the current triangle (f) and
 * of its neighbour across edge e (g): (f × d)·c ≥ 0 and (d × g)·c ≥ 0 with c = f × g along the
 * edge; a normal past either face belongs to that face (a border edge takes any)
 */
function withinEdgeArc(s: MeshPairScratch, e: number): boolean {
  const mesh = s.mesh!, u = mesh.neighbors[3 * s.triangle + e]!;
  if (u < 0) return true;
  const N = mesh.triangleNormals, R = s.rot, lx = N[3 * u]!, ly = N[3 * u + 1]!, lz = N[3 * u + 2]!;
  const gx = R[0]! * lx + R[1]! * ly + R[2]! * lz, gy = R[3]! * lx + R[4]! * ly + R[5]! * lz;
  const gz = R[6]! * lx + R[7]! * ly + R[8]! * lz;
  const f = s.face, fx = f[0]!, fy = f[1]!, fz = f[2]!, n = s.pair.normal;
  const dx = -n[0]!, dy = -n[1]!, dz = -n[2]!;
  const cx = fy * gz - fz * gy, cy = fz * gx - fx * gz, cz = fx * gy - fy * gx;
  const a = (fy * dz - fz * dy) * cx + (fz * dx - fx * dz) * cy + (fx * dy - fy * dx) * cz;
  const b = (dy * gz - dz * gy) * cx + (dz * gx - dx * gz) * cy + (dx * gy - dy * gx) * cz;
  const tol = -ARC_TOL * (cx * cx + cy * cy + cz * cz);
  return a >= tol && b >= tol;
}

/**
 * the contact along −f: the convex's support point along −f, its gap to the face's plane and its
 * foot on that plane, into s.pair; false when the gap is at least the margin, or when the convex
 * lies wholly behind the plane by the margin (it meets the mesh elsewhere, if at all)
 */
function alongFace(s: MeshPairScratch, margin: number): boolean {
  const ws = s.pair, f = s.face, W = s.tri, pA = ws.pA, pB = ws.pB, n = ws.normal;
  const fx = f[0]!, fy = f[1]!, fz = f[2]!;
  support(pB, 0, s.convex, fx, fy, fz);
  if (!(fx * (pB[0]! - W[0]!) + fy * (pB[1]! - W[1]!) + fz * (pB[2]! - W[2]!) > -margin)) return false;
  support(pA, 0, s.convex, -fx, -fy, -fz);
  const gap = fx * (pA[0]! - W[0]!) + fy * (pA[1]! - W[1]!) + fz * (pA[2]! - W[2]!);
  if (!(gap < margin)) return false;
  pB[0] = pA[0]! - gap * fx; pB[1] = pA[1]! - gap * fy; pB[2] = pA[2]! - gap * fz;
  n[0] = -fx; n[1] = -fy; n[2] = -fz; ws.gap = gap;
  return true;
}

/**
 * the barycentric coordinates of the point x, projected on the plane of triangle W (world, 9
 * numbers), into out[0..2] (vertex 0, 1, 2)
 */
export function barycentric(out: Float64Array, W: Float64Array, x: number, y: number, z: number): void {
  const e1x = W[3]! - W[0]!, e1y = W[4]! - W[1]!, e1z = W[5]! - W[2]!;
  const e2x = W[6]! - W[0]!, e2y = W[7]! - W[1]!, e2z = W[8]! - W[2]!;
  const wx = x - W[0]!, wy = y - W[1]!, wz = z - W[2]!;
  const d00 = e1x * e1x + e1y * e1y + e1z * e1z, d01 = e1x * e2x + e1y * e2y + e1z * e2z;
  const d11 = e2x * e2x + e2y * e2y + e2z * e2z;
  const d20 = wx * e1x + wy * e1y + wz * e1z, d21 = wx * e2x + wy * e2y + wz * e2z;
  const den = d00 * d11 - d01 * d01;
  out[1] = (d11 * d20 - d01 * d21) / den; out[2] = (d00 * d21 - d01 * d20) / den;
  out[0] = 1 - out[1]! - out[2]!;
}

/**
 * the local feature of a point of the triangle from its barycentric coordinates b: vertex j (0..2)
 * when the two others are at most BARY_TOL, edge 3 + k (from vertex k to k + 1) when the
 * coordinate of the vertex opposite is, else FACE
 */
export function triangleFeature(b: Float64Array): number {
  const s0 = b[0]! <= BARY_TOL, s1 = b[1]! <= BARY_TOL, s2 = b[2]! <= BARY_TOL;
  if (s1 && s2) return 0;
  if (s0 && s2) return 1;
  if (s0 && s1) return 2;
  // the edge opposite vertex j runs from vertex j + 1 to j + 2: edge (j + 1) mod 3
  if (s0) return 4;
  if (s1) return 5;
  if (s2) return 3;
  return FACE;
}

/** drops the points [start, m.count) whose foot on the triangle (p + (gap/2) n) lies outside it */
function dropOutside(s: MeshPairScratch, m: Manifold, start: number): void {
  const P = m.point, N = m.normal, b = s.bary;
  let w = start;
  for (let i = start; i < m.count; i++) {
    const h = 0.5 * m.gap[i]!, o = 3 * i;
    barycentric(b, s.tri, P[o]! + h * N[o]!, P[o + 1]! + h * N[o + 1]!, P[o + 2]! + h * N[o + 2]!);
    if (b[0]! < -BARY_TOL || b[1]! < -BARY_TOL || b[2]! < -BARY_TOL) continue;
    if (w !== i) movePoint(m, i, w);
    w++;
  }
  m.count = w;
}

/** copies point i of m onto slot j */
function movePoint(m: Manifold, i: number, j: number): void {
  m.featureA[j] = m.featureA[i]!; m.featureB[j] = m.featureB[i]!; m.gap[j] = m.gap[i]!;
  for (let k = 0; k < 3; k++) {
    m.point[3 * j + k] = m.point[3 * i + k]!; m.normal[3 * j + k] = m.normal[3 * i + k]!;
  }
}

/** drops each point of [first, m.count) that repeats an earlier one (same place and normal) */
function dropDuplicates(m: Manifold, first: number): void {
  const P = m.point, N = m.normal;
  let w = first;
  for (let i = first; i < m.count; i++) {
    const px = P[3 * i]!, py = P[3 * i + 1]!, pz = P[3 * i + 2]!;
    const tol = SAME_POINT * (1 + Math.abs(px) + Math.abs(py) + Math.abs(pz));
    let repeat = false;
    for (let j = first; j < w && !repeat; j++) {
      const same = Math.abs(P[3 * j]! - px) <= tol && Math.abs(P[3 * j + 1]! - py) <= tol
        && Math.abs(P[3 * j + 2]! - pz) <= tol;
      const cos = N[3 * j]! * N[3 * i]! + N[3 * j + 1]! * N[3 * i + 1]! + N[3 * j + 2]! * N[3 * i + 2]!;
      repeat = same && cos >= FACE_COS;
    }
    if (repeat) continue;
    if (w !== i) movePoint(m, i, w);
    w++;
  }
  m.count = w;
}

/**
 * drops the points of [first, m.count) inside the hull of the others or on its border, when all
 * share one normal and are not deeper than the hull's shallowest corner (the file comment)
 */
function dropInterior(s: MeshPairScratch, m: Manifold, first: number): void {
  const n = m.count - first, N = m.normal, o = 3 * first;
  if (n <= 2) return;
  for (let i = first + 1; i < m.count; i++) {
    if (N[3 * i]! * N[o]! + N[3 * i + 1]! * N[o + 1]! + N[3 * i + 2]! * N[o + 2]! < FACE_COS) return;
  }
  s.reserve(n);
  const extent = projectOnPlane(s, m, first, n), h = convexHull(s, n, extent);
  // the hull's corners, and any point deeper than the shallowest of them
  const keep = s.keep;
  let shallow = -Infinity;
  keep.fill(0, 0, n);
  for (let k = 0; k < h; k++) { keep[s.hull[k]!] = 1; shallow = Math.max(shallow, m.gap[first + s.hull[k]!]!); }
  const tol = SAME_POINT * (1 + extent);
  let w = first;
  for (let i = 0; i < n; i++) {
    if (keep[i] === 0 && !(m.gap[first + i]! < shallow - tol)) continue;
    if (w !== first + i) movePoint(m, first + i, w);
    w++;
  }
  m.count = w;
}

/** the points in the plane normal to the first one's normal into s.hx, s.hy; returns their extent */
function projectOnPlane(s: MeshPairScratch, m: Manifold, first: number, n: number): number {
  const N = m.normal, nx = N[3 * first]!, ny = N[3 * first + 1]!, nz = N[3 * first + 2]!;
  // a tangent basis of the normal (Duff et al. 2017)
  const sg = nz >= 0 ? 1 : -1, a = -1 / (sg + nz), b = nx * ny * a;
  const t1x = 1 + sg * nx * nx * a, t1y = sg * b, t1z = -sg * nx, t2x = b, t2y = sg + ny * ny * a, t2z = -ny;
  let extent = 0;
  for (let i = 0; i < n; i++) {
    const p = 3 * (first + i), x = m.point[p]!, y = m.point[p + 1]!, z = m.point[p + 2]!;
    s.hx[i] = t1x * x + t1y * y + t1z * z; s.hy[i] = t2x * x + t2y * y + t2z * z;
    extent = Math.max(extent, Math.abs(s.hx[i]! - s.hx[0]!) + Math.abs(s.hy[i]! - s.hy[0]!));
  }
  return extent;
}

/**
 * the corners of the convex hull of s.hx, s.hy (n points) into s.hull, counter-clockwise, points on
 * its border between corners left out (Andrew's monotone chain); returns their number
 */
function convexHull(s: MeshPairScratch, n: number, extent: number): number {
  const X = s.hx, Y = s.hy, order = s.order, hull = s.hull, tol = 1e-12 * extent * extent;
  // order by (x, y): insertion sort (few points)
  for (let i = 0; i < n; i++) {
    let j = i - 1;
    while (j >= 0 && (X[order[j]!]! > X[i]! || (X[order[j]!] === X[i] && Y[order[j]!]! > Y[i]!))) {
      order[j + 1] = order[j]!; j--;
    }
    order[j + 1] = i;
  }
  // lower chain, then upper chain, each keeping strict left turns only
  let h = 0;
  for (let pass = 0; pass < 2; pass++) {
    const base = h;
    for (let k = 0; k < n; k++) {
      const i = order[pass === 0 ? k : n - 1 - k]!;
      while (h >= base + 2 && turn(X, Y, hull[h - 2]!, hull[h - 1]!, i) <= tol) h--;
      hull[h++] = i;
    }
    h--;
  }
  return h;
}

/** twice the signed area of the triangle (a, b, c) of the scratch points: > 0 for a left turn */
function turn(X: Float64Array, Y: Float64Array, a: number, b: number, c: number): number {
  return (X[b]! - X[a]!) * (Y[c]! - Y[a]!) - (Y[b]! - Y[a]!) * (X[c]! - X[a]!);
}
