/**
 * The broadphase finds exactly the pairs brute force finds (boxes that overlap, bounding spheres
 * within the margin, planes reached by a box, the filters), in (A, B) order, over random scenes that
 * move from step to step: small motions (the insertion sort), scrambles (the merge sort) and a
 * stretch along one axis (a change of sweep axis). It misses no pair that has contacts, and in a
 * steady scene it allocates nothing.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ShapeTable } from '../../src/collision/shapes.js';
import { Broadphase } from '../../src/collision/broadphase.js';
import { Manifold } from '../../src/collision/manifold.js';
import { pairFunction } from '../../src/collision/pairs.js';
import { randomScene, perturb, brutePairs, rng, arbSceneSeed } from './scenes.js';
import { MAT } from './geometry.js';

function pairsOf(bp: Broadphase): [number, number][] {
  return Array.from({ length: bp.pairCount }, (_, k) => [bp.pairA[k]!, bp.pairB[k]!] as [number, number]);
}

describe('broadphase', () => {
  it('finds exactly the brute-force pairs on random scenes, step after step', () => {
    fc.assert(fc.property(arbSceneSeed, fc.integer({ min: 2, max: 60 }), fc.double({ min: 0, max: 0.3, noNaN: true }), (seed, n, margin) => {
      const { shapes, q } = randomScene(seed, n, 3);
      const t = new ShapeTable(shapes, margin), bp = new Broadphase(t), r = rng(seed + 1);
      for (let step = 0; step < 12; step++) {
        // mostly small motions; a scramble at step 5, a stretch along y from step 8
        if (step === 5) perturb(q, 4, r); else perturb(q, 0.05, r);
        if (step >= 8) for (let o = 1; o < q.length; o += 7) q[o] = q[o]! * 3;
        t.updatePoses(q);
        bp.update();
        expect(pairsOf(bp)).toEqual(brutePairs(t));
      }
    }), { seed: 42, numRuns: 150 });
  });

  it('misses no pair with contacts', () => {
    fc.assert(fc.property(arbSceneSeed, fc.integer({ min: 2, max: 40 }), fc.double({ min: 0, max: 0.3, noNaN: true }), (seed, n, margin) => {
      const { shapes, q } = randomScene(seed, n, 1.5);
      const t = new ShapeTable(shapes, margin), bp = new Broadphase(t), m = new Manifold();
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

  it('sweeps along the axis of largest spread, and keeps it until another spreads 1.5 times more', () => {
    // 20 spheres on a line: x = 0.1 k sx, z = 0.1 k sz, so the variances are in the ratio sx² : sz²
    const shapes = Array.from({ length: 20 }, (_, k) => ({
      kind: 'sphere' as const, component: k, qOffset: 7 * k, isBody: true, params: [0.05], position: [0, 0, 0],
      orientation: [1, 0, 0, 0], material: MAT, collide: true, name: `s${k}`,
    }));
    const t = new ShapeTable(shapes, 0.01), bp = new Broadphase(t), q = new Float64Array(140);
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

  it('restores a scrambled order of many shapes (merge sort past the insertion budget)', () => {
    const { shapes, q } = randomScene(5, 400, 4, false);
    const t = new ShapeTable(shapes, 0.02), bp = new Broadphase(t), r = rng(9);
    t.updatePoses(q); bp.update();
    for (let step = 0; step < 3; step++) {
      perturb(q, 6, r);
      t.updatePoses(q); bp.update();
      expect(pairsOf(bp)).toEqual(brutePairs(t));
    }
  });

  it('allocates nothing in a steady scene', () => {
    const { shapes, q } = randomScene(11, 60, 1.5);
    const t = new ShapeTable(shapes, 0.05), bp = new Broadphase(t), r = rng(3);
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

/** every pair of colliding shapes that the filters allow, without any bounds test */
function brutePairsUnfiltered(t: ShapeTable): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < t.count; i++) for (let j = i + 1; j < t.count; j++) {
    if (t.collide[i] && t.collide[j] && t.component[i] !== t.component[j] && !(t.fixed[i] && t.fixed[j])) pairs.push([i, j]);
  }
  return pairs;
}
