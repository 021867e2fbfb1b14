/**
 * TriMesh of src/collision/mesh.ts: the checks of its input (one-line errors naming the shape),
 * normals, neighbours, the closed flag, the active edges and vertices (exact on a cube, a flat
 * grid, a ridge, a valley and a ridge below the angle tolerance) and its bounds.
 */
import { describe, it, expect } from 'vitest';
import { TriMesh, EDGE_ACTIVE, VERTEX_ACTIVE, ACTIVE_EDGE_COS } from '../../src/collision/mesh.js';
import { ModelError } from '../../src/model/errors.js';

/** the cube [−1, 1]³ as 12 outward triangles */
export function cube(): { vertices: number[][]; triangles: number[][] } {
  const vertices: number[][] = [];
  for (let k = 0; k < 8; k++) vertices.push([k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1]);
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  const triangles = quads.flatMap(([a, b, c, d]) => [[a!, b!, c!], [a!, c!, d!]]);
  return { vertices, triangles };
}

/** an n × n grid of unit squares in the plane z = 0, each split along its (i, j)–(i+1, j+1) diagonal */
export function grid(n: number): { vertices: number[][]; triangles: number[][] } {
  const vertices: number[][] = [], triangles: number[][] = [], id = (i: number, j: number): number => j * (n + 1) + i;
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) vertices.push([i, j, 0]);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)], [id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
  }
  return { vertices, triangles };
}

/** two triangles sharing the edge (0,−1,0)–(0,1,0), the second turned about it by `angle` (> 0 bends down) */
function hinge(angle: number): TriMesh {
  const c = Math.cos(angle), s = Math.sin(angle);
  return TriMesh.from([[0, -1, 0], [0, 1, 0], [-1, 0, 0], [c, 0, -s]], [[0, 1, 2], [1, 0, 3]], 'hinge');
}

function errorOf(f: () => unknown): string {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(ModelError); return (e as Error).message; }
  throw new Error('no error');
}

describe('TriMesh input', () => {
  it('takes flat lists and lists of triples alike', () => {
    const { vertices, triangles } = cube();
    const a = TriMesh.from(vertices, triangles, 'a'), b = TriMesh.from(vertices.flat(), triangles.flat(), 'b');
    expect(Array.from(b.vertices)).toEqual(Array.from(a.vertices));
    expect(Array.from(b.triangles)).toEqual(Array.from(a.triangles));
    expect(a.vertexCount).toBe(8);
    expect(a.triangleCount).toBe(12);
  });

  it('refuses bad input on one line naming the shape', () => {
    const v = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
    expect(errorOf(() => TriMesh.from([[0, 0, 0], [1, NaN, 0], [0, 1, 0]], [[0, 1, 2]], 'floor')))
      .toBe('shape "floor".vertices[1]: coordinate 1 is not finite (NaN)');
    expect(errorOf(() => TriMesh.from(v, [[0, 1, 3]], 'floor')))
      .toBe('shape "floor".triangles[0]: index 3 is not an integer in [0, 2]');
    expect(errorOf(() => TriMesh.from(v, [[0, 1, 1.5]], 'floor')))
      .toBe('shape "floor".triangles[0]: index 1.5 is not an integer in [0, 2]');
    expect(errorOf(() => TriMesh.from(v, [[0, 1, -1]], 'floor'))).toMatch(/index -1 is not/);
    expect(errorOf(() => TriMesh.from(v, [], 'floor'))).toBe('shape "floor".triangles: a mesh needs at least 1 triangle');
    expect(errorOf(() => TriMesh.from([...v, [2, 0, 0]], [[0, 1, 2], [0, 1, 3]], 'floor')))
      .toBe('shape "floor".triangles[1]: degenerate triangle (zero area): [0, 1, 3]');
    expect(errorOf(() => TriMesh.from(v, [[0, 1, 1]], 'floor'))).toMatch(/degenerate triangle/);
    expect(errorOf(() => TriMesh.from([[0, 0]], [[0, 0, 0]], 'floor'))).toBe('shape "floor".vertices[0]: expected 3 numbers');
    expect(errorOf(() => TriMesh.from([0, 0, 0, 1], [0, 0, 0], 'floor'))).toMatch(/expected x, y, z per vertex, got 4/);
  });

  it('names the JSON path it is given', () => {
    expect(errorOf(() => TriMesh.from([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 7]], 'floor', 'world.shapes[2]')))
      .toBe('world.shapes[2].triangles[0]: index 7 is not an integer in [0, 2]');
  });

  it('keeps a thin but valid triangle', () => {
    const m = TriMesh.from([[0, 0, 0], [1, 0, 0], [0.5, 1e-5, 0]], [[0, 1, 2]], 'thin');
    expect(Array.from(m.triangleNormals)).toEqual([0, 0, 1]);
  });
});

describe('TriMesh topology', () => {
  it('a cube: outward normals, closed, every edge and vertex active, bounds', () => {
    const { vertices, triangles } = cube(), m = TriMesh.from(vertices, triangles, 'cube');
    expect(m.closed).toBe(true);
    for (let t = 0; t < 12; t++) {
      const n = Array.from(m.triangleNormals.subarray(3 * t, 3 * t + 3));
      const centroid = [0, 1, 2].map((k) => triangles[t]!.reduce((s, i) => s + vertices[i]![k]!, 0) / 3);
      // the normal is one of ±e_k, pointing the way the centroid lies
      expect(n.filter((x) => x === 0).length).toBe(2);
      expect(n.reduce((s, x, k) => s + x * centroid[k]!, 0)).toBeGreaterThan(0.3);
      // the diagonal of each face is flat (inactive); the cube's own edges are active
      for (let k = 0; k < 3; k++) {
        const u = m.neighbors[3 * t + k]!;
        expect(u).toBeGreaterThanOrEqual(0);
        expect(Array.from(m.neighbors.subarray(3 * u, 3 * u + 3))).toContain(t);
        const coplanar = n.every((x, j) => x === m.triangleNormals[3 * u + j]);
        expect((m.activeFlags[t]! & (EDGE_ACTIVE << k)) !== 0).toBe(!coplanar);
        expect(m.activeFlags[t]! & (VERTEX_ACTIVE << k)).not.toBe(0);
      }
    }
    expect(Array.from(m.boxCenter)).toEqual([0, 0, 0]);
    expect(Array.from(m.boxHalf)).toEqual([1, 1, 1]);
    expect(m.radius).toBe(Math.sqrt(3));
  });

  it('a cube without its top, or with a triangle turned, is not closed', () => {
    const { vertices, triangles } = cube();
    expect(TriMesh.from(vertices, triangles.slice(0, 10).concat(triangles.slice(12)), 'open').closed).toBe(false);
    const turned = triangles.map((t, i) => (i === 3 ? [t[0]!, t[2]!, t[1]!] : t));
    const m = TriMesh.from(vertices, turned, 'turned');
    expect(m.closed).toBe(false);
    // the turned triangle's edges are kept active: their orientation is unknown
    expect(m.activeFlags[3]! & 7).toBe(7);
  });

  it('a flat grid: border edges and vertices active, inner ones not', () => {
    const n = 4, { vertices, triangles } = grid(n), m = TriMesh.from(vertices, triangles, 'grid');
    expect(m.closed).toBe(false);
    const onBorder = (i: number): boolean => vertices[i]!.slice(0, 2).some((x) => x === 0 || x === n);
    for (let t = 0; t < m.triangleCount; t++) {
      expect(Array.from(m.triangleNormals.subarray(3 * t, 3 * t + 3))).toEqual([0, 0, 1]);
      for (let k = 0; k < 3; k++) {
        const a = triangles[t]![k]!, b = triangles[t]![(k + 1) % 3]!;
        const border = onBorder(a) && onBorder(b) && (vertices[a]![0] === vertices[b]![0] || vertices[a]![1] === vertices[b]![1]);
        expect((m.activeFlags[t]! & (EDGE_ACTIVE << k)) !== 0).toBe(border);
        expect(m.neighbors[3 * t + k]! < 0).toBe(border);
        expect((m.activeFlags[t]! & (VERTEX_ACTIVE << k)) !== 0).toBe(onBorder(a));
      }
    }
  });

  it('a ridge is active, a valley and a ridge below the tolerance are not', () => {
    const inner = (m: TriMesh): number[] => [m.activeFlags[0]! & EDGE_ACTIVE, m.activeFlags[1]! & EDGE_ACTIVE];
    expect(inner(hinge(0.3))).toEqual([1, 1]);
    expect(inner(hinge(-0.3))).toEqual([0, 0]);
    const tol = Math.acos(ACTIVE_EDGE_COS);
    expect(inner(hinge(0.9 * tol))).toEqual([0, 0]);
    expect(inner(hinge(1.1 * tol))).toEqual([1, 1]);
    // a knife edge folded almost flat onto itself is convex
    expect(inner(hinge(Math.PI - 0.01))).toEqual([1, 1]);
    expect(hinge(0.3).neighbors[0]).toBe(1);
  });
});
