/**
 * GJK distance between the cores of two convex shapes (docs/theory.md §17; Gilbert, Johnson and
 * Keerthi 1988, in the form of van den Bergen, "Collision Detection in Interactive 3D
 * Environments" §4.3, with a signed-volume sub-algorithm after Montanari et al. 2017).
 *
 * The cores' distance is the distance of the origin to their Minkowski difference D = A − B, whose
 * support in direction d is s_D(d) = s_A(d) − s_B(−d). GJK keeps a simplex of at most four points of
 * D and its point v closest to the origin; each iteration adds w = s_D(−v) and replaces the simplex by
 * the smallest face of simplex ∪ {w} that holds the new closest point. |v| is an upper bound of the
 * distance and v·w/|v| a lower bound (the plane through w normal to v separates D from the origin),
 * so the loop stops when they agree to DIST_TOL × the scale of D, when w is already in the simplex,
 * when |v| stops decreasing to rounding (the new simplex is kept: its v may still turn, as when
 * the foot lies inside a face of D), or when the lower bound passes the caller's limit (the
 * shapes are farther apart than the margin). The origin inside a tetrahedron, or |v| below
 * OVERLAP_TOL × scale, means the cores overlap: EPA (./epa.ts) takes over from the final simplex.
 *
 * Sub-algorithm: the closest point of a segment, triangle or tetrahedron to the origin, by
 * barycentric coordinates of the origin's projection (signed lengths, areas, volumes). A coordinate
 * ≤ 0 puts the closest point on the faces opposite that vertex, which are solved the same way and
 * the closest kept; a simplex flat to rounding (sin² of its angle below FLAT_SIN2) is solved by its
 * faces alone. Witness points are the same barycentric combination of the supports on A and B.
 */
import { supportCore, TRIANGLE, type Convex } from './convex.js';

/** GJK stops when the upper and lower distance bounds agree to this × the scale of D */
const DIST_TOL = 1e-14;
/** a closest point of D nearer than this × the scale of D to the origin counts as overlap */
const OVERLAP_TOL = 1e-10;
/** relative change of |v|² within rounding */
const STALL = 1e-14;
/** iteration bound (polytopes converge in a handful; smooth shapes within this to DIST_TOL) */
const MAX_ITER = 64;
/** a triangle or tetrahedron is flat below this squared sine (area² or volume² over its edges' squares) */
const FLAT_SIN2 = 1e-18;

/** the cores are apart: distance, witnesses and normal are set */
export const GJK_SEPARATED = 0;
/** the cores overlap (or touch within OVERLAP_TOL): the simplex is left for EPA */
export const GJK_OVERLAP = 1;
/** the cores are farther apart than the limit: `distance` is a lower bound only */
export const GJK_BEYOND = 2;

/** the simplex, scratch and results of one GJK query; reused across calls, no allocation per call */
export class GjkWorkspace {
  /** number of simplex points (1..4) */
  count = 0;
  /** (12) simplex points of D, and (12) their supports on A and B; (4) the support ids */
  readonly w = new Float64Array(12);
  readonly a = new Float64Array(12);
  readonly b = new Float64Array(12);
  readonly ia = new Int32Array(4);
  readonly ib = new Int32Array(4);
  /** (4) barycentric weights of the closest point v on the simplex */
  readonly lam = new Float64Array(4);
  /** the largest |w|² met: the squared scale of D for the tolerances */
  scale2 = 0;
  /** the result: GJK_SEPARATED, GJK_OVERLAP or GJK_BEYOND */
  status = GJK_SEPARATED;
  /** distance of the cores (0 on overlap; a lower bound when beyond the limit) */
  distance = 0;
  /** (3) witness points on the cores of A and B, (3) v = pA − pB */
  readonly pA = new Float64Array(3);
  readonly pB = new Float64Array(3);
  readonly v = new Float64Array(3);
  /** iterations of the last query */
  iterations = 0;
  /** scratch: the previous simplex (restored when a step does not improve) and the sub-algorithm's weights */
  private readonly saved = new Float64Array(4 * 9 + 8);
  readonly s1 = new Float64Array(4);
  readonly s2 = new Float64Array(4);
  readonly s3 = new Float64Array(4);
  readonly s4 = new Float64Array(4);
  savedCount = 0;

  /** keeps the simplex (restorable by `restore`) */
  save(): void {
    const s = this.saved, n = this.count;
    for (let i = 0; i < 3 * n; i++) { s[i] = this.w[i]!; s[12 + i] = this.a[i]!; s[24 + i] = this.b[i]!; }
    for (let i = 0; i < n; i++) { s[36 + i] = this.ia[i]!; s[40 + i] = this.ib[i]!; }
    this.savedCount = n;
  }

  /** the simplex kept by `save` */
  restore(): void {
    const s = this.saved, n = this.savedCount;
    for (let i = 0; i < 3 * n; i++) { this.w[i] = s[i]!; this.a[i] = s[12 + i]!; this.b[i] = s[24 + i]!; }
    for (let i = 0; i < n; i++) { this.ia[i] = s[36 + i]!; this.ib[i] = s[40 + i]!; }
    this.count = n;
  }
}

/**
 * the support of D = core(A) − core(B) in direction d: W[o..] = a − b with a = s_A(d) into PA[o..],
 * b = s_B(−d) into PB[o..], their ids into IA[k], IB[k] (k = o/3); returns |W|²
 */
export function minkowskiSupport(W: Float64Array, PA: Float64Array, PB: Float64Array,
  IA: Int32Array, IB: Int32Array, o: number, A: Convex, B: Convex,
  dx: number, dy: number, dz: number): number {
  IA[o / 3] = supportCore(PA, o, A, dx, dy, dz);
  IB[o / 3] = supportCore(PB, o, B, -dx, -dy, -dz);
  const x = PA[o]! - PB[o]!, y = PA[o + 1]! - PB[o + 1]!, z = PA[o + 2]! - PB[o + 2]!;
  W[o] = x; W[o + 1] = y; W[o + 2] = z;
  return x * x + y * y + z * z;
}

/** a point near the middle of c (a triangle's centroid, else its frame origin) into out[o..] */
function centreOf(out: Float64Array, o: number, c: Convex): void {
  if (c.kind === TRIANGLE) {
    const t = c.tri;
    for (let k = 0; k < 3; k++) out[o + k] = (t[k]! + t[3 + k]! + t[6 + k]!) / 3;
    return;
  }
  for (let k = 0; k < 3; k++) out[o + k] = c.p[k]!;
}

/**
 * the distance between the cores of A and B (the radii are not counted); stops early, with status
 * GJK_BEYOND, once the distance is known to exceed `limit`. Returns the status (also in ws.status).
 */
export function gjk(ws: GjkWorkspace, A: Convex, B: Convex, limit = Infinity): number {
  // first point: D's support along the line of centres, from A towards B
  centreOf(ws.pA, 0, A); centreOf(ws.pB, 0, B);
  let dx = ws.pB[0]! - ws.pA[0]!, dy = ws.pB[1]! - ws.pA[1]!, dz = ws.pB[2]! - ws.pA[2]!;
  if (dx === 0 && dy === 0 && dz === 0) dx = 1;
  ws.scale2 = minkowskiSupport(ws.w, ws.a, ws.b, ws.ia, ws.ib, 0, A, B, dx, dy, dz);
  ws.count = 1; ws.lam[0] = 1;
  let vx = ws.w[0]!, vy = ws.w[1]!, vz = ws.w[2]!, vv = vx * vx + vy * vy + vz * vz;
  const limit2 = limit * limit;
  ws.status = GJK_SEPARATED;
  let it = 0;
  for (; it < MAX_ITER; it++) {
    // the origin on D, to the overlap tolerance
    if (vv <= OVERLAP_TOL * OVERLAP_TOL * ws.scale2) { ws.status = GJK_OVERLAP; break; }
    // the new support point, in the free slot
    const o = 3 * ws.count;
    const ww = minkowskiSupport(ws.w, ws.a, ws.b, ws.ia, ws.ib, o, A, B, -vx, -vy, -vz);
    if (ww > ws.scale2) ws.scale2 = ww;
    const vw = vx * ws.w[o]! + vy * ws.w[o + 1]! + vz * ws.w[o + 2]!;
    // lower bound v·w/|v| beyond the limit: the shapes are too far apart to matter
    if (vw > 0 && vw * vw > limit2 * vv) { ws.status = GJK_BEYOND; ws.distance = vw / Math.sqrt(vv); break; }
    // the bounds agree, or w is already a simplex point: converged
    if (vv - vw <= DIST_TOL * Math.sqrt(vv * ws.scale2) || inSimplex(ws, o)) break;
    // the closest point of simplex ∪ {w}; a step that moves away (rounding) is undone
    ws.save();
    ws.count++;
    if (reduceSimplex(ws) === 15) { ws.status = GJK_OVERLAP; break; }
    const nv = closestOf(ws);
    if (nv > vv * (1 + STALL)) { ws.restore(); reduceSimplex(ws); break; }
    // a step that no longer shortens v, to rounding, ends the loop on the new simplex: its v may
    // still turn (a foot found inside a face of D only moves v by lateral² ≪ rounding of |v|²)
    const stalled = nv >= vv * (1 - STALL);
    vv = nv; vx = ws.v[0]!; vy = ws.v[1]!; vz = ws.v[2]!;
    if (stalled) break;
  }
  ws.iterations = it;
  finish(ws);
  return ws.status;
}

/** the witness points and the distance from the simplex weights */
function finish(ws: GjkWorkspace): void {
  const st = ws.status;
  closestOf(ws);
  let ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0;
  for (let i = 0; i < ws.count; i++) {
    const l = ws.lam[i]!;
    ax += l * ws.a[3 * i]!; ay += l * ws.a[3 * i + 1]!; az += l * ws.a[3 * i + 2]!;
    bx += l * ws.b[3 * i]!; by += l * ws.b[3 * i + 1]!; bz += l * ws.b[3 * i + 2]!;
  }
  ws.pA[0] = ax; ws.pA[1] = ay; ws.pA[2] = az; ws.pB[0] = bx; ws.pB[1] = by; ws.pB[2] = bz;
  if (st === GJK_SEPARATED) ws.distance = Math.hypot(ax - bx, ay - by, az - bz);
  else if (st === GJK_OVERLAP) ws.distance = 0;
}

/** v = Σ λ_i w_i into ws.v; returns |v|² */
function closestOf(ws: GjkWorkspace): number {
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < ws.count; i++) {
    const l = ws.lam[i]!;
    x += l * ws.w[3 * i]!; y += l * ws.w[3 * i + 1]!; z += l * ws.w[3 * i + 2]!;
  }
  ws.v[0] = x; ws.v[1] = y; ws.v[2] = z;
  return x * x + y * y + z * z;
}

/** true when the point in slot o/3 equals a simplex point (to rounding of the scale) */
function inSimplex(ws: GjkWorkspace, o: number): boolean {
  const W = ws.w, tol = 1e-28 * ws.scale2;
  for (let i = 0; i < ws.count; i++) {
    const dx = W[o]! - W[3 * i]!, dy = W[o + 1]! - W[3 * i + 1]!, dz = W[o + 2]! - W[3 * i + 2]!;
    if (dx * dx + dy * dy + dz * dz <= tol) return true;
  }
  return false;
}

/**
 * replaces the simplex by the face holding its point closest to the origin, with the weights in
 * ws.lam; returns the mask of the points kept before compaction (15: the origin is inside)
 */
function reduceSimplex(ws: GjkWorkspace): number {
  const n = ws.count, lam = ws.lam;
  lam.fill(0);
  let mask: number;
  if (n === 1) { lam[0] = 1; mask = 1; }
  else if (n === 2) mask = segment(ws.w, 0, 1, lam);
  else if (n === 3) mask = triangle(ws.w, 0, 1, 2, lam, ws.s1, ws.s2);
  else mask = tetrahedron(ws, lam);
  if (mask !== 15) compact(ws, mask);
  return mask;
}

/** keeps the simplex points of the mask, in order, with their weights */
function compact(ws: GjkWorkspace, mask: number): void {
  let k = 0;
  for (let i = 0; i < ws.count; i++) {
    if ((mask & (1 << i)) === 0) continue;
    if (k !== i) {
      for (let j = 0; j < 3; j++) {
        const s = 3 * i + j, d = 3 * k + j;
        ws.w[d] = ws.w[s]!; ws.a[d] = ws.a[s]!; ws.b[d] = ws.b[s]!;
      }
      ws.ia[k] = ws.ia[i]!; ws.ib[k] = ws.ib[i]!; ws.lam[k] = ws.lam[i]!;
    }
    k++;
  }
  for (let i = k; i < 4; i++) ws.lam[i] = 0;
  ws.count = k;
}

/** |Σ λ_i W_i|² over the slots of a mask */
function norm2(W: Float64Array, lam: Float64Array, mask: number): number {
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < 4; i++) {
    if ((mask & (1 << i)) === 0) continue;
    const l = lam[i]!;
    x += l * W[3 * i]!; y += l * W[3 * i + 1]!; z += l * W[3 * i + 2]!;
  }
  return x * x + y * y + z * z;
}

/** closest point of the segment W_i W_j to the origin: weights into out (slots i, j); returns the mask */
export function segment(W: Float64Array, i: number, j: number, out: Float64Array): number {
  const xi = W[3 * i]!, yi = W[3 * i + 1]!, zi = W[3 * i + 2]!;
  const ex = W[3 * j]! - xi, ey = W[3 * j + 1]! - yi, ez = W[3 * j + 2]! - zi;
  const ee = ex * ex + ey * ey + ez * ez;
  // the origin's projection parameter t on the line W_i + t e
  const t = ee > 0 ? -(xi * ex + yi * ey + zi * ez) / ee : 0;
  out[i] = 0; out[j] = 0;
  if (t <= 0) { out[i] = 1; return 1 << i; }
  if (t >= 1) { out[j] = 1; return 1 << j; }
  out[i] = 1 - t; out[j] = t;
  return (1 << i) | (1 << j);
}

/**
 * closest point of the triangle W_i W_j W_k to the origin: weights into out (slots i, j, k), c1, c2
 * scratch; returns the mask
 */
export function triangle(W: Float64Array, i: number, j: number, k: number,
  out: Float64Array, c1: Float64Array, c2: Float64Array): number {
  const ax = W[3 * i]!, ay = W[3 * i + 1]!, az = W[3 * i + 2]!;
  const ux = W[3 * j]! - ax, uy = W[3 * j + 1]! - ay, uz = W[3 * j + 2]! - az;
  const wx = W[3 * k]! - ax, wy = W[3 * k + 1]! - ay, wz = W[3 * k + 2]! - az;
  // normal n = u × w; flat to rounding: solve by the edges alone
  const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
  const nn = nx * nx + ny * ny + nz * nz;
  const flat = !(nn > FLAT_SIN2 * (ux * ux + uy * uy + uz * uz) * (wx * wx + wy * wy + wz * wz));
  let li = -1, lj = -1, lk = -1;
  if (!flat) {
    // barycentric weights of the origin's projection: signed areas of the sub-triangles, / n·n
    const s = (nx * ax + ny * ay + nz * az) / nn;
    const px = s * nx - ax, py = s * ny - ay, pz = s * nz - az; // p − W_i
    lj = (nx * (py * wz - pz * wy) + ny * (pz * wx - px * wz) + nz * (px * wy - py * wx)) / nn;
    lk = (nx * (uy * pz - uz * py) + ny * (uz * px - ux * pz) + nz * (ux * py - uy * px)) / nn;
    li = 1 - lj - lk;
    if (li > 0 && lj > 0 && lk > 0) {
      out[i] = li; out[j] = lj; out[k] = lk;
      return (1 << i) | (1 << j) | (1 << k);
    }
  }
  // the closest point is on an edge opposite a vertex of weight ≤ 0 (every edge when flat)
  let best = -1, bestD = Infinity;
  for (let e = 0; e < 3; e++) {
    const l = e === 0 ? li : e === 1 ? lj : lk;
    if (!flat && l > 0) continue;
    const p = e === 0 ? j : i, q = e === 2 ? j : k;
    c1.fill(0);
    const m = segment(W, p, q, c1);
    const d = norm2(W, c1, m);
    if (d < bestD) { bestD = d; best = m; c2.set(c1); }
  }
  out[i] = 0; out[j] = 0; out[k] = 0;
  for (let s = 0; s < 4; s++) if ((best & (1 << s)) !== 0) out[s] = c2[s]!;
  return best;
}

/** closest point of the 4-point simplex to the origin, weights into lam; returns the mask (15: inside) */
function tetrahedron(ws: GjkWorkspace, lam: Float64Array): number {
  const W = ws.w;
  const x0 = W[0]!, y0 = W[1]!, z0 = W[2]!;
  const ax = W[3]! - x0, ay = W[4]! - y0, az = W[5]! - z0;
  const bx = W[6]! - x0, by = W[7]! - y0, bz = W[8]! - z0;
  const cx = W[9]! - x0, cy = W[10]! - y0, cz = W[11]! - z0;
  // 6 × signed volume, and the volumes with each point replaced by the origin
  const bcx = by * cz - bz * cy, bcy = bz * cx - bx * cz, bcz = bx * cy - by * cx;
  const det = ax * bcx + ay * bcy + az * bcz;
  const aa = ax * ax + ay * ay + az * az, bb = bx * bx + by * by + bz * bz, cc = cx * cx + cy * cy + cz * cz;
  const flat = !(det * det > FLAT_SIN2 * aa * bb * cc);
  const l = ws.s4;
  if (!flat) {
    l[1] = -(x0 * bcx + y0 * bcy + z0 * bcz) / det;
    l[2] = -(x0 * (cy * az - cz * ay) + y0 * (cz * ax - cx * az) + z0 * (cx * ay - cy * ax)) / det;
    l[3] = -(x0 * (ay * bz - az * by) + y0 * (az * bx - ax * bz) + z0 * (ax * by - ay * bx)) / det;
    l[0] = 1 - l[1]! - l[2]! - l[3]!;
    if (l[0]! > 0 && l[1]! > 0 && l[2]! > 0 && l[3]! > 0) { lam.set(l); return 15; }
  }
  // the closest point is on a face opposite a point of weight ≤ 0 (every face when flat)
  let best = -1, bestD = Infinity;
  for (let f = 0; f < 4; f++) {
    if (!flat && l[f]! > 0) continue;
    const i = f === 0 ? 1 : 0, j = f <= 1 ? 2 : 1, k = f <= 2 ? 3 : 2;
    ws.s3.fill(0);
    const m = triangle(W, i, j, k, ws.s3, ws.s1, ws.s2);
    const d = norm2(W, ws.s3, m);
    if (d < bestD) { bestD = d; best = m; lam.set(ws.s3); }
  }
  return best;
}
