import { describe, it, expect } from 'vitest';
import { Slab } from '../../src/math/slab.js';

describe('Slab', () => {
  it('hands out consecutive, disjoint views of one buffer and refuses to overflow', () => {
    const s = new Slab(7), a = s.take(3), b = s.take(4);
    expect(a.buffer).toBe(b.buffer);
    expect(b.byteOffset - a.byteOffset).toBe(3 * 8);
    a.fill(1); b.fill(2);
    expect(Array.from(a)).toEqual([1, 1, 1]);
    expect(Array.from(b)).toEqual([2, 2, 2, 2]);
    expect(() => s.take(1)).toThrow(/exceeds/);
  });
});
