/**
 * EPA, the expanding polytope algorithm: penetration depth, normal and witness points of two
 * overlapping cores (docs/theory.md §17; van den Bergen, "Proximity queries and penetration depth
 * computation on 3D game objects", GDC 2001).
 *
 * When the cores overlap, the origin lies in their Minkowski difference D = A − B, and the
 * penetration depth is the distance from the origin to D's boundary: the smallest translation that
 * separates the cores. EPA grows a polytope inside D that holds the origin, starting from GJK's
 * final simplex: its points are taken while they raise the dimension, and supports along
 * directions normal to the current span (±axes, then two tangents of a segment, then a triangle's
 * normal) add the rest until it is a tetrahedron. Each iteration takes the face nearest to the
 * origin (distance d along its outward unit normal n), asks D's support w = s_D(n), and stops when
 * n·w − d ≤ EPA_TOL × scale (the face lies on D's boundary: exact for polytopes). Otherwise the
 * faces that see w go, found by the horizon walk from that face across the face adjacency (van den
 * Bergen), which keeps the removed region one disc and the horizon one loop, and a cone of new
 * faces joins the horizon to w. The polytope only grows, so no new face may be nearer to the
 * origin than the face it replaces: an expansion that would make one (a sliver turned over by
 * rounding, where D is flat or w nearly on an edge's line) is refused and EPA stops there. The
 * nearest face gives the depth d, the normal n (from A to B: moving B by d n separates the cores)
 * and the witnesses: the barycentric weights of the origin's projection d n on that face applied
 * to the supports on A and B. The true depth lies in [d, n·w] for the last support w; `bracket`
 * keeps that width.
 *
 * A Minkowski difference with no interior (a point core against a point, a segment or a triangle,
 * two segments in a plane) has depth 0: the normal is the normal of its span (the triangle's, a
 * tangent of the segment, +z for a point) and the witnesses are its point closest to the origin.
 *
 * Bounded: at most MAX_VERTICES vertices. Smooth shapes converge within the tolerance at shallow
 * depths (the region near the nearest point is refined first); deep overlaps whose depth is reached
 * in several directions at once (coincident centres of symmetric shapes) spread the vertices over
 * them and stop at the bound, with a bracket of about 1e-3 of the sizes (measured in the tests).
 */
import type { Convex } from './convex.js';
import { orthonormalBasis } from '../../math/basis.js';
import { minkowskiSupport, segment, triangle, type GjkWorkspace } from './gjk.js';

const MAX_VERTICES = 128;
/** a closed triangulated polytope of V vertices has 2V − 4 faces */
const MAX_FACES = 2 * MAX_VERTICES;
const MAX_HORIZON = MAX_FACES;
/** the nearest face is on D's boundary when the support passes it by less than this × scale */
const EPA_TOL = 1e-10;
/** a face sees a point more than this × scale above its plane (above rounding, well below EPA_TOL) */
const SEE_TOL = 1e-13;
/** a new face nearer to the origin than the face it replaces by more than this × scale is a fold */
const RECEDE_TOL = 1e-10;
/** a point raises the polytope's dimension when farther than this × scale from its span */
const SPAN_TOL = 1e-9;

/** EPA found the depth on a full polytope */
export const EPA_SOLID = 0;
/** D has no interior: depth 0, the normal of its span */
export const EPA_FLAT = 1;

/** the polytope and results of EPA, preallocated; reused across calls, no allocation per call */
export class EpaWorkspace {
  /** vertices: (3V) points of D, (3V) supports on A and B, (V) their ids */
  nv = 0;
  readonly W = new Float64Array(3 * MAX_VERTICES);
  readonly PA = new Float64Array(3 * MAX_VERTICES);
  readonly PB = new Float64Array(3 * MAX_VERTICES);
  readonly IA = new Int32Array(MAX_VERTICES);
  readonly IB = new Int32Array(MAX_VERTICES);
  /**
   * faces: (3F) vertex indices, counter-clockwise seen from outside; (3F) the face across each edge
   * (edge e runs from vertex e to vertex e + 1) and that edge's index in it; (3F) unit normals;
   * (F) distances; slots of removed faces are reused through the free list
   */
  nf = 0;
  readonly fv = new Int32Array(3 * MAX_FACES);
  readonly adj = new Int32Array(3 * MAX_FACES);
  readonly adjEdge = new Int32Array(3 * MAX_FACES);
  readonly fn = new Float64Array(3 * MAX_FACES);
  readonly fd = new Float64Array(MAX_FACES);
  readonly alive = new Uint8Array(MAX_FACES);
  nfree = 0;
  readonly free = new Int32Array(MAX_FACES);
  /** the faces removed by one expansion */
  nrem = 0;
  readonly removed = new Int32Array(MAX_FACES);
  /** the horizon of one expansion: kept face and its edge, and the new face on it */
  nh = 0;
  readonly hFace = new Int32Array(MAX_HORIZON);
  readonly hEdge = new Int32Array(MAX_HORIZON);
  readonly hSlot = new Int32Array(MAX_HORIZON);
  /** scale of D (the largest |w| met) */
  scale = 0;
  /** results: EPA_SOLID or EPA_FLAT, depth ≥ 0 (to rounding), unit normal A → B, witnesses on the cores */
  status = EPA_SOLID;
  depth = 0;
  /** width of the interval [depth, n·w] known to hold the true depth (0 for a flat D) */
  bracket = 0;
  readonly normal = new Float64Array(3);
  readonly pA = new Float64Array(3);
  readonly pB = new Float64Array(3);
  iterations = 0;
  /** a support's scratch */
  readonly tw = new Float64Array(3);
  readonly ta = new Float64Array(3);
  readonly tb = new Float64Array(3);
  readonly ti = new Int32Array(1);
  /** barycentric scratch */
  readonly lam = new Float64Array(4);
  readonly s1 = new Float64Array(4);
  readonly s2 = new Float64Array(4);
  /** a segment's unit direction and its two tangents (spanDirection) */
  readonly t0 = new Float64Array(3);
  readonly t1 = new Float64Array(3);
  readonly t2 = new Float64Array(3);
}

/** the penetration of the cores of A and B, which GJK (its final simplex in g) found overlapping */
export function epa(ws: EpaWorkspace, A: Convex, B: Convex, g: GjkWorkspace): number {
  ws.scale = Math.sqrt(g.scale2);
  // GJK's points while they raise the dimension, then supports normal to the span
  ws.nv = 0;
  for (let i = 0; i < g.count; i++) {
    copyVertex(ws, g, i);
    if (raisesSpan(ws)) ws.nv++;
  }
  if (ws.nv === 0) { copyVertex(ws, g, 0); ws.nv = 1; }
  while (ws.nv < 4) {
    if (!grow(ws, A, B)) { flatResult(ws); return ws.status; }
  }
  initialFaces(ws);
  let f = nearestFace(ws), it = 0;
  for (; ws.nv < MAX_VERTICES; it++) {
    // D's support along the nearest face's normal, in the next vertex slot
    const o = 3 * f, p = ws.nv;
    const nx = ws.fn[o]!, ny = ws.fn[o + 1]!, nz = ws.fn[o + 2]!;
    const ww = minkowskiSupport(ws.W, ws.PA, ws.PB, ws.IA, ws.IB, 3 * p, A, B, nx, ny, nz);
    if (ww > ws.scale * ws.scale) ws.scale = Math.sqrt(ww);
    const reach = nx * ws.W[3 * p]! + ny * ws.W[3 * p + 1]! + nz * ws.W[3 * p + 2]! - ws.fd[f]!;
    // the face is on D's boundary
    if (!(reach > EPA_TOL * ws.scale)) break;
    ws.nv++;
    if (!expand(ws, f, p)) break;
    f = nearestFace(ws);
  }
  ws.iterations = it;
  faceResult(ws, f);
  // the bracket of the result: D's support along the normal, past the face
  const n = ws.normal, t = ws.tw;
  minkowskiSupport(t, ws.ta, ws.tb, ws.ti, ws.ti, 0, A, B, n[0]!, n[1]!, n[2]!);
  ws.bracket = n[0]! * t[0]! + n[1]! * t[1]! + n[2]! * t[2]! - ws.depth;
  return ws.status;
}

/** GJK simplex point i into the next vertex slot */
function copyVertex(ws: EpaWorkspace, g: GjkWorkspace, i: number): void {
  const o = 3 * ws.nv;
  for (let k = 0; k < 3; k++) {
    ws.W[o + k] = g.w[3 * i + k]!; ws.PA[o + k] = g.a[3 * i + k]!; ws.PB[o + k] = g.b[3 * i + k]!;
  }
  ws.IA[ws.nv] = g.ia[i]!; ws.IB[ws.nv] = g.ib[i]!;
}

/** true when the point in slot nv is farther than SPAN_TOL × scale from the span of slots 0..nv−1 */
function raisesSpan(ws: EpaWorkspace): boolean {
  const W = ws.W, n = ws.nv, o = 3 * n, tol = SPAN_TOL * ws.scale;
  if (n === 0) return true;
  if (n >= 4) return false;
  const px = W[o]! - W[0]!, py = W[o + 1]! - W[1]!, pz = W[o + 2]! - W[2]!;
  if (n === 1) return px * px + py * py + pz * pz > tol * tol;
  const ux = W[3]! - W[0]!, uy = W[4]! - W[1]!, uz = W[5]! - W[2]!;
  if (n === 2) {
    // distance from the line: |p × u| / |u|
    const cx = py * uz - pz * uy, cy = pz * ux - px * uz, cz = px * uy - py * ux;
    return cx * cx + cy * cy + cz * cz > tol * tol * (ux * ux + uy * uy + uz * uz);
  }
  // distance from the plane: |p · (u × v)| / |u × v|
  const vx = W[6]! - W[0]!, vy = W[7]! - W[1]!, vz = W[8]! - W[2]!;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const s = px * nx + py * ny + pz * nz;
  return s * s > tol * tol * (nx * nx + ny * ny + nz * nz);
}

/**
 * adds a support normal to the current span that raises its dimension: ±axes for a point, ±two
 * tangents for a segment, ± the normal for a triangle (the origin's side first); false when none does
 */
function grow(ws: EpaWorkspace, A: Convex, B: Convex): boolean {
  const n = ws.nv, o = 3 * n, W = ws.W;
  const tries = n === 1 ? 6 : n === 2 ? 4 : 2;
  for (let k = 0; k < tries; k++) {
    spanDirection(ws, n, k);
    minkowskiSupport(W, ws.PA, ws.PB, ws.IA, ws.IB, o, A, B, ws.lam[0]!, ws.lam[1]!, ws.lam[2]!);
    if (raisesSpan(ws)) { ws.nv++; return true; }
  }
  return false;
}

/**
 * the k-th search direction normal to the span of n points, into ws.lam[0..2]: for a point the axes
 * ±x, ±y, ±z; for a segment ±t₁, ±t₂ (a Duff-Frisvad basis of its direction); for a triangle its
 * normal, first towards the origin's side
 */
function spanDirection(ws: EpaWorkspace, n: number, k: number): void {
  const W = ws.W, d = ws.lam, s = (k & 1) === 0 ? 1 : -1;
  if (n === 1) { d[0] = 0; d[1] = 0; d[2] = 0; d[k >> 1] = s; return; }
  const ux = W[3]! - W[0]!, uy = W[4]! - W[1]!, uz = W[5]! - W[2]!;
  if (n === 2) {
    // the segment's unit direction (+z when it has no length) and its tangents
    const l = Math.sqrt(ux * ux + uy * uy + uz * uz), u = ws.t0;
    if (l > 0) { u[0] = ux / l; u[1] = uy / l; u[2] = uz / l; } else { u[0] = 0; u[1] = 0; u[2] = 1; }
    orthonormalBasis(ws.t1, ws.t2, u);
    const t = (k >> 1) === 0 ? ws.t1 : ws.t2;
    d[0] = s * t[0]!; d[1] = s * t[1]!; d[2] = s * t[2]!;
    return;
  }
  const vx = W[6]! - W[0]!, vy = W[7]! - W[1]!, vz = W[8]! - W[2]!;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  // the origin's side of the plane: −n·W₀
  const side = -(nx * W[0]! + ny * W[1]! + nz * W[2]!) >= 0 ? s : -s;
  d[0] = side * nx; d[1] = side * ny; d[2] = side * nz;
}

/** D without interior: depth 0, the normal of its span, witnesses at its point closest to the origin */
function flatResult(ws: EpaWorkspace): void {
  const n = ws.nv, W = ws.W, lam = ws.lam;
  lam.fill(0);
  if (n === 1) lam[0] = 1;
  else if (n === 2) segment(W, 0, 1, lam);
  else triangle(W, 0, 1, 2, lam, ws.s1, ws.s2);
  witnesses(ws, 0, 1, 2, lam[0]!, lam[1]!, n === 3 ? lam[2]! : 0);
  // the normal of the span: +z, a tangent of the segment, or the triangle's normal
  spanDirection(ws, n, 0);
  if (n === 1) { ws.lam[0] = 0; ws.lam[1] = 0; ws.lam[2] = 1; }
  const l = Math.hypot(ws.lam[0]!, ws.lam[1]!, ws.lam[2]!);
  for (let k = 0; k < 3; k++) ws.normal[k] = ws.lam[k]! / l;
  ws.depth = 0; ws.bracket = 0; ws.status = EPA_FLAT; ws.iterations = 0;
}

/** pA, pB = the weights (la, lb, lc) of the supports of vertices i, j, k */
function witnesses(ws: EpaWorkspace, i: number, j: number, k: number,
  la: number, lb: number, lc: number): void {
  for (let c = 0; c < 3; c++) {
    ws.pA[c] = la * ws.PA[3 * i + c]! + lb * ws.PA[3 * j + c]! + lc * ws.PA[3 * k + c]!;
    ws.pB[c] = la * ws.PB[3 * i + c]! + lb * ws.PB[3 * j + c]! + lc * ws.PB[3 * k + c]!;
  }
}

/** the four faces of the first tetrahedron, each turned to face away from the left-out vertex, linked */
function initialFaces(ws: EpaWorkspace): void {
  const W = ws.W;
  ws.nf = 0; ws.nfree = 0;
  for (let f = 0; f < 4; f++) {
    const i = f === 0 ? 1 : 0, j = f <= 1 ? 2 : 1, k = f <= 2 ? 3 : 2, l = f;
    // the left-out vertex l must be on the inner side of (j − i) × (k − i)
    const ux = W[3 * j]! - W[3 * i]!, uy = W[3 * j + 1]! - W[3 * i + 1]!, uz = W[3 * j + 2]! - W[3 * i + 2]!;
    const vx = W[3 * k]! - W[3 * i]!, vy = W[3 * k + 1]! - W[3 * i + 1]!, vz = W[3 * k + 2]! - W[3 * i + 2]!;
    const out = (uy * vz - uz * vy) * (W[3 * l]! - W[3 * i]!)
      + (uz * vx - ux * vz) * (W[3 * l + 1]! - W[3 * i + 1]!)
      + (ux * vy - uy * vx) * (W[3 * l + 2]! - W[3 * i + 2]!);
    const g = ws.nf++;
    if (out > 0) setFace(ws, g, i, k, j); else setFace(ws, g, i, j, k);
  }
  // neighbours: edge e of face f runs v_e → v_e+1, and its twin the other way in another face
  for (let f = 0; f < 4; f++) for (let e = 0; e < 3; e++) {
    const a = ws.fv[3 * f + e]!, b = ws.fv[3 * f + (e + 1) % 3]!;
    for (let g = 0; g < 4; g++) for (let h = 0; h < 3; h++) {
      if (ws.fv[3 * g + h] !== b || ws.fv[3 * g + (h + 1) % 3] !== a) continue;
      ws.adj[3 * f + e] = g; ws.adjEdge[3 * f + e] = h;
    }
  }
}

/** face slot f becomes (i, j, k), live, with its unit normal (j − i) × (k − i) and distance n·W_i */
function setFace(ws: EpaWorkspace, f: number, i: number, j: number, k: number): void {
  const W = ws.W, o = 3 * f;
  ws.fv[o] = i; ws.fv[o + 1] = j; ws.fv[o + 2] = k; ws.alive[f] = 1;
  const ux = W[3 * j]! - W[3 * i]!, uy = W[3 * j + 1]! - W[3 * i + 1]!, uz = W[3 * j + 2]! - W[3 * i + 2]!;
  const vx = W[3 * k]! - W[3 * i]!, vy = W[3 * k + 1]! - W[3 * i + 1]!, vz = W[3 * k + 2]! - W[3 * i + 2]!;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  // a face without area has no normal: it is never the nearest and never seen
  if (!(l > 0)) { ws.fn[o] = 0; ws.fn[o + 1] = 0; ws.fn[o + 2] = 0; ws.fd[f] = Infinity; return; }
  ws.fn[o] = nx / l; ws.fn[o + 1] = ny / l; ws.fn[o + 2] = nz / l;
  ws.fd[f] = (nx * W[3 * i]! + ny * W[3 * i + 1]! + nz * W[3 * i + 2]!) / l;
}

/** the live face nearest to the origin (lowest slot among equals) */
function nearestFace(ws: EpaWorkspace): number {
  let best = -1, d = Infinity;
  for (let f = 0; f < ws.nf; f++) if (ws.alive[f] === 1 && ws.fd[f]! < d) { d = ws.fd[f]!; best = f; }
  if (best < 0) for (let f = 0; f < ws.nf; f++) if (ws.alive[f] === 1) return f;
  return best;
}

/**
 * removes face f and the faces around it that see vertex p, and joins the horizon to p; false,
 * leaving the polytope as it was, when the horizon is not one loop (rounding) or there is no room
 */
function expand(ws: EpaWorkspace, f: number, p: number): boolean {
  ws.nh = 0; ws.nrem = 0;
  kill(ws, f);
  for (let e = 0; e < 3; e++) silhouette(ws, ws.adj[3 * f + e]!, ws.adjEdge[3 * f + e]!, p);
  const room = ws.nrem + ws.nfree + MAX_FACES - ws.nf;
  if (!horizonIsLoop(ws) || room < ws.nh || !newFacesRecede(ws, ws.fd[f]!, p)) {
    for (let r = 0; r < ws.nrem; r++) ws.alive[ws.removed[r]!] = 1;
    return false;
  }
  for (let r = 0; r < ws.nrem; r++) ws.free[ws.nfree++] = ws.removed[r]!;
  // one face (b, a, p) on each horizon edge a → b of a kept face g, sharing that edge with g
  const nh = ws.nh;
  for (let h = 0; h < nh; h++) {
    const g = ws.hFace[h]!, e = ws.hEdge[h]!, s = ws.nfree > 0 ? ws.free[--ws.nfree]! : ws.nf++;
    setFace(ws, s, ws.fv[3 * g + (e + 1) % 3]!, ws.fv[3 * g + e]!, p);
    ws.adj[3 * s] = g; ws.adjEdge[3 * s] = e; ws.adj[3 * g + e] = s; ws.adjEdge[3 * g + e] = 0;
    ws.hSlot[h] = s;
  }
  // consecutive new faces share their edges through p
  for (let h = 0; h < nh; h++) {
    const s = ws.hSlot[h]!, t = ws.hSlot[(h + 1) % nh]!;
    ws.adj[3 * s + 1] = t; ws.adjEdge[3 * s + 1] = 2; ws.adj[3 * t + 2] = s; ws.adjEdge[3 * t + 2] = 1;
  }
  return true;
}

/**
 * true when every new face (b, a, p) on the horizon is at least as far from the origin as the face
 * d0 it grows from, to rounding: the polytope only grows, so a nearer face is a fold made by rounding
 * (a sliver whose normal turned over), and the expansion is refused
 */
function newFacesRecede(ws: EpaWorkspace, d0: number, p: number): boolean {
  const W = ws.W, tol = RECEDE_TOL * ws.scale;
  const px = W[3 * p]!, py = W[3 * p + 1]!, pz = W[3 * p + 2]!;
  for (let h = 0; h < ws.nh; h++) {
    const g = ws.hFace[h]!, e = ws.hEdge[h]!, i = ws.fv[3 * g + (e + 1) % 3]!, j = ws.fv[3 * g + e]!;
    const ax = W[3 * i]!, ay = W[3 * i + 1]!, az = W[3 * i + 2]!;
    const ux = W[3 * j]! - ax, uy = W[3 * j + 1]! - ay, uz = W[3 * j + 2]! - az;
    const vx = px - ax, vy = py - ay, vz = pz - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0 && (nx * ax + ny * ay + nz * az) / l < d0 - tol) return false;
  }
  return true;
}

/** marks face f removed */
function kill(ws: EpaWorkspace, f: number): void {
  ws.alive[f] = 0;
  ws.removed[ws.nrem++] = f;
}

/**
 * the horizon walk (van den Bergen): face g, entered through its edge e from a removed face, is
 * removed when it sees p (and the walk goes on through its other edges, in order), else edge e is a
 * horizon edge; the horizon comes out as one counter-clockwise loop
 */
function silhouette(ws: EpaWorkspace, g: number, e: number, p: number): void {
  if (ws.alive[g] === 0) return;
  const W = ws.W, o = 3 * g, a = ws.fv[o]!;
  const s = ws.fn[o]! * (W[3 * p]! - W[3 * a]!) + ws.fn[o + 1]! * (W[3 * p + 1]! - W[3 * a + 1]!)
    + ws.fn[o + 2]! * (W[3 * p + 2]! - W[3 * a + 2]!);
  if (s > SEE_TOL * ws.scale) {
    kill(ws, g);
    const e1 = (e + 1) % 3, e2 = (e + 2) % 3;
    silhouette(ws, ws.adj[o + e1]!, ws.adjEdge[o + e1]!, p);
    silhouette(ws, ws.adj[o + e2]!, ws.adjEdge[o + e2]!, p);
    return;
  }
  if (ws.nh < MAX_HORIZON) { ws.hFace[ws.nh] = g; ws.hEdge[ws.nh] = e; }
  ws.nh++;
}

/** true when the horizon edges chain into one loop: each ends where the next begins */
function horizonIsLoop(ws: EpaWorkspace): boolean {
  const n = ws.nh;
  if (n < 3 || n > MAX_HORIZON) return false;
  for (let h = 0; h < n; h++) {
    const g = ws.hFace[h]!, e = ws.hEdge[h]!, g2 = ws.hFace[(h + 1) % n]!, e2 = ws.hEdge[(h + 1) % n]!;
    if (ws.fv[3 * g + e] !== ws.fv[3 * g2 + (e2 + 1) % 3]) return false;
  }
  return true;
}

/**
 * the barycentric weights of the origin's projection d n on face f into ws.lam (twice the signed
 * areas of the sub-triangles along n, over twice the face's area); returns the corner of the most
 * negative weight, −1 when the projection is on the face
 */
function faceWeights(ws: EpaWorkspace, f: number): number {
  const W = ws.W, o = 3 * f, i = ws.fv[o]!, j = ws.fv[o + 1]!, k = ws.fv[o + 2]!, d = ws.fd[f]!;
  const nx = ws.fn[o]!, ny = ws.fn[o + 1]!, nz = ws.fn[o + 2]!;
  const ax = W[3 * i]!, ay = W[3 * i + 1]!, az = W[3 * i + 2]!;
  const ux = W[3 * j]! - ax, uy = W[3 * j + 1]! - ay, uz = W[3 * j + 2]! - az;
  const vx = W[3 * k]! - ax, vy = W[3 * k + 1]! - ay, vz = W[3 * k + 2]! - az;
  const px = d * nx - ax, py = d * ny - ay, pz = d * nz - az;
  const area = nx * (uy * vz - uz * vy) + ny * (uz * vx - ux * vz) + nz * (ux * vy - uy * vx);
  const lj = (nx * (py * vz - pz * vy) + ny * (pz * vx - px * vz) + nz * (px * vy - py * vx)) / area;
  const lk = (nx * (uy * pz - uz * py) + ny * (uz * px - ux * pz) + nz * (ux * py - uy * px)) / area;
  const l = ws.lam;
  l[0] = 1 - lj - lk; l[1] = lj; l[2] = lk;
  const c = l[0]! <= l[1]! ? (l[0]! <= l[2]! ? 0 : 2) : l[1]! <= l[2]! ? 1 : 2;
  return l[c]! < 0 ? c : -1;
}

/**
 * depth, normal and witnesses from face f. A projection outside f (where D's face is split into
 * coplanar triangles, the nearest need not hold it) moves to the neighbour across the edge
 * opposite the negative weight while that neighbour is coplanar (its distance within tolerance);
 * what remains outside (rounding) is pulled back onto the face.
 */
function faceResult(ws: EpaWorkspace, f: number): void {
  const tol = EPA_TOL * ws.scale;
  let c = faceWeights(ws, f);
  for (let step = 0; step < 8 && c >= 0; step++) {
    const g = ws.adj[3 * f + (c + 1) % 3]!;
    if (ws.alive[g] === 0 || !(Math.abs(ws.fd[g]! - ws.fd[f]!) <= tol)) break;
    f = g; c = faceWeights(ws, f);
  }
  const o = 3 * f, l = ws.lam;
  let li = l[0]! > 0 ? l[0]! : 0, lj = l[1]! > 0 ? l[1]! : 0, lk = l[2]! > 0 ? l[2]! : 0;
  const s = li + lj + lk;
  if (s > 0) { li /= s; lj /= s; lk /= s; } else { li = 1; lj = 0; lk = 0; }
  witnesses(ws, ws.fv[o]!, ws.fv[o + 1]!, ws.fv[o + 2]!, li, lj, lk);
  ws.normal[0] = ws.fn[o]!; ws.normal[1] = ws.fn[o + 1]!; ws.normal[2] = ws.fn[o + 2]!;
  ws.depth = ws.fd[f]!; ws.status = EPA_SOLID;
}
