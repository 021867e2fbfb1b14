/**
 * Both broadphases (the tree, the default, and bench/'s sweep and prune kept for comparison) find
 * exactly the pairs brute force finds (boxes that overlap, bounding spheres within the margin, planes reached
 * by a box, the filters with collision groups and masks), in (A, B) order, over random scenes that
 * move from step to step: small motions (shapes inside their fat boxes; the insertion sort),
 * scrambles and teleports (shapes moving in the tree; the merge sort), a stretch along one axis (a
 * change of sweep axis), a margin that changes. They miss no pair that has contacts; a resting pile
 * leaves the tree alone; a static mesh pairs exactly; a steady scene allocates nothing.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ShapeTable, type ShapeDesc } from '../../src/collision/shapes.js';
import { Broadphase } from '../../src/collision/broadphase.js';
import { SweepAndPrune } from '../../bench/sweepAndPrune.js';
import type { TriMeshData } from '../../src/collision/geometry.js';
import { Manifold } from '../../src/collision/manifold.js';
import { pairFunction } from '../../src/collision/pairs.js';
import { randomScene, perturb, brutePairs, rng, arbSceneSeed, type Scene } from './scenes.js';
import { MAT } from './geometry.js';

interface Pairs { pairCount: number; pairA: Int32Array; pairB: Int32Array; update(): void }

function pairsOf(bp: Pairs): [number, number][] {
  return Array.from({ length: bp.pairCount }, (_, k) => [bp.pairA[k]!, bp.pairB[k]!] as [number, number]);
}

/** brute force with the collision groups: (group_A & mask_B) ≠ 0 and (group_B & mask_A) ≠ 0 */
function brutePairsGrouped(t: ShapeTable): [number, number][] {
  return brutePairs(t).filter(([a, b]) => (t.group[a]! & t.mask[b]!) !== 0 && (t.group[b]! & t.mask[a]!) !== 0);
}

/** random groups (bits 0-2) and masks on a third of the shapes of a scene */
function withGroups(scene: Scene, seed: number): Scene {
  const r = rng(seed);
  for (const d of scene.shapes) if (r() < 0.33) { d.group = 1 + Math.floor(7 * r()); d.mask = Math.floor(8 * r()); }
  return scene;
}

const KINDS: [string, (t: ShapeTable) => Pairs][] = [['tree', (t) => new Broadphase(t)], ['sweep', (t) => new SweepAndPrune(t)]];

describe.each(KINDS)('broadphase (%s)', (_name, make) => {
  it('finds exactly the brute-force pairs on random scenes, step after step', () => {
    fc.assert(fc.property(arbSceneSeed, fc.integer({ min: 2, max: 60 }), fc.double({ min: 0, max: 0.3, noNaN: true }), (seed, n, margin) => {
      const { shapes, q } = withGroups(randomScene(seed, n, 3), seed + 2);
      const t = new ShapeTable(shapes, margin), bp = make(t), r = rng(seed + 1);
      for (let step = 0; step < 16; step++) {
        // mostly small motions; a scramble at step 5, teleports of some bodies at 7 and 12, a stretch from 8
        if (step === 5) perturb(q, 4, r); else perturb(q, 0.05, r);
        if (step === 7 || step === 12) for (let o = 0; o < q.length; o += 7) if (r() < 0.3) q[o] = q[o]! + 10 * (r() - 0.5);
        if (step >= 8) for (let o = 1; o < q.length; o += 7) q[o] = q[o]! * 3;
        // the stepper widens the margin for fast shapes
        if (step === 10) t.margin = 3 * margin + 0.05;
        if (step === 14) t.margin = margin;
        t.updatePoses(q);
        bp.update();
        expect(pairsOf(bp)).toEqual(brutePairsGrouped(t));
      }
    }), { seed: 42, numRuns: 120 });
  });

  it('misses no pair with contacts', () => {
    fc.assert(fc.property(arbSceneSeed, fc.integer({ min: 2, max: 40 }), fc.double({ min: 0, max: 0.3, noNaN: true }), (seed, n, margin) => {
      const { shapes, q } = randomScene(seed, n, 1.5);
      const t = new ShapeTable(shapes, margin), bp = make(t), m = new Manifold();
      t.updatePoses(q);
      bp.update();
      const found = new Set(pairsOf(bp).map(([a, b]) => `${a},${b}`));
      for (const [a, b] of brutePairsUnfiltered(t)) {
        const [x, y] = t.kind[a]! <= t.kind[b]! ? [a, b] : [b, a];
        const f = pairFunction(t.kind[x]!, t.kind[y]!);
        if (f === null) continue;
        m.count = 0;
        f(t, x, y, m);
        if (m.count > 0) expect(found.has(`${a},${b}`) || found.has(`${b},${a}`)).toBe(true);
      }
    }), { seed: 43, numRuns: 150 });
  });

  it('restores a scrambled order of many shapes (merge sort past the insertion budget)', () => {
    const { shapes, q } = randomScene(5, 400, 4, false);
    const t = new ShapeTable(shapes, 0.02), bp = make(t), r = rng(9);
    t.updatePoses(q); bp.update();
    for (let step = 0; step < 3; step++) {
      perturb(q, 6, r);
      t.updatePoses(q); bp.update();
      expect(pairsOf(bp)).toEqual(brutePairs(t));
    }
  });

  it('allocates nothing in a steady scene', () => {
    const { shapes, q } = randomScene(11, 60, 1.5);
    const t = new ShapeTable(shapes, 0.05), bp = make(t), r = rng(3);
    t.updatePoses(q); bp.update();
    const arrays = [bp.pairA, bp.pairB];
    expect(bp.pairCount).toBeGreaterThan(10);
    for (let step = 0; step < 20; step++) {
      perturb(q, 1e-3, r);
      t.updatePoses(q); bp.update();
    }
    expect([bp.pairA, bp.pairB]).toEqual(arrays);
    expect(bp.pairA).toBe(arrays[0]);
  });
});

describe('sweep and prune', () => {
  it('sweeps along the axis of largest spread, and keeps it until another spreads 1.5 times more', () => {
    // 20 spheres on a line: x = 0.1 k sx, z = 0.1 k sz, so the variances are in the ratio sx² : sz²
    const shapes = Array.from({ length: 20 }, (_, k) => ({
      kind: 'sphere' as const, component: k, qOffset: 7 * k, isBody: true, params: [0.05], position: [0, 0, 0],
      orientation: [1, 0, 0, 0], material: MAT, collide: true, name: `s${k}`,
    }));
    const t = new ShapeTable(shapes, 0.01), bp = new SweepAndPrune(t), q = new Float64Array(140);
    const place = (sx: number, sz: number): void => {
      for (let k = 0; k < 20; k++) q.set([0.1 * k * sx, 0, 0.1 * k * sz, 1, 0, 0, 0], 7 * k);
      t.updatePoses(q); bp.update();
    };
    place(1, 2);
    expect(bp.axis).toBe(2);
    place(2.4, 2);
    expect(bp.axis).toBe(2);
    place(2.5, 2);
    expect(bp.axis).toBe(0);
    expect(pairsOf(bp)).toEqual(brutePairs(t));
  });
});

describe('broadphase tree', () => {
  it('leaves the tree alone while a pile rests, and pairs exactly', () => {
    const { shapes, q } = boxPile(4, 0.05);
    const t = new ShapeTable(shapes, 0.02), bp = new Broadphase(t), r = rng(4), rest = Float64Array.from(q);
    t.updatePoses(q); bp.update();
    expect(bp.moves).toBe(shapes.length - 1);
    for (let step = 0; step < 20; step++) {
      // every box within ±1 mm of its rest position
      for (let o = 0; o < q.length; o += 7) for (let k = 0; k < 3; k++) q[o + k] = rest[o + k]! + 0.002 * (r() - 0.5);
      t.updatePoses(q); bp.update();
      expect(bp.moves).toBe(0);
      expect(pairsOf(bp)).toEqual(brutePairs(t));
    }
    // a box lifted off its column moves in the tree, and its pairs follow
    q[2] = q[2]! + 5;
    t.updatePoses(q); bp.update();
    expect(bp.moves).toBe(1);
    expect(pairsOf(bp)).toEqual(brutePairs(t));
  });

  it('pairs a static mesh far larger than the bodies exactly', () => {
    const { shapes, q } = boxPile(5, 0.1);
    const mesh: TriMeshData = {
      type: 'mesh', vertexCount: 4, vertices: new Float64Array([-50, -50, 0, 50, -50, 0, 50, 50, 0, -50, 50, 0]),
      triangleCount: 2, triangles: new Int32Array([0, 1, 2, 0, 2, 3]), triangleNormals: new Float64Array([0, 0, 1, 0, 0, 1]),
      closed: false, boxCenter: new Float64Array([0, 0, 0]), boxHalf: new Float64Array([50, 50, 0]), radius: 50 * Math.SQRT2,
    };
    shapes[0] = {
      kind: 'mesh', component: -1, qOffset: -1, isBody: false, params: [], geometry: mesh, position: [0, 0, 0],
      orientation: [1, 0, 0, 0], material: MAT, collide: true, name: 'floor',
    };
    const t = new ShapeTable(shapes, 0.02), bp = new Broadphase(t), r = rng(6);
    for (let step = 0; step < 10; step++) {
      perturb(q, step === 4 ? 2 : 0.02, r);
      t.updatePoses(q); bp.update();
      expect(pairsOf(bp)).toEqual(brutePairs(t));
    }
    expect(bp.pairCount).toBeGreaterThan(25);
  });
});

/** a ground plane (shape 0) and side × side columns of 4 unit cubes on it, 1.1 m apart, each box a body */
function boxPile(side: number, gap: number): Scene {
  const n = 4 * side * side, q = new Float64Array(7 * n);
  const shapes: ShapeDesc[] = [{
    kind: 'plane', component: -1, qOffset: -1, isBody: false, params: [], position: [0, 0, 0],
    orientation: [1, 0, 0, 0], material: MAT, collide: true, name: 'ground',
  }];
  for (let k = 0; k < n; k++) {
    const col = Math.floor(k / 4);
    q.set([1.1 * (col % side), 1.1 * Math.floor(col / side), 0.5 + (1 + gap) * (k % 4), 1, 0, 0, 0], 7 * k);
    shapes.push({
      kind: 'box', component: k, qOffset: 7 * k, isBody: true, params: [0.5, 0.5, 0.5], position: [0, 0, 0],
      orientation: [1, 0, 0, 0], material: MAT, collide: true, name: `box${k}`,
    });
  }
  return { shapes, q };
}

/** every pair of colliding shapes that the filters allow, without any bounds test */
function brutePairsUnfiltered(t: ShapeTable): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < t.count; i++) for (let j = i + 1; j < t.count; j++) {
    if (t.collide[i] && t.collide[j] && t.component[i] !== t.component[j] && !(t.fixed[i] && t.fixed[j])) pairs.push([i, j]);
  }
  return pairs;
}
