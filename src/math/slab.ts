/**
 * Consecutive views into one Float64Array: an object that keeps many small vectors (a joint's
 * frames, lever arms and rates) allocates them together, so they sit next to each other in
 * memory instead of being scattered one allocation each (measured: the joint kinematics of a
 * 10 000-link chain were the largest self time, mostly cache misses).
 */
export class Slab {
  private used = 0;
  private readonly buf: Float64Array;

  constructor(size: number) { this.buf = new Float64Array(size); }

  /** the next n numbers, as a view; throws when the slab is full (a sizing error in the caller) */
  take(n: number): Float64Array {
    if (this.used + n > this.buf.length) throw new Error(`Slab: ${this.used} + ${n} exceeds its ${this.buf.length} numbers`);
    const v = this.buf.subarray(this.used, this.used + n);
    this.used += n;
    return v;
  }
}
