/**
 * Narrowphase against a plane: sphere, capsule and box (docs/theory.md §17). The plane is the
 * half-space below its frame's x-y plane, with the unit normal n = the frame's +z axis through the
 * point p₀; it is always the first shape, so every normal here is n (from the plane to the shape).
 *
 * Every shape meets the plane at spheres of radius r (r = 0 for a point): a sphere of centre c has
 * the gap φ = n·(c − p₀) − r; its deepest point c − r n and its foot on the plane c − (φ + r) n
 * are φ apart along n, and the contact point is midway, c − ((d + r)/2) n with d = n·(c − p₀). A
 * capsule meets the plane by its two end spheres (features 0 at −h e_z, 1 at +h e_z), which hold
 * its deepest point (the support of a segment is an end). A box meets it by its vertices (feature =
 * vertex index k, the vertex (±h_x, ±h_y, ±h_z) with the sign of axis j positive when bit j of k is
 * set), which hold its deepest point. Each point is reported while its gap is below the margin.
 */
import { PARAMS_STRIDE, type ShapeTable } from './shapes.js';
import type { Manifold } from './manifold.js';

/** adds the contact of plane a with the sphere (c, r) of feature fb, when its gap is below the margin */
function planeSphereAt(m: Manifold, t: ShapeTable, a: number, fb: number,
  cx: number, cy: number, cz: number, r: number): void {
  const R = t.rot, P = t.pos;
  const nx = R[9 * a + 2]!, ny = R[9 * a + 5]!, nz = R[9 * a + 8]!;
  const d = nx * (cx - P[3 * a]!) + ny * (cy - P[3 * a + 1]!) + nz * (cz - P[3 * a + 2]!);
  const gap = d - r;
  if (!(gap < t.margin)) return;
  const s = 0.5 * (d + r);
  m.add(0, fb, cx - s * nx, cy - s * ny, cz - s * nz, nx, ny, nz, gap);
}

/** plane a, sphere b */
export function planeSphere(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const P = t.pos;
  planeSphereAt(m, t, a, 0, P[3 * b]!, P[3 * b + 1]!, P[3 * b + 2]!, t.params[PARAMS_STRIDE * b]!);
}

/** plane a, capsule b: its end spheres, features 0 (−z end) and 1 (+z end) */
export function planeCapsule(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const P = t.pos, R = t.rot, r = t.params[PARAMS_STRIDE * b]!, h = t.params[PARAMS_STRIDE * b + 1]!;
  const cx = P[3 * b]!, cy = P[3 * b + 1]!, cz = P[3 * b + 2]!;
  const ux = h * R[9 * b + 2]!, uy = h * R[9 * b + 5]!, uz = h * R[9 * b + 8]!;
  planeSphereAt(m, t, a, 0, cx - ux, cy - uy, cz - uz, r);
  planeSphereAt(m, t, a, 1, cx + ux, cy + uy, cz + uz, r);
}

/** plane a, box b: its vertices, feature = vertex index (bit j set: + along axis j) */
export function planeBox(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const P = t.pos, R = t.rot, k = PARAMS_STRIDE * b, o = 9 * b;
  const hx = t.params[k]!, hy = t.params[k + 1]!, hz = t.params[k + 2]!;
  // the box axes scaled by the half extents, in world
  const ax = R[o]! * hx, ay = R[o + 3]! * hx, az = R[o + 6]! * hx;
  const bx = R[o + 1]! * hy, by = R[o + 4]! * hy, bz = R[o + 7]! * hy;
  const cx = R[o + 2]! * hz, cy = R[o + 5]! * hz, cz = R[o + 8]! * hz;
  const px = P[3 * b]!, py = P[3 * b + 1]!, pz = P[3 * b + 2]!;
  // the eight vertices in index order, so the points come out sorted by feature
  for (let v = 0; v < 8; v++) {
    const sx = (v & 1) !== 0 ? 1 : -1, sy = (v & 2) !== 0 ? 1 : -1, sz = (v & 4) !== 0 ? 1 : -1;
    planeSphereAt(m, t, a, v, px + sx * ax + sy * bx + sz * cx, py + sx * ay + sy * by + sz * cy,
      pz + sx * az + sy * bz + sz * cz, 0);
  }
}
