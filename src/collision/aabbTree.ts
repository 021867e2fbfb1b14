/**
 * A dynamic bounding volume hierarchy of axis-aligned boxes (docs/theory.md §17): a binary tree whose
 * leaves hold one box and an item each (a shape index) and whose internal nodes hold the union of
 * their children's boxes, changed one leaf at a time.
 *
 * Cost. The tree keeps the surface-area heuristic small: the cost of a tree is the sum of the
 * (half) surface areas A(X) = dx dy + dy dz + dz dx of its internal nodes, proportional to the
 * expected number of nodes a random query visits.
 *
 * Insertion picks the sibling S of the new leaf L by a greedy descent on that cost: making S the
 * sibling creates a node of area A(S ∪ L) and grows every ancestor P of S by A(P ∪ L) − A(P); a
 * node below S costs at least A(L) plus the growth of S and of its ancestors, the bound that stops
 * the descent once no child can beat the best sibling seen.
 *
 * Rotations. After an insertion, each ancestor A of the leaf, from the bottom up, tries the swaps
 * that keep its two subtrees B and C but move a grandchild across (B with a child of C, C with a child
 * of B, or a child of B with a child of C) and applies the one that lowers A(B) + A(C) most; only
 * those two areas change, so every swap is a local improvement of the cost. A new leaf rotates up to
 * the root; a leaf that moves (out of the tree and in again) only up to the first ancestor whose box
 * already held it, which keeps the cost of a long run of moves from creeping up (5000 spheres flying
 * over 20 000 updates: the cost stays below that of the tree first built and the depth near 18, where
 * moves without rotations let the cost grow by a fifth and the depth from 19 to 36).
 *
 * Removal splices the leaf's parent out; boxes are refitted upwards until one does not change (the
 * boxes above it cannot change either). Nodes live in typed arrays (struct of arrays) with a free
 * list; capacity doubles when full, so a tree of steady size allocates nothing. A query walks the
 * tree with an explicit stack and writes the items of the leaves whose boxes overlap a box (closed
 * intervals) into `results`. Heights are not kept: `depth` walks the tree when asked.
 */

/** no node */
export const NULL_NODE = -1;

export class AabbTree {
  /** (6 · capacity) node boxes: min x, y, z, max x, y, z */
  box: Float64Array;
  /** per node: parent, children (NULL_NODE on a leaf), item (−1 inside) */
  parent: Int32Array;
  child1: Int32Array;
  child2: Int32Array;
  item: Int32Array;
  root = NULL_NODE;
  /** the items found by the last query, in [0, resultCount) */
  results: Int32Array;
  resultCount = 0;
  /** nodes visited by queries since the counter was last zeroed (a measure of the tree's quality) */
  visits = 0;
  private freeList = NULL_NODE;
  private stack: Int32Array;
  /** scratch of the area computations (written, not returned, so that no number is boxed) */
  private readonly span = new Float64Array(4);
  /** the best swap found by `rotate` */
  private swapX = NULL_NODE;
  private swapY = NULL_NODE;

  constructor(capacity = 16) {
    const cap = Math.max(2, capacity);
    this.box = new Float64Array(6 * cap);
    this.parent = new Int32Array(cap); this.child1 = new Int32Array(cap); this.child2 = new Int32Array(cap);
    this.item = new Int32Array(cap);
    this.stack = new Int32Array(64); this.results = new Int32Array(16);
    this.linkFree(0, cap);
  }

  /** a new leaf holding item with the box src[o .. o + 6); returns its node */
  insertLeaf(item: number, src: Float64Array, o: number): number {
    const leaf = this.allocate();
    this.item[leaf] = item;
    this.child1[leaf] = NULL_NODE; this.child2[leaf] = NULL_NODE;
    for (let k = 0; k < 6; k++) this.box[6 * leaf + k] = src[o + k]!;
    this.insert(leaf, true);
    return leaf;
  }

  /** removes a leaf and frees its node */
  removeLeaf(leaf: number): void {
    this.remove(leaf);
    this.release(leaf);
  }

  /** gives a leaf the box src[o .. o + 6): out of the tree and back in at the best place for it */
  moveLeaf(leaf: number, src: Float64Array, o: number): void {
    this.remove(leaf);
    const box = this.box, b = 6 * leaf;
    for (let k = 0; k < 6; k++) box[b + k] = src[o + k]!;
    this.insert(leaf, false);
  }

  /** the items of every leaf whose box overlaps src[o .. o + 6) (closed) into results[0 .. resultCount) */
  query(src: Float64Array, o: number): number {
    const box = this.box, c1 = this.child1, c2 = this.child2;
    const lx = src[o]!, ly = src[o + 1]!, lz = src[o + 2]!;
    const hx = src[o + 3]!, hy = src[o + 4]!, hz = src[o + 5]!;
    let stack = this.stack, top = 0, found = 0, visits = 0;
    if (this.root !== NULL_NODE) stack[top++] = this.root;
    while (top > 0) {
      const node = stack[--top]!, b = 6 * node;
      visits++;
      if (box[b]! > hx || box[b + 1]! > hy || box[b + 2]! > hz) continue;
      if (box[b + 3]! < lx || box[b + 4]! < ly || box[b + 5]! < lz) continue;
      // a leaf is a result; an inner node pushes its children
      if (c1[node] === NULL_NODE) {
        if (found === this.results.length) this.growResults();
        this.results[found++] = this.item[node]!;
        continue;
      }
      if (top + 2 > stack.length) stack = this.growStack();
      stack[top++] = c2[node]!; stack[top++] = c1[node]!;
    }
    this.visits += visits;
    this.resultCount = found;
    return found;
  }

  /** the height of the tree (0 for one leaf, −1 when empty), by a walk over it */
  depth(): number {
    let deepest = -1;
    const stack: number[][] = this.root === NULL_NODE ? [] : [[this.root, 0]];
    while (stack.length > 0) {
      const [node, d] = stack.pop()!;
      deepest = Math.max(deepest, d!);
      const c1 = this.child1[node!]!, c2 = this.child2[node!]!;
      if (c1 !== NULL_NODE) stack.push([c1, d! + 1], [c2, d! + 1]);
    }
    return deepest;
  }

  /** the sum of the internal nodes' half surface areas, the cost the insertions keep small */
  cost(): number {
    let sum = 0;
    const stack: number[] = this.root === NULL_NODE ? [] : [this.root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (this.child1[node] === NULL_NODE) continue;
      this.unionArea(node, node);
      sum += this.span[0]!;
      stack.push(this.child1[node]!, this.child2[node]!);
    }
    return sum;
  }

  /** links a leaf in next to its best sibling, then refits and rotates above it (up to the root if full) */
  private insert(leaf: number, full: boolean): void {
    if (this.root === NULL_NODE) { this.root = leaf; this.parent[leaf] = NULL_NODE; return; }
    const sibling = this.bestSibling(leaf), up = this.parent[sibling]!, node = this.allocate();
    // the new inner node takes the sibling's place, the sibling and the leaf below it
    this.parent[node] = up; this.item[node] = -1;
    this.child1[node] = sibling; this.child2[node] = leaf;
    this.parent[sibling] = node; this.parent[leaf] = node;
    if (up === NULL_NODE) this.root = node;
    else if (this.child1[up] === sibling) this.child1[up] = node;
    else this.child2[up] = node;
    // refit and rotate from the new node up, until a box holds the leaf already (unless full)
    this.refit(node);
    this.rotate(node);
    for (let a = up; a !== NULL_NODE; a = this.parent[a]!) {
      if (!this.refit(a) && !full) break;
      this.rotate(a);
    }
  }

  /** the node whose pairing with the leaf adds least to the tree's cost, by a greedy bounded descent */
  private bestSibling(leaf: number): number {
    const c1s = this.child1, c2s = this.child2, span = this.span;
    this.unionArea(leaf, leaf);
    const areaL = span[0]!;
    // the root as the sibling: a new root of area A(root ∪ L)
    let node = this.root, best = node;
    this.unionGrowth(node, leaf);
    let bestCost = span[0]!, grown = span[1]!, inherited = 0;
    while (c1s[node] !== NULL_NODE) {
      // the growth of this node, paid by every sibling chosen below it
      inherited += grown;
      const c1 = c1s[node]!, c2 = c2s[node]!;
      this.unionGrowth(c1, leaf);
      const u1 = span[0]!, g1 = span[1]!;
      this.unionGrowth(c2, leaf);
      const u2 = span[0]!, g2 = span[1]!;
      // each child as the sibling
      if (u1 + inherited < bestCost) { bestCost = u1 + inherited; best = c1; }
      if (u2 + inherited < bestCost) { bestCost = u2 + inherited; best = c2; }
      // the least any node below each child could cost
      const low1 = c1s[c1] === NULL_NODE ? Infinity : areaL + inherited + g1;
      const low2 = c1s[c2] === NULL_NODE ? Infinity : areaL + inherited + g2;
      if (low1 >= bestCost && low2 >= bestCost) break;
      if (low1 <= low2) { node = c1; grown = g1; } else { node = c2; grown = g2; }
    }
    return best;
  }

  /** A(n ∪ L) into span[0] and its excess over A(n) into span[1] (written, not returned: no boxing) */
  private unionGrowth(n: number, leaf: number): void {
    this.unionArea(n, n);
    const own = this.span[0]!;
    this.unionArea(n, leaf);
    this.span[1] = this.span[0]! - own;
  }


  /** unlinks a leaf: its sibling takes its parent's place, and the boxes above are refitted */
  private remove(leaf: number): void {
    if (leaf === this.root) { this.root = NULL_NODE; return; }
    const p = this.parent[leaf]!, up = this.parent[p]!;
    const sibling = this.child1[p] === leaf ? this.child2[p]! : this.child1[p]!;
    this.parent[sibling] = up;
    if (up === NULL_NODE) this.root = sibling;
    else if (this.child1[up] === p) this.child1[up] = sibling;
    else this.child2[up] = sibling;
    this.release(p);
    // the boxes above shrink until one does not change
    for (let a = up; a !== NULL_NODE && this.refit(a); a = this.parent[a]!);
  }

  /** an inner node's box from its children; false when it did not change */
  private refit(a: number): boolean {
    const box = this.box, o = 6 * a, b = 6 * this.child1[a]!, c = 6 * this.child2[a]!;
    let changed = false;
    for (let k = 0; k < 6; k++) {
      const v = k < 3 ? Math.min(box[b + k]!, box[c + k]!) : Math.max(box[b + k]!, box[c + k]!);
      if (box[o + k] !== v) { box[o + k] = v; changed = true; }
    }
    return changed;
  }

  /** the swap of a grandchild of a with the subtree across that lowers the children's areas most */
  private rotate(a: number): void {
    const B = this.child1[a]!, C = this.child2[a]!, s = this.span;
    const bLeaf = this.child1[B] === NULL_NODE, cLeaf = this.child1[C] === NULL_NODE;
    if (bLeaf && cLeaf) return;
    // span: [scratch, best gain, A(B), A(C)]
    this.unionArea(B, B); s[2] = s[0]!;
    this.unionArea(C, C); s[3] = s[0]!;
    s[1] = 0; this.swapX = NULL_NODE;
    // B with a child of C, C with a child of B
    if (!cLeaf) this.acrossSwaps(B, C, 3);
    if (!bLeaf) this.acrossSwaps(C, B, 2);
    // a child of B with a child of C: both B and C change
    if (!bLeaf && !cLeaf) {
      const D = this.child1[B]!, E = this.child2[B]!, F = this.child1[C]!, G = this.child2[C]!;
      this.unionArea(F, E); let gDF = s[2]! + s[3]! - s[0]!;
      this.unionArea(D, G); gDF -= s[0]!;
      this.unionArea(G, E); let gDG = s[2]! + s[3]! - s[0]!;
      this.unionArea(F, D); gDG -= s[0]!;
      if (gDF > s[1]!) { s[1] = gDF; this.swapX = D; this.swapY = F; }
      if (gDG > s[1]!) { s[1] = gDG; this.swapX = D; this.swapY = G; }
    }
    if (this.swapX !== NULL_NODE) { this.swap(this.swapX, this.swapY); this.refit(a); }
  }

  /**
   * the swaps of subtree p with either child of its sibling q (whose area is span[slot]): q would
   * become the union of p and its other child; the best so far stays in span[1], swapX and swapY
   */
  private acrossSwaps(p: number, q: number, slot: number): void {
    const s = this.span, q1 = this.child1[q]!, q2 = this.child2[q]!;
    this.unionArea(p, q2);
    if (s[slot]! - s[0]! > s[1]!) { s[1] = s[slot]! - s[0]!; this.swapX = p; this.swapY = q1; }
    this.unionArea(p, q1);
    if (s[slot]! - s[0]! > s[1]!) { s[1] = s[slot]! - s[0]!; this.swapX = p; this.swapY = q2; }
  }

  /** exchanges two subtrees that hang under different parents below a node, and refits the parents */
  private swap(x: number, y: number): void {
    const px = this.parent[x]!, py = this.parent[y]!;
    if (this.child1[px] === x) this.child1[px] = y; else this.child2[px] = y;
    if (this.child1[py] === y) this.child1[py] = x; else this.child2[py] = x;
    this.parent[x] = py; this.parent[y] = px;
    // the rotating node itself (a parent of the other parent) is refitted by the caller
    if (this.parent[py] === px) this.refit(py);
    else if (this.parent[px] === py) this.refit(px);
    else { this.refit(px); this.refit(py); }
  }

  /** the half surface area of the union of two nodes' boxes into span[0] (written, not returned: no boxing) */
  private unionArea(m: number, n: number): void {
    const box = this.box, a = 6 * m, b = 6 * n;
    const dx = Math.max(box[a + 3]!, box[b + 3]!) - Math.min(box[a]!, box[b]!);
    const dy = Math.max(box[a + 4]!, box[b + 4]!) - Math.min(box[a + 1]!, box[b + 1]!);
    const dz = Math.max(box[a + 5]!, box[b + 5]!) - Math.min(box[a + 2]!, box[b + 2]!);
    this.span[0] = dx * dy + dy * dz + dz * dx;
  }

  /** a node from the free list, doubling the capacity when it is empty */
  private allocate(): number {
    if (this.freeList === NULL_NODE) this.grow();
    const node = this.freeList;
    this.freeList = this.parent[node]!;
    this.parent[node] = NULL_NODE;
    return node;
  }

  private release(node: number): void {
    this.parent[node] = this.freeList; this.item[node] = -1;
    this.freeList = node;
  }

  /** chains nodes [from, to) into the free list (each one's parent is the next free node) */
  private linkFree(from: number, to: number): void {
    for (let n = from; n < to - 1; n++) this.parent[n] = n + 1;
    this.parent[to - 1] = this.freeList;
    this.freeList = from;
  }

  private grow(): void {
    const old = this.parent.length, cap = 2 * old;
    const growI = (x: Int32Array): Int32Array => { const y = new Int32Array(cap); y.set(x); return y; };
    const box = new Float64Array(6 * cap); box.set(this.box); this.box = box;
    this.parent = growI(this.parent); this.child1 = growI(this.child1); this.child2 = growI(this.child2);
    this.item = growI(this.item);
    this.linkFree(old, cap);
  }

  private growResults(): void {
    const r = new Int32Array(2 * this.results.length); r.set(this.results); this.results = r;
  }

  private growStack(): Int32Array {
    const s = new Int32Array(2 * this.stack.length); s.set(this.stack); this.stack = s;
    return s;
  }
}
