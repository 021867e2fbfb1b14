/**
 * The contact manifold of two convex shapes along a known normal (docs/theory.md §17): the
 * supporting features of both shapes (./features.ts), the incident one clipped against the
 * reference face, and the result reduced to at most four points that keep the deepest point and
 * the largest area (./reduce.ts, as Bullet and Box2D do).
 *
 * Clipping. The reference face (the face of the two supporting features whose outward normal is
 * closest to the contact direction) gives a frame (u, v, w): w its outward normal, u along its
 * first edge, v = w × u, so its vertices are counter-clockwise in (x, y). The incident feature (a
 * face or an edge) is written in that frame and clipped by the reference polygon's side lines
 * (Sutherland-Hodgman, an edge by its parameter interval). A clipped point q at height z above the
 * reference plane is a gap g = z / (d·w) from it along the contact direction d (from the reference
 * shape to the incident one); the contact point is midway, q − (g/2) d, and it is kept while
 * g < margin.
 *
 * Ids by proximity. Each point is named by the features of each shape it lies on or near: on the
 * reference side a vertex (within TOL in x and y), else a side (within TOL of its line), else the
 * face; on the incident side likewise (in the projection on the reference plane), with the
 * incident edge's own id as its "face". TOL is CLUSTER times the shortest edge of the two features.
 * So a corner of a box resting flush on an equal box is (vertex, vertex) whether the clipping makes
 * it from the upper box's vertex, from the lower's, or from two crossing edges: a small motion
 * never renames it. Points of one name lie within TOL of each other; the outermost (farthest from
 * the polygon's centroid) stands for them: it is the polygon's corner, where the others are points
 * that rounding makes along a side lying on a side line (their depths differ by at most TOL times
 * the tilt); it takes the deepest gap of its name, so the pair's deepest gap is reported exactly
 * (a tilted box over the triangles of a floor). Points within TOL of the chord of their neighbours
 * and farther than 2 TOL from both are dropped: they add almost no area.
 */
import type { Manifold } from '../manifold.js';
import type { Convex } from './convex.js';
import { FeaturePolygon, supportFeature } from './features.js';
import { reduceManifold } from './reduce.js';

/** the proximity of the id clusters, as a fraction of the shortest feature edge */
const CLUSTER = 0.02;
/** the clipped points' deepest gap may lie this far (m) above the signed distance */
const DEEPEST_TOL = 1e-9;
/** below this cosine between the contact direction and the reference normal, no clipping */
const MIN_COS = 0.5;
/** the manifold's clipping workspace, made on its first use */
export function clipWorkspaceOf(m: Manifold): ClipWorkspace {
  const w = m.clipScratch;
  if (w instanceof ClipWorkspace) return w;
  const made = new ClipWorkspace();
  m.clipScratch = made;
  return made;
}

/** the preallocated polygons of the manifold builder; one per collider */
export class ClipWorkspace {
  /** the supporting features of shapes A and B */
  readonly fa = new FeaturePolygon();
  readonly fb = new FeaturePolygon();
  /** the frame of the reference face: origin, in-plane axes, outward normal */
  readonly o = new Float64Array(3);
  readonly u = new Float64Array(3);
  readonly v = new Float64Array(3);
  readonly w = new Float64Array(3);
  /** reference polygon in (x, y) and its side lines n·p ≤ c (unit outward n) */
  rx = new Float64Array(16); ry = new Float64Array(16);
  sx = new Float64Array(16); sy = new Float64Array(16); sc = new Float64Array(16);
  /** incident feature in the frame (x, y, z) */
  ix = new Float64Array(16); iy = new Float64Array(16);
  /** the two clipping buffers (x, y, z) */
  ax = new Float64Array(32); ay = new Float64Array(32); az = new Float64Array(32);
  bx = new Float64Array(32); by = new Float64Array(32); bz = new Float64Array(32);
  /** the kept points' ids (reference, incident), and the points dropped as collinear */
  idr = new Int32Array(32); idi = new Int32Array(32); drop = new Uint8Array(32);
  /** the shortest edges of the reference and incident features (written, not returned: a returned
   * double would be boxed on the heap) */
  readonly shortest = new Float64Array(2);
  /** closest-segment parameters and the closest pair of closestEdges */
  readonly st = new Float64Array(2);
  readonly pq = new Float64Array(6);

  /** room for a reference polygon of r and an incident one of i vertices */
  reserve(r: number, i: number): void {
    if (r > this.rx.length) {
      this.rx = new Float64Array(r); this.ry = new Float64Array(r);
      this.sx = new Float64Array(r); this.sy = new Float64Array(r); this.sc = new Float64Array(r);
    }
    if (i > this.ix.length) { this.ix = new Float64Array(i); this.iy = new Float64Array(i); }
    const n = r + i + 2;
    if (n > this.ax.length) {
      this.ax = new Float64Array(n); this.ay = new Float64Array(n); this.az = new Float64Array(n);
      this.bx = new Float64Array(n); this.by = new Float64Array(n); this.bz = new Float64Array(n);
      this.idr = new Int32Array(n); this.idi = new Int32Array(n); this.drop = new Uint8Array(n);
    }
  }
}

/** the reference frame and polygon of face ref into ws; its shortest edge into ws.shortest[0] */
function setReference(ws: ClipWorkspace, ref: FeaturePolygon): void {
  const P = ref.xyz, n = ref.count, o = ws.o, u = ws.u, v = ws.v, w = ws.w;
  o[0] = P[0]!; o[1] = P[1]!; o[2] = P[2]!;
  w[0] = ref.normal[0]!; w[1] = ref.normal[1]!; w[2] = ref.normal[2]!;
  // u along the first edge, made normal to w; v = w × u
  let ux = P[3]! - o[0], uy = P[4]! - o[1], uz = P[5]! - o[2];
  const uw = ux * w[0] + uy * w[1] + uz * w[2];
  ux -= uw * w[0]; uy -= uw * w[1]; uz -= uw * w[2];
  const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
  u[0] = ux / ul; u[1] = uy / ul; u[2] = uz / ul;
  v[0] = w[1] * u[2] - w[2] * u[1]; v[1] = w[2] * u[0] - w[0] * u[2]; v[2] = w[0] * u[1] - w[1] * u[0];
  // vertices in (x, y)
  for (let k = 0; k < n; k++) {
    const dx = P[3 * k]! - o[0], dy = P[3 * k + 1]! - o[1], dz = P[3 * k + 2]! - o[2];
    ws.rx[k] = dx * u[0] + dy * u[1] + dz * u[2]; ws.ry[k] = dx * v[0] + dy * v[1] + dz * v[2];
  }
  // side lines: outward normal (e_y, −e_x) of each counter-clockwise edge e
  let shortest = Infinity;
  for (let k = 0; k < n; k++) {
    const k1 = k + 1 === n ? 0 : k + 1, ex = ws.rx[k1]! - ws.rx[k]!, ey = ws.ry[k1]! - ws.ry[k]!;
    const l = Math.sqrt(ex * ex + ey * ey);
    // (an edge of no length clips nothing)
    if (!(l > 0)) { ws.sx[k] = 0; ws.sy[k] = 0; ws.sc[k] = 1; continue; }
    if (l < shortest) shortest = l;
    ws.sx[k] = ey / l; ws.sy[k] = -ex / l; ws.sc[k] = (ey * ws.rx[k]! - ex * ws.ry[k]!) / l;
  }
  ws.shortest[0] = shortest;
}

/** the incident feature into the frame: (x, y) into ix, iy and the clip buffer a; its shortest edge into ws.shortest[1] */
function setIncident(ws: ClipWorkspace, inc: FeaturePolygon): void {
  const P = inc.xyz, n = inc.count, o = ws.o, u = ws.u, v = ws.v, w = ws.w;
  for (let k = 0; k < n; k++) {
    const dx = P[3 * k]! - o[0]!, dy = P[3 * k + 1]! - o[1]!, dz = P[3 * k + 2]! - o[2]!;
    ws.ax[k] = ws.ix[k] = dx * u[0]! + dy * u[1]! + dz * u[2]!;
    ws.ay[k] = ws.iy[k] = dx * v[0]! + dy * v[1]! + dz * v[2]!;
    ws.az[k] = dx * w[0]! + dy * w[1]! + dz * w[2]!;
  }
  let shortest = Infinity;
  const edges = n === 2 ? 1 : n;
  for (let k = 0; k < edges; k++) {
    const k1 = k + 1 === n ? 0 : k + 1;
    const ex = P[3 * k1]! - P[3 * k]!, ey = P[3 * k1 + 1]! - P[3 * k + 1]!, ez = P[3 * k1 + 2]! - P[3 * k + 2]!;
    const l2 = ex * ex + ey * ey + ez * ez;
    if (l2 < shortest) shortest = l2;
  }
  ws.shortest[1] = Math.sqrt(shortest);
}

/** clips the polygon in buffer a (count n) by side line k into buffer b; the new count (then swapped into a) */
function clipSide(ws: ClipWorkspace, n: number, k: number): number {
  const sx = ws.sx[k]!, sy = ws.sy[k]!, sc = ws.sc[k]!;
  const ax = ws.ax, ay = ws.ay, az = ws.az, bx = ws.bx, by = ws.by, bz = ws.bz;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const fi = sx * ax[i]! + sy * ay[i]! - sc, fj = sx * ax[j]! + sy * ay[j]! - sc;
    if (fi <= 0) { bx[m] = ax[i]!; by[m] = ay[i]!; bz[m] = az[i]!; m++; }
    if ((fi <= 0) !== (fj <= 0)) {
      const t = fi / (fi - fj);
      bx[m] = ax[i]! + t * (ax[j]! - ax[i]!); by[m] = ay[i]! + t * (ay[j]! - ay[i]!);
      bz[m] = az[i]! + t * (az[j]! - az[i]!); m++;
    }
  }
  // swap the buffers
  ws.ax = bx; ws.ay = by; ws.az = bz; ws.bx = ax; ws.by = ay; ws.bz = az;
  return m;
}

/** clips the segment in buffer a by every side line (its parameter interval); the count 0 or 2 */
function clipSegment(ws: ClipWorkspace, sides: number): number {
  const ax = ws.ax, ay = ws.ay, az = ws.az;
  let t0 = 0, t1 = 1;
  for (let k = 0; k < sides; k++) {
    const f0 = ws.sx[k]! * ax[0]! + ws.sy[k]! * ay[0]! - ws.sc[k]!;
    const f1 = ws.sx[k]! * ax[1]! + ws.sy[k]! * ay[1]! - ws.sc[k]!;
    if (f0 > 0 && f1 > 0) return 0;
    if (f0 > 0) t0 = Math.max(t0, f0 / (f0 - f1));
    else if (f1 > 0) t1 = Math.min(t1, f0 / (f0 - f1));
  }
  if (t0 > t1) return 0;
  const x0 = ax[0]!, y0 = ay[0]!, z0 = az[0]!, dx = ax[1]! - x0, dy = ay[1]! - y0, dz = az[1]! - z0;
  ax[0] = x0 + t0 * dx; ay[0] = y0 + t0 * dy; az[0] = z0 + t0 * dz;
  ax[1] = x0 + t1 * dx; ay[1] = y0 + t1 * dy; az[1] = z0 + t1 * dz;
  return 2;
}

/** the reference feature id of the point (x, y): a vertex within tol, else a side within tol, else the face */
function referenceId(ws: ClipWorkspace, ref: FeaturePolygon, x: number, y: number, tol: number): number {
  const n = ref.count;
  for (let k = 0; k < n; k++) {
    if (Math.abs(x - ws.rx[k]!) <= tol && Math.abs(y - ws.ry[k]!) <= tol) return ref.vertexId[k]!;
  }
  for (let k = 0; k < n; k++) if (ws.sc[k]! - ws.sx[k]! * x - ws.sy[k]! * y <= tol) return ref.edgeId[k]!;
  return ref.id;
}

/** the incident feature id of (x, y) in the projection: vertex, else edge within tol, else the feature */
function incidentId(ws: ClipWorkspace, inc: FeaturePolygon, x: number, y: number, tol: number): number {
  const n = inc.count, ix = ws.ix, iy = ws.iy;
  for (let k = 0; k < n; k++) if (Math.abs(x - ix[k]!) <= tol && Math.abs(y - iy[k]!) <= tol) return inc.vertexId[k]!;
  if (n === 2) return inc.edgeId[0]!;
  for (let k = 0; k < n; k++) {
    const k1 = k + 1 === n ? 0 : k + 1, ex = ix[k1]! - ix[k]!, ey = iy[k1]! - iy[k]!;
    const l2 = ex * ex + ey * ey;
    if (l2 <= tol * tol) continue;
    // within tol of the edge's line, and between its ends
    const px = x - ix[k]!, py = y - iy[k]!, along = px * ex + py * ey, cr = px * ey - py * ex;
    if (cr * cr <= tol * tol * l2 && along >= 0 && along <= l2) return inc.edgeId[k]!;
  }
  return inc.id;
}

/**
 * marks in ws.drop the clipped points (of n ≥ 4) within tol of the chord of their neighbours and
 * more than 2 tol from both: they add almost no area (the crossings midway along the sides of two
 * equal faces turned a little), and dropping them keeps the corners among the reduced points
 */
function markCollinear(ws: ClipWorkspace, n: number, tol: number): void {
  const x = ws.ax, y = ws.ay, d = ws.drop, far = 4 * tol * tol;
  for (let i = 0; i < n; i++) {
    d[i] = 0;
    if (n < 4) continue;
    const p = i === 0 ? n - 1 : i - 1, q = i + 1 === n ? 0 : i + 1;
    const ex = x[q]! - x[p]!, ey = y[q]! - y[p]!, px = x[i]! - x[p]!, py = y[i]! - y[p]!;
    const qx = x[i]! - x[q]!, qy = y[i]! - y[q]!, cr = px * ey - py * ex;
    if (px * px + py * py > far && qx * qx + qy * qy > far && cr * cr <= tol * tol * (ex * ex + ey * ey)) d[i] = 1;
  }
}

/**
 * the closest points of segments p + s d and q + u e (s, u ∈ [0, 1]) (Ericson, Real-Time Collision
 * Detection §5.1.9): s and u into out[o], out[o + 1]
 */
export function closestSegments(out: Float64Array, o: number, px: number, py: number, pz: number,
  dx: number, dy: number, dz: number, qx: number, qy: number, qz: number, ex: number, ey: number, ez: number): void {
  const rx = px - qx, ry = py - qy, rz = pz - qz;
  const aa = dx * dx + dy * dy + dz * dz, ee = ex * ex + ey * ey + ez * ez, f = ex * rx + ey * ry + ez * rz;
  let s = 0, u = 0;
  if (aa <= 1e-300 && ee <= 1e-300) { out[o] = 0; out[o + 1] = 0; return; }
  if (aa <= 1e-300) u = clamp01(f / ee);
  else {
    const c = dx * rx + dy * ry + dz * rz;
    if (ee <= 1e-300) s = clamp01(-c / aa);
    else {
      // the lines' closest pair, s clamped, u from s, then s again from a clamped u
      const bb = dx * ex + dy * ey + dz * ez, den = aa * ee - bb * bb;
      s = den > 1e-14 * aa * ee ? clamp01((bb * f - c * ee) / den) : 0;
      u = (bb * s + f) / ee;
      if (u < 0) { u = 0; s = clamp01(-c / aa); } else if (u > 1) { u = 1; s = clamp01((bb - c) / aa); }
    }
  }
  out[o] = s; out[o + 1] = u;
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/**
 * one point at the closest pair of the edges of features ref (a face) and inc (an edge or a face),
 * for features apart whose projections do not overlap; added when its gap is below the margin;
 * returns the number of points added
 */
export function closestEdges(ws: ClipWorkspace, ref: FeaturePolygon, inc: FeaturePolygon, refIsA: boolean,
  margin: number, m: Manifold): number {
  const P = ref.xyz, Q = inc.xyz, nr = ref.count, ni = inc.count === 2 ? 1 : inc.count, st = ws.st, pq = ws.pq;
  let best = Infinity, fr = 0, fi = 0;
  for (let i = 0; i < nr; i++) {
    const i1 = i + 1 === nr ? 0 : i + 1;
    for (let j = 0; j < ni; j++) {
      const j1 = j + 1 === inc.count ? 0 : j + 1;
      closestSegments(st, 0, P[3 * i]!, P[3 * i + 1]!, P[3 * i + 2]!, P[3 * i1]! - P[3 * i]!, P[3 * i1 + 1]! - P[3 * i + 1]!,
        P[3 * i1 + 2]! - P[3 * i + 2]!, Q[3 * j]!, Q[3 * j + 1]!, Q[3 * j + 2]!, Q[3 * j1]! - Q[3 * j]!,
        Q[3 * j1 + 1]! - Q[3 * j + 1]!, Q[3 * j1 + 2]! - Q[3 * j + 2]!);
      const s = st[0]!, u = st[1]!;
      let d2 = 0;
      for (let k = 0; k < 3; k++) {
        const a = P[3 * i + k]! + s * (P[3 * i1 + k]! - P[3 * i + k]!), b = Q[3 * j + k]! + u * (Q[3 * j1 + k]! - Q[3 * j + k]!);
        ws.ax[k] = a; ws.ax[3 + k] = b; d2 += (b - a) * (b - a);
      }
      if (!(d2 < best)) continue;
      best = d2; for (let k = 0; k < 6; k++) pq[k] = ws.ax[k]!;
      fr = s <= 0 ? ref.vertexId[i]! : s >= 1 ? ref.vertexId[i1]! : ref.edgeId[i]!;
      fi = u <= 0 ? inc.vertexId[j]! : u >= 1 ? inc.vertexId[j1]! : inc.edgeId[j]!;
    }
  }
  const d = Math.sqrt(best);
  if (!(d > 0) || !(d < margin)) return 0;
  // the normal from A to B
  const sg = refIsA ? 1 / d : -1 / d, nx = sg * (pq[3]! - pq[0]!), ny = sg * (pq[4]! - pq[1]!), nz = sg * (pq[5]! - pq[2]!);
  m.add(refIsA ? fr : fi, refIsA ? fi : fr, 0.5 * (pq[0]! + pq[3]!), 0.5 * (pq[1]! + pq[4]!), 0.5 * (pq[2]! + pq[5]!),
    nx, ny, nz, d);
  return 1;
}

/**
 * the contacts of the reference face ref and the incident feature inc (an edge or a face) along
 * the unit normal n from A to B (refIsA: the reference face is A's), appended to m while their
 * gap is below the margin, then reduced to ≤ 4 points; returns the number of points added
 */
export function clipFeatures(ws: ClipWorkspace, ref: FeaturePolygon, inc: FeaturePolygon, refIsA: boolean,
  nx: number, ny: number, nz: number, margin: number, m: Manifold): number {
  const s = refIsA ? 1 : -1, dx = s * nx, dy = s * ny, dz = s * nz, w = ref.normal;
  const dw = dx * w[0]! + dy * w[1]! + dz * w[2]!;
  if (!(dw >= MIN_COS)) return 0;
  ws.reserve(ref.count, inc.count);
  setReference(ws, ref);
  setIncident(ws, inc);
  const tol = CLUSTER * Math.min(ws.shortest[0]!, ws.shortest[1]!);
  // clip
  let n = inc.count;
  if (n === 2) n = clipSegment(ws, ref.count);
  else for (let k = 0; k < ref.count && n > 0; k++) n = clipSide(ws, n, k);
  markCollinear(ws, n, tol);
  // the centroid of the clipped polygon
  const ax = ws.ax, ay = ws.ay, az = ws.az;
  let cx = 0, cy = 0;
  for (let i = 0; i < n; i++) { cx += ax[i]!; cy += ay[i]!; }
  cx /= n; cy /= n;
  // name the points within the margin; of one name keep the outermost place (a corner of the
  // polygon, not a point the clipping made along a side it runs on), the first of equals, with the
  // deepest height of the name, so the pair's deepest gap is never lost to the merge
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const g = az[i]! / dw;
    if (!(g < margin) || ws.drop[i] === 1) continue;
    const r = referenceId(ws, ref, ax[i]!, ay[i]!, tol), c = incidentId(ws, inc, ax[i]!, ay[i]!, tol);
    let j = 0;
    while (j < kept && (ws.idr[j] !== r || ws.idi[j] !== c)) j++;
    const z = j < kept ? Math.min(az[j]!, az[i]!) : az[i]!;
    if (j < kept && (ax[j]! - cx) ** 2 + (ay[j]! - cy) ** 2 >= (ax[i]! - cx) ** 2 + (ay[i]! - cy) ** 2) {
      az[j] = z;
      continue;
    }
    ax[j] = ax[i]!; ay[j] = ay[i]!; az[j] = z; ws.idr[j] = r; ws.idi[j] = c;
    if (j === kept) kept++;
  }
  // the points midway between the surfaces, into m
  const first = m.count, o = ws.o, u = ws.u, v = ws.v;
  for (let i = 0; i < kept; i++) {
    // q − (g/2) d for the incident point q = o + x u + y v + z w
    const x = ax[i]!, y = ay[i]!, z = az[i]!, g = z / dw;
    const px = o[0]! + x * u[0]! + y * v[0]! + z * w[0]! - 0.5 * g * dx;
    const py = o[1]! + x * u[1]! + y * v[1]! + z * w[1]! - 0.5 * g * dy;
    const pz = o[2]! + x * u[2]! + y * v[2]! + z * w[2]! - 0.5 * g * dz;
    const fr = ws.idr[i]!, fi = ws.idi[i]!;
    m.add(refIsA ? fr : fi, refIsA ? fi : fr, px, py, pz, nx, ny, nz, g);
  }
  reduceManifold(m, first, 4);
  return m.count - first;
}

/**
 * the manifold of convex shapes A and B along the unit normal n from A to B, given their witness
 * points pA, pB (on the surfaces, closest or deepest) and the signed distance gap: the clipped
 * features when one supporting feature is a face and the other a face or an edge, else the witness
 * pair; points appended to m while their gap is below the margin. The witness pair also joins the
 * clipped points when their deepest is shallower than the signed distance (keepDeepest).
 */
export function clipManifold(ws: ClipWorkspace, A: Convex, B: Convex, nx: number, ny: number, nz: number,
  pA: Float64Array, pB: Float64Array, gap: number, margin: number, m: Manifold): void {
  const fa = ws.fa, fb = ws.fb;
  supportFeature(fa, A, nx, ny, nz);
  supportFeature(fb, B, -nx, -ny, -nz);
  // the reference face: the face closest to normal to n, A's among equals
  const ca = fa.count >= 3 && fb.count >= 2 ? fa.normal[0]! * nx + fa.normal[1]! * ny + fa.normal[2]! * nz : -2;
  const cb = fb.count >= 3 && fa.count >= 2 ? -(fb.normal[0]! * nx + fb.normal[1]! * ny + fb.normal[2]! * nz) : -2;
  if (ca > -2 || cb > -2) {
    const refIsA = ca >= cb, first = m.count;
    if (clipFeatures(ws, refIsA ? fa : fb, refIsA ? fb : fa, refIsA, nx, ny, nz, margin, m) > 0) {
      keepDeepest(ws, m, first, nx, ny, nz, pA, pB, gap);
      return;
    }
  }
  // the witness pair, midway
  if (!(gap < margin)) return;
  m.add(fa.id, fb.id, 0.5 * (pA[0]! + pB[0]!), 0.5 * (pA[1]! + pB[1]!), 0.5 * (pA[2]! + pB[2]!), nx, ny, nz, gap);
}

/**
 * the deepest point of the pair is at the signed distance gap: a feature polygon that stands for a
 * curve (a cylinder's cap) can miss it by r (1 − cos(π/N)) sin(tilt); then the witness pair, midway,
 * joins the points m[first ..) (in place of a point of its ids, else added and the set reduced to
 * four keeping the deepest)
 */
function keepDeepest(ws: ClipWorkspace, m: Manifold, first: number, nx: number, ny: number, nz: number,
  pA: Float64Array, pB: Float64Array, gap: number): void {
  let deep = Infinity;
  for (let i = first; i < m.count; i++) if (m.gap[i]! < deep) deep = m.gap[i]!;
  if (!(deep > gap + DEEPEST_TOL)) return;
  const fa = ws.fa.id, fb = ws.fb.id;
  let k = first;
  while (k < m.count && !(m.featureA[k] === fa && m.featureB[k] === fb)) k++;
  const px = 0.5 * (pA[0]! + pB[0]!), py = 0.5 * (pA[1]! + pB[1]!), pz = 0.5 * (pA[2]! + pB[2]!);
  if (k === m.count) {
    m.add(fa, fb, px, py, pz, nx, ny, nz, gap);
    reduceManifold(m, first, 4);
    return;
  }
  m.point[3 * k] = px; m.point[3 * k + 1] = py; m.point[3 * k + 2] = pz; m.gap[k] = gap;
}
