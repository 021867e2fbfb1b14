/**
 * A static bounding volume hierarchy over axis-aligned boxes (a mesh's triangles), built once and
 * queried for every box that overlaps a query box (docs/theory.md §17).
 *
 * Build: top-down median split. A node holds the items of a contiguous range of `order`; while it
 * holds more than LEAF_SIZE items, they are partitioned about their median box centre along the
 * longest axis of the centres' box (quickselect, O(n) per level; ties by item index, so the build
 * is a function of the input alone) and cut there into two children, stored next to each other.
 * Median cuts keep the tree balanced: its depth is ⌈log₂(n / LEAF_SIZE)⌉ + 1 at most, and the
 * traversal stack never holds more than depth + 1 nodes.
 *
 * Storage: flat arrays, node i has its box `box[6i .. 6i+6)` (min x, y, z, max x, y, z); a leaf
 * (`count[i] > 0`) holds `order[start[i] .. start[i] + count[i])`, an inner node (`count[i] = 0`)
 * has its children at `start[i]` and `start[i] + 1`.
 *
 * Query: iterative depth-first traversal with a stack the caller provides (the tree is shared by
 * every simulation of a model and never written after its build), children visited left first, so
 * the items come out in a fixed order.
 */

/** items per leaf at most */
const LEAF_SIZE = 4;

export class Bvh {
  /** number of items (boxes) */
  readonly itemCount: number;
  readonly nodeCount: number;
  /** (6N) node boxes: min x, y, z, max x, y, z */
  readonly box: Float64Array;
  /** (N) first child (inner node) or first slot in `order` (leaf) */
  readonly start: Int32Array;
  /** (N) items in a leaf, 0 for an inner node */
  readonly count: Int32Array;
  /** (n) item indices, leaf by leaf */
  readonly order: Int32Array;
  /** (6n) the items' own boxes */
  readonly itemBox: Float64Array;
  /** the length of the longest root-to-leaf path, in nodes */
  readonly depth: number;

  /**
   * @param boxes (6n) the items' boxes, min x, y, z, max x, y, z each
   */
  constructor(boxes: Float64Array) {
    const n = Math.floor(boxes.length / 6);
    if (n < 1) throw new Error('a BVH needs at least one box');
    this.itemCount = n;
    this.itemBox = boxes.slice(0, 6 * n);
    const cap = 2 * n - 1;
    this.box = new Float64Array(6 * cap);
    this.start = new Int32Array(cap);
    this.count = new Int32Array(cap);
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    const centre = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) centre[3 * i + k] = 0.5 * (boxes[6 * i + k]! + boxes[6 * i + 3 + k]!);
    }
    const b = new Builder(this, this.itemBox, centre);
    b.split(0, 0, n, 1);
    this.nodeCount = b.nodes;
    this.depth = b.depth;
  }

  /** a stack long enough for `query` on this tree */
  makeStack(): Int32Array {
    return new Int32Array(this.depth + 1);
  }

  /**
   * writes the items whose boxes overlap the box [lo, hi] (touching counts) into out and returns
   * their number; `stack` holds at least depth + 1 entries (`makeStack`), `out` at least `itemCount`
   */
  query(stack: Int32Array, out: Int32Array, lx: number, ly: number, lz: number,
    hx: number, hy: number, hz: number): number {
    const B = this.box, start = this.start, count = this.count, order = this.order, I = this.itemBox;
    let top = 0, found = 0;
    stack[top++] = 0;
    while (top > 0) {
      const i = stack[--top]!, o = 6 * i;
      // skip a node whose box misses the query box
      if (B[o]! > hx || B[o + 3]! < lx || B[o + 1]! > hy || B[o + 4]! < ly || B[o + 2]! > hz || B[o + 5]! < lz) {
        continue;
      }
      const c = count[i]!, s = start[i]!;
      if (c === 0) {
        // right child pushed first, so the left one is visited first
        stack[top++] = s + 1; stack[top++] = s;
        continue;
      }
      // a leaf: test each item's own box (the node box may hold it loosely)
      for (let k = s; k < s + c; k++) {
        const j = order[k]!, p = 6 * j;
        if (I[p]! > hx || I[p + 3]! < lx || I[p + 1]! > hy || I[p + 4]! < ly || I[p + 2]! > hz || I[p + 5]! < lz) {
          continue;
        }
        out[found++] = j;
      }
    }
    return found;
  }
}

/** the recursive build (once per mesh, not in the step) */
class Builder {
  nodes = 1;
  depth = 1;
  private readonly keys: Float64Array;

  constructor(private readonly t: Bvh, private readonly boxes: Float64Array,
    private readonly centre: Float64Array) {
    this.keys = new Float64Array(t.itemCount);
  }

  /** makes node i over order[from, to) at depth d (in nodes), splitting it while it is large */
  split(i: number, from: number, to: number, d: number): void {
    const t = this.t;
    this.fitBox(i, from, to);
    if (d > this.depth) this.depth = d;
    if (to - from <= LEAF_SIZE) { t.start[i] = from; t.count[i] = to - from; return; }
    const mid = (from + to) >> 1, child = this.nodes;
    this.splitAlongLongestAxis(from, to, mid);
    this.nodes += 2;
    t.start[i] = child; t.count[i] = 0;
    this.split(child, from, mid, d + 1);
    this.split(child + 1, mid, to, d + 1);
  }

  /** node i's box: the union of its items' boxes */
  private fitBox(i: number, from: number, to: number): void {
    const B = this.t.box, o = 6 * i, bx = this.boxes, order = this.t.order;
    for (let k = 0; k < 3; k++) { B[o + k] = Infinity; B[o + 3 + k] = -Infinity; }
    for (let j = from; j < to; j++) {
      const q = 6 * order[j]!;
      for (let k = 0; k < 3; k++) {
        if (bx[q + k]! < B[o + k]!) B[o + k] = bx[q + k]!;
        if (bx[q + 3 + k]! > B[o + 3 + k]!) B[o + 3 + k] = bx[q + 3 + k]!;
      }
    }
  }

  /**
   * partitions order[from, to) about its element of rank mid (by the items' centres along the
   * longest axis of their centres' box, ties by index): smaller ones before mid, larger after
   */
  private splitAlongLongestAxis(from: number, to: number, mid: number): void {
    const order = this.t.order, c = this.centre;
    // the longest axis of the centres' box
    let axis = 0, best = -1;
    for (let k = 0; k < 3; k++) {
      let lo = Infinity, hi = -Infinity;
      for (let j = from; j < to; j++) {
        const v = c[3 * order[j]! + k]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi - lo > best) { best = hi - lo; axis = k; }
    }
    const keys = this.keys;
    for (let j = from; j < to; j++) keys[order[j]!] = c[3 * order[j]! + axis]!;
    select(order, keys, from, to - 1, mid);
  }
}

/** a before b in the order (key, index), a total order */
function before(keys: Float64Array, a: number, b: number): boolean {
  return keys[a]! < keys[b]! || (keys[a] === keys[b] && a < b);
}

/** quickselect (Hoare partition, median-of-three pivot): order[k] gets the item of rank k in [lo, hi] */
function select(order: Int32Array, keys: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    // the median of the first, middle and last items as the pivot
    const m = (lo + hi) >> 1;
    let a = order[lo]!, b = order[m]!, c = order[hi]!;
    if (before(keys, b, a)) { const x = a; a = b; b = x; }
    if (before(keys, c, b)) { b = c; if (before(keys, b, a)) b = a; }
    const pivot = b;
    let i = lo, j = hi;
    while (i <= j) {
      while (before(keys, order[i]!, pivot)) i++;
      while (before(keys, pivot, order[j]!)) j--;
      if (i <= j) { const x = order[i]!; order[i] = order[j]!; order[j] = x; i++; j--; }
    }
    if (k <= j) hi = j; else if (k >= i) lo = i; else return;
  }
}
