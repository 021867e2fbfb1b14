/** small shared test utilities: a seeded RNG and max-norm comparisons */

/** deterministic uniform [0, 1) generator (mulberry32) */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** max |a_i − b_i|; throws if the lengths differ */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} ≠ ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/** max |a_i| */
export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

/** a b for row-major 3×3 matrices, as a plain array (an independent reference for tests) */
export function matMul3(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += a[3 * i + k]! * b[3 * k + j]!;
    out.push(s);
  }
  return out;
}

/** a vector with entries uniform in [−s, s) */
export function randomVec(r: () => number, s = 1): [number, number, number] { return [s * (2 * r() - 1), s * (2 * r() - 1), s * (2 * r() - 1)]; }

/** a random unit quaternion (w, x, y, z) */
export function randomQuat(r: () => number): [number, number, number, number] {
  const q: [number, number, number, number] = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  const n = Math.hypot(...q);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}
