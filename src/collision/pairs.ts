/**
 * The narrowphase dispatch: one pair function per pair of shape kinds (docs/theory.md §14). A pair
 * function `f(shapes, a, b, manifold)` takes its shapes in kind-rank order (kind a ≤ kind b: plane,
 * sphere, capsule, box, cylinder, ellipsoid) and appends the pair's contact points, normals from a
 * to b, each while its gap is below the margin. Kinds without a function (cylinders, ellipsoids,
 * box-box …) produce no contacts; new pairs plug in here, and nothing downstream changes.
 *
 * Pairs of this table: plane-sphere, plane-capsule, plane-box (./planePairs.ts), sphere-sphere,
 * sphere-capsule, capsule-capsule (./roundPairs.ts). A particle with a radius is a sphere.
 */
import { PLANE, SPHERE, CAPSULE, BOX, SHAPE_KINDS, type ShapeTable } from './shapes.js';
import type { Manifold } from './manifold.js';
import { planeSphere, planeCapsule, planeBox } from './planePairs.js';
import { sphereSphere, sphereCapsule, capsuleCapsule } from './roundPairs.js';

/** appends the contacts of shapes a and b (kind a ≤ kind b) to m, normals from a to b */
export type PairFunction = (shapes: ShapeTable, a: number, b: number, m: Manifold) => void;

/** the table, indexed by kindA · SHAPE_KINDS + kindB for kindA ≤ kindB */
const PAIR_FUNCTIONS: readonly (PairFunction | null)[] = buildTable([
  [PLANE, SPHERE, planeSphere],
  [PLANE, CAPSULE, planeCapsule],
  [PLANE, BOX, planeBox],
  [SPHERE, SPHERE, sphereSphere],
  [SPHERE, CAPSULE, sphereCapsule],
  [CAPSULE, CAPSULE, capsuleCapsule],
]);

function buildTable(entries: readonly (readonly [number, number, PairFunction])[]): (PairFunction | null)[] {
  const table: (PairFunction | null)[] = new Array<PairFunction | null>(SHAPE_KINDS * SHAPE_KINDS).fill(null);
  for (const [ka, kb, f] of entries) table[ka * SHAPE_KINDS + kb] = f;
  return table;
}

/** the pair function of two kinds given in rank order (kindA ≤ kindB), null when they make no contacts */
export function pairFunction(kindA: number, kindB: number): PairFunction | null {
  return PAIR_FUNCTIONS[kindA * SHAPE_KINDS + kindB] ?? null;
}
