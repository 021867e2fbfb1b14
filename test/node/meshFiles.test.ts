/**
 * The mesh-file readers of node/meshFiles.ts on small files in a temporary folder: OBJ (polygons,
 * negative indices, v/vt/vn corners, comments), binary STL (also with a header beginning "solid")
 * and ASCII STL with their corners merged, each giving a closed TriMesh, and the one-line errors
 * naming the file and the line or triangle.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMeshFile } from '../../node/meshFiles.js';
import { TriMesh } from '../../src/collision/mesh.js';
import { ModelError } from '../../src/model/errors.js';

let dir = '';
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'vinculum-mesh-')); });
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function errorOf(f: () => unknown): string {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(ModelError); return (e as Error).message; }
  throw new Error('no error');
}

/** the unit cube's corners and its 12 outward triangles */
const CUBE_V = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]];
const CUBE_QUADS = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
const CUBE_T = CUBE_QUADS.flatMap(([a, b, c, d]) => [[a!, b!, c!], [a!, c!, d!]]);

function binaryStl(header: string, tris: readonly (readonly number[])[], points: readonly (readonly number[])[]): Uint8Array {
  const bytes = new Uint8Array(84 + 50 * tris.length), view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(header).subarray(0, 80));
  view.setUint32(80, tris.length, true);
  tris.forEach((t, i) => {
    t.forEach((v, k) => points[v]!.forEach((x, c) => view.setFloat32(84 + 50 * i + 12 + 12 * k + 4 * c, x, true)));
  });
  return bytes;
}

/** each triangle as its three corner points */
function corners(m: { vertices: number[][]; triangles: number[][] }): number[][][] {
  return m.triangles.map((t) => t.map((i) => m.vertices[i]!));
}

describe('OBJ', () => {
  it('reads quads fan-split, negative and v/vt/vn corners, and skips comments', () => {
    const lines = ['# a cube', 'o cube', ...CUBE_V.map((v) => `v ${v.join(' ')}  # corner`), 'vt 0 0', 'vn 0 0 1', 's off'];
    CUBE_QUADS.forEach((q, i) => {
      const forms = [(v: number) => `${v + 1}`, (v: number) => `${v + 1}/1`, (v: number) => `${v + 1}//1`,
        (v: number) => `${v + 1}/1/1`, (v: number) => `${v - 8}`, (v: number) => `${v - 8}/1/1`];
      lines.push(`f ${q.map(forms[i]!).join(' ')}`);
    });
    const m = readMeshFile(file('cube.OBJ', lines.join('\r\n')));
    expect(m.vertices).toEqual(CUBE_V);
    expect(m.triangles).toEqual(CUBE_T);
    expect(TriMesh.from(m.vertices, m.triangles, 'cube').closed).toBe(true);
  });

  it('fan-splits a pentagon', () => {
    const m = readMeshFile(file('penta.obj', 'v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\n'));
    expect(m.triangles).toEqual([[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
  });

  it('names the file and line of bad input', () => {
    const p = file('bad.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n');
    expect(errorOf(() => readMeshFile(p))).toBe(`${p}: line 5: face corner 4 refers to no vertex (3 read so far)`);
    const q = file('bad2.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 -4 2\n');
    expect(errorOf(() => readMeshFile(q))).toMatch(/line 4: face corner -4 refers to no vertex/);
    expect(errorOf(() => readMeshFile(file('bad3.obj', 'v 0 0 0\nv 1 0 0\nf 1 2\n')))).toMatch(/line 3: a face needs at least 3 corners, got 2$/);
    expect(errorOf(() => readMeshFile(file('bad4.obj', 'v 0 0\n')))).toMatch(/line 1: expected 3 finite numbers after v, got "0 0"$/);
    expect(errorOf(() => readMeshFile(file('bad5.obj', 'v 0 0 0\nf 0 1 1\n')))).toMatch(/line 2: bad face corner "0"$/);
    expect(errorOf(() => readMeshFile(file('empty.obj', '# nothing\nv 0 0 0\n')))).toMatch(/empty\.obj: no faces/);
    const missing = join(dir, 'missing.obj');
    expect(errorOf(() => readMeshFile(missing))).toBe(`${missing}: cannot read: no such file or directory`);
    expect(errorOf(() => readMeshFile(file('mesh.ply', '')))).toMatch(/unknown mesh file type "\.ply": expected \.obj or \.stl$/);
  });
});

describe('STL', () => {
  it('reads binary STL, a header beginning "solid" included, merging identical corners', () => {
    const pts = CUBE_V.map((v) => v.map((x) => 0.1 + 0.7 * x));
    for (const header of ['binary cube', 'solid cube (binary)']) {
      const m = readMeshFile(file('cube.stl', binaryStl(header, CUBE_T, pts)));
      // vertices in order of first appearance, each once
      expect(m.vertices.length).toBe(8);
      expect(m.triangles[0]).toEqual([0, 1, 2]);
      expect(corners(m)).toEqual(CUBE_T.map((t) => t.map((i) => pts[i]!.map(Math.fround))));
      expect(TriMesh.from(m.vertices, m.triangles, 'cube').closed).toBe(true);
    }
  });

  it('reads ASCII STL and merges its soup into a closed tetrahedron', () => {
    const v = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], tris = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    const text = ['solid tet', ...tris.flatMap((t) => ['  facet normal 0 0 0', '    outer loop',
      ...t.map((i) => `      vertex ${v[i]!.map((x) => x.toExponential()).join(' ')}`), '    endloop', '  endfacet']), 'endsolid tet'];
    const m = readMeshFile(file('tet.stl', text.join('\n')));
    expect(m.vertices).toEqual([v[0], v[2], v[1], v[3]]);
    expect(corners(m)).toEqual(tris.map((t) => t.map((i) => v[i])));
    expect(TriMesh.from(m.vertices, m.triangles, 'tet').closed).toBe(true);
  });

  it('names the file and the line or triangle of bad input', () => {
    const two = 'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n';
    const p = file('two.stl', two);
    expect(errorOf(() => readMeshFile(p))).toBe(`${p}: line 2: a facet needs 3 vertices, got 2`);
    expect(errorOf(() => readMeshFile(file('nan.stl', 'solid x\nfacet\nvertex 0 nan 0\n')))).toMatch(/line 3: expected 3 finite numbers after vertex/);
    const bin = binaryStl('x', [[0, 1, 2], [0, 1, 2]], [[0, 0, 0], [1, 0, 0], [0, NaN, 0]]);
    expect(errorOf(() => readMeshFile(file('nan2.stl', bin)))).toMatch(/nan2\.stl: triangle 1: a coordinate is not finite \(NaN\)$/);
    expect(errorOf(() => readMeshFile(file('junk.stl', 'hello')))).toMatch(/neither binary STL .* nor ASCII STL/);
    expect(errorOf(() => readMeshFile(file('none.stl', binaryStl('x', [], []))))).toMatch(/no triangles in the file$/);
  });
});
