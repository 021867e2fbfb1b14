/**
 * Point references: where a force attaches. A point is a particle, a point fixed on a rigid
 * body (a marker, or the centre of mass), or a fixed world point. Forces are written against
 * points; `PointMap` (src/forces/pointMap.ts) maps point forces and their Jacobians exactly onto
 * the components' generalized forces and blocks.
 */
export const POINT_WORLD = 0;
export const POINT_PARTICLE = 1;
export const POINT_BODY = 2;

import { quatToMat3 } from '../math/quat.js';

export interface PointRef {
  readonly kind: 0 | 1 | 2;          // POINT_WORLD, POINT_PARTICLE or POINT_BODY
  readonly name: string;             // for messages: the marker, particle or "world"
  readonly component: number;        // component index, −1 for world
  readonly qOffset: number;          // −1 for world
  readonly uOffset: number;          // −1 for world
  readonly block: number;            // solve block, −1 if world or not dynamic
  readonly local: Float64Array;      // (3) body coordinates (body point) or world position (world point)
}

/** the world position of a point at positions q (set-up only: allocates) */
export function pointAt(p: PointRef, q: Float64Array): Float64Array {
  if (p.kind === POINT_WORLD) return Float64Array.from(p.local);
  const x = Float64Array.of(q[p.qOffset]!, q[p.qOffset + 1]!, q[p.qOffset + 2]!);
  if (p.kind === POINT_BODY) {
    const R = quatToMat3(new Float64Array(9), q, p.qOffset + 3), l = p.local;
    for (let i = 0; i < 3; i++) x[i] = x[i]! + R[3 * i]! * l[0]! + R[3 * i + 1]! * l[1]! + R[3 * i + 2]! * l[2]!;
  }
  return x;
}
