/**
 * Narrowphase against a plane for cylinders, ellipsoids and hulls (docs/theory.md §17), with
 * the conventions of ../planePairs.ts: the plane is the half-space below its frame's x-y plane, it is
 * the first shape, every normal is its +z axis n, a point x of the shape has the gap φ = n·(x − p₀),
 * and the contact point is midway, x − (φ/2) n.
 *
 * Cylinder (radius r, half length h, axis u): its lowest points are on the rim of the cap whose
 * centre is lower. Let l = Rᵀ(−n) be the downward direction in the cylinder frame; the lowest rim
 * point is at the angle α = atan2(l_y, l_x), and rim points at the angles θ + kπ/2 (k = 0..3) with
 * θ = α reduced to [−π/4, π/4] make a square on each cap that turns with the tilt. Near upright
 * (ρ = |(l_x, l_y)| below RHO_BLEND) θ is scaled by ρ/RHO_BLEND, so a cylinder standing still keeps
 * its four points fixed in the body instead of spinning with rounding; the lowest of them then lies
 * at most r ρ (1 − cos π/4) ≤ 0.3 r RHO_BLEND above the true lowest point. The candidates are the
 * lower cap's four points and the upper cap's point below the lowest one (index k_low); the highest
 * of the five is dropped: standing, the four points of the lower cap; lying on its side, the ends
 * of the lowest line (both caps' lowest points) and the two side points at mid height; between, the
 * switch happens where the two dropped candidates are at one height, so the gaps move continuously.
 * Feature of rim point k of cap c (c = 0 at −h, 1 at +h): 4c + k, k counted from the body's x axis.
 *
 * Ellipsoid: its lowest point, the support along −n (feature 0).
 *
 * Hull: its vertices whose gap is below the margin (feature = vertex index), reduced to at most
 * four that keep the deepest point and the largest area (./reduce.ts).
 */
import { PARAMS_STRIDE, type ShapeTable } from '../shapes.js';
import type { Manifold } from '../manifold.js';
import { reduceManifold } from './reduce.js';

/** below this sine of the tilt the cylinder's rim points stay fixed in the body */
const RHO_BLEND = 1e-3;

/**
 * the plane's unit normal n (its frame's +z) into w[0..2] and n·p₀ into w[3]; returns nothing (the
 * values are read back from w, which keeps this allocation-free)
 */
function planeOf(w: Float64Array, t: ShapeTable, a: number): void {
  const R = t.rot, P = t.pos;
  w[0] = R[9 * a + 2]!; w[1] = R[9 * a + 5]!; w[2] = R[9 * a + 8]!;
  w[3] = w[0] * P[3 * a]! + w[1] * P[3 * a + 1]! + w[2] * P[3 * a + 2]!;
}

/** adds the point x of feature fb when its gap n·x − n·p₀ is below the margin (the plane in w[0..3]) */
function addPoint(m: Manifold, w: Float64Array, margin: number, fb: number,
  x: number, y: number, z: number): void {
  const nx = w[0]!, ny = w[1]!, nz = w[2]!;
  const gap = nx * x + ny * y + nz * z - w[3]!;
  if (!(gap < margin)) return;
  const s = 0.5 * gap;
  m.add(0, fb, x - s * nx, y - s * ny, z - s * nz, nx, ny, nz, gap);
}

/**
 * the rim point at angle θ of cap s (±1) of cylinder b into w[o..o+2]: p + R (r cos θ, r sin θ, s h);
 * returns its gap (the plane in w[0..3])
 */
function rimPoint(w: Float64Array, o: number, t: ShapeTable, b: number, theta: number, s: number): number {
  const R = t.rot, k = 9 * b, r = t.params[PARAMS_STRIDE * b]!, h = s * t.params[PARAMS_STRIDE * b + 1]!;
  const lx = r * Math.cos(theta), ly = r * Math.sin(theta);
  const x = t.pos[3 * b]! + R[k]! * lx + R[k + 1]! * ly + R[k + 2]! * h;
  const y = t.pos[3 * b + 1]! + R[k + 3]! * lx + R[k + 4]! * ly + R[k + 5]! * h;
  const z = t.pos[3 * b + 2]! + R[k + 6]! * lx + R[k + 7]! * ly + R[k + 8]! * h;
  w[o] = x; w[o + 1] = y; w[o + 2] = z;
  return w[0]! * x + w[1]! * y + w[2]! * z - w[3]!;
}

/** plane a, cylinder b: four rim points (see the file comment), features 4·cap + k */
export function planeCylinder(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const w = m.work, R = t.rot, k = 9 * b;
  planeOf(w, t, a);
  // the downward direction in the cylinder frame, l = Rᵀ(−n)
  const lx = -(R[k]! * w[0]! + R[k + 3]! * w[1]! + R[k + 6]! * w[2]!);
  const ly = -(R[k + 1]! * w[0]! + R[k + 4]! * w[1]! + R[k + 7]! * w[2]!);
  const lz = -(R[k + 2]! * w[0]! + R[k + 5]! * w[1]! + R[k + 8]! * w[2]!);
  const low = lz >= 0 ? 1 : 0, s = low === 1 ? 1 : -1;
  // the lowest rim direction α = θ + k_low π/2, θ in [−π/4, π/4], blended to 0 near upright
  const rho = Math.sqrt(lx * lx + ly * ly), alpha = rho > 0 ? Math.atan2(ly, lx) : 0;
  const q = Math.round(alpha / (0.5 * Math.PI)), kLow = ((q % 4) + 4) % 4;
  const theta = (alpha - 0.5 * Math.PI * q) * (rho < RHO_BLEND ? rho / RHO_BLEND : 1);
  // five candidates into w[4 + 3i]: the lower cap's four, the upper cap's below the lowest
  let drop = 0, worst = -Infinity;
  for (let i = 0; i < 5; i++) {
    const g = i < 4 ? rimPoint(w, 4 + 3 * i, t, b, theta + 0.5 * Math.PI * i, s)
      : rimPoint(w, 4 + 3 * i, t, b, theta + 0.5 * Math.PI * kLow, -s);
    // the highest is dropped (the later of equals)
    if (g >= worst) { worst = g; drop = i; }
  }
  for (let i = 0; i < 5; i++) {
    if (i === drop) continue;
    const f = i < 4 ? 4 * low + i : 4 * (1 - low) + kLow;
    addPoint(m, w, t.margin, f, w[4 + 3 * i]!, w[5 + 3 * i]!, w[6 + 3 * i]!);
  }
}

/** plane a, ellipsoid b: its lowest point, the support along −n (feature 0) */
export function planeEllipsoid(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const w = m.work, R = t.rot, k = 9 * b, o = PARAMS_STRIDE * b;
  planeOf(w, t, a);
  const rx = t.params[o]!, ry = t.params[o + 1]!, rz = t.params[o + 2]!;
  // −n in the ellipsoid frame, scaled by the radii; the support is diag(r²) l / |diag(r) l|
  const ex = -rx * (R[k]! * w[0]! + R[k + 3]! * w[1]! + R[k + 6]! * w[2]!);
  const ey = -ry * (R[k + 1]! * w[0]! + R[k + 4]! * w[1]! + R[k + 7]! * w[2]!);
  const ez = -rz * (R[k + 2]! * w[0]! + R[k + 5]! * w[1]! + R[k + 8]! * w[2]!);
  const l = Math.sqrt(ex * ex + ey * ey + ez * ez);
  const sx = (rx * ex) / l, sy = (ry * ey) / l, sz = (rz * ez) / l;
  addPoint(m, w, t.margin, 0, t.pos[3 * b]! + R[k]! * sx + R[k + 1]! * sy + R[k + 2]! * sz,
    t.pos[3 * b + 1]! + R[k + 3]! * sx + R[k + 4]! * sy + R[k + 5]! * sz,
    t.pos[3 * b + 2]! + R[k + 6]! * sx + R[k + 7]! * sy + R[k + 8]! * sz);
}

/** plane a, hull b: its vertices within the margin (feature = vertex index), at most four kept */
export function planeHull(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const w = m.work, R = t.rot, k = 9 * b, g = t.geometry[b];
  if (!g || g.type !== 'hull') return;
  planeOf(w, t, a);
  // the normal in the hull frame, Rᵀ n, and the gap of the frame's origin
  const nx = R[k]! * w[0]! + R[k + 3]! * w[1]! + R[k + 6]! * w[2]!;
  const ny = R[k + 1]! * w[0]! + R[k + 4]! * w[1]! + R[k + 7]! * w[2]!;
  const nz = R[k + 2]! * w[0]! + R[k + 5]! * w[1]! + R[k + 8]! * w[2]!;
  const px = t.pos[3 * b]!, py = t.pos[3 * b + 1]!, pz = t.pos[3 * b + 2]!;
  const g0 = w[0]! * px + w[1]! * py + w[2]! * pz - w[3]!;
  const V = g.vertices, first = m.count, margin = t.margin;
  // every vertex below the margin, in index order
  for (let v = 0; v < g.vertexCount; v++) {
    const x = V[3 * v]!, y = V[3 * v + 1]!, z = V[3 * v + 2]!;
    if (!(g0 + nx * x + ny * y + nz * z < margin)) continue;
    addPoint(m, w, margin, v, px + R[k]! * x + R[k + 1]! * y + R[k + 2]! * z,
      py + R[k + 3]! * x + R[k + 4]! * y + R[k + 5]! * z, pz + R[k + 6]! * x + R[k + 7]! * y + R[k + 8]! * z);
  }
  reduceManifold(m, first, 4);
}
