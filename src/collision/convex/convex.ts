/**
 * A convex shape at a world pose, as the general narrowphase reads it (docs/theory.md §17): one
 * reusable object per role (A or B), loaded from a shape table row or from a mesh triangle, so the
 * distance and manifold code is one monomorphic path for every kind.
 *
 * Each convex set is a core swept by a sphere of radius `radius`: a sphere is a point swept by r,
 * a capsule a segment swept by r; every other kind has radius 0 and is its own core. The support
 * point of the shape in direction d is the core's support plus radius · d/|d|.
 *
 * Supports of the cores in the shape frame (d a direction in that frame):
 * - sphere: the origin; capsule: (0, 0, h sign d_z);
 * - box: (h_x sign d_x, h_y sign d_y, h_z sign d_z);
 * - cylinder: (r d_x, r d_y)/|(d_x, d_y)| + (0, 0, h sign d_z) (the rim point; the axis point when
 *   d is along the axis);
 * - ellipsoid: (r_x² d_x, r_y² d_y, r_z² d_z)/|(r_x d_x, r_y d_y, r_z d_z)|, the point where the
 *   outward normal is along d;
 * - hull: the vertex of largest d·v (lowest index among equals, for determinism);
 * - triangle: the vertex of largest d·v (the triangle is stored in world).
 */
import {
  SPHERE, CAPSULE, BOX, CYLINDER, ELLIPSOID, HULL, PARAMS_STRIDE, type ShapeTable,
} from '../shapes.js';
import type { HullData } from '../geometry.js';

/** the kind code of a mesh triangle in a Convex (after the shape kinds) */
export const TRIANGLE = 16;

export class Convex {
  /** SPHERE, CAPSULE, BOX, CYLINDER, ELLIPSOID, HULL or TRIANGLE */
  kind = SPHERE;
  /** the shape index in its table (−1 for a triangle) */
  shape = -1;
  /** sizes: sphere [r]; capsule [r, h]; box [h_x, h_y, h_z]; cylinder [r, h]; ellipsoid [r_x, r_y, r_z] */
  a = 0; b = 0; c = 0;
  /** the radius sweeping the core: r for a sphere or a capsule, 0 otherwise */
  radius = 0;
  /** a hull's data (kind HULL) */
  hull: HullData | null = null;
  /** (3) world position of the shape frame's origin, (9) rotation shape → world (row-major) */
  readonly p = new Float64Array(3);
  readonly R = new Float64Array(9);
  /** (9) a triangle's three vertices in world (kind TRIANGLE); p and R are then the identity pose */
  readonly tri = new Float64Array(9);
  /** the triangle's index in its mesh (kind TRIANGLE) */
  triangle = -1;
}

/** loads shape i of the table into c (any kind but plane and mesh) */
export function loadShape(c: Convex, t: ShapeTable, i: number): void {
  const k = t.kind[i]!, o = PARAMS_STRIDE * i;
  c.kind = k; c.shape = i; c.triangle = -1;
  c.a = t.params[o]!; c.b = t.params[o + 1]!; c.c = t.params[o + 2]!;
  c.radius = k === SPHERE || k === CAPSULE ? c.a : 0;
  const g = t.geometry[i];
  c.hull = k === HULL && g && g.type === 'hull' ? g : null;
  for (let j = 0; j < 3; j++) c.p[j] = t.pos[3 * i + j]!;
  for (let j = 0; j < 9; j++) c.R[j] = t.rot[9 * i + j]!;
}

/** loads a triangle with world vertices v (9 numbers from offset o) into c */
export function loadTriangle(c: Convex, v: ArrayLike<number>, o: number, triangle: number, shape: number): void {
  c.kind = TRIANGLE; c.shape = shape; c.triangle = triangle; c.radius = 0; c.hull = null;
  c.a = 0; c.b = 0; c.c = 0;
  for (let j = 0; j < 9; j++) c.tri[j] = v[o + j]!;
  c.p.fill(0); c.R.fill(0); c.R[0] = 1; c.R[4] = 1; c.R[8] = 1;
}

/**
 * the support point of c's core in the world direction (dx, dy, dz) into out[o .. o+2]; returns
 * the supporting vertex's id (box: the vertex index with bit j set for + along axis j; hull and
 * triangle: the vertex index; capsule and cylinder: 0 at −h, 1 at +h; others 0)
 */
export function supportCore(out: Float64Array, o: number, c: Convex,
  dx: number, dy: number, dz: number): number {
  if (c.kind === TRIANGLE) return triangleSupport(out, o, c.tri, dx, dy, dz);
  const R = c.R;
  // the direction in the shape frame: Rᵀ d
  const lx = R[0]! * dx + R[3]! * dy + R[6]! * dz;
  const ly = R[1]! * dx + R[4]! * dy + R[7]! * dz;
  const lz = R[2]! * dx + R[5]! * dy + R[8]! * dz;
  let sx = 0, sy = 0, sz = 0, id = 0;
  switch (c.kind) {
    case CAPSULE: sz = lz >= 0 ? c.b : -c.b; id = lz >= 0 ? 1 : 0; break;
    case BOX:
      sx = lx >= 0 ? c.a : -c.a; sy = ly >= 0 ? c.b : -c.b; sz = lz >= 0 ? c.c : -c.c;
      id = (lx >= 0 ? 1 : 0) | (ly >= 0 ? 2 : 0) | (lz >= 0 ? 4 : 0);
      break;
    case CYLINDER: {
      const rho = Math.sqrt(lx * lx + ly * ly);
      if (rho > 1e-300) { sx = (c.a * lx) / rho; sy = (c.a * ly) / rho; }
      sz = lz >= 0 ? c.b : -c.b; id = lz >= 0 ? 1 : 0;
      break;
    }
    case ELLIPSOID: {
      const ex = c.a * lx, ey = c.b * ly, ez = c.c * lz, l = Math.sqrt(ex * ex + ey * ey + ez * ez);
      if (l > 1e-300) { sx = (c.a * ex) / l; sy = (c.b * ey) / l; sz = (c.c * ez) / l; }
      break;
    }
    case HULL: {
      const v = c.hull!.vertices;
      id = hullSupportVertex(c.hull!, lx, ly, lz);
      sx = v[3 * id]!; sy = v[3 * id + 1]!; sz = v[3 * id + 2]!;
      break;
    }
    default: break; // sphere: its centre
  }
  // back to world: p + R s
  out[o] = c.p[0]! + R[0]! * sx + R[1]! * sy + R[2]! * sz;
  out[o + 1] = c.p[1]! + R[3]! * sx + R[4]! * sy + R[5]! * sz;
  out[o + 2] = c.p[2]! + R[6]! * sx + R[7]! * sy + R[8]! * sz;
  return id;
}

/** the support point of the whole shape (core plus radius) in world direction d; returns the id */
export function support(out: Float64Array, o: number, c: Convex, dx: number, dy: number, dz: number): number {
  const id = supportCore(out, o, c, dx, dy, dz);
  if (c.radius > 0) {
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (l > 0) {
      const s = c.radius / l;
      out[o] += s * dx; out[o + 1] += s * dy; out[o + 2] += s * dz;
    }
  }
  return id;
}

/** the index of hull h's vertex of largest l·v (l in the hull frame; the lowest index among equals) */
export function hullSupportVertex(h: HullData, lx: number, ly: number, lz: number): number {
  const v = h.vertices, n = h.vertexCount;
  let best = -Infinity, id = 0;
  for (let k = 0; k < n; k++) {
    const s = v[3 * k]! * lx + v[3 * k + 1]! * ly + v[3 * k + 2]! * lz;
    if (s > best) { best = s; id = k; }
  }
  return id;
}

/** the vertex of triangle v (world, 9 numbers) farthest along d, into out; returns its index 0..2 */
function triangleSupport(out: Float64Array, o: number, v: Float64Array,
  dx: number, dy: number, dz: number): number {
  const s0 = v[0]! * dx + v[1]! * dy + v[2]! * dz;
  const s1 = v[3]! * dx + v[4]! * dy + v[5]! * dz;
  const s2 = v[6]! * dx + v[7]! * dy + v[8]! * dz;
  const k = s0 >= s1 ? (s0 >= s2 ? 0 : 2) : s1 >= s2 ? 1 : 2;
  out[o] = v[3 * k]!; out[o + 1] = v[3 * k + 1]!; out[o + 2] = v[3 * k + 2]!;
  return k;
}
