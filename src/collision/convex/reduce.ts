/**
 * The reduction of a contact manifold to at most four points (docs/theory.md §17): the deepest
 * point, then the points that span the largest area of the contact polygon in the plane normal to
 * the contact, so the contact's support and its torque about the normal survive. An exhaustive
 * search up to EXACT_REDUCE points, a greedy one beyond; deterministic (the first of equal choices).
 */
import { orthonormalBasis } from '../../math/basis.js';
import type { Manifold } from '../manifold.js';

/** the exact area search of reduceManifold up to this many points (a greedy one beyond) */
const EXACT_REDUCE = 16;
/**
 * reduceManifold's scratch (one per manifold; no value carries from one call to the next): 2D
 * coordinates, the picks, sorted, and the normal with its tangents
 */
class ReduceScratch {
  x = new Float64Array(EXACT_REDUCE);
  y = new Float64Array(EXACT_REDUCE);
  readonly pick = new Int32Array(4);
  readonly sorted = new Int32Array(4);
  readonly n = new Float64Array(3);
  readonly t1 = new Float64Array(3);
  readonly t2 = new Float64Array(3);
}

/** the manifold's reduction scratch, made on its first use */
function reduceScratchOf(m: Manifold): ReduceScratch {
  const w = m.reduceScratch;
  if (w instanceof ReduceScratch) return w;
  const made = new ReduceScratch();
  m.reduceScratch = made;
  return made;
}

/** twice the area of the convex hull of the scratch points a, b, c, d (2D) */
function hullArea4(R: ReduceScratch, a: number, b: number, c: number, d: number): number {
  const X = R.x, Y = R.y;
  const ax = X[a]!, ay = Y[a]!, bx = X[b]!, by = Y[b]!, cx = X[c]!, cy = Y[c]!, dx = X[d]!, dy = Y[d]!;
  // the three orderings' shoelace areas (the convex one is the largest) and the four triangles
  const q1 = Math.abs((cx - ax) * (dy - by) - (cy - ay) * (dx - bx));
  const q2 = Math.abs((dx - ax) * (cy - by) - (dy - ay) * (cx - bx));
  const q3 = Math.abs((bx - ax) * (dy - cy) - (by - ay) * (dx - cx));
  const t1 = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
  const t2 = Math.abs((bx - ax) * (dy - ay) - (by - ay) * (dx - ax));
  const t3 = Math.abs((cx - ax) * (dy - ay) - (cy - ay) * (dx - ax));
  const t4 = Math.abs((cx - bx) * (dy - by) - (cy - by) * (dx - bx));
  return Math.max(q1, q2, q3, t1, t2, t3, t4);
}

/** the points first + i of m into the scratch (x, y) in the plane normal to the normal of m[first] */
function projectPoints(R: ReduceScratch, m: Manifold, first: number, n: number): void {
  if (R.x.length < n) { R.x = new Float64Array(2 * n); R.y = new Float64Array(2 * n); }
  const X = R.x, Y = R.y, N = m.normal, U = R.n, T1 = R.t1, T2 = R.t2;
  // a tangent basis of the normal
  U[0] = N[3 * first]!; U[1] = N[3 * first + 1]!; U[2] = N[3 * first + 2]!;
  orthonormalBasis(T1, T2, U);
  const t1x = T1[0]!, t1y = T1[1]!, t1z = T1[2]!, t2x = T2[0]!, t2y = T2[1]!, t2z = T2[2]!;
  for (let i = 0; i < n; i++) {
    const p = 3 * (first + i), x = m.point[p]!, y = m.point[p + 1]!, z = m.point[p + 2]!;
    X[i] = t1x * x + t1y * y + t1z * z; Y[i] = t2x * x + t2y * y + t2z * z;
  }
}

/**
 * reduces the points m[first .. m.count) to at most max (≤ 4): the deepest point (the first of
 * equals), then the others that give the largest area of the contact polygon (the area of the
 * points' convex hull in the plane normal to the first point's normal; an exhaustive search over
 * subsets up to EXACT_REDUCE points, a greedy one beyond), kept in their order, in place;
 * deterministic (the first of equal choices)
 */
export function reduceManifold(m: Manifold, first: number, max = 4): void {
  const n = m.count - first, k = Math.max(1, Math.min(max, 4));
  if (n <= k) return;
  // the deepest point
  let deep = 0;
  for (let i = 1; i < n; i++) if (m.gap[first + i]! < m.gap[first + deep]!) deep = i;
  const R = reduceScratchOf(m), B = R.pick;
  B[0] = B[1] = B[2] = B[3] = deep;
  if (k > 1) {
    projectPoints(R, m, first, n);
    // the farthest point from the deepest
    let far = -1;
    for (let i = 0; i < n; i++) {
      if (i === deep) continue;
      const d = (R.x[i]! - R.x[deep]!) ** 2 + (R.y[i]! - R.y[deep]!) ** 2;
      if (d > far) { far = d; B[1] = B[2] = B[3] = i; }
    }
    if (k > 2 && n <= EXACT_REDUCE) exactPick(R, n, deep, k);
    else if (k > 2) greedyPick(R, n, deep, k);
  }
  compact(R, m, first, k);
}

/** the three (k = 4) or two (k = 3) points that with deep span the largest hull, into R.pick */
function exactPick(R: ReduceScratch, n: number, deep: number, k: number): void {
  const B = R.pick;
  let best = -1;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const lo = k > 3 ? j + 1 : j, hi = k > 3 ? n : j + 1;
      for (let l = lo; l < hi; l++) {
        if (i === deep || j === deep || l === deep) continue;
        const a = hullArea4(R, deep, i, j, l);
        if (a > best) { best = a; B[1] = i; B[2] = j; B[3] = l; }
      }
    }
  }
}

/** greedy choice among many points: after the farthest, the largest triangle, the largest quadrilateral */
function greedyPick(R: ReduceScratch, n: number, deep: number, k: number): void {
  const B = R.pick;
  let best = -1;
  for (let i = 0; i < n; i++) {
    if (i === deep || i === B[1]) continue;
    const a = hullArea4(R, deep, B[1]!, i, i);
    if (a > best) { best = a; B[2] = B[3] = i; }
  }
  if (k < 4) return;
  best = -1;
  for (let i = 0; i < n; i++) {
    if (i === deep || i === B[1] || i === B[2]) continue;
    const a = hullArea4(R, deep, B[1]!, B[2]!, i);
    if (a > best) { best = a; B[3] = i; }
  }
}

/** keeps the distinct points R.pick[0 .. k) of m (relative to first), in their index order */
function compact(R: ReduceScratch, m: Manifold, first: number, k: number): void {
  const B = R.pick, S = R.sorted;
  // sort the distinct picks (at most four: insertion)
  let c = 0;
  for (let i = 0; i < k; i++) {
    const v = B[i]!;
    let dup = false;
    for (let j = 0; j < c; j++) if (S[j] === v) dup = true;
    if (dup) continue;
    let j = c++;
    while (j > 0 && S[j - 1]! > v) { S[j] = S[j - 1]!; j--; }
    S[j] = v;
  }
  // move them down (sources never lie below their destinations)
  for (let i = 0; i < c; i++) {
    const s = first + S[i]!, d = first + i;
    if (s === d) continue;
    m.featureA[d] = m.featureA[s]!; m.featureB[d] = m.featureB[s]!; m.gap[d] = m.gap[s]!;
    for (let j = 0; j < 3; j++) { m.point[3 * d + j] = m.point[3 * s + j]!; m.normal[3 * d + j] = m.normal[3 * s + j]!; }
  }
  m.count = first + c;
}
