/**
 * Mass properties per unit density of every solid shape (volume, centre of mass, inertia about it in
 * the shape's frame) and of a body made of several shapes (issue 18 §1; docs/theory.md §2).
 *
 * Primitives: the closed forms of src/math/spatial.ts (shapeVolume, shapePrincipalInertia), centred
 * on their own origin. Polyhedra (a hull's faces fanned into triangles, a closed triangle mesh): the
 * divergence theorem by signed tetrahedra (Tonon 2004; Eberly, "Polyhedral mass properties"). Each
 * outward triangle (a, b, c), taken relative to a reference point r, spans with r a tetrahedron of
 * signed volume v = a·(b×c)/6, first moment v (a + b + c)/4 and second moment
 * ∫ x xᵀ dV = v/20 (a aᵀ + b bᵀ + c cᵀ + s sᵀ), s = a + b + c. Over a closed, consistently oriented
 * surface the signed tetrahedra cover every inside point once (net), so the sums are the solid's
 * integrals. r is the mean of the vertices, which keeps the terms as small as the solid. With V the
 * volume and m the centre of mass relative to r, the covariance about the centre of mass is
 * C = ∫ x xᵀ − V m mᵀ and the inertia tensor I = tr(C) 1 − C.
 *
 * Compound body: mass M = Σ ρ_i V_i, centre c = Σ ρ_i V_i x_i / M with x_i = p_i + R_i c_i, and
 * I = Σ ρ_i [R_i I_i R_iᵀ + V_i (|d_i|² 1 − d_i d_iᵀ)], d_i = x_i − c (rotated tensors and the
 * parallel-axis theorem).
 *
 * Inertias are [Ixx, Iyy, Izz, Ixy, Ixz, Iyz], the tensor's entries (Ixy = −∫ρ x y dV), as the
 * model file's `inertia` and the assembler read them.
 */
import { ModelError } from '../model/errors.js';
import { formatValue } from '../model/format.js';
import { shapePrincipalInertia, shapeVolume, type Shape } from '../math/spatial.js';
import { quatToMat3 } from '../math/quat.js';
import type { HullData } from './geometry.js';

/** [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]: inertia tensor entries */
export type InertiaEntries = [number, number, number, number, number, number];

/** a solid's volume, centre of mass and inertia about it, in the shape's frame, per unit density */
export interface MassProperties {
  /** m³ */
  volume: number;
  /** m, shape frame */
  com: [number, number, number];
  /** m⁵ (kg·m² per kg/m³), about com, shape axes */
  inertia: InertiaEntries;
}

/** a shape of a compound body: its mass properties, density and pose in the body frame */
export interface CompoundPart {
  props: MassProperties;
  /** kg/m³ */
  density: number;
  /** the shape frame's origin in the body frame, m */
  position: readonly number[];
  /** [w, x, y, z] shape → body (normalised here) */
  orientation: readonly number[];
}

/** a triangle mesh: 3V coordinates and 3T vertex indices (a TriMeshData is one) */
export interface ClosedMesh {
  readonly vertices: ArrayLike<number>;
  readonly triangles: ArrayLike<number>;
}

/** a body's mass, centre of mass and inertia about it, in the body frame */
export interface BodyMass {
  /** kg */
  mass: number;
  com: [number, number, number];
  /** kg·m² */
  inertia: InertiaEntries;
}

/** a primitive solid (model-file sizes: box edges, cylinder and capsule lengths along z), centred */
export function primitiveMassProperties(s: Shape): MassProperties {
  const volume = shapeVolume(s);
  const [ixx, iyy, izz] = shapePrincipalInertia(s, 1);
  return { volume, com: [0, 0, 0], inertia: [ixx * volume, iyy * volume, izz * volume, 0, 0, 0] };
}

/**
 * the sums over triangles (i, j, k) of v[3·] relative to r: into acc = [V, ∫x, ∫y, ∫z, ∫xx, ∫yy,
 * ∫zz, ∫xy, ∫xz, ∫yz]
 */
function addTriangle(acc: Float64Array, v: ArrayLike<number>, i: number, j: number, k: number,
  r: Float64Array): void {
  const ax = v[3 * i]! - r[0]!, ay = v[3 * i + 1]! - r[1]!, az = v[3 * i + 2]! - r[2]!;
  const bx = v[3 * j]! - r[0]!, by = v[3 * j + 1]! - r[1]!, bz = v[3 * j + 2]! - r[2]!;
  const cx = v[3 * k]! - r[0]!, cy = v[3 * k + 1]! - r[1]!, cz = v[3 * k + 2]! - r[2]!;
  // signed volume of the tetrahedron (r, a, b, c)
  const vol = (ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6;
  const sx = ax + bx + cx, sy = ay + by + cy, sz = az + bz + cz;
  acc[0] += vol;
  acc[1] += (vol / 4) * sx; acc[2] += (vol / 4) * sy; acc[3] += (vol / 4) * sz;
  // second moments: v/20 (a aᵀ + b bᵀ + c cᵀ + s sᵀ)
  const w = vol / 20;
  acc[4] += w * (ax * ax + bx * bx + cx * cx + sx * sx);
  acc[5] += w * (ay * ay + by * by + cy * cy + sy * sy);
  acc[6] += w * (az * az + bz * bz + cz * cz + sz * sz);
  acc[7] += w * (ax * ay + bx * by + cx * cy + sx * sy);
  acc[8] += w * (ax * az + bx * bz + cx * cz + sx * sz);
  acc[9] += w * (ay * az + by * bz + cy * cz + sy * sz);
}

/** the mean of 3V coordinates */
function meanPoint(v: ArrayLike<number>): Float64Array {
  const r = new Float64Array(3), n = v.length / 3;
  for (let i = 0; i < v.length; i += 3) { r[0] += v[i]!; r[1] += v[i + 1]!; r[2] += v[i + 2]!; }
  r[0] /= n; r[1] /= n; r[2] /= n;
  return r;
}

/** mass properties from the sums about r (see addTriangle) */
function fromSums(acc: Float64Array, r: Float64Array): MassProperties {
  const V = acc[0]!, mx = acc[1]! / V, my = acc[2]! / V, mz = acc[3]! / V;
  // covariance about the centre of mass, then I = tr(C) 1 − C
  const cxx = acc[4]! - V * mx * mx, cyy = acc[5]! - V * my * my, czz = acc[6]! - V * mz * mz;
  const cxy = acc[7]! - V * mx * my, cxz = acc[8]! - V * mx * mz, cyz = acc[9]! - V * my * mz;
  return {
    volume: V,
    com: [r[0]! + mx, r[1]! + my, r[2]! + mz],
    inertia: [cyy + czz, cxx + czz, cxx + cyy, -cxy, -cxz, -cyz],
  };
}

/** a convex hull's mass properties, its faces fanned into triangles from their first vertex */
export function hullMassProperties(h: HullData): MassProperties {
  const acc = new Float64Array(10), r = meanPoint(h.vertices), fv = h.faceVertices;
  for (let f = 0; f < h.faceCount; f++) {
    const s = h.faceStart[f]!, e = h.faceStart[f + 1]!;
    for (let k = s + 1; k + 1 < e; k++) addTriangle(acc, h.vertices, fv[s]!, fv[k]!, fv[k + 1]!, r);
  }
  return fromSums(acc, r);
}

/**
 * A closed triangle mesh's mass properties (vertices 3V, triangles 3T, counter-clockwise seen from
 * outside). Throws a ModelError at `name` when an index is out of range, when the mesh is not
 * closed and consistently oriented (each edge once each way), or when its volume is not positive.
 */
export function meshMassProperties(mesh: ClosedMesh, name: string): MassProperties {
  const { vertices: v, triangles: t } = mesh;
  checkClosed(v.length / 3, t, name);
  const acc = new Float64Array(10), r = meanPoint(v);
  for (let k = 0; k < t.length; k += 3) addTriangle(acc, v, t[k]!, t[k + 1]!, t[k + 2]!, r);
  const props = fromSums(acc, r);
  if (!(props.volume > 0) || !Number.isFinite(props.volume)) {
    throw new ModelError(name, `the mesh's volume is ${formatValue(props.volume)} m³,`
      + ' not positive and finite (are its triangles clockwise seen from outside?)');
  }
  return props;
}

/** throws unless every directed edge of the triangles appears once and its reverse once */
function checkClosed(V: number, t: ArrayLike<number>, name: string): void {
  if (t.length === 0 || t.length % 3 !== 0) {
    throw new ModelError(name, `the mesh has ${t.length} triangle indices, not a positive multiple of 3`);
  }
  for (let k = 0; k < t.length; k++) {
    if (!(Number.isInteger(t[k]) && t[k]! >= 0 && t[k]! < V)) {
      const tri = Math.floor(k / 3);
      throw new ModelError(name, `triangle ${tri} has vertex index ${formatValue(t[k])}, not in 0..${V - 1}`);
    }
  }
  // each directed edge (u, w) once, keyed u·V + w
  const edges = new Set<number>();
  for (let k = 0; k < t.length; k++) {
    const u = t[k]!, w = t[k % 3 === 2 ? k - 2 : k + 1]!;
    if (edges.has(u * V + w)) {
      throw new ModelError(name, 'the mesh is not closed and consistently oriented:'
        + ` edge (${u}, ${w}) is in two triangles the same way; mass properties need a closed mesh`);
    }
    edges.add(u * V + w);
  }
  for (const key of edges) {
    const u = Math.floor(key / V), w = key % V;
    if (!edges.has(w * V + u)) {
      throw new ModelError(name, `the mesh is not closed: edge (${u}, ${w}) has no triangle on its`
        + ' other side; mass properties need a closed mesh');
    }
  }
}

/**
 * A body's mass, centre of mass and inertia about it (body frame) from its shapes' mass properties,
 * densities and poses. Throws a ModelError at `name` unless the total mass is positive and finite.
 */
export function compound(parts: readonly CompoundPart[], name = 'body'): BodyMass {
  let mass = 0;
  const c = [0, 0, 0], x = parts.map((p) => placedCom(p));
  parts.forEach((p, i) => {
    const m = p.density * p.props.volume;
    mass += m;
    for (let j = 0; j < 3; j++) c[j] += m * x[i]![j]!;
  });
  if (!(mass > 0) || !Number.isFinite(mass)) {
    throw new ModelError(name, `the mass of its shapes is ${formatValue(mass)} kg, not positive and finite`);
  }
  for (let j = 0; j < 3; j++) c[j] /= mass;
  // each part's inertia turned into the body frame, plus its mass at its offset from c
  const J = new Float64Array(9), R = new Float64Array(9), I = new Float64Array(9);
  parts.forEach((p, i) => {
    const m = p.density * p.props.volume, [ixx, iyy, izz, ixy, ixz, iyz] = p.props.inertia;
    I.set([ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz]);
    rotation(R, p.orientation);
    const d = [x[i]![0]! - c[0]!, x[i]![1]! - c[1]!, x[i]![2]! - c[2]!];
    const dd = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) {
      let rir = 0;
      for (let k = 0; k < 3; k++) {
        for (let l = 0; l < 3; l++) rir += R[3 * a + k]! * I[3 * k + l]! * R[3 * b + l]!;
      }
      J[3 * a + b] += p.density * rir + m * ((a === b ? dd : 0) - d[a]! * d[b]!);
    }
  });
  return { mass, com: [c[0]!, c[1]!, c[2]!], inertia: [J[0]!, J[4]!, J[8]!, J[1]!, J[2]!, J[5]!] };
}

/** the part's centre of mass in the body frame: p + R c */
function placedCom(p: CompoundPart): number[] {
  const R = rotation(new Float64Array(9), p.orientation), c = p.props.com;
  return [0, 1, 2].map((a) => p.position[a]! + R[3 * a]! * c[0] + R[3 * a + 1]! * c[1]
    + R[3 * a + 2]! * c[2]);
}

/** out = R (row-major) of the quaternion q normalised */
function rotation(out: Float64Array, q: readonly number[]): Float64Array {
  const n = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  return quatToMat3(out, [q[0]! / n, q[1]! / n, q[2]! / n, q[3]! / n]);
}
