/**
 * Convex hulls from points, for the hull shape (issue 18 §1; docs/theory.md §17), by quickhull
 * (Barber, Dobkin and Huhdanpaa 1996), then merged into polygon faces.
 *
 * Quickhull grows a triangulated hull from a tetrahedron of extreme points. Every point not on it
 * belongs to the outside set of one face it lies above (distance > τ). Each step takes a face with
 * an outside set and its farthest point p (the eye), finds the faces visible from p (the connected
 * set around that face whose distance to p exceeds τ) and its boundary (the horizon), replaces the
 * visible faces by the cone of triangles from p to the horizon, and hands their points to the new
 * faces they lie above; the others are inside and drop out. When no face has an outside set, every
 * point lies at most τ above every face: inside or on the hull.
 *
 * τ = HULL_TOLERANCE · (max|x| + max|y| + max|z|) is the relative tolerance of both "above" and
 * "coplanar". Rounding near coplanar faces can leave the visible set with a hole or pinched at a
 * vertex; those faces are then taken into it, so the horizon is always one simple loop.
 *
 * Merging: from the largest triangle down, each triangle not yet taken seeds a face that grows over
 * neighbouring triangles whose three vertices lie within τ of the seed's plane. A face's boundary
 * is one loop, counter-clockwise from outside. A point of the loops is a vertex of the hull when it
 * lies on three faces or more (on two it lies inside an edge, on one inside a face), so interior,
 * duplicate, edge and face points all drop out. A face's normal is Newell's (its area vector,
 * normalised), its offset the mean of n·v over its vertices. Everything iterates in index order:
 * the same points give the same hull, numbered the same way.
 */
import { ModelError } from '../model/errors.js';
import { formatValue } from '../model/format.js';
import type { HullData } from './geometry.js';

/** τ = HULL_TOLERANCE · (max|x| + max|y| + max|z|): points within τ of a plane lie on it */
export const HULL_TOLERANCE = 1e-9;

/** the triangulated hull while quickhull grows it: faces by index, dead ones kept */
class Build {
  /** 3 vertices per face (counter-clockwise from outside) and the face across each edge v_k v_k+1 */
  readonly fv: number[] = [];
  readonly nb: number[] = [];
  /** per face: unit normal and offset (4 numbers), whether it is on the hull */
  readonly plane: number[] = [];
  readonly alive: boolean[] = [];
  /** per face: first point of its outside set (−1: empty); per point: the next one in its set */
  readonly head: number[] = [];
  readonly next: Int32Array;
  /** per face: the search that last marked it visible (or reached it) */
  readonly mark: number[] = [];
  stamp = 0;
  constructor(readonly p: Float64Array, readonly n: number, readonly tol: number) {
    this.next = new Int32Array(n).fill(-1);
  }
}

/** the signed distance of point i above face f */
function distance(b: Build, f: number, i: number): number {
  const P = b.p, L = b.plane;
  return L[4 * f]! * P[3 * i]! + L[4 * f + 1]! * P[3 * i + 1]! + L[4 * f + 2]! * P[3 * i + 2]! - L[4 * f + 3]!;
}

/** appends the face (u, v, w) with its plane; its neighbours are set by the caller */
function addFace(b: Build, u: number, v: number, w: number): number {
  const P = b.p, f = b.alive.length;
  const ax = P[3 * v]! - P[3 * u]!, ay = P[3 * v + 1]! - P[3 * u + 1]!, az = P[3 * v + 2]! - P[3 * u + 2]!;
  const cx = P[3 * w]! - P[3 * u]!, cy = P[3 * w + 1]! - P[3 * u + 1]!, cz = P[3 * w + 2]! - P[3 * u + 2]!;
  let nx = ay * cz - az * cy, ny = az * cx - ax * cz, nz = ax * cy - ay * cx;
  const s = 1 / Math.hypot(nx, ny, nz);
  nx *= s; ny *= s; nz *= s;
  // the offset as the mean over the three vertices halves its rounding
  let d = 0;
  for (const i of [u, v, w]) d += nx * P[3 * i]! + ny * P[3 * i + 1]! + nz * P[3 * i + 2]!;
  b.fv.push(u, v, w); b.nb.push(-1, -1, -1); b.plane.push(nx, ny, nz, d / 3);
  b.alive.push(true); b.head.push(-1); b.mark.push(0);
  return f;
}

/** puts point i in the outside set of the face among `faces` it lies farthest above, if any */
function assign(b: Build, i: number, faces: readonly number[]): void {
  let best = -1, far = b.tol;
  for (const f of faces) {
    const d = distance(b, f, i);
    if (d > far) { far = d; best = f; }
  }
  if (best >= 0) { b.next[i] = b.head[best]!; b.head[best] = i; }
}

/** the points as 3N numbers, checked finite and at least 4 */
function readPoints(points: ArrayLike<number> | readonly (readonly number[])[], name: string): Float64Array {
  const nested = points.length > 0 && typeof points[0] !== 'number';
  const p = nested
    ? Float64Array.from((points as readonly (readonly number[])[]).flatMap((q, i) => {
      if (q.length !== 3) throw new ModelError(name, `point ${i} has ${q.length} coordinates, not 3`);
      return q;
    }))
    : Float64Array.from(points as ArrayLike<number>);
  if (p.length % 3 !== 0) throw new ModelError(name, `${p.length} coordinates are not a whole number of points`);
  for (let i = 0; i < p.length; i += 3) {
    if (!(Number.isFinite(p[i]) && Number.isFinite(p[i + 1]) && Number.isFinite(p[i + 2]))) {
      throw new ModelError(name, `point ${i / 3} is ${formatValue(Array.from(p.subarray(i, i + 3)))}, not finite`);
    }
  }
  if (p.length < 12) {
    throw new ModelError(name, `fewer than 4 non-coplanar points: ${p.length / 3} given, a hull needs 4 or more`);
  }
  return p;
}

/** the index of the point farthest from the line (or plane) through a with unit direction (normal) u */
function farthestFrom(P: Float64Array, n: number, a: number, u: readonly number[], plane: boolean): [number, number] {
  let best = -1, far = -1;
  for (let i = 0; i < n; i++) {
    const x = P[3 * i]! - P[3 * a]!, y = P[3 * i + 1]! - P[3 * a + 1]!, z = P[3 * i + 2]! - P[3 * a + 2]!;
    const d = plane ? Math.abs(x * u[0]! + y * u[1]! + z * u[2]!)
      : Math.hypot(y * u[2]! - z * u[1]!, z * u[0]! - x * u[2]!, x * u[1]! - y * u[0]!);
    if (d > far) { far = d; best = i; }
  }
  return [best, far];
}

/** four points spanning a tetrahedron (a, b, c counter-clockwise from outside, d behind), or the error */
function initialSimplex(P: Float64Array, n: number, tol: number, name: string): [number, number, number, number] {
  // the pair of axis extremes farthest apart
  const ext: number[] = [];
  for (let j = 0; j < 3; j++) {
    let lo = 0, hi = 0;
    for (let i = 1; i < n; i++) {
      if (P[3 * i + j]! < P[3 * lo + j]!) lo = i;
      if (P[3 * i + j]! > P[3 * hi + j]!) hi = i;
    }
    ext.push(lo, hi);
  }
  let a = 0, c = 0, far = -1;
  for (const i of ext) for (const k of ext) {
    const d = Math.hypot(P[3 * k]! - P[3 * i]!, P[3 * k + 1]! - P[3 * i + 1]!, P[3 * k + 2]! - P[3 * i + 2]!);
    if (d > far) { far = d; a = i; c = k; }
  }
  const fail = (how: string) => new ModelError(name, `fewer than 4 non-coplanar points: the ${n} points are ${how}`);
  if (!(far > tol)) throw fail('coincident');
  // the point farthest from their line, then the one farthest from the plane of the three
  const u = [0, 1, 2].map((j) => (P[3 * c + j]! - P[3 * a + j]!) / far);
  const [bb, line] = farthestFrom(P, n, a, u, false);
  if (!(line > tol)) throw fail('collinear');
  const v = [0, 1, 2].map((j) => P[3 * bb + j]! - P[3 * a + j]!);
  const m = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
  const s = Math.hypot(m[0]!, m[1]!, m[2]!);
  const w = m.map((x) => x / s);
  const [d, off] = farthestFrom(P, n, a, w, true);
  if (!(off > tol)) throw fail('coplanar');
  const side = (P[3 * d]! - P[3 * a]!) * w[0]! + (P[3 * d + 1]! - P[3 * a + 1]!) * w[1]! + (P[3 * d + 2]! - P[3 * a + 2]!) * w[2]!;
  // d must lie behind the face (a, b, c)
  return side > 0 ? [a, bb, c, d] : [a, c, bb, d];
}

/** sets the face across edge (u, v) of face g to f */
function setNeighbour(b: Build, g: number, u: number, v: number, f: number): void {
  for (let k = 0; k < 3; k++) {
    if (b.fv[3 * g + k] === u && b.fv[3 * g + (k + 1) % 3] === v) { b.nb[3 * g + k] = f; return; }
  }
  throw new Error(`quickhull: face ${g} has no edge (${u}, ${v})`);
}

/** the tetrahedron's four faces, linked, with every other point in an outside set */
function startHull(b: Build, [a, bb, c, d]: readonly number[]): void {
  const faces = [addFace(b, a!, bb!, c!), addFace(b, a!, d!, bb!), addFace(b, bb!, d!, c!), addFace(b, c!, d!, a!)];
  // each edge (u, v) of one face is (v, u) of another
  for (const f of faces) for (const g of faces) {
    if (f === g) continue;
    for (let k = 0; k < 3; k++) {
      const u = b.fv[3 * f + k]!, v = b.fv[3 * f + (k + 1) % 3]!;
      for (let j = 0; j < 3; j++) {
        if (b.fv[3 * g + j] === v && b.fv[3 * g + (j + 1) % 3] === u) b.nb[3 * f + k] = g;
      }
    }
  }
  for (let i = 0; i < b.n; i++) if (i !== a && i !== bb && i !== c && i !== d) assign(b, i, faces);
}

/** the farthest point of face f's outside set (lowest index among equals) */
function farthestOutside(b: Build, f: number): number {
  let best = -1, far = -Infinity;
  for (let i = b.head[f]!; i >= 0; i = b.next[i]!) {
    const d = distance(b, f, i);
    if (d > far || (d === far && i < best)) { far = d; best = i; }
  }
  return best;
}

/** the faces visible from the eye, connected to face f: marked with the current stamp, in search order */
function visibleFrom(b: Build, f: number, eye: number): number[] {
  const stamp = ++b.stamp, list = [f];
  b.mark[f] = stamp;
  for (let k = 0; k < list.length; k++) {
    const g = list[k]!;
    for (let j = 0; j < 3; j++) {
      const h = b.nb[3 * g + j]!;
      if (b.mark[h] !== stamp && distance(b, h, eye) > b.tol) { b.mark[h] = stamp; list.push(h); }
    }
  }
  return list;
}

/** the horizon as one loop of edges [u, v, face across] (u → v as in the visible face), or a fault */
function horizonLoop(b: Build, visible: readonly number[]): number[] | { pinch: number } | 'hole' {
  const edges: number[] = [], from = new Map<number, number>();
  for (const f of visible) for (let k = 0; k < 3; k++) {
    const g = b.nb[3 * f + k]!;
    if (b.mark[g] === b.stamp) continue;
    const u = b.fv[3 * f + k]!, v = b.fv[3 * f + (k + 1) % 3]!;
    if (from.has(u)) return { pinch: u };
    from.set(u, edges.length); edges.push(u, v, g);
  }
  // one walk around from the first edge must meet every edge
  const loop: number[] = [];
  let e = 0;
  do {
    loop.push(edges[e]!, edges[e + 1]!, edges[e + 2]!);
    e = from.get(edges[e + 1]!)!;
  } while (e !== 0 && loop.length <= edges.length);
  return loop.length === edges.length ? loop : 'hole';
}

/** takes into the visible set the faces at a pinch vertex, or the hidden faces cut off from the rest */
function repairVisible(b: Build, visible: number[], eye: number, fault: { pinch: number } | 'hole'): void {
  const stamp = b.stamp;
  if (fault !== 'hole') {
    for (let f = 0; f < b.alive.length; f++) {
      const fv = b.fv;
      if (b.alive[f] && b.mark[f] !== stamp && (fv[3 * f] === fault.pinch || fv[3 * f + 1] === fault.pinch || fv[3 * f + 2] === fault.pinch)) {
        b.mark[f] = stamp; visible.push(f);
      }
    }
    return;
  }
  // the hidden part is the one holding the face the eye lies farthest below; the rest are holes
  let low = -1, lowest = Infinity;
  for (let f = 0; f < b.alive.length; f++) {
    if (b.alive[f] && b.mark[f] !== stamp && distance(b, f, eye) < lowest) { lowest = distance(b, f, eye); low = f; }
  }
  const reached = new Set([low]), list = [low];
  for (let k = 0; k < list.length; k++) for (let j = 0; j < 3; j++) {
    const h = b.nb[3 * list[k]! + j]!;
    if (b.mark[h] !== stamp && !reached.has(h)) { reached.add(h); list.push(h); }
  }
  for (let f = 0; f < b.alive.length; f++) {
    if (b.alive[f] && b.mark[f] !== stamp && !reached.has(f)) { b.mark[f] = stamp; visible.push(f); }
  }
}

/** adds the eye: the visible faces are replaced by the cone from the eye to their horizon */
function addPoint(b: Build, f: number, eye: number): void {
  const visible = visibleFrom(b, f, eye);
  let loop = horizonLoop(b, visible);
  while (!Array.isArray(loop)) {
    repairVisible(b, visible, eye, loop);
    if (visible.length >= b.alive.filter(Boolean).length) throw new Error('quickhull: every face is visible');
    loop = horizonLoop(b, visible);
  }
  // the cone: face k is (u_k, v_k, eye), across its edges the hidden face, face k+1 and face k−1
  const first = b.alive.length, m = loop.length / 3;
  for (let k = 0; k < m; k++) addFace(b, loop[3 * k]!, loop[3 * k + 1]!, eye);
  const cone: number[] = [];
  for (let k = 0; k < m; k++) {
    const g = first + k;
    b.nb[3 * g] = loop[3 * k + 2]!; b.nb[3 * g + 1] = first + (k + 1) % m; b.nb[3 * g + 2] = first + (k + m - 1) % m;
    setNeighbour(b, loop[3 * k + 2]!, loop[3 * k + 1]!, loop[3 * k]!, g);
    cone.push(g);
  }
  // the visible faces leave the hull; their points go to the new faces they lie above
  for (const g of visible) {
    b.alive[g] = false;
    let i = b.head[g]!;
    while (i >= 0) {
      const nx = b.next[i]!;
      if (i !== eye) assign(b, i, cone);
      i = nx;
    }
    b.head[g] = -1;
  }
}

/** the triangulated hull: quickhull over the faces in the order they are made */
function quickhull(b: Build, simplex: readonly number[]): void {
  startHull(b, simplex);
  for (let f = 0; f < b.alive.length; f++) {
    if (b.alive[f] && b.head[f]! >= 0) addPoint(b, f, farthestOutside(b, f));
  }
}

/** each live triangle's face: grown from the largest triangles over those within τ of the seed's plane */
function mergeFaces(b: Build): { group: Int32Array; seeds: number[] } {
  const F = b.alive.length, P = b.p, fv = b.fv, group = new Int32Array(F).fill(-1);
  const area = (f: number): number => {
    const [u, v, w] = [fv[3 * f]!, fv[3 * f + 1]!, fv[3 * f + 2]!];
    const e = [0, 1, 2].map((j) => P[3 * v + j]! - P[3 * u + j]!), g = [0, 1, 2].map((j) => P[3 * w + j]! - P[3 * u + j]!);
    return Math.hypot(e[1]! * g[2]! - e[2]! * g[1]!, e[2]! * g[0]! - e[0]! * g[2]!, e[0]! * g[1]! - e[1]! * g[0]!);
  };
  const live = [...Array(F).keys()].filter((f) => b.alive[f]);
  const areas = new Float64Array(F);
  for (const f of live) areas[f] = area(f);
  live.sort((x, y) => areas[y]! - areas[x]! || x - y);
  const seeds: number[] = [];
  for (const s of live) {
    if (group[s]! >= 0) continue;
    group[s] = seeds.length;
    const list = [s];
    for (let k = 0; k < list.length; k++) for (let j = 0; j < 3; j++) {
      const h = b.nb[3 * list[k]! + j]!;
      if (group[h]! < 0 && [0, 1, 2].every((q) => Math.abs(distance(b, s, fv[3 * h + q]!)) <= b.tol)) {
        group[h] = seeds.length; list.push(h);
      }
    }
    seeds.push(s);
  }
  return { group, seeds };
}

/** each face's boundary loop of point indices (counter-clockwise from outside), or null if not one loop */
function boundaryLoops(b: Build, group: Int32Array, faces: number): (number[] | null)[] {
  const from = Array.from({ length: faces }, () => new Map<number, number>());
  const bad = new Uint8Array(faces);
  for (let f = 0; f < b.alive.length; f++) {
    if (!b.alive[f]) continue;
    const g = group[f]!;
    for (let k = 0; k < 3; k++) {
      if (group[b.nb[3 * f + k]!] === g) continue;
      const u = b.fv[3 * f + k]!;
      if (from[g]!.has(u)) bad[g] = 1;
      from[g]!.set(u, b.fv[3 * f + (k + 1) % 3]!);
    }
  }
  return from.map((m, g) => {
    if (bad[g]) return null;
    const start = Math.min(...m.keys()), loop = [start];
    for (let v = m.get(start)!; v !== start && loop.length <= m.size; v = m.get(v)!) loop.push(v);
    return loop.length === m.size ? loop : null;
  });
}

/** the faces as loops of point indices: merged faces, split back into triangles where not one loop */
function faceLoops(b: Build): number[][] {
  const { group, seeds } = mergeFaces(b);
  const loops = boundaryLoops(b, group, seeds.length);
  if (loops.every((l) => l !== null)) return loops as number[][];
  // a merged face that is not a disc (possible only through rounding) keeps its triangles
  const id = new Int32Array(seeds.length).fill(-1), regroup = new Int32Array(group.length).fill(-1);
  let count = 0;
  for (let f = 0; f < group.length; f++) {
    if (!b.alive[f]) continue;
    const g = group[f]!;
    if (loops[g] && id[g]! < 0) id[g] = count++;
    regroup[f] = loops[g] ? id[g]! : count++;
  }
  return boundaryLoops(b, regroup, count) as number[][];
}

/** a convex polyhedron built from points (HullData: see ./geometry.ts) */
export class ConvexHull implements HullData {
  readonly type = 'hull';
  readonly vertexCount: number;
  readonly vertices: Float64Array;
  /** (V) each vertex's index among the given points */
  readonly sourceIndex: Int32Array;
  readonly faceCount: number;
  readonly faceStart: Int32Array;
  readonly faceVertices: Int32Array;
  readonly faceNormals: Float64Array;
  readonly faceOffsets: Float64Array;
  readonly edgeCount: number;
  /** (2E) vertex pairs (lower first), sorted */
  readonly edges: Int32Array;
  /** (2E) the face in which the edge runs from its lower vertex to its higher one, then the other */
  readonly edgeFaces: Int32Array;
  readonly boxCenter: Float64Array;
  readonly boxHalf: Float64Array;
  readonly radius: number;
  /** τ, m: the distance within which points were taken as lying on a plane */
  readonly tolerance: number;

  private constructor(points: Float64Array, loops: readonly number[][], tolerance: number) {
    this.tolerance = tolerance;
    // the vertices: points on three faces or more, in the order of the given points
    const faceCount = new Int32Array(points.length / 3);
    for (const loop of loops) for (const i of loop) faceCount[i]!++;
    const source = [...faceCount.keys()].filter((i) => faceCount[i]! >= 3);
    const index = new Int32Array(faceCount.length).fill(-1);
    source.forEach((i, k) => { index[i] = k; });
    this.sourceIndex = Int32Array.from(source);
    this.vertexCount = source.length;
    this.vertices = Float64Array.from(source.flatMap((i) => [points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!]));
    // the faces: each loop's vertices, from its lowest vertex
    const faces = loops.map((loop) => {
      const kept = loop.filter((i) => index[i]! >= 0).map((i) => index[i]!);
      const s = kept.indexOf(Math.min(...kept));
      return [...kept.slice(s), ...kept.slice(0, s)];
    });
    if (faces.some((f) => f.length < 3)) throw new Error('convex hull: a face with fewer than 3 vertices');
    this.faceCount = faces.length;
    this.faceStart = new Int32Array(faces.length + 1);
    faces.forEach((f, k) => { this.faceStart[k + 1] = this.faceStart[k]! + f.length; });
    this.faceVertices = Int32Array.from(faces.flat());
    this.faceNormals = new Float64Array(3 * faces.length);
    this.faceOffsets = new Float64Array(faces.length);
    faces.forEach((f, k) => this.facePlane(k, f));
    [this.edges, this.edgeFaces] = edgesOf(faces, this.vertexCount);
    this.edgeCount = this.edges.length / 2;
    [this.boxCenter, this.boxHalf, this.radius] = boundsOf(this.vertices);
  }

  /**
   * The hull of points (3N numbers, or N triples) in the shape's frame. Throws a ModelError at
   * `name` for non-finite points and for fewer than 4 points that are not coplanar.
   */
  static fromPoints(points: ArrayLike<number> | readonly (readonly number[])[], name: string): ConvexHull {
    const p = readPoints(points, name), n = p.length / 3;
    const scale = [0, 1, 2].reduce((s, j) => {
      let m = 0;
      for (let i = j; i < p.length; i += 3) m = Math.max(m, Math.abs(p[i]!));
      return s + m;
    }, 0);
    const tol = HULL_TOLERANCE * scale;
    const b = new Build(p, n, tol);
    quickhull(b, initialSimplex(p, n, tol, name));
    return new ConvexHull(p, faceLoops(b), tol);
  }

  /** face k's unit normal (Newell's area vector, normalised) and offset (the mean of n·v) */
  private facePlane(k: number, f: readonly number[]): void {
    const V = this.vertices;
    let nx = 0, ny = 0, nz = 0;
    for (let j = 0; j < f.length; j++) {
      const a = 3 * f[j]!, c = 3 * f[(j + 1) % f.length]!;
      nx += (V[a + 1]! - V[c + 1]!) * (V[a + 2]! + V[c + 2]!);
      ny += (V[a + 2]! - V[c + 2]!) * (V[a]! + V[c]!);
      nz += (V[a]! - V[c]!) * (V[a + 1]! + V[c + 1]!);
    }
    const s = 1 / Math.hypot(nx, ny, nz);
    nx *= s; ny *= s; nz *= s;
    let d = 0;
    for (const i of f) d += nx * V[3 * i]! + ny * V[3 * i + 1]! + nz * V[3 * i + 2]!;
    this.faceNormals[3 * k] = nx; this.faceNormals[3 * k + 1] = ny; this.faceNormals[3 * k + 2] = nz;
    this.faceOffsets[k] = d / f.length;
  }
}

/** the edges (lower vertex first, sorted) of faces given as loops, and their two faces */
function edgesOf(faces: readonly number[][], V: number): [Int32Array, Int32Array] {
  const up = new Map<number, number>(), down = new Map<number, number>();
  faces.forEach((f, k) => f.forEach((u, j) => {
    const v = f[(j + 1) % f.length]!;
    const [map, key] = u < v ? [up, u * V + v] : [down, v * V + u];
    if (map.has(key)) throw new Error(`convex hull: edge (${u}, ${v}) in two faces the same way`);
    map.set(key, k);
  }));
  if (up.size !== down.size) throw new Error('convex hull: the faces do not close');
  const keys = [...up.keys()].sort((x, y) => x - y);
  const edges = new Int32Array(2 * keys.length), edgeFaces = new Int32Array(2 * keys.length);
  keys.forEach((key, e) => {
    if (!down.has(key)) throw new Error('convex hull: the faces do not close');
    edges[2 * e] = Math.floor(key / V); edges[2 * e + 1] = key % V;
    edgeFaces[2 * e] = up.get(key)!; edgeFaces[2 * e + 1] = down.get(key)!;
  });
  return [edges, edgeFaces];
}

/** the axis-aligned box (centre, half extents) and the radius about the origin of 3V coordinates */
function boundsOf(v: Float64Array): [Float64Array, Float64Array, number] {
  const center = new Float64Array(3), half = new Float64Array(3);
  for (let j = 0; j < 3; j++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = j; i < v.length; i += 3) { lo = Math.min(lo, v[i]!); hi = Math.max(hi, v[i]!); }
    center[j] = 0.5 * (lo + hi); half[j] = 0.5 * (hi - lo);
  }
  let r = 0;
  for (let i = 0; i < v.length; i += 3) r = Math.max(r, Math.hypot(v[i]!, v[i + 1]!, v[i + 2]!));
  return [center, half, r];
}
