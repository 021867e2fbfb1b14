/**
 * The collide stage as a whole: contacts in (shape A, shape B, feature A, feature B) order with
 * unique keys, the same bits whatever the history of the broadphase's sort, the filters (one
 * component, fixed with fixed, collide = false, joined components unless their joints let them),
 * the side rules (a plane is A, else the lower index), a steady scene that allocates nothing, and a
 * dense grid of spheres between five planes with its exact contact count.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Collider } from '../../src/collision/collide.js';
import { ContactSet } from '../../src/contact/contactSet.js';
import type { ShapeDesc } from '../../src/collision/shapes.js';
import { randomScene, perturb, rng, arbSceneSeed } from './scenes.js';
import { MAT, sceneOf } from './geometry.js';
import { shapeDescriptions, joinedPairs } from '../../src/step/contactParts.js';
import { load } from '../helpers/modelFile.js';

function snapshot(c: ContactSet): number[][] {
  const n = c.count;
  return [c.compA, c.compB, c.shapeA, c.shapeB, c.featureA, c.featureB, c.gap, c.friction, c.restitution, c.compliance, c.damping]
    .map((a) => Array.from(a.subarray(0, n))).concat([Array.from(c.p_W.subarray(0, 3 * n)), Array.from(c.n_W.subarray(0, 3 * n))]);
}

describe('collide', () => {
  it('orders contacts by (shape A, shape B, feature A, feature B), each key once', () => {
    fc.assert(fc.property(arbSceneSeed, fc.integer({ min: 2, max: 50 }), (seed, n) => {
      const { shapes, q } = randomScene(seed, n, 1.2);
      const out = new ContactSet(4);
      new Collider(shapes, 0.1).collide(q, out);
      for (let i = 1; i < out.count; i++) {
        const a = [out.shapeA[i - 1]!, out.shapeB[i - 1]!, out.featureA[i - 1]!, out.featureB[i - 1]!];
        const b = [out.shapeA[i]!, out.shapeB[i]!, out.featureA[i]!, out.featureB[i]!];
        const k = a.findIndex((v, j) => v !== b[j]);
        expect(k).toBeGreaterThanOrEqual(0);
        expect(a[k]!).toBeLessThan(b[k]!);
      }
      // sides: a plane is A; otherwise A is the lower index; components follow the shapes
      for (let i = 0; i < out.count; i++) {
        const a = out.shapeA[i]!, b = out.shapeB[i]!;
        expect(shapes[b]!.kind).not.toBe('plane');
        if (shapes[a]!.kind !== 'plane') expect(a).toBeLessThan(b);
        expect([out.compA[i], out.compB[i]]).toEqual([shapes[a]!.component, shapes[b]!.component]);
      }
    }), { seed: 42, numRuns: 150 });
  });

  it('gives the same bits whatever the history of the sort', () => {
    fc.assert(fc.property(arbSceneSeed, fc.integer({ min: 2, max: 50 }), (seed, n) => {
      const { shapes, q } = randomScene(seed, n, 1.2);
      const fresh = new Collider(shapes, 0.1), used = new Collider(shapes, 0.1), r = rng(seed);
      const wander = q.slice();
      for (let k = 0; k < 6; k++) { perturb(wander, k === 2 ? 3 : 0.2, r); used.collide(wander, new ContactSet()); }
      const a = new ContactSet(), b = new ContactSet();
      fresh.collide(q, a);
      used.collide(q, b);
      expect(snapshot(b)).toEqual(snapshot(a));
    }), { seed: 43, numRuns: 100 });
  });

  it('never pairs shapes of one component, two fixed shapes or a shape that does not collide', () => {
    const { shapes, q } = sceneOf([
      { kind: 'plane', params: [], p: [0, 0, 0], q: [1, 0, 0, 0] },
      { kind: 'sphere', params: [0.2], p: [0, 0, 0.1], q: [1, 0, 0, 0] },
      { kind: 'sphere', params: [0.2], p: [0.1, 0, 0.1], q: [1, 0, 0, 0] },
      { kind: 'sphere', params: [0.2], p: [0.2, 0, 0.1], q: [1, 0, 0, 0] },
      { kind: 'sphere', params: [0.2], p: [0.3, 0, 0.1], q: [1, 0, 0, 0] },
    ]);
    const all = (): number => { const out = new ContactSet(); new Collider(shapes, 0.01).collide(q, out); return out.count; };
    expect(all()).toBe(4 + 6);
    // spheres 1 and 2 on one body (component 1): one pair fewer
    shapes[2] = { ...shapes[2]!, component: 1, qOffset: 7, position: [0.1, 0, 0] };
    expect(all()).toBe(4 + 5);
    // sphere 3 fixed: still pairs with the spheres, not with the fixed floor
    shapes[3] = { ...shapes[3]!, fixed: true };
    expect(all()).toBe(3 + 5);
    // sphere 4 does not collide at all
    shapes[4] = { ...shapes[4]!, collide: false };
    expect(all()).toBe(2 + 2);
  });

  it('joined components do not pair unless every constraint joining them lets them; group and mask reach the table', () => {
    const ball = (name: string, z: number) => ({ name, density: 1, shape: { type: 'sphere', radius: 0.2, group: 2, mask: 3 }, position: [0, 0, z] });
    const model = (collide: boolean[]) => load({
      bodies: [ball('a', 0), ball('b', 0.3), ball('c', 0.6)],
      joints: collide.map((c, i) => ({ type: 'ball', bodyA: i === 2 ? 'a' : 'abc'[i]!, bodyB: i === 2 ? 'b' : 'abc'[i + 1]!, position: [0, 0, 0.15 + 0.3 * (i % 2)], collide: c })),
    });
    const pairs = (collide: boolean[]): number[][] => {
      const m = model(collide), out = new ContactSet();
      const col = new Collider(shapeDescriptions(m), 0.01, joinedPairs(m));
      expect([col.shapes.group[0], col.shapes.mask[0]]).toEqual([2, 3]);
      col.collide(m.initialQ, out);
      return [...new Set(Array.from({ length: out.count }, (_, i) => `${out.compA[i]}${out.compB[i]}`))].map((k) => [...k].map(Number));
    };
    // a-b and b-c joined (a and c overlap no one): no pairs; a-b lets them: that pair only
    expect(pairs([false, false])).toEqual([]);
    expect(pairs([true, false])).toEqual([[0, 1]]);
    expect(pairs([true, true])).toEqual([[0, 1], [1, 2]]);
    // a second joint between a and b that does not let them keeps them apart
    expect(pairs([true, true, false])).toEqual([[1, 2]]);
    expect(joinedPairs(model([true, false, false]))).toEqual([[1, 2], [0, 1]]);
  });

  it('allocates nothing in a steady scene', () => {
    const { shapes, q } = randomScene(3, 80, 1);
    const col = new Collider(shapes, 0.05), out = new ContactSet(1), r = rng(4);
    col.collide(q, out);
    const arrays = snapshotArrays(out);
    expect(out.count).toBeGreaterThan(20);
    for (let k = 0; k < 10; k++) { perturb(q, 1e-4, r); col.collide(q, out); }
    expect(snapshotArrays(out).every((a, k) => a === arrays[k])).toBe(true);
  });

  it('a 10 × 10 × 10 grid of touching spheres between five planes: every face neighbour, no diagonal', () => {
    const { shapes, q } = sphereGrid(0.099);
    const out = new ContactSet();
    new Collider(shapes, 0.005).collide(q, out);
    // 3 · 9 · 100 neighbour pairs at gap −0.001; the floor at 0.01 and the walls at 0.05 are beyond the margin
    expect(out.count).toBe(2700);
    for (let i = 0; i < out.count; i++) {
      expect(out.gap[i]).toBeCloseTo(-0.001, 12);
      const n = Array.from(out.n_W.subarray(3 * i, 3 * i + 3)).map(Math.abs).sort();
      expect(n[2]).toBeCloseTo(1, 12);
    }
    const touching = new Collider(shapes, 0.02), near = new ContactSet();
    touching.collide(q, near);
    // the floor under the 100 lowest spheres joins (gap 0.01); the walls (gap 0.1045) and diagonals (0.04) stay out
    expect(near.count).toBe(2800);
  });
});

function snapshotArrays(c: ContactSet): (Int32Array | Float64Array)[] {
  return [c.compA, c.shapeA, c.featureA, c.p_W, c.n_W, c.gap, c.friction, c.damping];
}

/** 1000 spheres of radius 0.05 on a grid of the given pitch, the lowest at z = 0.06, in a box of five planes */
export function sphereGrid(pitch: number): { shapes: ShapeDesc[]; q: Float64Array } {
  const s = Math.SQRT1_2, shapes: ShapeDesc[] = [];
  const planes: [number[], number[]][] = [
    [[0, 0, 0], [1, 0, 0, 0]], [[-0.6, 0, 0], [s, 0, s, 0]], [[0.6, 0, 0], [s, 0, -s, 0]],
    [[0, -0.6, 0], [s, -s, 0, 0]], [[0, 0.6, 0], [s, s, 0, 0]],
  ];
  for (const [p, o] of planes) {
    shapes.push({ kind: 'plane', component: -1, qOffset: -1, isBody: false, params: [], position: p, orientation: o, material: MAT, collide: true, name: `wall${shapes.length}` });
  }
  const q = new Float64Array(7000);
  for (let c = 0; c < 1000; c++) {
    const i = c % 10, j = Math.floor(c / 10) % 10, k = Math.floor(c / 100);
    q.set([(i - 4.5) * pitch, (j - 4.5) * pitch, 0.06 + k * pitch, 1, 0, 0, 0], 7 * c);
    shapes.push({ kind: 'sphere', component: c, qOffset: 7 * c, isBody: true, params: [0.05], position: [0, 0, 0], orientation: [1, 0, 0, 0], material: MAT, collide: true, name: `ball${c}` });
  }
  return { shapes, q };
}
