/**
 * The narrowphase dispatch: one pair function per pair of shape kinds (docs/theory.md §17). A pair
 * function `f(shapes, a, b, manifold)` takes its shapes in kind-rank order (kind a ≤ kind b: plane,
 * sphere, capsule, box, cylinder, ellipsoid, hull, mesh) and appends the pair's contact points,
 * normals from a to b, each while its gap is below the margin, at most four per pair.
 *
 * - against a plane: sphere, capsule, box (./planePairs.ts), cylinder, ellipsoid, hull
 *   (./convex/planeConvex.ts);
 * - round pairs, exact closest points of point and segment cores (./roundPairs.ts);
 * - sphere, capsule and box against a box: closest points and the separating axis test with face
 *   clipping (./boxPairs.ts);
 * - every other pair of convex shapes: GJK distance, EPA depth, then the supporting features
 *   clipped (./convex/convexPair.ts);
 * - a convex shape against a mesh (or height field): the triangles under its box, each a convex
 *   pair, with inactive edges taking the face normal (./meshPairs.ts).
 *
 * Two planes, a plane and a mesh, and two meshes make no contacts (they are world geometry; a
 * dynamic mesh touches convex shapes only). A particle with a radius is a sphere.
 */
import {
  PLANE, SPHERE, CAPSULE, BOX, CYLINDER, ELLIPSOID, HULL, MESH, SHAPE_KINDS, type ShapeTable,
} from './shapes.js';
import type { Manifold } from './manifold.js';
import { planeSphere, planeCapsule, planeBox } from './planePairs.js';
import { sphereSphere, sphereCapsule, capsuleCapsule } from './roundPairs.js';
import { sphereBox, capsuleBox, boxBox } from './boxPairs.js';
import { planeCylinder, planeEllipsoid, planeHull } from './convex/planeConvex.js';
import { convexConvex } from './convex/convexPair.js';
import { convexMesh } from './meshPairs.js';

/** appends the contacts of shapes a and b (kind a ≤ kind b) to m, normals from a to b */
export type PairFunction = (shapes: ShapeTable, a: number, b: number, m: Manifold) => void;

/** the convex kinds, in rank order */
const CONVEX = [SPHERE, CAPSULE, BOX, CYLINDER, ELLIPSOID, HULL] as const;

/** the table, indexed by kindA · SHAPE_KINDS + kindB for kindA ≤ kindB */
const PAIR_FUNCTIONS: readonly (PairFunction | null)[] = buildTable([
  [PLANE, SPHERE, planeSphere],
  [PLANE, CAPSULE, planeCapsule],
  [PLANE, BOX, planeBox],
  [PLANE, CYLINDER, planeCylinder],
  [PLANE, ELLIPSOID, planeEllipsoid],
  [PLANE, HULL, planeHull],
  [SPHERE, SPHERE, sphereSphere],
  [SPHERE, CAPSULE, sphereCapsule],
  [CAPSULE, CAPSULE, capsuleCapsule],
  [SPHERE, BOX, sphereBox],
  [CAPSULE, BOX, capsuleBox],
  [BOX, BOX, boxBox],
  ...CONVEX.map((k) => [k, MESH, convexMesh] as const),
]);

function buildTable(entries: readonly (readonly [number, number, PairFunction])[]): (PairFunction | null)[] {
  const table: (PairFunction | null)[] = new Array<PairFunction | null>(SHAPE_KINDS * SHAPE_KINDS).fill(null);
  for (const [ka, kb, f] of entries) table[ka * SHAPE_KINDS + kb] = f;
  // every other pair of convex kinds takes the general path
  for (const ka of CONVEX) {
    for (const kb of CONVEX) if (ka <= kb) table[ka * SHAPE_KINDS + kb] ??= convexConvex;
  }
  return table;
}

/** the pair function of two kinds given in rank order (kindA ≤ kindB), null when they make no contacts */
export function pairFunction(kindA: number, kindB: number): PairFunction | null {
  return PAIR_FUNCTIONS[kindA * SHAPE_KINDS + kindB] ?? null;
}
