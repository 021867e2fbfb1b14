/**
 * Sweep and prune on one axis, the broadphase that the dynamic AABB tree of
 * src/collision/broadphase.ts replaced, kept as bench/broadphase.ts's point of comparison (docs/theory.md
 * §17). Same contract as `Broadphase`: the pairs whose boxes overlap, whose bounding spheres come
 * within the margin and that the filters allow, plus the plane pairs, sorted by (A, B).
 *
 * The shapes are kept sorted by the low end of their boxes on the axis of largest spread of the box
 * centres (kept until another axis spreads AXIS_SWITCH times more): an insertion sort while the
 * order barely changes, a merge sort past a budget of moves. The sweep pairs each shape with those
 * whose low end lies below its high end and whose boxes overlap on the two other axes; the pairs
 * are then ordered by a counting sort on A and an insertion sort on B within each A.
 */
import type { ShapeTable } from '../src/collision/shapes.js';
import { PairList, planePairs, splitShapes } from '../src/collision/broadphase.js';

/** floats per sorted slot in `info`: high end on the axis, component, fixed, centre, bound */
const INFO = 8;
/** another axis must spread this many times more than the current one to take over */
const AXIS_SWITCH = 1.5;

/** sweep and prune on one axis (the file comment), the same contract as Broadphase */
export class SweepAndPrune {
  /** the pairs of the last update, sorted by (A, B) */
  pairCount = 0;
  pairA: Int32Array;
  pairB: Int32Array;
  /** the sweep axis (0, 1, 2), −1 before the first update */
  axis = -1;
  private readonly table: ShapeTable;
  /** colliding finite shapes and colliding planes, ascending shape index */
  private readonly swept: Int32Array;
  private readonly planes: Int32Array;
  /** swept shapes in sweep order and their low ends (then a NaN that ends every sweep), kept between updates */
  private readonly order: Int32Array;
  private readonly keys: Float64Array;
  private readonly tmpOrder: Int32Array;
  private readonly tmpKeys: Float64Array;
  /** per sorted slot: the box on the two other axes (lo, hi, lo, hi) and the INFO numbers */
  private readonly cross: Float64Array;
  private readonly info: Float64Array;
  /** pairs as found, before ordering */
  private readonly raw: PairList;
  private readonly bucket: Int32Array;

  constructor(table: ShapeTable) {
    this.table = table;
    const { finite, planes } = splitShapes(table), m = finite.length;
    this.swept = finite; this.planes = planes;
    this.order = Int32Array.from(finite); this.keys = new Float64Array(m + 1); this.keys[m] = NaN;
    this.tmpOrder = new Int32Array(m); this.tmpKeys = new Float64Array(m);
    this.cross = new Float64Array(4 * m); this.info = new Float64Array(INFO * m);
    const cap = 4 * (m + planes.length) + 16;
    this.raw = new PairList(cap);
    this.pairA = new Int32Array(cap); this.pairB = new Int32Array(cap);
    this.bucket = new Int32Array(table.count + 1);
  }

  /** the candidate pairs of the table's current AABBs, into pairA/pairB[0 .. pairCount) */
  update(): void {
    this.chooseAxis();
    this.sortSwept();
    this.fillSlots();
    this.raw.count = 0;
    this.sweep();
    planePairs(this.table, this.planes, this.swept, this.raw);
    this.orderPairs();
  }

  /** the axis of largest spread of the box centres, kept unless another spreads 1.5 times more */
  private chooseAxis(): void {
    const box = this.table.aabb, swept = this.swept, m = swept.length;
    let s0 = 0, s1 = 0, s2 = 0, q0 = 0, q1 = 0, q2 = 0;
    for (let k = 0; k < m; k++) {
      const o = 6 * swept[k]!;
      const c0 = box[o]! + box[o + 3]!, c1 = box[o + 1]! + box[o + 4]!, c2 = box[o + 2]! + box[o + 5]!;
      s0 += c0; s1 += c1; s2 += c2; q0 += c0 * c0; q1 += c1 * c1; q2 += c2 * c2;
    }
    const v0 = q0 - (s0 * s0) / m, v1 = q1 - (s1 * s1) / m, v2 = q2 - (s2 * s2) / m;
    const best = v2 > v1 && v2 > v0 ? 2 : v1 > v0 ? 1 : 0;
    const vb = best === 0 ? v0 : best === 1 ? v1 : v2, vc = this.axis === 0 ? v0 : this.axis === 1 ? v1 : v2;
    if (this.axis < 0 || vb > AXIS_SWITCH * vc) this.axis = best;
  }

  /** restores the order by low end: insertion sort while it is cheap, merge sort past the budget */
  private sortSwept(): void {
    const order = this.order, keys = this.keys, box = this.table.aabb, ax = this.axis, m = order.length;
    for (let k = 0; k < m; k++) keys[k] = box[6 * order[k]! + ax]!;
    const budget = 8 * m + 64;
    let moves = 0;
    for (let i = 1; i < m; i++) {
      const key = keys[i]!, o = order[i]!;
      let j = i - 1;
      while (j >= 0 && keys[j]! > key) { keys[j + 1] = keys[j]!; order[j + 1] = order[j]!; j--; }
      keys[j + 1] = key; order[j + 1] = o;
      moves += i - 1 - j;
      if (moves > budget) { this.mergeSort(); return; }
    }
  }

  /** stable bottom-up merge sort of (keys, order) by key */
  private mergeSort(): void {
    const m = this.order.length;
    let srcK = this.keys, srcO = this.order, dstK = this.tmpKeys, dstO = this.tmpOrder;
    for (let width = 1; width < m; width *= 2) {
      for (let lo = 0; lo < m; lo += 2 * width) {
        const mid = Math.min(lo + width, m), hi = Math.min(lo + 2 * width, m);
        let i = lo, j = mid, k = lo;
        while (i < mid && j < hi) {
          if (srcK[j]! < srcK[i]!) { dstK[k] = srcK[j]!; dstO[k++] = srcO[j++]!; }
          else { dstK[k] = srcK[i]!; dstO[k++] = srcO[i++]!; }
        }
        while (i < mid) { dstK[k] = srcK[i]!; dstO[k++] = srcO[i++]!; }
        while (j < hi) { dstK[k] = srcK[j]!; dstO[k++] = srcO[j++]!; }
      }
      const tk = srcK; srcK = dstK; dstK = tk;
      const to = srcO; srcO = dstO; dstO = to;
    }
    if (srcO !== this.order) { this.order.set(srcO); this.keys.set(srcK); }
  }

  /** the sorted shapes' boxes, components, fixed flags and bounding spheres, contiguous for the sweep */
  private fillSlots(): void {
    const t = this.table, box = t.aabb, P = t.pos, cross = this.cross, info = this.info, order = this.order;
    const ax = this.axis;
    const a1 = ax === 0 ? 1 : 0, a2 = ax === 2 ? 1 : 2;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!, b = 6 * i, c = 4 * k, o = INFO * k;
      cross[c] = box[b + a1]!; cross[c + 1] = box[b + 3 + a1]!;
      cross[c + 2] = box[b + a2]!; cross[c + 3] = box[b + 3 + a2]!;
      info[o] = box[b + 3 + ax]!; info[o + 1] = t.component[i]!; info[o + 2] = t.fixed[i]!;
      info[o + 3] = P[3 * i]!; info[o + 4] = P[3 * i + 1]!; info[o + 5] = P[3 * i + 2]!;
      info[o + 6] = t.bound[i]!;
    }
  }

  /** every pair of swept shapes whose boxes overlap, unless filtered */
  private sweep(): void {
    const keys = this.keys, cross = this.cross, info = this.info, m = this.order.length;
    for (let i = 0; i < m; i++) {
      const hi = info[INFO * i]!, c = 4 * i;
      const lo1 = cross[c]!, hi1 = cross[c + 1]!, lo2 = cross[c + 2]!, hi2 = cross[c + 3]!;
      for (let j = i + 1; keys[j]! <= hi; j++) {
        const d = 4 * j;
        if (cross[d]! > hi1 || cross[d + 1]! < lo1 || cross[d + 2]! > hi2 || cross[d + 3]! < lo2) continue;
        this.trySlots(i, j);
      }
    }
  }

  /** pairs sorted slots i and j unless filtered or their bounding spheres are farther apart than the margin */
  private trySlots(i: number, j: number): void {
    const info = this.info, a = INFO * i, b = INFO * j;
    if (info[a + 1] === info[b + 1] || info[a + 2]! + info[b + 2]! === 2) return;
    const p = this.order[i]!, q = this.order[j]!, t = this.table;
    if ((t.group[p]! & t.mask[q]!) === 0 || (t.group[q]! & t.mask[p]!) === 0) return;
    const dx = info[a + 3]! - info[b + 3]!, dy = info[a + 4]! - info[b + 4]!, dz = info[a + 5]! - info[b + 5]!;
    const reach = info[a + 6]! + info[b + 6]! + this.table.margin;
    if (dx * dx + dy * dy + dz * dz > reach * reach) return;
    if (p < q) this.raw.push(p, q); else this.raw.push(q, p);
  }

  /** the pairs sorted by (A, B): counting sort on A, then insertion sort on B within each A */
  private orderPairs(): void {
    const n = this.raw.count, bucket = this.bucket, rawA = this.raw.a, rawB = this.raw.b;
    if (this.pairA.length < n) this.pairA = new Int32Array(rawA.length);
    if (this.pairB.length < n) this.pairB = new Int32Array(rawA.length);
    const A = this.pairA, B = this.pairB;
    // bucket starts by A
    bucket.fill(0);
    for (let k = 0; k < n; k++) bucket[rawA[k]! + 1]++;
    for (let i = 1; i < bucket.length; i++) bucket[i] += bucket[i - 1]!;
    for (let k = 0; k < n; k++) { const pos = bucket[rawA[k]!]++; A[pos] = rawA[k]!; B[pos] = rawB[k]!; }
    // B ascending within each A (A is already sorted, so nothing moves across buckets)
    for (let i = 1; i < n; i++) {
      const a = A[i]!, b = B[i]!;
      let j = i - 1;
      while (j >= 0 && A[j] === a && B[j]! > b) { B[j + 1] = B[j]!; j--; }
      B[j + 1] = b;
    }
    this.pairCount = n;
  }
}
