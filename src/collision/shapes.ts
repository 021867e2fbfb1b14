/**
 * The collision shapes of a simulation as one table (struct of arrays), built once from plain
 * descriptors, and their world poses and bounding boxes, recomputed from the positions q by
 * `updatePoses` at the collide stage (docs/theory.md §17).
 *
 * A shape is fixed in a component frame: a body (q = origin, quaternion body → world, theory.md §1
 * and §3), a particle (q = its position; the shape does not turn) or the world (component −1, its
 * pose given once). Its world pose is p_W = x + R_c p_c and R_W = R_c R_s, with R_c the component's
 * rotation and (p_c, R_s) the shape's pose in the component frame. Body shapes are centred on the
 * centre of mass: their `position` is the body's `com`.
 *
 * Shapes, in their own frame (params): sphere [r]; capsule [r, h], the segment from −h e_z to +h e_z
 * swept by r; box [h_x, h_y, h_z] half extents; plane [], the half-space z ≤ 0 (its outward normal
 * is the frame's +z, infinite); cylinder [r, h] along z; ellipsoid [r_x, r_y, r_z]; hull and mesh []
 * with their data in `geometry` (./geometry.ts; a height field is a mesh).
 *
 * The world AABB of each primitive is exact for its pose (sphere: r; capsule: the segment's box
 * grown by r; box: Σ_j |R_ij| h_j; cylinder: r √(1 − a_i²) + h |a_i| for the axis a; ellipsoid:
 * √(Σ_j (R_ij r_j)²)); a hull's or mesh's is its local box (centre c, half extents e) turned, centre
 * R c and half extents Σ_j |R_ij| e_j, which holds it but is not tight. Each box is grown by half the
 * detection margin on every side, so two boxes overlap whenever their shapes are closer than the
 * margin. A plane's box is infinite. The bounding radius ρ of each shape about its centre (sphere r,
 * capsule r + h, box |h|, cylinder √(r² + h²), ellipsoid the largest radius, hull and mesh their
 * geometry's radius) lets the broadphase drop pairs whose centres are farther apart than
 * ρ_A + ρ_B + margin.
 */
import { ModelError, unitQuaternion } from '../model/errors.js';
import { quatToMat3 } from '../math/quat.js';
import type { SurfaceMaterial } from '../contact/contactSet.js';
import type { ShapeGeometry } from './geometry.js';

export type ShapeKindName =
  'sphere' | 'capsule' | 'box' | 'plane' | 'cylinder' | 'ellipsoid' | 'hull' | 'mesh';

/** kind codes, in the rank order of the pair functions (a pair function takes the lower rank first) */
export const PLANE = 0;
export const SPHERE = 1;
export const CAPSULE = 2;
export const BOX = 3;
export const CYLINDER = 4;
export const ELLIPSOID = 5;
export const HULL = 6;
export const MESH = 7;
export const SHAPE_KINDS = 8;

/** numbers per shape in `ShapeTable.params` */
export const PARAMS_STRIDE = 4;

const KIND_CODE: Readonly<Record<ShapeKindName, number>> = {
  plane: PLANE, sphere: SPHERE, capsule: CAPSULE, box: BOX, cylinder: CYLINDER, ellipsoid: ELLIPSOID,
  hull: HULL, mesh: MESH,
};
const PARAM_NAMES: Readonly<Record<ShapeKindName, readonly string[]>> = {
  plane: [], sphere: ['radius'], capsule: ['radius', 'half length'], box: ['half x', 'half y', 'half z'],
  cylinder: ['radius', 'half length'], ellipsoid: ['radius x', 'radius y', 'radius z'], hull: [], mesh: [],
};

/** one collision shape, as the loader describes it */
export interface ShapeDesc {
  kind: ShapeKindName;
  /** the component (particle or body index) it is fixed to, −1 for the world */
  component: number;
  /** offset of the component in q, −1 for the world */
  qOffset: number;
  /** true on a body (q holds origin and quaternion), false on a particle or the world */
  isBody: boolean;
  /**
   * sphere [r], capsule [r, halfLength], box [hx, hy, hz], plane [], cylinder [r, halfLength],
   * ellipsoid [rx, ry, rz], hull [], mesh []
   */
  params: readonly number[];
  /** a hull's or a mesh's data (required for those kinds, absent otherwise) */
  geometry?: ShapeGeometry;
  /** collision group bits (default 1) and the groups it pairs with (default all): a pair needs
   * (group_A & mask_B) ≠ 0 and (group_B & mask_A) ≠ 0 */
  group?: number;
  mask?: number;
  /** the index of its named material (Model.materials), whose pair overrides apply (default −1: none) */
  materialId?: number;
  /** position in the component frame (in world for the world), m */
  position: readonly [number, number, number] | readonly number[];
  /** orientation [w, x, y, z] shape → component frame (→ world for the world), normalised here */
  orientation: readonly [number, number, number, number] | readonly number[];
  material: SurfaceMaterial;
  /** false: the shape never pairs */
  collide: boolean;
  name: string;
  /** true on a component that never moves (a non-dynamic one); world shapes are always fixed */
  fixed?: boolean;
}

/** the shapes of a simulation, struct of arrays (index = shape index) */
export class ShapeTable {
  readonly count: number;
  /** detection margin, m: contacts are reported while the gap is below it (the stepper widens it for fast shapes) */
  margin: number;
  readonly names: readonly string[];
  /** (n) kind code (PLANE … ELLIPSOID) */
  readonly kind: Uint8Array;
  /** (n) component index, −1 for the world */
  readonly component: Int32Array;
  /** (n) offset of the component in q, −1 for the world */
  readonly qOffset: Int32Array;
  /** (n) 1 on a body */
  readonly isBody: Uint8Array;
  /** (n) 1 on the world or on a component that never moves */
  readonly fixed: Uint8Array;
  /** (n) 1 when the shape may pair */
  readonly collide: Uint8Array;
  /** (n) collision group bits and the mask of groups it pairs with (ShapeDesc.group, mask) */
  readonly group: Uint32Array;
  readonly mask: Uint32Array;
  /** (n) hull or mesh data, null for the primitives */
  readonly geometry: readonly (ShapeGeometry | null)[];
  /** (4n) shape parameters, see the file comment */
  readonly params: Float64Array;
  /** (n) radius of a sphere about the shape's centre holding the shape (Infinity for a plane) */
  readonly bound: Float64Array;
  /** (3n) position and (9n) rotation (row-major) of the shape in its component frame */
  readonly localPos: Float64Array;
  readonly localRot: Float64Array;
  /** (3n) world position and (9n) world rotation (row-major, columns = shape axes) */
  readonly pos: Float64Array;
  readonly rot: Float64Array;
  /** (6n) world AABB grown by margin/2: min x, y, z, max x, y, z */
  readonly aabb: Float64Array;
  /** (n) surface material */
  readonly friction: Float64Array;
  readonly restitution: Float64Array;
  readonly compliance: Float64Array;
  readonly damping: Float64Array;
  /** (n) 1 when the shape's orientation in its component is not the identity */
  private readonly turned: Uint8Array;
  /** the margin the world shapes' boxes were grown by (they are recomputed when it changes) */
  private worldMargin = NaN;

  constructor(descs: readonly ShapeDesc[], margin: number) {
    if (!(margin >= 0) || !Number.isFinite(margin)) {
      throw new ModelError('contact.margin', `must be finite and ≥ 0, got ${margin}`);
    }
    const n = descs.length;
    this.count = n; this.margin = margin;
    this.names = descs.map((d) => d.name);
    this.kind = new Uint8Array(n); this.component = new Int32Array(n); this.qOffset = new Int32Array(n);
    this.isBody = new Uint8Array(n); this.fixed = new Uint8Array(n); this.collide = new Uint8Array(n);
    this.group = new Uint32Array(n); this.mask = new Uint32Array(n);
    this.geometry = descs.map((d) => d.geometry ?? null);
    this.params = new Float64Array(PARAMS_STRIDE * n); this.bound = new Float64Array(n);
    this.localPos = new Float64Array(3 * n); this.localRot = new Float64Array(9 * n);
    this.turned = new Uint8Array(n);
    this.pos = new Float64Array(3 * n); this.rot = new Float64Array(9 * n); this.aabb = new Float64Array(6 * n);
    this.friction = new Float64Array(n); this.restitution = new Float64Array(n);
    this.compliance = new Float64Array(n); this.damping = new Float64Array(n);
    for (let i = 0; i < n; i++) this.describe(i, descs[i]!);
  }

  /** fills row i from its descriptor, checking every number */
  private describe(i: number, d: ShapeDesc): void {
    const path = `shape "${d.name}"`;
    // kind and parameters
    const code = KIND_CODE[d.kind];
    if (code === undefined) throw new ModelError(path, `unknown shape kind "${String(d.kind)}"`);
    const names = PARAM_NAMES[d.kind];
    if (d.params.length !== names.length) {
      const detail = `expected ${names.length} numbers (${names.join(', ')}), got ${d.params.length}`;
      throw new ModelError(`${path}.params`, detail);
    }
    names.forEach((name, k) => {
      const v = d.params[k]!;
      const ok = Number.isFinite(v) && (v > 0 || (v === 0 && name === 'half length' && d.kind === 'capsule'));
      if (!ok) throw new ModelError(`${path}.params`, `${name} must be finite and > 0, got ${v}`);
      this.params[PARAMS_STRIDE * i + k] = v;
    });
    const geometry = this.geometry[i]!;
    if ((code === HULL || code === MESH) !== (geometry !== null) || (geometry && geometry.type !== d.kind)) {
      const why = geometry ? `cannot take ${geometry.type} data` : 'needs its data';
      throw new ModelError(path, `a ${d.kind} ${why}`);
    }
    const pr = this.params.subarray(PARAMS_STRIDE * i);
    this.bound[i] = geometry ? geometry.radius : boundingRadius(code, pr[0]!, pr[1]!, pr[2]!);
    this.group[i] = (d.group ?? 1) >>> 0; this.mask[i] = (d.mask ?? 0xffffffff) >>> 0;
    // component
    const world = d.component < 0;
    if (!world && !(d.qOffset >= 0)) {
      throw new ModelError(path, `qOffset must be ≥ 0 on component ${d.component}`);
    }
    this.kind[i] = code; this.component[i] = world ? -1 : d.component; this.qOffset[i] = world ? -1 : d.qOffset;
    this.isBody[i] = !world && d.isBody ? 1 : 0;
    this.fixed[i] = world || d.fixed === true ? 1 : 0;
    this.collide[i] = d.collide ? 1 : 0;
    // pose in the component frame
    const p = d.position;
    if (p.length !== 3 || !p.every(Number.isFinite)) {
      throw new ModelError(`${path}.position`, 'expected 3 finite numbers');
    }
    this.localPos.set(p, 3 * i);
    const qs = unitQuaternion(`${path}.orientation`, d.orientation as number[]);
    quatToMat3(this.localRot.subarray(9 * i, 9 * i + 9), qs);
    this.turned[i] = qs[1] === 0 && qs[2] === 0 && qs[3] === 0 ? 0 : 1;
    this.describeMaterial(i, d.material, `${path}.material`);
    // a world shape's pose is its local pose, fixed from here on
    if (world) {
      this.pos.set(this.localPos.subarray(3 * i, 3 * i + 3), 3 * i);
      this.rot.set(this.localRot.subarray(9 * i, 9 * i + 9), 9 * i);
      this.updateBox(i);
    }
  }

  private describeMaterial(i: number, m: SurfaceMaterial, path: string): void {
    const check = (v: number, name: string, max = Infinity): number => {
      if (!(v >= 0 && v <= max) || !Number.isFinite(v)) {
        const bound = max < Infinity ? ` and ≤ ${max}` : '';
        throw new ModelError(`${path}.${name}`, `must be finite, ≥ 0${bound}, got ${v}`);
      }
      return v;
    };
    this.friction[i] = check(m.friction, 'friction');
    this.restitution[i] = check(m.restitution, 'restitution', 1);
    this.compliance[i] = check(m.compliance, 'compliance');
    this.damping[i] = check(m.damping, 'damping');
  }

  /** world poses and AABBs of every shape on a component, from the positions q */
  updatePoses(q: Float64Array): void {
    // the world's shapes do not move, but their boxes grow with the margin
    const world = this.margin !== this.worldMargin;
    this.worldMargin = this.margin;
    for (let i = 0; i < this.count; i++) {
      const o = this.qOffset[i]!;
      if (o < 0) { if (world) this.updateBox(i); continue; }
      if (this.isBody[i] === 1) this.bodyPose(i, q, o); else this.particlePose(i, q, o);
      this.updateBox(i);
    }
  }

  /** p_W = x + R_c p_c, R_W = R_c R_s with R_c from the body quaternion at q[o + 3] (theory.md §3) */
  private bodyPose(i: number, q: Float64Array, o: number): void {
    const rot = this.rot, b = 9 * i;
    // R_c straight into the shape's rotation
    const w = q[o + 3]!, x = q[o + 4]!, y = q[o + 5]!, z = q[o + 6]!;
    const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
    const wx = w * x, wy = w * y, wz = w * z;
    const r0 = 1 - 2 * (yy + zz), r1 = 2 * (xy - wz), r2 = 2 * (xz + wy);
    const r3 = 2 * (xy + wz), r4 = 1 - 2 * (xx + zz), r5 = 2 * (yz - wx);
    const r6 = 2 * (xz - wy), r7 = 2 * (yz + wx), r8 = 1 - 2 * (xx + yy);
    // position: origin plus the rotated offset
    const lp = this.localPos, pos = this.pos, px = lp[3 * i]!, py = lp[3 * i + 1]!, pz = lp[3 * i + 2]!;
    pos[3 * i] = q[o]! + r0 * px + r1 * py + r2 * pz;
    pos[3 * i + 1] = q[o + 1]! + r3 * px + r4 * py + r5 * pz;
    pos[3 * i + 2] = q[o + 2]! + r6 * px + r7 * py + r8 * pz;
    if (this.turned[i] === 0) {
      rot[b] = r0; rot[b + 1] = r1; rot[b + 2] = r2; rot[b + 3] = r3; rot[b + 4] = r4;
      rot[b + 5] = r5; rot[b + 6] = r6; rot[b + 7] = r7; rot[b + 8] = r8;
      return;
    }
    // a shape turned in its body: R_c R_s
    const lr = this.localRot;
    for (let c = 0; c < 3; c++) {
      const s0 = lr[b + c]!, s1 = lr[b + 3 + c]!, s2 = lr[b + 6 + c]!;
      rot[b + c] = r0 * s0 + r1 * s1 + r2 * s2;
      rot[b + 3 + c] = r3 * s0 + r4 * s1 + r5 * s2;
      rot[b + 6 + c] = r6 * s0 + r7 * s1 + r8 * s2;
    }
  }

  /** a particle translates its shape: p_W = x + p_c, R_W = R_s */
  private particlePose(i: number, q: Float64Array, o: number): void {
    const lp = this.localPos, pos = this.pos;
    pos[3 * i] = q[o]! + lp[3 * i]!; pos[3 * i + 1] = q[o + 1]! + lp[3 * i + 1]!;
    pos[3 * i + 2] = q[o + 2]! + lp[3 * i + 2]!;
    for (let k = 0; k < 9; k++) this.rot[9 * i + k] = this.localRot[9 * i + k]!;
  }

  /** the world AABB of shape i from its pose, grown by margin/2 (half extents per kind, file comment) */
  private updateBox(i: number): void {
    const R = this.rot, b = 9 * i, pr = this.params, k = PARAMS_STRIDE * i;
    const a = pr[k]!, h = pr[k + 1]!, c = pr[k + 2]!;
    let ex = Infinity, ey = Infinity, ez = Infinity;
    switch (this.kind[i]) {
      case SPHERE: ex = a; ey = a; ez = a; break;
      case CAPSULE:
        ex = a + h * Math.abs(R[b + 2]!); ey = a + h * Math.abs(R[b + 5]!); ez = a + h * Math.abs(R[b + 8]!);
        break;
      case BOX:
        ex = a * Math.abs(R[b]!) + h * Math.abs(R[b + 1]!) + c * Math.abs(R[b + 2]!);
        ey = a * Math.abs(R[b + 3]!) + h * Math.abs(R[b + 4]!) + c * Math.abs(R[b + 5]!);
        ez = a * Math.abs(R[b + 6]!) + h * Math.abs(R[b + 7]!) + c * Math.abs(R[b + 8]!);
        break;
      case CYLINDER:
        ex = a * Math.sqrt(Math.max(0, 1 - R[b + 2]! ** 2)) + h * Math.abs(R[b + 2]!);
        ey = a * Math.sqrt(Math.max(0, 1 - R[b + 5]! ** 2)) + h * Math.abs(R[b + 5]!);
        ez = a * Math.sqrt(Math.max(0, 1 - R[b + 8]! ** 2)) + h * Math.abs(R[b + 8]!);
        break;
      case ELLIPSOID:
        ex = Math.hypot(a * R[b]!, h * R[b + 1]!, c * R[b + 2]!);
        ey = Math.hypot(a * R[b + 3]!, h * R[b + 4]!, c * R[b + 5]!);
        ez = Math.hypot(a * R[b + 6]!, h * R[b + 7]!, c * R[b + 8]!);
        break;
      case HULL: case MESH: this.geometryBox(i); return;
    }
    this.setBox(i, this.pos[3 * i]!, this.pos[3 * i + 1]!, this.pos[3 * i + 2]!, ex, ey, ez);
  }

  /** a hull's or mesh's box: its local box (centre c, half extents e) turned, R c and Σ_j |R_ij| e_j */
  private geometryBox(i: number): void {
    const g = this.geometry[i]!, c = g.boxCenter, e = g.boxHalf, R = this.rot, b = 9 * i, P = this.pos;
    const cx = P[3 * i]! + R[b]! * c[0]! + R[b + 1]! * c[1]! + R[b + 2]! * c[2]!;
    const cy = P[3 * i + 1]! + R[b + 3]! * c[0]! + R[b + 4]! * c[1]! + R[b + 5]! * c[2]!;
    const cz = P[3 * i + 2]! + R[b + 6]! * c[0]! + R[b + 7]! * c[1]! + R[b + 8]! * c[2]!;
    const ex = Math.abs(R[b]!) * e[0]! + Math.abs(R[b + 1]!) * e[1]! + Math.abs(R[b + 2]!) * e[2]!;
    const ey = Math.abs(R[b + 3]!) * e[0]! + Math.abs(R[b + 4]!) * e[1]! + Math.abs(R[b + 5]!) * e[2]!;
    const ez = Math.abs(R[b + 6]!) * e[0]! + Math.abs(R[b + 7]!) * e[1]! + Math.abs(R[b + 8]!) * e[2]!;
    this.setBox(i, cx, cy, cz, ex, ey, ez);
  }

  /** the box of centre c and half extents e, grown by half the margin (a plane's is all of space) */
  private setBox(i: number, cx: number, cy: number, cz: number, ex: number, ey: number, ez: number): void {
    const g = 0.5 * this.margin, box = this.aabb, o = 6 * i;
    box[o] = cx - ex - g; box[o + 1] = cy - ey - g; box[o + 2] = cz - ez - g;
    box[o + 3] = cx + ex + g; box[o + 4] = cy + ey + g; box[o + 5] = cz + ez + g;
  }
}

/** radius of the smallest sphere about the shape's centre that holds it (Infinity for a plane) */
function boundingRadius(kind: number, a: number, b: number, c: number): number {
  switch (kind) {
    case SPHERE: return a;
    case CAPSULE: return a + b;
    case BOX: return Math.hypot(a, b, c);
    case CYLINDER: return Math.hypot(a, b);
    case ELLIPSOID: return Math.max(a, b, c);
    default: return Infinity;
  }
}
