/**
 * The broadphase: which shape pairs may touch, from their world AABBs (grown by half the margin
 * each, ./shapes.ts), by a dynamic AABB tree over fat boxes with the pairs kept from one update to
 * the next (docs/theory.md §17).
 *
 * Fat boxes. Each finite shape sits in the tree (./aabbTree.ts) with a fat box: its box grown by
 * 0.1 ρ (ρ its bounding radius; 0 for a fixed shape) plus half the margin, and stretched ahead by
 * four times its last displacement (at most 4 ρ). While its box stays inside the fat box the shape
 * does not touch the tree; when it leaves, the shape gets a new fat box, moves in the tree, and
 * queries it.
 *
 * Fat pairs. The list of pairs whose fat boxes overlap (and that the filters allow), sorted by
 * (A, B), is kept between updates: an update drops the pairs of the moved shapes and merges in
 * what their queries find (a pair of two moved shapes from the query of the higher index), sorted by
 * two counting sorts. Every pair whose boxes overlap has overlapping fat boxes, so the fat list
 * holds them all; each update keeps those whose boxes overlap and whose bounding spheres about the
 * shape centres come within the margin (|c_A − c_B| ≤ ρ_A + ρ_B + margin). In a resting pile
 * nothing moves in the tree and an update costs O(n + pairs); a shape that moves costs O(log n).
 *
 * Planes (infinite) stay out of the tree: each plane is tested against every finite shape, and
 * pairs with it when the lowest corner of the shape's box along the plane's normal n, at
 * n·c − Σ_i |n_i| e_i, lies within half the margin of the plane.
 *
 * Filters: a shape with collide = false never pairs, shapes of one component (or both of the
 * world) never pair, two fixed shapes never pair, and a pair needs (group_A & mask_B) ≠ 0 and
 * (group_B & mask_A) ≠ 0. Sides: a plane is side A of its pairs; in other pairs A is the lower shape
 * index. The pairs come out sorted by (A, B), a function of the current boxes only, whatever the
 * tree's history. The filters are applied when a fat pair is found, so they are read as fixed (the
 * shape table's are, once built). Every array is preallocated and grows by doubling, so a steady
 * scene allocates nothing.
 *
 * The tree replaced a sweep and prune on one axis (bench/sweepAndPrune.ts, kept there for
 * bench/broadphase.ts): the sweep looks at every pair that overlaps on the sweep axis,
 * about n^(5/3) of them in a dense pile of n shapes, where the tree looks at O(n). Measured (median
 * ms per update, piles of 1000 / 4000 / 16000 jittering boxes): sweep 0.43 / 2.3 / 15-22, tree
 * 0.09 / 0.36 / 1.5; 5000 spheres flying in a 1 km cube: sweep 0.58, tree 0.82; 20 000: sweep 7.1,
 * tree 5.0. The tree loses the sparse scene by a bounded factor, the sweep the dense one by a
 * growing one, so the tree alone serves.
 */
import { PLANE, type ShapeTable } from './shapes.js';
import { AabbTree } from './aabbTree.js';

/** the fattening of a moving shape's box, as a fraction of its bounding radius */
const FAT = 0.1;
/** a fat box reaches this many last displacements ahead of the box ... */
const PREDICT = 4;
/** ... but at most this many bounding radii */
const PREDICT_CAP = 4;

/** a growable list of shape pairs (a[k], b[k]) */
export class PairList {
  a: Int32Array;
  b: Int32Array;
  count = 0;

  constructor(capacity: number) {
    this.a = new Int32Array(capacity); this.b = new Int32Array(capacity);
  }

  push(a: number, b: number): void {
    if (this.count === this.a.length) this.reserve(2 * this.count);
    this.a[this.count] = a; this.b[this.count++] = b;
  }

  /** room for n pairs, the first `count` kept */
  reserve(n: number): void {
    if (n <= this.a.length) return;
    let cap = this.a.length;
    while (cap < n) cap *= 2;
    const a = new Int32Array(cap), b = new Int32Array(cap);
    a.set(this.a.subarray(0, this.count)); b.set(this.b.subarray(0, this.count));
    this.a = a; this.b = b;
  }
}

/** the colliding shapes: finite ones and planes, each in ascending shape index */
export function splitShapes(t: ShapeTable): { finite: Int32Array; planes: Int32Array } {
  const finite: number[] = [], planes: number[] = [];
  for (let i = 0; i < t.count; i++) if (t.collide[i] === 1) (t.kind[i] === PLANE ? planes : finite).push(i);
  return { finite: Int32Array.from(finite), planes: Int32Array.from(planes) };
}

/** true when the filters let colliding shapes i and j pair: other components, not both fixed, groups */
function mayPair(t: ShapeTable, i: number, j: number): boolean {
  return t.component[i] !== t.component[j] && t.fixed[i]! + t.fixed[j]! < 2
    && (t.group[i]! & t.mask[j]!) !== 0 && (t.group[j]! & t.mask[i]!) !== 0;
}

/** each plane with every finite shape whose box reaches within half the margin of it, (plane, shape) sorted */
export function planePairs(t: ShapeTable, planes: Int32Array, finite: Int32Array, out: PairList): void {
  const box = t.aabb, R = t.rot, P = t.pos, reach = 0.5 * t.margin;
  for (let k = 0; k < planes.length; k++) {
    const p = planes[k]!;
    const nx = R[9 * p + 2]!, ny = R[9 * p + 5]!, nz = R[9 * p + 8]!;
    const d0 = nx * P[3 * p]! + ny * P[3 * p + 1]! + nz * P[3 * p + 2]!;
    const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
    for (let q = 0; q < finite.length; q++) {
      const i = finite[q]!, b = 6 * i;
      // lowest corner along n: n·c − Σ |n_i| e_i, with 2c = lo + hi and 2e = hi − lo
      const lx = box[b]!, ly = box[b + 1]!, lz = box[b + 2]!;
      const hx = box[b + 3]!, hy = box[b + 4]!, hz = box[b + 5]!;
      const c = nx * (lx + hx) + ny * (ly + hy) + nz * (lz + hz);
      const e = ax * (hx - lx) + ay * (hy - ly) + az * (hz - lz);
      if (0.5 * (c - e) - d0 <= reach && mayPair(t, p, i)) out.push(p, i);
    }
  }
}

/** true when the boxes of shapes a and b overlap and their bounding spheres come within the margin */
function boundsMeet(t: ShapeTable, a: number, b: number): boolean {
  const box = t.aabb, P = t.pos, oa = 6 * a, ob = 6 * b;
  for (let k = 0; k < 3; k++) {
    if (box[oa + k]! > box[ob + 3 + k]! || box[ob + k]! > box[oa + 3 + k]!) return false;
  }
  const dx = P[3 * a]! - P[3 * b]!, dy = P[3 * a + 1]! - P[3 * b + 1]!, dz = P[3 * a + 2]! - P[3 * b + 2]!;
  const reach = t.bound[a]! + t.bound[b]! + t.margin;
  return dx * dx + dy * dy + dz * dz <= reach * reach;
}

/** the broadphase of the collide stage: the AABB tree with the fat pairs kept between updates (file comment) */
export class Broadphase {
  /** the pairs of the last update, sorted by (A, B) */
  pairCount = 0;
  pairA: Int32Array;
  pairB: Int32Array;
  readonly tree: AabbTree;
  private readonly table: ShapeTable;
  private readonly finite: Int32Array;
  private readonly planes: Int32Array;
  /** per shape: its leaf, fat box (6), 2 × its box centre at the last update (3), moved flag */
  private readonly leafOf: Int32Array;
  private readonly fat: Float64Array;
  private readonly last: Float64Array;
  private readonly moved: Uint8Array;
  private readonly movedList: Int32Array;
  private movedCount = 0;
  /** the fat pairs sorted by (A, B), the merge's destination, this update's new pairs, sort scratch */
  private fatPairs: PairList;
  private spare: PairList;
  private readonly found: PairList;
  private readonly sorted: PairList;
  private readonly bucket: Int32Array;
  private readonly planeList: PairList;
  private started = false;

  constructor(table: ShapeTable) {
    this.table = table;
    const { finite, planes } = splitShapes(table), n = table.count, m = finite.length;
    this.finite = finite; this.planes = planes;
    this.tree = new AabbTree(2 * m);
    this.leafOf = new Int32Array(n).fill(-1); this.fat = new Float64Array(6 * n);
    this.last = new Float64Array(3 * n); this.moved = new Uint8Array(n); this.movedList = new Int32Array(m);
    const cap = 4 * (m + planes.length) + 16;
    this.pairA = new Int32Array(cap); this.pairB = new Int32Array(cap);
    this.fatPairs = new PairList(cap); this.spare = new PairList(cap);
    this.found = new PairList(cap); this.sorted = new PairList(cap); this.planeList = new PairList(16);
    this.bucket = new Int32Array(n + 1);
  }

  /** how many shapes left their fat boxes (and moved in the tree) at the last update */
  get moves(): number {
    return this.movedCount;
  }

  /** the candidate pairs of the table's current AABBs, into pairA/pairB[0 .. pairCount) */
  update(): void {
    this.refreshLeaves();
    if (this.movedCount > 0) {
      this.findNewPairs();
      this.mergePairs();
      for (let k = 0; k < this.movedCount; k++) this.moved[this.movedList[k]!] = 0;
    }
    this.planeList.count = 0;
    planePairs(this.table, this.planes, this.finite, this.planeList);
    this.emitPairs();
  }

  /** every shape whose box left its fat box gets a new fat box and moves in the tree */
  private refreshLeaves(): void {
    const box = this.table.aabb, fat = this.fat, last = this.last, finite = this.finite, started = this.started;
    this.movedCount = 0;
    for (let k = 0; k < finite.length; k++) {
      const i = finite[k]!, o = 6 * i;
      const inside = started && box[o]! >= fat[o]! && box[o + 1]! >= fat[o + 1]! && box[o + 2]! >= fat[o + 2]!
        && box[o + 3]! <= fat[o + 3]! && box[o + 4]! <= fat[o + 4]! && box[o + 5]! <= fat[o + 5]!;
      if (!inside) {
        this.fatten(i);
        if (started) this.tree.moveLeaf(this.leafOf[i]!, fat, o);
        else this.leafOf[i] = this.tree.insertLeaf(i, fat, o);
        this.moved[i] = 1; this.movedList[this.movedCount++] = i;
      }
      const c = 3 * i;
      for (let k = 0; k < 3; k++) last[c + k] = box[o + k]! + box[o + 3 + k]!;
    }
    this.started = true;
  }

  /** shape i's fat box: its box grown by 0.1 ρ and half the margin, and stretched ahead */
  private fatten(i: number): void {
    const t = this.table, box = t.aabb, fat = this.fat, o = 6 * i, c = 3 * i, last = this.last;
    const fixed = t.fixed[i] === 1, rho = t.bound[i]!, d = (fixed ? 0 : FAT * rho) + 0.5 * t.margin;
    const cap = PREDICT_CAP * rho, ahead = this.started && !fixed ? 0.5 * PREDICT : 0;
    for (let k = 0; k < 3; k++) {
      // PREDICT times the centre's displacement since the last update, clamped to the cap
      let v = ahead * (box[o + k]! + box[o + 3 + k]! - last[c + k]!);
      v = v > cap ? cap : v < -cap ? -cap : v;
      fat[o + k] = box[o + k]! - d + (v < 0 ? v : 0);
      fat[o + 3 + k] = box[o + 3 + k]! + d + (v > 0 ? v : 0);
    }
  }

  /** every fat pair of a moved shape, once each, into `found` */
  private findNewPairs(): void {
    const t = this.table, tree = this.tree, moved = this.moved, found = this.found;
    found.count = 0;
    for (let k = 0; k < this.movedCount; k++) {
      const i = this.movedList[k]!, hits = tree.query(this.fat, 6 * i), res = tree.results;
      for (let r = 0; r < hits; r++) {
        const j = res[r]!;
        // a pair of two moved shapes is found by the query of the higher index
        if (j === i || (moved[j] === 1 && j > i) || !mayPair(t, i, j)) continue;
        if (j < i) found.push(j, i); else found.push(i, j);
      }
    }
  }

  /** the fat pairs: those of unmoved shapes, kept in order, merged with the new ones sorted */
  private mergePairs(): void {
    const moved = this.moved, old = this.fatPairs, A = old.a, B = old.b;
    // drop the pairs of moved shapes (their queries found again those that still overlap)
    let kept = 0;
    for (let k = 0; k < old.count; k++) {
      const a = A[k]!, b = B[k]!;
      if (moved[a] === 1 || moved[b] === 1) continue;
      A[kept] = a; B[kept++] = b;
    }
    this.sortFound();
    const nw = this.found, n = nw.count, out = this.spare;
    out.reserve(kept + n);
    const nA = nw.a, nB = nw.b, mA = out.a, mB = out.b;
    let i = 0, j = 0, k = 0;
    while (i < kept && j < n) {
      if (A[i]! < nA[j]! || (A[i] === nA[j] && B[i]! < nB[j]!)) { mA[k] = A[i]!; mB[k++] = B[i++]!; }
      else { mA[k] = nA[j]!; mB[k++] = nB[j++]!; }
    }
    while (i < kept) { mA[k] = A[i]!; mB[k++] = B[i++]!; }
    while (j < n) { mA[k] = nA[j]!; mB[k++] = nB[j++]!; }
    out.count = k;
    this.spare = old; this.fatPairs = out;
  }

  /** sorts the new pairs by (A, B): a counting sort on B, then a stable one on A */
  private sortFound(): void {
    const f = this.found, s = this.sorted;
    s.reserve(f.count);
    this.countingSort(f.b, f.a, s.b, s.a, f.count);
    this.countingSort(s.a, s.b, f.a, f.b, f.count);
  }

  /** stable counting sort of (key, val)[0 .. n) by key (a shape index) into (toKey, toVal) */
  private countingSort(key: Int32Array, val: Int32Array, toKey: Int32Array, toVal: Int32Array, n: number): void {
    const bucket = this.bucket;
    bucket.fill(0);
    for (let k = 0; k < n; k++) bucket[key[k]! + 1]++;
    for (let i = 1; i < bucket.length; i++) bucket[i] += bucket[i - 1]!;
    for (let k = 0; k < n; k++) { const p = bucket[key[k]!]++; toKey[p] = key[k]!; toVal[p] = val[k]!; }
  }

  /** the fat pairs whose bounds meet, merged in order with the plane pairs, into pairA/pairB */
  private emitPairs(): void {
    const t = this.table, fp = this.fatPairs, pl = this.planeList, total = fp.count + pl.count;
    if (this.pairA.length < total) {
      let cap = this.pairA.length;
      while (cap < total) cap *= 2;
      this.pairA = new Int32Array(cap); this.pairB = new Int32Array(cap);
    }
    const A = fp.a, B = fp.b, pA = pl.a, pB = pl.b, outA = this.pairA, outB = this.pairB;
    let n = 0, p = 0;
    for (let k = 0; k < fp.count; k++) {
      const a = A[k]!, b = B[k]!;
      if (!boundsMeet(t, a, b)) continue;
      // the plane pairs that come first
      while (p < pl.count && (pA[p]! < a || (pA[p] === a && pB[p]! < b))) {
        outA[n] = pA[p]!; outB[n++] = pB[p++]!;
      }
      outA[n] = a; outB[n++] = b;
    }
    while (p < pl.count) { outA[n] = pA[p]!; outB[n++] = pB[p++]!; }
    this.pairCount = n;
  }
}
