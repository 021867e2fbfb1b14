/**
 * A triangle mesh shape (TriMeshData of ./geometry.ts), built once from vertex and triangle
 * lists and checked, with what the narrowphase reads: unit normals, the neighbour across each
 * edge, which edges and vertices are active, its bounds and a BVH over the triangles' boxes
 * (./bvh.ts); docs/theory.md §17.
 *
 * Edge k of a triangle (i₀, i₁, i₂) runs from i_k to i_{k+1 mod 3}; its neighbour is the triangle
 * on the other side, found by the edge's two vertex indices (vertices are never merged by
 * position here: a file reader merges them, see node/meshFiles.ts). The mesh is closed when every
 * edge has exactly two triangles that run it in opposite directions (a consistently oriented
 * closed surface).
 *
 * Active edges and vertices (the internal-edge problem). A convex shape sliding over a mesh meets
 * the edges and vertices between triangles; a contact there takes a normal between the faces,
 * which pushes the shape sideways where the surface is flat (it "catches"). Only a feature where
 * the surface really bends outwards may give such a normal: it is active.
 * - An edge is active when it is a border (one triangle), is shared by more than two triangles or
 *   by two that run it the same way (orientation unknown: kept, the safe choice), or is convex
 *   beyond the tolerance: with n the triangle's normal, n' the neighbour's and c' the neighbour's
 *   vertex off the edge, n·(c' − a) < 0 (the neighbour bends down, a the edge's first vertex) and
 *   n·n' < cos 5° (ACTIVE_EDGE_COS). Flat and concave edges are inactive: a contact there is a
 *   contact with the face.
 * - A vertex is active when one of its edges is active: a vertex whose edges are all flat or
 *   concave lies in a flat or hollow part of the surface, where the face normal is right.
 * Each triangle keeps these as bits (`activeFlags`): bit k for edge k, bit 3 + k for vertex k.
 */
import { ModelError } from '../model/errors.js';
import type { TriMeshData } from './geometry.js';
import { Bvh } from './bvh.js';

/** the dihedral angle below which a convex edge counts as flat: cos 5° */
export const ACTIVE_EDGE_COS = Math.cos((5 * Math.PI) / 180);
/** a triangle whose doubled area is below this fraction of its squared edge lengths is degenerate */
const DEGENERATE_AREA = 1e-12;

/** the flag bit of edge k (0..2) in `TriMesh.activeFlags` */
export const EDGE_ACTIVE = 1;
/** the flag bit of vertex k (0..2) in `TriMesh.activeFlags` */
export const VERTEX_ACTIVE = 8;

/** points or triangles as a flat list of numbers or as a list of triples */
export type TripleList = ArrayLike<number> | readonly (readonly number[])[];

export class TriMesh implements TriMeshData {
  readonly type = 'mesh' as const;
  /** the shape's name, in error messages */
  readonly name: string;
  readonly vertexCount: number;
  readonly vertices: Float64Array;
  readonly triangleCount: number;
  readonly triangles: Int32Array;
  readonly triangleNormals: Float64Array;
  readonly closed: boolean;
  readonly boxCenter = new Float64Array(3);
  readonly boxHalf = new Float64Array(3);
  readonly radius: number;
  /** (3T) the triangle across edge k of triangle t at 3t + k; −1 on a border or a non-manifold edge */
  readonly neighbors: Int32Array;
  /** (T) bit k (EDGE_ACTIVE << k): edge k is active; bit 3 + k (VERTEX_ACTIVE << k): vertex k is */
  readonly activeFlags: Uint8Array;
  /** the hierarchy over the triangles' boxes (item = triangle index) */
  readonly bvh: Bvh;

  /**
   * a mesh from its vertices (flat x, y, z or [[x, y, z], …]) and triangles (flat or [[i, j, k], …],
   * counter-clockwise seen from outside); throws a ModelError at `path` (default `shape "name"`,
   * followed by `.vertices[i]` or `.triangles[i]`) on bad input
   */
  static from(vertices: TripleList, triangles: TripleList, name: string, path = `shape "${name}"`): TriMesh {
    return new TriMesh(flatten(vertices, path, 'vertices'), flatten(triangles, path, 'triangles'), name, path);
  }

  /** a mesh from flat lists (x, y, z per vertex; i, j, k per triangle), checked; errors as `from` */
  constructor(vertices: ArrayLike<number>, triangles: ArrayLike<number>, name: string, path = `shape "${name}"`) {
    this.name = name;
    this.vertices = checkVertices(vertices, path);
    this.vertexCount = this.vertices.length / 3;
    this.triangles = checkTriangles(triangles, this.vertexCount, path);
    this.triangleCount = this.triangles.length / 3;
    this.triangleNormals = normals(this.vertices, this.triangles, path);
    this.neighbors = new Int32Array(3 * this.triangleCount).fill(-1);
    this.activeFlags = new Uint8Array(this.triangleCount);
    this.closed = this.connect();
    this.markVertices();
    this.radius = this.bounds();
    this.bvh = new Bvh(triangleBoxes(this.vertices, this.triangles));
  }

  /** neighbours and active edges from the edges' vertex pairs; returns whether the mesh is closed */
  private connect(): boolean {
    const T = this.triangles, nt = this.triangleCount, V = this.vertexCount;
    // each undirected edge's uses (3t + k), in triangle order
    const uses = new Map<number, number[]>();
    for (let e = 0; e < 3 * nt; e++) {
      const a = T[e]!, b = T[e - (e % 3) + ((e % 3) + 1) % 3]!;
      const key = a < b ? a * V + b : b * V + a;
      const list = uses.get(key);
      if (list) list.push(e); else uses.set(key, [e]);
    }
    let closed = true;
    for (const list of uses.values()) {
      const e = list[0]!, f = list[1] ?? -1;
      const paired = list.length === 2 && T[e] !== T[f];
      if (!paired) {
        closed = false;
        for (const x of list) this.activeFlags[(x / 3) | 0]! |= EDGE_ACTIVE << (x % 3);
        continue;
      }
      this.neighbors[e] = (f / 3) | 0; this.neighbors[f] = (e / 3) | 0;
      if (this.isActiveEdge(e, f)) {
        this.activeFlags[(e / 3) | 0]! |= EDGE_ACTIVE << (e % 3);
        this.activeFlags[(f / 3) | 0]! |= EDGE_ACTIVE << (f % 3);
      }
    }
    return closed;
  }

  /** edge e (3t + k) shared with edge f of the neighbour: convex beyond ACTIVE_EDGE_COS */
  private isActiveEdge(e: number, f: number): boolean {
    const N = this.triangleNormals, X = this.vertices, T = this.triangles;
    const t = e - (e % 3), u = f - (f % 3);
    const cosine = N[t]! * N[u]! + N[t + 1]! * N[u + 1]! + N[t + 2]! * N[u + 2]!;
    if (!(cosine < ACTIVE_EDGE_COS)) return false;
    // the neighbour's vertex off the edge, against this triangle's plane
    const a = 3 * T[e]!, c = 3 * T[u + ((f % 3) + 2) % 3]!;
    const side = N[t]! * (X[c]! - X[a]!) + N[t + 1]! * (X[c + 1]! - X[a + 1]!)
      + N[t + 2]! * (X[c + 2]! - X[a + 2]!);
    return side < 0;
  }

  /** a vertex is active when one of its edges is: per vertex, then into each triangle's bits */
  private markVertices(): void {
    const T = this.triangles, F = this.activeFlags, active = new Uint8Array(this.vertexCount);
    for (let t = 0; t < this.triangleCount; t++) {
      for (let k = 0; k < 3; k++) {
        if ((F[t]! & (EDGE_ACTIVE << k)) === 0) continue;
        active[T[3 * t + k]!] = 1; active[T[3 * t + ((k + 1) % 3)]!] = 1;
      }
    }
    for (let t = 0; t < this.triangleCount; t++) {
      for (let k = 0; k < 3; k++) if (active[T[3 * t + k]!] === 1) F[t]! |= VERTEX_ACTIVE << k;
    }
  }

  /** the local box of the vertices and the radius of the sphere about the origin holding them */
  private bounds(): number {
    const X = this.vertices;
    let r2 = 0;
    for (let k = 0; k < 3; k++) {
      let lo = Infinity, hi = -Infinity;
      for (let i = k; i < X.length; i += 3) { if (X[i]! < lo) lo = X[i]!; if (X[i]! > hi) hi = X[i]!; }
      this.boxCenter[k] = 0.5 * (lo + hi); this.boxHalf[k] = 0.5 * (hi - lo);
    }
    for (let i = 0; i < X.length; i += 3) r2 = Math.max(r2, X[i]! ** 2 + X[i + 1]! ** 2 + X[i + 2]! ** 2);
    return Math.sqrt(r2);
  }
}

/** a flat copy of a list of triples, checking that each entry has three numbers */
function flatten(list: TripleList, path: string, what: string): number[] {
  const out: number[] = [];
  const n = list.length;
  for (let i = 0; i < n; i++) {
    const x = (list as ArrayLike<unknown>)[i];
    if (typeof x === 'number') { out.push(x); continue; }
    if (!Array.isArray(x) || x.length !== 3) throw new ModelError(`${path}.${what}[${i}]`, 'expected 3 numbers');
    for (const v of x as unknown[]) {
      if (typeof v !== 'number') throw new ModelError(`${path}.${what}[${i}]`, 'expected 3 numbers');
      out.push(v);
    }
  }
  return out;
}

/** the vertices as Float64Array, every coordinate finite */
function checkVertices(v: ArrayLike<number>, path: string): Float64Array {
  if (v.length % 3 !== 0 || v.length === 0) {
    throw new ModelError(`${path}.vertices`, `expected x, y, z per vertex, got ${v.length} numbers`);
  }
  const out = Float64Array.from(v);
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i]!)) {
      throw new ModelError(`${path}.vertices[${(i / 3) | 0}]`, `coordinate ${i % 3} is not finite (${v[i]})`);
    }
  }
  return out;
}

/** the triangles as Int32Array: at least one, integer indices in [0, V) */
function checkTriangles(t: ArrayLike<number>, V: number, path: string): Int32Array {
  if (t.length % 3 !== 0) {
    throw new ModelError(`${path}.triangles`, `expected 3 indices per triangle, got ${t.length} numbers`);
  }
  if (t.length === 0) throw new ModelError(`${path}.triangles`, 'a mesh needs at least 1 triangle');
  const out = new Int32Array(t.length);
  for (let i = 0; i < t.length; i++) {
    const x = t[i]!;
    if (!Number.isInteger(x) || x < 0 || x >= V) {
      const range = `an integer in [0, ${V - 1}]`;
      throw new ModelError(`${path}.triangles[${(i / 3) | 0}]`, `index ${x} is not ${range}`);
    }
    out[i] = x;
  }
  return out;
}

/** unit normals (v₁ − v₀) × (v₂ − v₀) / |…|; a degenerate (zero-area) triangle is an error */
function normals(X: Float64Array, T: Int32Array, path: string): Float64Array {
  const N = new Float64Array(T.length);
  for (let t = 0; t < T.length; t += 3) {
    const a = 3 * T[t]!, b = 3 * T[t + 1]!, c = 3 * T[t + 2]!;
    const ux = X[b]! - X[a]!, uy = X[b + 1]! - X[a + 1]!, uz = X[b + 2]! - X[a + 2]!;
    const vx = X[c]! - X[a]!, vy = X[c + 1]! - X[a + 1]!, vz = X[c + 2]! - X[a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const wx = vx - ux, wy = vy - uy, wz = vz - uz;
    const scale = ux * ux + uy * uy + uz * uz + vx * vx + vy * vy + vz * vz + wx * wx + wy * wy + wz * wz;
    if (!(len > DEGENERATE_AREA * scale)) {
      const corners = `[${T[t]}, ${T[t + 1]}, ${T[t + 2]}]`;
      throw new ModelError(`${path}.triangles[${t / 3}]`, `degenerate triangle (zero area): ${corners}`);
    }
    N[t] = nx / len; N[t + 1] = ny / len; N[t + 2] = nz / len;
  }
  return N;
}

/** (6T) each triangle's box */
function triangleBoxes(X: Float64Array, T: Int32Array): Float64Array {
  const B = new Float64Array(2 * T.length);
  for (let t = 0; t < T.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const a = X[3 * T[3 * t]! + k]!, b = X[3 * T[3 * t + 1]! + k]!, c = X[3 * T[3 * t + 2]! + k]!;
      B[6 * t + k] = Math.min(a, b, c); B[6 * t + 3 + k] = Math.max(a, b, c);
    }
  }
  return B;
}
