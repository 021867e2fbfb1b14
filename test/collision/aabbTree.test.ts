/**
 * The dynamic AABB tree: its queries find exactly the leaves whose boxes overlap (brute force over
 * random boxes inserted, moved and removed), every inner box is the union of its children's and the
 * links agree, removed nodes are reused, boxes inserted in sorted order (the worst order for a
 * naive tree) still give a shallow tree, and a huge box among small ones (a static mesh) stays
 * near the root and leaves the small queries as cheap as before.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { AabbTree, NULL_NODE } from '../../src/collision/aabbTree.js';
import { rng } from './scenes.js';

/** a box of centre c and half extent e, into boxes at 6i */
function place(boxes: Float64Array, i: number, c: readonly number[], e: number): void {
  boxes.set([c[0]! - e, c[1]! - e, c[2]! - e, c[0]! + e, c[1]! + e, c[2]! + e], 6 * i);
}

/** the items whose boxes overlap box q of `boxes`, among the live ones, ascending */
function bruteQuery(boxes: Float64Array, live: Set<number>, q: number): number[] {
  const hit: number[] = [];
  for (const i of live) {
    let overlap = true;
    for (let k = 0; k < 3; k++) {
      if (boxes[6 * i + k]! > boxes[6 * q + 3 + k]! || boxes[6 * q + k]! > boxes[6 * i + 3 + k]!) overlap = false;
    }
    if (overlap) hit.push(i);
  }
  return hit.sort((a, b) => a - b);
}

function queryItems(tree: AabbTree, boxes: Float64Array, q: number): number[] {
  const n = tree.query(boxes, 6 * q);
  return Array.from(tree.results.subarray(0, n)).sort((a, b) => a - b);
}

/** checks the links and boxes of every node reachable from the root; returns the leaves' items */
function checkTree(tree: AabbTree): number[] {
  const items: number[] = [];
  if (tree.root === NULL_NODE) return items;
  expect(tree.parent[tree.root]).toBe(NULL_NODE);
  const stack = [tree.root];
  while (stack.length > 0) {
    const node = stack.pop()!, c1 = tree.child1[node]!, c2 = tree.child2[node]!;
    if (c1 === NULL_NODE) { items.push(tree.item[node]!); continue; }
    expect(tree.parent[c1]).toBe(node);
    expect(tree.parent[c2]).toBe(node);
    for (let k = 0; k < 3; k++) {
      expect(tree.box[6 * node + k]).toBe(Math.min(tree.box[6 * c1 + k]!, tree.box[6 * c2 + k]!));
      expect(tree.box[6 * node + 3 + k]).toBe(Math.max(tree.box[6 * c1 + 3 + k]!, tree.box[6 * c2 + 3 + k]!));
    }
    stack.push(c1, c2);
  }
  return items.sort((a, b) => a - b);
}

describe('AabbTree', () => {
  it('finds exactly the overlapping leaves through inserts, moves and removals', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 80 }), (seed, n) => {
      const r = rng(seed), boxes = new Float64Array(6 * (n + 1)), tree = new AabbTree(2), leaf = new Int32Array(n);
      const live = new Set<number>();
      const random = (i: number): void => place(boxes, i, [10 * r(), 10 * r(), 10 * r()], 0.1 + 2 * r() * r());
      for (let i = 0; i < n; i++) { random(i); leaf[i] = tree.insertLeaf(i, boxes, 6 * i); live.add(i); }
      for (let round = 0; round < 6; round++) {
        // move some, remove some, put some back
        for (let i = 0; i < n; i++) {
          const u = r();
          if (live.has(i) && u < 0.3) { random(i); tree.moveLeaf(leaf[i]!, boxes, 6 * i); }
          else if (live.has(i) && u < 0.4) { tree.removeLeaf(leaf[i]!); live.delete(i); }
          else if (!live.has(i) && u < 0.7) { random(i); leaf[i] = tree.insertLeaf(i, boxes, 6 * i); live.add(i); }
        }
        expect(checkTree(tree)).toEqual([...live].sort((a, b) => a - b));
        random(n);
        expect(queryItems(tree, boxes, n)).toEqual(bruteQuery(boxes, live, n));
        for (const i of live) expect(queryItems(tree, boxes, i)).toEqual(bruteQuery(boxes, live, i));
      }
    }), { seed: 42, numRuns: 60 });
  });

  it('reuses removed nodes: a steady size never grows the arrays', () => {
    const boxes = new Float64Array(6 * 100), tree = new AabbTree(200), r = rng(5), leaf: number[] = [];
    for (let i = 0; i < 100; i++) { place(boxes, i, [r(), r(), r()], 0.1); leaf.push(tree.insertLeaf(i, boxes, 6 * i)); }
    const arrays = [tree.box, tree.parent, tree.child1];
    for (let round = 0; round < 50; round++) {
      const i = Math.floor(100 * r());
      tree.removeLeaf(leaf[i]!);
      leaf[i] = tree.insertLeaf(i, boxes, 6 * i);
      tree.moveLeaf(leaf[(i + 1) % 100]!, boxes, 6 * ((i + 1) % 100));
    }
    expect([tree.box, tree.parent, tree.child1]).toEqual(arrays);
    expect(tree.box).toBe(arrays[0]);
    expect(checkTree(tree)).toHaveLength(100);
  });

  it('stays shallow when boxes arrive in sorted order', () => {
    const n = 1024, boxes = new Float64Array(6 * n), tree = new AabbTree(16);
    for (let i = 0; i < n; i++) { place(boxes, i, [i, 0, 0], 0.5); tree.insertLeaf(i, boxes, 6 * i); }
    // a balanced tree has depth 10; a chain would have 1023
    expect(tree.depth()).toBeLessThanOrEqual(20);
    // a 10 × 10 × 10 pile in index order (columns)
    const pile = new AabbTree(16), grid = new Float64Array(6000);
    for (let i = 0; i < 1000; i++) { place(grid, i, [1.1 * Math.floor(i / 100), 1.1 * (Math.floor(i / 10) % 10), i % 10], 0.5); pile.insertLeaf(i, grid, 6 * i); }
    expect(pile.depth()).toBeLessThanOrEqual(20);
  });

  it('keeps a huge box (a static mesh) near the root, and small queries as cheap as without it', () => {
    const n = 2000, r = rng(8), boxes = new Float64Array(6 * (n + 1));
    for (let i = 0; i < n; i++) place(boxes, i, [50 * r(), 50 * r(), 50 * r()], 0.5);
    place(boxes, n, [25, 25, 0], 1000);
    const visitsPerQuery = (withMesh: boolean, meshFirst: boolean): number => {
      const tree = new AabbTree(16);
      if (withMesh && meshFirst) tree.insertLeaf(n, boxes, 6 * n);
      for (let i = 0; i < n; i++) tree.insertLeaf(i, boxes, 6 * i);
      if (withMesh && !meshFirst) tree.insertLeaf(n, boxes, 6 * n);
      // the mesh's leaf hangs within two levels of the root
      if (withMesh) {
        let node = tree.root, depth = 0;
        while (tree.child1[node] !== NULL_NODE) {
          const c1 = tree.child1[node]!, c2 = tree.child2[node]!;
          if (tree.item[c1] === n || tree.item[c2] === n) break;
          node = tree.box[6 * c1]! <= -900 ? c1 : c2; depth++;
        }
        expect(depth).toBeLessThanOrEqual(1);
      }
      tree.visits = 0;
      for (let i = 0; i < n; i++) tree.query(boxes, 6 * i);
      return tree.visits / n;
    };
    const plain = visitsPerQuery(false, false);
    expect(visitsPerQuery(true, true)).toBeLessThanOrEqual(1.25 * plain + 3);
    expect(visitsPerQuery(true, false)).toBeLessThanOrEqual(1.25 * plain + 3);
  });
});
