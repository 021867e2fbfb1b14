/**
 * Triangle-mesh files for `vinculum/node`: Wavefront OBJ and STL (binary or ASCII), read into the
 * vertex and triangle lists that `TriMesh.from` (src/collision/mesh.ts) takes (docs/theory.md §17).
 *
 * OBJ: `v x y z` lines give vertices (a fourth weight and trailing colours are ignored); `f` lines
 * give polygons whose corners are `i`, `i/t`, `i//n` or `i/t/n`, with i counted from 1, or from
 * the end of the vertices read so far when negative (−1 is the last); a polygon of k corners is
 * split into the fan (c₀, c_j, c_{j+1}), j = 1 … k − 2. Everything after `#` is a comment; other
 * statements (vt, vn, o, g, s, usemtl …) are ignored.
 *
 * STL: binary when the file is exactly 84 + 50 n bytes for the n its header states (many binary
 * files also begin with "solid"), ASCII when it begins with `solid`. STL stores each triangle's
 * corners by value (a soup): identical corners (equal coordinates) are merged into one vertex, in
 * order of first appearance, so that the mesh knows its neighbours; stored normals are ignored
 * (the winding gives them).
 *
 * Errors are ModelErrors on one line naming the file and the line (OBJ, ASCII STL) or triangle
 * (binary STL).
 */
import { readFileSync } from 'node:fs';
import { ModelError } from '../src/model/errors.js';

/** a mesh as lists of points and of triangles (vertex indices from 0) */
export interface MeshLists {
  /** vertex positions [x, y, z], in the file's units */
  vertices: number[][];
  /** triangles as vertex indices [i, j, k] (0-based), counter-clockwise seen from outside */
  triangles: number[][];
}

/** reads an OBJ or STL file (by its extension, .obj or .stl, any case) */
export function readMeshFile(path: string): MeshLists {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (ext !== 'obj' && ext !== 'stl') {
    throw new ModelError(path, `unknown mesh file type ".${ext}": expected .obj or .stl`);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
    const why = code === 'ENOENT' ? 'no such file or directory' : (e as Error).message;
    throw new ModelError(path, `cannot read: ${why}`);
  }
  return ext === 'obj' ? parseObj(bytes.toString('utf8'), path) : parseStl(bytes, path);
}

/** the vertices and fan-triangulated faces of OBJ text; `source` names it in errors */
export function parseObj(text: string, source: string): MeshLists {
  const vertices: number[][] = [], triangles: number[][] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, n) => {
    const hash = raw.indexOf('#'), line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line === '') return;
    const words = line.split(/\s+/), where = `line ${n + 1}`;
    if (words[0] === 'v') vertices.push(objVertex(words, source, where));
    else if (words[0] === 'f') {
      const corners = words.slice(1).map((w) => objIndex(w, vertices.length, source, where));
      if (corners.length < 3) {
        throw new ModelError(source, `${where}: a face needs at least 3 corners, got ${corners.length}`);
      }
      for (let j = 1; j + 1 < corners.length; j++) triangles.push([corners[0]!, corners[j]!, corners[j + 1]!]);
    }
  });
  if (triangles.length === 0) throw new ModelError(source, 'no faces (f lines) in the file');
  return { vertices, triangles };
}

/** the point of a `v x y z` line */
function objVertex(words: readonly string[], source: string, where: string): number[] {
  const xyz = words.slice(1, 4).map(Number);
  if (xyz.length !== 3 || !xyz.every(Number.isFinite)) {
    throw new ModelError(source, `${where}: expected 3 finite numbers after v, got "${words.slice(1).join(' ')}"`);
  }
  return xyz;
}

/** the vertex index (from 0) of a face corner `i`, `i/t`, `i//n` or `i/t/n`, with count vertices read */
function objIndex(word: string, count: number, source: string, where: string): number {
  const text = word.split('/')[0]!, i = Number(text);
  if (!Number.isInteger(i) || i === 0 || text === '') {
    throw new ModelError(source, `${where}: bad face corner "${word}"`);
  }
  const index = i > 0 ? i - 1 : count + i;
  if (index < 0 || index >= count) {
    throw new ModelError(source, `${where}: face corner ${i} refers to no vertex (${count} read so far)`);
  }
  return index;
}

/** the mesh of STL bytes, binary or ASCII; `source` names it in errors */
export function parseStl(bytes: Uint8Array, source: string): MeshLists {
  const soup = isBinaryStl(bytes) ? binaryStl(bytes, source) : asciiStl(bytes, source);
  if (soup.length === 0) throw new ModelError(source, 'no triangles in the file');
  return mergeCorners(soup);
}

/** binary when the size is exactly 84 + 50 n for the count n at byte 80 */
function isBinaryStl(bytes: Uint8Array): boolean {
  if (bytes.length < 84) return false;
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  return bytes.length === 84 + 50 * n;
}

/** the corners of binary STL triangles, 9 numbers each (normal and attribute skipped) */
function binaryStl(bytes: Uint8Array, source: string): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(80, true), soup = new Array<number>(9 * n);
  for (let t = 0; t < n; t++) {
    const o = 84 + 50 * t + 12;
    for (let k = 0; k < 9; k++) {
      const v = view.getFloat32(o + 4 * k, true);
      if (!Number.isFinite(v)) throw new ModelError(source, `triangle ${t + 1}: a coordinate is not finite (${v})`);
      soup[9 * t + k] = v;
    }
  }
  return soup;
}

/** the corners of ASCII STL facets: every `vertex x y z` line, three per facet */
function asciiStl(bytes: Uint8Array, source: string): number[] {
  const text = new TextDecoder().decode(bytes);
  if (!/^\s*solid\b/.test(text)) {
    const why = 'neither binary STL (size does not match its triangle count) nor ASCII STL (no "solid")';
    throw new ModelError(source, why);
  }
  const soup: number[] = [];
  let corners = 0, facetLine = 0;
  text.split(/\r?\n/).forEach((raw, n) => {
    const words = raw.trim().split(/\s+/), where = `line ${n + 1}`;
    if (words[0] === 'facet') { corners = 0; facetLine = n + 1; }
    else if (words[0] === 'vertex') {
      const xyz = words.slice(1, 4).map(Number);
      if (xyz.length !== 3 || !xyz.every(Number.isFinite)) {
        const got = words.slice(1).join(' ');
        throw new ModelError(source, `${where}: expected 3 finite numbers after vertex, got "${got}"`);
      }
      soup.push(...xyz); corners++;
    } else if (words[0] === 'endfacet' && corners !== 3) {
      throw new ModelError(source, `line ${facetLine}: a facet needs 3 vertices, got ${corners}`);
    }
  });
  if (soup.length % 9 !== 0) throw new ModelError(source, 'the last facet has fewer than 3 vertices');
  return soup;
}

/** vertices from the soup's corners, identical coordinates merged (first appearance first) */
function mergeCorners(soup: readonly number[]): MeshLists {
  const vertices: number[][] = [], triangles: number[][] = [], index = new Map<string, number>();
  for (let t = 0; 9 * t < soup.length; t++) {
    const tri: number[] = [];
    for (let k = 0; k < 3; k++) {
      const o = 9 * t + 3 * k, x = soup[o]!, y = soup[o + 1]!, z = soup[o + 2]!;
      // the key distinguishes values exactly (−0 and 0 are the same point)
      const key = `${x},${y},${z}`;
      let i = index.get(key);
      if (i === undefined) { i = vertices.length; index.set(key, i); vertices.push([x, y, z]); }
      tri.push(i);
    }
    triangles.push(tri);
  }
  return { vertices, triangles };
}
