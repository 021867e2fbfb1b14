/**
 * Convex hulls from points, for the hull shape (issue 18 §1; docs/theory.md §17): quickhull
 * (Barber, Dobkin and Huhdanpaa 1996) on exact orientation tests, then merged into polygon faces
 * with a relative tolerance.
 *
 * Quickhull grows a triangulated hull from a tetrahedron of extreme points. Every point not on it
 * belongs to the outside set of one face it lies above. Each step takes a face with an outside set
 * and its farthest point p (the eye), finds the faces p lies above (connected to that face), their
 * boundary (the horizon, one loop), replaces them by the cone of triangles from p to the horizon,
 * and hands their points to the new faces they lie above; the others are inside and drop out.
 * "Above" is decided exactly (the sign of an orientation determinant: plain doubles when they
 * clear Shewchuk's error bound, integers otherwise), so the triangulated hull is the exact convex
 * hull of the points, every edge convex or flat, and the visible faces always form a disc.
 *
 * The tolerance τ = HULL_TOLERANCE · (max|x| + max|y| + max|z|) then decides what is flat. Points
 * are "fewer than 4 non-coplanar" when the starting tetrahedron is no thicker than τ. From the
 * largest triangle down, each triangle not yet taken seeds a face that grows over neighbouring
 * triangles whose three vertices lie within τ of the seed's plane; the face's boundary is one loop,
 * counter-clockwise from outside. A point of the loops is a vertex of the hull when it lies on
 * three faces or more (on two it lies inside an edge, on one inside a face), so interior,
 * duplicate, edge and face points drop out. A face's normal is the sum of its triangles' area
 * vectors (each from nearly exact products), normalised; its offset the largest n·v over their
 * vertices, so every point lies on or below every face's plane (within rounding and τ).
 *
 * τ is relative 1e-6: points rounded to single precision (binary STL, float32 buffers) still
 * merge into flat faces, and 1e-6 of a shape's size is far below any contact margin. Faces are
 * convex when the points lie within about τ/10 of the planes they are meant to lie on (measured:
 * no reflex face in 2400 clouds scattered up to τ/5 about cube faces, cylinders and grids); points
 * scattered about a plane by τ/10 to 100τ give a closed hull holding every point, but a face may
 * then turn inward in its plane where the scatter splits one flat region into two nearly
 * coplanar faces. Everything iterates in index order: the same points give the same hull,
 * numbered the same way.
 */
import { ModelError } from '../model/errors.js';
import { formatValue } from '../model/format.js';
import type { HullData } from './geometry.js';
import { accurateCross, orientationSide } from '../math/exact.js';

/** τ = HULL_TOLERANCE · (max|x| + max|y| + max|z|): points within τ of a plane lie on it (see above) */
export const HULL_TOLERANCE = 1e-6;

/** the triangulated hull while quickhull grows it: faces by index, dead ones kept */
class Build {
  /** 3 vertices per face (counter-clockwise from outside) and the face across each edge v_k v_k+1 */
  readonly fv: number[] = [];
  readonly nb: number[] = [];
  /** per face: unit normal and offset (4 numbers), (v − u) × (w − u) (twice its area vector), alive */
  readonly plane: number[] = [];
  readonly area: number[] = [];
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
  return L[4 * f]! * P[3 * i]! + L[4 * f + 1]! * P[3 * i + 1]! + L[4 * f + 2]! * P[3 * i + 2]!
    - L[4 * f + 3]!;
}

/** true when point i lies strictly above face f (exactly) */
function above(b: Build, f: number, i: number): boolean {
  return orientationSide(b.p, b.fv[3 * f]!, b.fv[3 * f + 1]!, b.fv[3 * f + 2]!, i) > 0;
}

/** appends the face (u, v, w) with its area vector and plane; its neighbours are set by the caller */
function addFace(b: Build, u: number, v: number, w: number): number {
  const P = b.p, f = b.alive.length, A = b.area;
  accurateCross(A, 3 * f, P, u, v, w);
  const s = 1 / Math.hypot(A[3 * f]!, A[3 * f + 1]!, A[3 * f + 2]!);
  const nx = A[3 * f]! * s, ny = A[3 * f + 1]! * s, nz = A[3 * f + 2]! * s;
  // the offset as the mean over the three vertices halves its rounding
  const d = nx * (P[3 * u]! + P[3 * v]! + P[3 * w]!) + ny * (P[3 * u + 1]! + P[3 * v + 1]! + P[3 * w + 1]!)
    + nz * (P[3 * u + 2]! + P[3 * v + 2]! + P[3 * w + 2]!);
  b.fv.push(u, v, w); b.nb.push(-1, -1, -1); b.plane.push(nx, ny, nz, d / 3);
  b.alive.push(true); b.head.push(-1); b.mark.push(0);
  return f;
}

/** puts point i in the outside set of the face among `faces` it lies above, the farthest such */
function assign(b: Build, i: number, faces: readonly number[]): void {
  let best = -1, far = -Infinity;
  for (const f of faces) {
    if (!above(b, f, i)) continue;
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
  if (p.length % 3 !== 0) {
    throw new ModelError(name, `${p.length} coordinates are not a whole number of points`);
  }
  // products of three coordinates must neither overflow nor underflow
  for (let i = 0; i < p.length; i += 3) {
    const x = Array.from(p.subarray(i, i + 3));
    const at = `point ${i / 3} is ${formatValue(x)}`;
    if (!x.every(Number.isFinite)) throw new ModelError(name, `${at}, not finite`);
    if (!x.every((v) => Math.abs(v) <= 1e80)) throw new ModelError(name, `${at}, beyond ±1e80`);
  }
  if (p.length < 12) {
    throw new ModelError(name,
      `fewer than 4 non-coplanar points: ${p.length / 3} given, a hull needs 4 or more`);
  }
  return p;
}

/** the index of the point farthest from the line (or plane) through a with unit direction (normal) u */
function farthestFrom(P: Float64Array, n: number, a: number, u: readonly number[],
  plane: boolean): [number, number] {
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
function initialSimplex(P: Float64Array, n: number, tol: number,
  name: string): [number, number, number, number] {
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
  const fail = (how: string) =>
    new ModelError(name, `fewer than 4 non-coplanar points: the ${n} points are ${how}`);
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
  const side = (P[3 * d]! - P[3 * a]!) * w[0]! + (P[3 * d + 1]! - P[3 * a + 1]!) * w[1]!
    + (P[3 * d + 2]! - P[3 * a + 2]!) * w[2]!;
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
  const faces = [
    addFace(b, a!, bb!, c!), addFace(b, a!, d!, bb!), addFace(b, bb!, d!, c!), addFace(b, c!, d!, a!),
  ];
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
      if (b.mark[h] !== stamp && above(b, h, eye)) { b.mark[h] = stamp; list.push(h); }
    }
  }
  return list;
}

/**
 * the horizon as one loop of edges [u, v, face across] (u → v as in the visible face). With exact
 * sides the visible faces of a convex polyhedron form a disc, so the loop is simple and whole.
 */
function horizonLoop(b: Build, visible: readonly number[]): number[] {
  const edges: number[] = [], from = new Map<number, number>();
  for (const f of visible) for (let k = 0; k < 3; k++) {
    const g = b.nb[3 * f + k]!;
    if (b.mark[g] === b.stamp) continue;
    const u = b.fv[3 * f + k]!;
    if (from.has(u)) throw new Error(`quickhull: the horizon passes point ${u} twice`);
    from.set(u, edges.length); edges.push(u, b.fv[3 * f + (k + 1) % 3]!, g);
  }
  // one walk around from the first edge must meet every edge
  const loop: number[] = [];
  let e = 0;
  do {
    loop.push(edges[e]!, edges[e + 1]!, edges[e + 2]!);
    e = from.get(edges[e + 1]!)!;
  } while (e !== 0 && loop.length < edges.length);
  if (e !== 0 || loop.length !== edges.length) throw new Error('quickhull: the horizon is not one loop');
  return loop;
}

/** adds the eye: the visible faces are replaced by the cone from the eye to their horizon */
function addPoint(b: Build, f: number, eye: number): void {
  const visible = visibleFrom(b, f, eye), loop = horizonLoop(b, visible);
  // the cone: face k is (u_k, v_k, eye), across its edges the hidden face, face k+1 and face k−1
  const first = b.alive.length, m = loop.length / 3;
  for (let k = 0; k < m; k++) addFace(b, loop[3 * k]!, loop[3 * k + 1]!, eye);
  const cone: number[] = [];
  for (let k = 0; k < m; k++) {
    const g = first + k;
    b.nb[3 * g] = loop[3 * k + 2]!;
    b.nb[3 * g + 1] = first + (k + 1) % m; b.nb[3 * g + 2] = first + (k + m - 1) % m;
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
  const F = b.alive.length, fv = b.fv, A = b.area, group = new Int32Array(F).fill(-1);
  const live = [...Array(F).keys()].filter((f) => b.alive[f]);
  const areas = new Float64Array(F);
  for (const f of live) areas[f] = Math.hypot(A[3 * f]!, A[3 * f + 1]!, A[3 * f + 2]!);
  live.sort((x, y) => areas[y]! - areas[x]! || x - y);
  const seeds: number[] = [];
  for (const s of live) {
    if (group[s]! >= 0) continue;
    group[s] = seeds.length;
    const list = [s];
    for (let k = 0; k < list.length; k++) for (let j = 0; j < 3; j++) {
      const h = b.nb[3 * list[k]! + j]!;
      if (group[h]! < 0 && Math.abs(distance(b, s, fv[3 * h]!)) <= b.tol
        && Math.abs(distance(b, s, fv[3 * h + 1]!)) <= b.tol
        && Math.abs(distance(b, s, fv[3 * h + 2]!)) <= b.tol) {
        group[h] = seeds.length; list.push(h);
      }
    }
    seeds.push(s);
  }
  return { group, seeds };
}

/** each face's boundary loop of point indices (counter-clockwise from outside), or null if not one loop */
function boundaryLoops(b: Build, group: Int32Array, faces: number): (number[] | null)[] {
  // the boundary edge leaving point u in face g, keyed g·n + u; the first point of each face's boundary
  const next = new Map<number, number>(), first = new Int32Array(faces).fill(-1);
  const size = new Int32Array(faces);
  const bad = new Uint8Array(faces), n = b.n;
  for (let f = 0; f < b.alive.length; f++) {
    if (!b.alive[f]) continue;
    const g = group[f]!;
    for (let k = 0; k < 3; k++) {
      if (group[b.nb[3 * f + k]!] === g) continue;
      const u = b.fv[3 * f + k]!;
      if (next.has(g * n + u)) bad[g] = 1;
      next.set(g * n + u, b.fv[3 * f + (k + 1) % 3]!);
      if (first[g]! < 0 || u < first[g]!) first[g] = u;
      size[g]!++;
    }
  }
  const loops: (number[] | null)[] = [];
  for (let g = 0; g < faces; g++) {
    const start = first[g]!, loop = [start];
    let v = next.get(g * n + start)!;
    for (; v !== start && loop.length <= size[g]!; v = next.get(g * n + v)!) loop.push(v);
    loops.push(!bad[g] && loop.length === size[g] ? loop : null);
  }
  return loops;
}

/** the hull's faces: boundary loops of point indices, unit normals and offsets */
interface FaceSet { loops: number[][]; normals: number[]; offsets: number[] }

/**
 * the faces: merged faces, split back into triangles where not one loop (possible only through
 * rounding). A face's normal is the sum of its triangles' area vectors, normalised; its offset the
 * largest n·v over their vertices, so that every one of them lies on or below its plane.
 */
function faceSet(b: Build): FaceSet {
  const merged = mergeFaces(b);
  let group = merged.group, count = merged.seeds.length, loops = boundaryLoops(b, group, count);
  if (loops.some((l) => l === null)) {
    const id = new Int32Array(count).fill(-1), regroup = new Int32Array(group.length).fill(-1);
    count = 0;
    for (let f = 0; f < group.length; f++) {
      if (!b.alive[f]) continue;
      const g = group[f]!;
      if (loops[g] && id[g]! < 0) id[g] = count++;
      regroup[f] = loops[g] ? id[g]! : count++;
    }
    group = regroup; loops = boundaryLoops(b, group, count);
  }
  const normals = new Array<number>(3 * count).fill(0), offsets = new Array<number>(count).fill(-Infinity);
  for (let f = 0; f < group.length; f++) {
    if (b.alive[f]) for (let j = 0; j < 3; j++) normals[3 * group[f]! + j] += b.area[3 * f + j]!;
  }
  for (let g = 0; g < count; g++) {
    const s = 1 / Math.hypot(normals[3 * g]!, normals[3 * g + 1]!, normals[3 * g + 2]!);
    for (let j = 0; j < 3; j++) normals[3 * g + j] *= s;
  }
  for (let f = 0; f < group.length; f++) {
    if (!b.alive[f]) continue;
    const g = group[f]!, P = b.p;
    for (let k = 0; k < 3; k++) {
      const i = b.fv[3 * f + k]!;
      const d = normals[3 * g]! * P[3 * i]! + normals[3 * g + 1]! * P[3 * i + 1]!
        + normals[3 * g + 2]! * P[3 * i + 2]!;
      offsets[g] = Math.max(offsets[g]!, d);
    }
  }
  return { loops: loops as number[][], normals, offsets };
}

/**
 * which points are vertices of the hull: those on three faces or more (on two a point lies inside an
 * edge, on one inside a face), and every point of a face that would keep fewer than three
 */
function hullVertices(loops: readonly number[][], pointCount: number): Uint8Array {
  const faces = new Int32Array(pointCount), keep = new Uint8Array(pointCount);
  for (const loop of loops) for (const i of loop) faces[i]!++;
  for (let i = 0; i < pointCount; i++) keep[i] = faces[i]! >= 3 ? 1 : 0;
  for (const loop of loops) {
    if (loop.filter((i) => keep[i]).length < 3) for (const i of loop) keep[i] = 1;
  }
  return keep;
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

  private constructor(points: Float64Array, set: FaceSet, tolerance: number) {
    this.tolerance = tolerance;
    // the vertices, in the order of the given points
    const keep = hullVertices(set.loops, points.length / 3);
    const source = [...keep.keys()].filter((i) => keep[i]);
    const index = new Int32Array(keep.length).fill(-1);
    source.forEach((i, k) => { index[i] = k; });
    this.sourceIndex = Int32Array.from(source);
    this.vertexCount = source.length;
    this.vertices = Float64Array.from(source.flatMap((i) => Array.from(points.subarray(3 * i, 3 * i + 3))));
    // the faces: each loop's vertices, from its lowest vertex
    const faces = set.loops.map((loop) => {
      const kept = loop.filter((i) => keep[i]).map((i) => index[i]!);
      const s = kept.indexOf(Math.min(...kept));
      return [...kept.slice(s), ...kept.slice(0, s)];
    });
    this.faceCount = faces.length;
    this.faceStart = new Int32Array(faces.length + 1);
    faces.forEach((f, k) => { this.faceStart[k + 1] = this.faceStart[k]! + f.length; });
    this.faceVertices = Int32Array.from(faces.flat());
    this.faceNormals = Float64Array.from(set.normals);
    this.faceOffsets = Float64Array.from(set.offsets);
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
    if (!(scale >= 1e-80)) {
      throw new ModelError(name, `the points lie within ${formatValue(scale)} of the origin, below 1e-80`);
    }
    const tol = HULL_TOLERANCE * scale;
    const b = new Build(p, n, tol);
    quickhull(b, initialSimplex(p, n, tol, name));
    return new ConvexHull(p, faceSet(b), tol);
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
