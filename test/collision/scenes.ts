/**
 * Random scenes for the broadphase and collide tests: shapes of every kind on bodies (some sharing
 * a body, some fixed, some not colliding) and planes in the world, with positions q that move from
 * step to step; and the brute-force pair list the broadphase must reproduce.
 */
import fc from 'fast-check';
import type { ShapeDesc, ShapeKindName, ShapeTable } from '../../src/collision/shapes.js';
import { MAT, unit } from './geometry.js';

export interface Scene {
  shapes: ShapeDesc[];
  q: Float64Array;
}

const KINDS: ShapeKindName[] = ['sphere', 'capsule', 'box', 'cylinder', 'ellipsoid', 'plane'];
const PARAMS: Partial<Record<ShapeKindName, number>> = { sphere: 1, capsule: 2, box: 3, cylinder: 2, ellipsoid: 3, plane: 0 };

/** a deterministic generator in [0, 1) */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x / 2 ** 32;
  };
}

/** a scene of n shapes on about n/2 bodies in a cube of the given size; planes in the world */
export function randomScene(seed: number, n: number, size: number, planes = true): Scene {
  const r = rng(seed), bodies = Math.max(1, Math.ceil(n / 2)), fixedBody = bodies > 2 ? 0 : -1;
  const q = new Float64Array(7 * bodies);
  for (let b = 0; b < bodies; b++) {
    q.set([(r() - 0.5) * size, (r() - 0.5) * size, (r() - 0.5) * size], 7 * b);
    q.set(unit([r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5]), 7 * b + 3);
  }
  const shapes: ShapeDesc[] = [];
  for (let i = 0; i < n; i++) {
    const kind = KINDS[Math.floor(r() * (planes ? 6 : 5))]!, body = Math.floor(r() * bodies);
    const world = kind === 'plane';
    shapes.push({
      kind, component: world ? -1 : body, qOffset: world ? -1 : 7 * body, isBody: !world,
      params: Array.from({ length: PARAMS[kind]! }, () => 0.05 + 0.4 * r()),
      position: world ? [(r() - 0.5) * size, (r() - 0.5) * size, -size / 2] : [(r() - 0.5) * 0.3, (r() - 0.5) * 0.3, (r() - 0.5) * 0.3],
      orientation: world ? unit([1, 0.3 * (r() - 0.5), 0.3 * (r() - 0.5), 0]) : unit([r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5]),
      material: MAT, collide: r() > 0.1, name: `s${i}`, fixed: body === fixedBody,
    });
  }
  return { shapes, q };
}

/** moves every body by up to `step` and turns it a little (or scrambles it when step is large) */
export function perturb(q: Float64Array, step: number, r: () => number): void {
  for (let o = 0; o < q.length; o += 7) {
    for (let k = 0; k < 3; k++) q[o + k] = q[o + k]! + step * (r() - 0.5);
    const u = unit([q[o + 3]! + step * (r() - 0.5), q[o + 4]! + step * (r() - 0.5), q[o + 5]! + step * (r() - 0.5), q[o + 6]!]);
    q.set(u, o + 3);
  }
}

/** every pair the broadphase must report, by brute force over all pairs, sorted by (A, B) */
export function brutePairs(t: ShapeTable): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < t.count; i++) for (let j = i + 1; j < t.count; j++) {
    if (!t.collide[i] || !t.collide[j] || t.component[i] === t.component[j] || (t.fixed[i] && t.fixed[j])) continue;
    const pi = t.kind[i] === 0, pj = t.kind[j] === 0;
    if (pi && pj) continue;
    if (pi || pj) {
      const [p, s] = pi ? [i, j] : [j, i];
      if (planeReaches(t, p, s)) pairs.push([p, s]);
    } else if (boxesOverlap(t, i, j) && spheresReach(t, i, j)) pairs.push([i, j]);
  }
  return pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function boxesOverlap(t: ShapeTable, i: number, j: number): boolean {
  for (let k = 0; k < 3; k++) if (t.aabb[6 * i + k]! > t.aabb[6 * j + 3 + k]! || t.aabb[6 * j + k]! > t.aabb[6 * i + 3 + k]!) return false;
  return true;
}

function spheresReach(t: ShapeTable, i: number, j: number): boolean {
  const d = Math.hypot(t.pos[3 * i]! - t.pos[3 * j]!, t.pos[3 * i + 1]! - t.pos[3 * j + 1]!, t.pos[3 * i + 2]! - t.pos[3 * j + 2]!);
  return d <= t.bound[i]! + t.bound[j]! + t.margin;
}

/** the lowest corner of shape s's box along the plane's normal lies within half the margin above it */
function planeReaches(t: ShapeTable, p: number, s: number): boolean {
  const n = [t.rot[9 * p + 2]!, t.rot[9 * p + 5]!, t.rot[9 * p + 8]!];
  let lowest = Infinity;
  for (let c = 0; c < 8; c++) {
    const x = [0, 1, 2].map((k) => t.aabb[6 * s + ((c >> k) & 1 ? 3 : 0) + k]! - t.pos[3 * p + k]!);
    lowest = Math.min(lowest, n[0]! * x[0]! + n[1]! * x[1]! + n[2]! * x[2]!);
  }
  return lowest <= t.margin / 2;
}

export const arbSceneSeed = fc.integer({ min: 1, max: 2 ** 31 - 1 });
