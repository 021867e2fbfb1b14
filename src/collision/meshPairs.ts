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
 * Per triangle. The triangle, in world, is loaded as a convex of kind TRIANGLE and met by the
 * general convex pair; the points it adds carry the convex's feature and the triangle's
 * (8 t + local feature: vertex 0..2, edge 3 + k, face 6; ./convex/features.ts).
 *
 * Internal edges. A mesh is one-sided: its outside is where its normals point. A point whose
 * normal is within FACE_COS of the face normal takes it exactly. Any other normal comes from an
 * edge or a vertex of the triangle (or from behind the triangle); it is kept only when that
 * feature is active (a border, or convex beyond the mesh's angle tolerance, see ./mesh.ts), else it
 * is a contact with the face that the closest-point search saw from the side: the normal becomes
 * the face normal −f and the gap is measured along it, from the convex shape's witness point
 * (its core point pushed out by the radius along −f, so a sphere or capsule gets its exact
 * distance to the face's plane) to the triangle's plane. A point so moved past the margin is
 * dropped; one that lands on another point of the pair (a sphere over a flat edge meets both
 * triangles at its lowest point) is dropped too. For a cylinder or an ellipsoid the witness point
 * is where the surface's normal is the original one: the measured gap exceeds the true one by a
 * term of second order in the angle between the normals.
 *
 * Reduction. All points of the pair are then cut to at most four (./convex/clip.ts).
 */
import type { ShapeTable } from './shapes.js';
import type { Manifold } from './manifold.js';
import { Convex, loadShape, loadTriangle } from './convex/convex.js';
import { TriMesh, EDGE_ACTIVE, VERTEX_ACTIVE } from './mesh.js';

/** a normal within this cosine of the face normal is the face normal */
const FACE_COS = 1 - 1e-9;
/** a barycentric coordinate at or below this puts a point on the opposite edge */
const BARY_TOL = 1e-7;
/** two points of a pair closer than this × (1 + |p|), with the same normal, are one */
const SAME_POINT = 1e-9;
/** local triangle feature of a face point */
const FACE = 6;

/** the scratch of the mesh pairs, one per manifold (so per collider): nothing is allocated per call */
export class MeshPairScratch {
  readonly convex = new Convex();
  readonly triangle = new Convex();
  /** BVH traversal stack and the triangles found, grown to the largest mesh met */
  stack = new Int32Array(32);
  hits = new Int32Array(64);
  /** (9) the current triangle in world, (3) its world normal */
  readonly tri = new Float64Array(9);
  readonly face = new Float64Array(3);
}

const SCRATCH = new WeakMap<Manifold, MeshPairScratch>();

/** the scratch kept for manifold m */
function scratchOf(m: Manifold, mesh: TriMesh): MeshPairScratch {
  let s = SCRATCH.get(m);
  if (s === undefined) { s = new MeshPairScratch(); SCRATCH.set(m, s); }
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
  const found = queryMesh(s, t, a, b, mesh);
  for (let h = 0; h < found; h++) {
    const k = s.hits[h]!, start = m.count;
    loadWorldTriangle(s, t, b, mesh, k);
    loadTriangle(s.triangle, s.tri, 0, k, b);
    trianglePair(s.convex, s.triangle, margin, m);
    adjustPoints(m, start, s, mesh, k, margin);
  }
  dropDuplicates(m, first);
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

/** the points [start, m.count) of triangle k: face normals snapped, inactive features moved onto the face */
function adjustPoints(m: Manifold, start: number, s: MeshPairScratch, mesh: TriMesh, k: number, margin: number): void {
  let w = start;
  for (let i = start; i < m.count; i++) {
    if (!adjustPoint(m, i, s, mesh.activeFlags[k]!, margin)) continue;
    if (w !== i) movePoint(m, i, w);
    w++;
  }
  m.count = w;
}

/** point i of the current triangle (s.tri, s.face, flags): true to keep it (adjusted in place) */
function adjustPoint(m: Manifold, i: number, s: MeshPairScratch, flags: number, margin: number): boolean {
  const N = m.normal, P = m.point, f = s.face, o = 3 * i;
  const nx = N[o]!, ny = N[o + 1]!, nz = N[o + 2]!, fx = f[0]!, fy = f[1]!, fz = f[2]!;
  // a face contact: the normal is −f exactly
  if (-(nx * fx + ny * fy + nz * fz) >= FACE_COS) { N[o] = -fx; N[o + 1] = -fy; N[o + 2] = -fz; return true; }
  // the feature of the triangle's witness point p + (gap/2) n; an active one keeps its normal
  const g = m.gap[i]!, h = 0.5 * g;
  const local = triangleFeature(s.tri, P[o]! + h * nx, P[o + 1]! + h * ny, P[o + 2]! + h * nz);
  if (local < 3 && (flags & (VERTEX_ACTIVE << local)) !== 0) return true;
  if (local >= 3 && local < FACE && (flags & (EDGE_ACTIVE << (local - 3))) !== 0) return true;
  // inactive: the convex's witness, its core point pushed out along −f, against the face's plane
  const r = s.convex.radius, W = s.tri;
  const ax = P[o]! - (h + r) * nx - r * fx, ay = P[o + 1]! - (h + r) * ny - r * fy, az = P[o + 2]! - (h + r) * nz - r * fz;
  const gap = fx * (ax - W[0]!) + fy * (ay - W[1]!) + fz * (az - W[2]!);
  if (!(gap < margin)) return false;
  P[o] = ax - 0.5 * gap * fx; P[o + 1] = ay - 0.5 * gap * fy; P[o + 2] = az - 0.5 * gap * fz;
  N[o] = -fx; N[o + 1] = -fy; N[o + 2] = -fz; m.gap[i] = gap;
  return true;
}

/**
 * the feature of triangle W (world, 9 numbers) nearest the point x projected on its plane: vertex
 * j (0..2) when two barycentric coordinates are at most BARY_TOL, edge 3 + k (from vertex k to
 * k + 1) when the coordinate of the vertex opposite is, else FACE
 */
export function triangleFeature(W: Float64Array, x: number, y: number, z: number): number {
  const e1x = W[3]! - W[0]!, e1y = W[4]! - W[1]!, e1z = W[5]! - W[2]!;
  const e2x = W[6]! - W[0]!, e2y = W[7]! - W[1]!, e2z = W[8]! - W[2]!;
  const wx = x - W[0]!, wy = y - W[1]!, wz = z - W[2]!;
  const d00 = e1x * e1x + e1y * e1y + e1z * e1z, d01 = e1x * e2x + e1y * e2y + e1z * e2z;
  const d11 = e2x * e2x + e2y * e2y + e2z * e2z;
  const d20 = wx * e1x + wy * e1y + wz * e1z, d21 = wx * e2x + wy * e2y + wz * e2z;
  const den = d00 * d11 - d01 * d01;
  // coordinates of vertices 1 and 2, then 0
  const b1 = (d11 * d20 - d01 * d21) / den, b2 = (d00 * d21 - d01 * d20) / den, b0 = 1 - b1 - b2;
  const s0 = b0 <= BARY_TOL, s1 = b1 <= BARY_TOL, s2 = b2 <= BARY_TOL;
  if (s1 && s2) return 0;
  if (s0 && s2) return 1;
  if (s0 && s1) return 2;
  // the edge opposite vertex j runs from vertex j + 1 to j + 2: edge (j + 1) mod 3
  if (s0) return 4;
  if (s1) return 5;
  if (s2) return 3;
  return FACE;
}

/** copies point i of m onto slot j */
function movePoint(m: Manifold, i: number, j: number): void {
  m.featureA[j] = m.featureA[i]!; m.featureB[j] = m.featureB[i]!; m.gap[j] = m.gap[i]!;
  for (let k = 0; k < 3; k++) { m.point[3 * j + k] = m.point[3 * i + k]!; m.normal[3 * j + k] = m.normal[3 * i + k]!; }
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
      repeat = same && N[3 * j]! * N[3 * i]! + N[3 * j + 1]! * N[3 * i + 1]! + N[3 * j + 2]! * N[3 * i + 2]! >= FACE_COS;
    }
    if (repeat) continue;
    if (w !== i) movePoint(m, i, w);
    w++;
  }
  m.count = w;
}

/**
 * sphere or capsule-free stand-in for the general convex pair until it is wired: the sphere A
 * against triangle T by the closest point of the triangle to its centre (Ericson §5.1.5)
 */
function trianglePair(A: Convex, T: Convex, margin: number, m: Manifold): void {
  const W = T.tri, cx = A.p[0]!, cy = A.p[1]!, cz = A.p[2]!, q = m.work;
  const local = closestOnTriangle(q, W, cx, cy, cz);
  const dx = q[0]! - cx, dy = q[1]! - cy, dz = q[2]! - cz, d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const gap = d - A.radius;
  if (!(gap < margin) || d === 0) return;
  const nx = dx / d, ny = dy / d, nz = dz / d, h = A.radius + 0.5 * gap;
  m.add(0, 8 * T.triangle + local, cx + h * nx, cy + h * ny, cz + h * nz, nx, ny, nz, gap);
}

/** the point of triangle W closest to x into q[0..2]; returns its local feature */
function closestOnTriangle(q: Float64Array, W: Float64Array, x: number, y: number, z: number): number {
  const ax = W[0]!, ay = W[1]!, az = W[2]!;
  const abx = W[3]! - ax, aby = W[4]! - ay, abz = W[5]! - az, acx = W[6]! - ax, acy = W[7]! - ay, acz = W[8]! - az;
  const apx = x - ax, apy = y - ay, apz = z - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  const set = (u: number, v: number, f: number): number => {
    q[0] = ax + u * abx + v * acx; q[1] = ay + u * aby + v * acy; q[2] = az + u * abz + v * acz; return f;
  };
  if (d1 <= 0 && d2 <= 0) return set(0, 0, 0);
  const bpx = x - W[3]!, bpy = y - W[4]!, bpz = z - W[5]!;
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return set(1, 0, 1);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return set(d1 / (d1 - d3), 0, 3);
  const cpx = x - W[6]!, cpy = y - W[7]!, cpz = z - W[8]!;
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return set(0, 1, 2);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return set(0, d2 / (d2 - d6), 5);
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return set(1 - w, w, 4);
  }
  const den = 1 / (va + vb + vc);
  return set(vb * den, vc * den, FACE);
}
