/**
 * Height fields of src/collision/heightfield.ts: the grid's vertices and triangles (exact), upward
 * normals, a tilted plane with no active inner edge, a ridge whose crest is active, and the
 * one-line errors on bad grids.
 */
import { describe, it, expect } from 'vitest';
import { heightFieldMesh } from '../../src/collision/heightfield.js';
import { EDGE_ACTIVE } from '../../src/collision/mesh.js';
import { ModelError } from '../../src/model/errors.js';

function errorOf(f: () => unknown): string {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(ModelError); return (e as Error).message; }
  throw new Error('no error');
}

describe('heightFieldMesh', () => {
  it('places the grid centred on the origin, rows along y, and splits each cell on its diagonal', () => {
    const m = heightFieldMesh({ size: [4, 2], heights: [[0, 1, 2], [3, 4, 5]] }, 'hf');
    expect(Array.from(m.vertices)).toEqual([-2, -1, 0, 0, -1, 1, 2, -1, 2, -2, 1, 3, 0, 1, 4, 2, 1, 5]);
    expect(Array.from(m.triangles)).toEqual([0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4]);
    for (let t = 0; t < m.triangleCount; t++) expect(m.triangleNormals[3 * t + 2]!).toBeGreaterThan(0);
    expect(Array.from(m.boxCenter)).toEqual([0, 0, 2.5]);
    expect(Array.from(m.boxHalf)).toEqual([2, 1, 2.5]);
    expect(m.closed).toBe(false);
  });

  it('a tilted plane: every normal equal, no inner edge active', () => {
    const n = 6, heights = Array.from({ length: n }, (_, j) => Array.from({ length: n }, (_, i) => 0.25 * i - 0.5 * j));
    const m = heightFieldMesh({ size: [5, 5], heights }, 'slope');
    const expected = [-0.25, 0.5, 1].map((v) => v / Math.hypot(0.25, 0.5, 1));
    for (let t = 0; t < m.triangleCount; t++) {
      for (let k = 0; k < 3; k++) expect(m.triangleNormals[3 * t + k]!).toBeCloseTo(expected[k]!, 14);
      for (let k = 0; k < 3; k++) {
        expect((m.activeFlags[t]! & (EDGE_ACTIVE << k)) !== 0).toBe(m.neighbors[3 * t + k]! < 0);
      }
    }
  });

  it('a ridge along y: the crest edges are active, the slopes flat', () => {
    // columns x = −1, 0, 1 with heights 0, 1, 0: the crest is the column x = 0
    const heights = Array.from({ length: 4 }, () => [0, 1, 0]);
    const m = heightFieldMesh({ size: [2, 3], heights }, 'ridge');
    for (let t = 0; t < m.triangleCount; t++) {
      for (let k = 0; k < 3; k++) {
        const a = m.triangles[3 * t + k]!, b = m.triangles[3 * t + (k + 1) % 3]!;
        const crest = m.vertices[3 * a] === 0 && m.vertices[3 * b] === 0;
        const inner = m.neighbors[3 * t + k]! >= 0;
        if (inner) expect((m.activeFlags[t]! & (EDGE_ACTIVE << k)) !== 0).toBe(crest);
      }
    }
  });

  it('refuses bad grids on one line naming the shape', () => {
    expect(errorOf(() => heightFieldMesh({ size: [1, 1], heights: [[0, 0]] }, 'hf')))
      .toBe('shape "hf".heights: expected at least 2 rows of heights');
    expect(errorOf(() => heightFieldMesh({ size: [1, 1], heights: [[0], [0]] }, 'hf')))
      .toBe('shape "hf".heights[0]: expected at least 2 heights in a row');
    expect(errorOf(() => heightFieldMesh({ size: [1, 1], heights: [[0, 0], [0, 0, 0]] }, 'hf')))
      .toBe('shape "hf".heights[1]: expected 2 heights, as row 0 has, got 3');
    expect(errorOf(() => heightFieldMesh({ size: [1, 1], heights: [[0, 0], [0, Infinity]] }, 'hf')))
      .toBe('shape "hf".heights[1][1]: must be a finite number, got Infinity');
    expect(errorOf(() => heightFieldMesh({ size: [1, -1], heights: [[0, 0], [0, 0]] }, 'hf')))
      .toBe('shape "hf".size: expected [L_x, L_y], finite and > 0, got [1,-1]');
    expect(errorOf(() => heightFieldMesh({ size: [1], heights: [[0, 0], [0, 0]] }, 'hf'))).toMatch(/size: expected/);
    expect(errorOf(() => heightFieldMesh({ size: [1, 1], heights: [[0, 0], [0, NaN]] }, 'hf', 'bodies[0].shapes[1]')))
      .toBe('bodies[0].shapes[1].heights[1][1]: must be a finite number, got NaN');
  });
});
