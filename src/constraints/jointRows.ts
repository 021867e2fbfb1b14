/**
 * The rows of the generic joint (src/constraints/joint.ts): the mask presets, the per-evaluation
 * kinematics of the two joint frames, and the value g, Jacobian row G and bias κ = Ġu of each
 * row kind. 001 §4 (eq. 26-29, the ball-joint block G = [I, −[r]]), 000 §0.2 (quaternion rates).
 *
 * Notation. Frame C is fixed in A (pose X_AC), frame D in B (X_BD); the world side has R = I,
 * x = 0, v = ω = 0. World quantities: R_WC = R_A R_AC, r_C = R_A p_AC (lever arm of C from A's
 * origin), x_C = x_A + r_C, and likewise R_WD, r_D, x_D; d = x_D − x_C, s = x_D − x_A = r_C + d;
 * c_k = R_WC e_k (C's k-th axis in world); ω_C = ω_A, ω_D = ω_B; a point velocity is v + ω × r.
 *
 * Translational row k (a locked axis of C): g = c_k·d.
 *   ġ = c_k·e,  e = ḋ − ω_A × d   (ċ_k = ω_A × c_k)
 *     = c_k·(v_B − [r_D]ω_B − v_A + [s]ω_A)
 *   G_A = [−c_kᵀ, (c_k × s)ᵀ],  G_B = [c_kᵀ, (r_D × c_k)ᵀ]   (the force on A acts at the point D)
 *   g̈ = ċ_k·e + c_k·ė = c_k·(ė − ω_A × e),  ė = d̈ − ω̇_A × d − ω_A × ḋ, and with the point
 *   accelerations a = v̇ + ω̇ × r + ω × (ω × r) the terms free of v̇, ω̇ give
 *   κ = c_k·(ω_B × (ω_B × r_D) − ω_A × (ω_A × r_C) − ω_A × ḋ − ω_A × e).
 *
 * Rotational lock row k: g = 2 v_k with q_CD = q_WC⁻¹ ⋆ q_WD = (w, v). From q̇_WD = ½ ω_B ⋆ q_WD
 * and (q_WC⁻¹)˙ = −½ q_WC⁻¹ ⋆ ω_A (world ω as pure quaternions),
 *   q̇_CD = ½ q_WC⁻¹ ⋆ (ω_B − ω_A) ⋆ q_WC ⋆ q_CD = ½ Ω ⋆ q_CD,   Ω = R_WCᵀ(ω_B − ω_A),
 * whose vector part is ½(wΩ + Ω × v) = ½(wI − [v])Ω, so
 *   ġ = e_kᵀ(wI − [v]) R_WCᵀ (ω_B − ω_A) = ℓ_k·(ω_B − ω_A),   ℓ_k = R_WC (w e_k + v × e_k),
 *   G_A = [0, −ℓ_kᵀ],  G_B = [0, ℓ_kᵀ].
 * Second derivative: q̈_CD = ½ Ω̇ ⋆ q_CD + ¼ Ω ⋆ Ω ⋆ q_CD = ½ Ω̇ ⋆ q_CD − ¼|Ω|² q_CD, and
 * Ω̇ = R_WCᵀ(ω̇_B − ω̇_A) − R_WCᵀ(ω_A × (ω_B − ω_A)) = R_WCᵀ(ω̇_B − ω̇_A − ω_A × ω_B), so
 *   κ = −½|Ω|² v_k − ℓ_k·(ω_A × ω_B).
 * The sign of q_CD is fixed once at set-up (w ≥ 0, joint.ts) and then follows the state
 * quaternions continuously (the engine never flips them): g = 2 sin(φ/2) u_k for a relative
 * rotation φu. The rows are smooth for every rotation; a free rotation about an unlocked axis
 * (the hinge's z) is allowed through and past a half turn. For a rotation error φ → π (w → 0)
 * the locked rows lose rank (det(wI − [v]) = w for three locked rows), and past it g decreases
 * again to 0 at a full turn (q_CD = −1, the same relative orientation reached the long way),
 * where G = −(locked rows of R_WCᵀ) is again of full rank: the lock then holds the wound-up
 * configuration. Joint errors of that size mean the simulation has already failed.
 *
 * Universal row: g = x_C·y_D (x_C = c_0, y_D = R_WD e_1), zero when the cross pins are square.
 *   ġ = (ω_A × x_C)·y_D + x_C·(ω_B × y_D) = n·(ω_A − ω_B),   n = x_C × y_D,
 *   G_A = [0, nᵀ],  G_B = [0, −nᵀ],   κ = ṅ·(ω_A − ω_B),  ṅ = (ω_A × x_C) × y_D + x_C × (ω_B × y_D).
 *
 * Each block is written for one side; a world side has no block. Verified against central
 * finite differences of g along q ⊕ εδ and of ε ↦ G(q ⊕ εu)u in test/constraints/joint.test.ts.
 */
import type { RigidBody } from '../model/model.js';
import type { ConstraintContext } from './constraint.js';
import { ModelError } from '../model/errors.js';

export type JointType = 'ball' | 'hinge' | 'slider' | 'cylindrical' | 'universal' | 'gimbal' | 'planar' | 'point-on-plane' | 'point-on-line' | 'weld';

/** which axes of frame C are locked (true) for translation and rotation */
export interface JointMask {
  readonly linear: readonly [boolean, boolean, boolean];
  readonly angular: readonly [boolean, boolean, boolean];
}

/** the readable coordinates of the rotation: none, one angle, the two universal angles, or RPY */
export type RotationCoordinates = 'none' | 'angle' | 'universal' | 'rpy';

interface Preset { readonly linear: readonly [boolean, boolean, boolean]; readonly angular: readonly [boolean, boolean, boolean]; readonly universal: boolean; readonly rpy: boolean }
const T = true, F = false;

/** the presets: locked axes of C (the universal row replaces the rotational locks of `universal`) */
export const JOINT_PRESETS: Readonly<Record<JointType, Preset>> = Object.freeze({
  'ball': { linear: [T, T, T], angular: [F, F, F], universal: false, rpy: false },
  'hinge': { linear: [T, T, T], angular: [T, T, F], universal: false, rpy: false },
  'slider': { linear: [T, T, F], angular: [T, T, T], universal: false, rpy: false },
  'cylindrical': { linear: [T, T, F], angular: [T, T, F], universal: false, rpy: false },
  'universal': { linear: [T, T, T], angular: [F, F, F], universal: true, rpy: false },
  'gimbal': { linear: [T, T, T], angular: [F, F, F], universal: false, rpy: true },
  'planar': { linear: [F, F, T], angular: [T, T, F], universal: false, rpy: false },
  'point-on-plane': { linear: [F, F, T], angular: [F, F, F], universal: false, rpy: false },
  'point-on-line': { linear: [T, T, F], angular: [F, F, F], universal: false, rpy: false },
  'weld': { linear: [T, T, T], angular: [T, T, T], universal: false, rpy: false },
} satisfies Record<JointType, Preset>);

/** the row and coordinate layout of a joint, resolved from a preset or a custom mask */
export interface JointLayout {
  readonly type: JointType | 'custom';
  readonly linear: Int32Array;        // locked translational axes of C, ascending (rows 0 …)
  readonly angular: Int32Array;       // locked rotational axes (lock rows, after the translational ones)
  readonly universal: boolean;        // one universal row last
  readonly rows: number;
  readonly freeLinear: Int32Array;    // free translational axes (coordinates)
  readonly rotation: RotationCoordinates;
  readonly angleAxis: number;         // the free rotation axis for 'angle', else −1
  readonly rowNames: readonly string[];
  readonly coordinateNames: readonly string[];
}

const AXES = ['x', 'y', 'z'] as const;

/**
 * resolves a preset name or a custom mask; throws ModelError for unknown names, bad masks or no
 * rows. Every joint of one preset shares one layout (read-only): on long chains the joints' own
 * copies were so many more objects for each evaluation to fetch from memory.
 */
export function jointLayout(type: JointType | JointMask, path: string): JointLayout {
  if (typeof type === 'string' && Object.prototype.hasOwnProperty.call(PRESET_LAYOUTS, type)) return PRESET_LAYOUTS[type];
  return resolveLayout(type, path);
}

function resolveLayout(type: JointType | JointMask, path: string): JointLayout {
  let p: Preset, name: JointType | 'custom';
  if (typeof type === 'string') {
    if (!Object.prototype.hasOwnProperty.call(JOINT_PRESETS, type)) throw new ModelError(`${path}.type`, `unknown joint type "${type}" (one of ${Object.keys(JOINT_PRESETS).join(', ')}, or a mask)`);
    p = JOINT_PRESETS[type];
    name = type;
  } else {
    const ok = (m: unknown): m is [boolean, boolean, boolean] => Array.isArray(m) && m.length === 3 && m.every((b) => typeof b === 'boolean');
    if (!type || !ok(type.linear) || !ok(type.angular)) throw new ModelError(`${path}.type`, 'a custom mask is { linear: [bool, bool, bool], angular: [bool, bool, bool] } (true = locked)');
    p = { linear: type.linear, angular: type.angular, universal: false, rpy: false };
    name = 'custom';
  }
  const axes = (m: readonly boolean[], locked: boolean) => Int32Array.from([0, 1, 2].filter((k) => m[k] === locked));
  const linear = axes(p.linear, true), angular = axes(p.angular, true), freeLinear = axes(p.linear, false);
  const rows = linear.length + angular.length + (p.universal ? 1 : 0);
  if (rows === 0) throw new ModelError(`${path}.type`, 'the mask locks nothing (a joint needs at least one row)');
  // rotational coordinates: RPY (gimbal), the universal pair, or the one free axis of lock rows
  const freeAngular = axes(p.angular, false);
  const rotation: RotationCoordinates = p.rpy ? 'rpy' : p.universal ? 'universal' : freeAngular.length === 1 ? 'angle' : 'none';
  const angleAxis = rotation === 'angle' ? freeAngular[0]! : -1;
  const rowNames = [...Array.from(linear, (k) => `t${AXES[k]}`), ...Array.from(angular, (k) => `r${AXES[k]}`), ...(p.universal ? ['universal'] : [])];
  const rot = rotation === 'rpy' ? ['theta', 'phi', 'psi'] : rotation === 'universal' ? ['rx', 'ry'] : rotation === 'angle' ? [`r${AXES[angleAxis]}`] : [];
  const coordinateNames = [...Array.from(freeLinear, (k) => `t${AXES[k]}`), ...rot];
  return { type: name, linear, angular, universal: p.universal, rows, freeLinear, rotation, angleAxis, rowNames, coordinateNames };
}

/** the layouts of the presets, resolved once */
const PRESET_LAYOUTS: Readonly<Record<JointType, JointLayout>> = Object.freeze(Object.fromEntries(
  (Object.keys(JOINT_PRESETS) as JointType[]).map((t) => {
    // the names reach callers through Joint.rowNames and coordinateNames: frozen, since every joint
    // of the preset shares them (the typed arrays stay inside the joints)
    const L = resolveLayout(t, t);
    Object.freeze(L.rowNames);
    Object.freeze(L.coordinateNames);
    return [t, Object.freeze(L)];
  }),
) as Record<JointType, JointLayout>);

/**
 * An attachment frame: its body (null = world) and pose in body coordinates (in world for the
 * world). `buf` holds p (0…2), q (3…6) and R (7…15); p, q and R are views of it.
 */
export class JointFrame {
  buf: Float64Array = new Float64Array(16);
  p: Float64Array = this.buf.subarray(0, 3);
  q: Float64Array = this.buf.subarray(3, 7);
  R: Float64Array = this.buf.subarray(7, 16);
  /** the body's index and offsets in q and u (−1 for the world): read without touching the body */
  readonly bodyIndex: number;
  readonly qOffset: number;
  readonly uOffset: number;
  constructor(readonly body: RigidBody | null) {
    this.bodyIndex = body ? body.index : -1;
    this.qOffset = body ? body.qOffset : -1;
    this.uOffset = body ? body.uOffset : -1;
  }

  /** moves the frame into `buf` (16 numbers, values kept): see Joint.adoptScratch */
  adopt(buf: Float64Array): void {
    buf.set(this.buf);
    this.buf = buf;
    this.p = buf.subarray(0, 3);
    this.q = buf.subarray(3, 7);
    this.R = buf.subarray(7, 16);
  }
}

// offsets of the joint kinematics in JointKinematics.b (one allocation per joint; the kernels
// index it directly, which measured faster on long chains than one small array per vector)
const RC = 0;      // (9) R_WC, row-major
const RD = 9;      // (9) R_WD
const XC = 18;     // (3) x_C
const XD = 21;     // (3) x_D
const RRC = 24;    // (3) lever arm r_C of C from A's origin (0 for the world)
const RRD = 27;    // (3) r_D
const DD = 30;     // (3) d = x_D − x_C
const SS = 33;     // (3) s = x_D − x_A = r_C + d
const QC = 36;     // (4) q_WC
const QD = 40;     // (4) q_WD
const QCD = 44;    // (4) q_CD = q_WC⁻¹ ⋆ q_WD
const VA = 48;     // (3) v_A
const WA = 51;     // (3) ω_A
const VB = 54;     // (3) v_B
const WB = 57;     // (3) ω_B
const DDOT = 60;   // (3) ḋ
const EE = 63;     // (3) e = ḋ − ω_A × d
const OM = 66;     // (3) Ω = R_WCᵀ(ω_B − ω_A)
const BL = 69;     // (3) the world vector whose c_k component is κ of translational row k
const FA = 72;     // (16) frame C in A: p_AC, q_AC, R_AC (JointFrame.buf of side A)
const FB = 88;     // (16) frame D in B, likewise
/** numbers of JointKinematics.b: the kinematics and both frames */
export const JOINT_KINEMATICS_SIZE = 104;

/**
 * The kinematics of frames C and D at one (q, u), with the row kernels. `positions` must run
 * before any value or Jacobian, `velocities` (after `positions`) before rates and biases.
 * The readable views (RC, RD, xC, qCD, Om) share the buffer `b`; read them, do not keep them
 * (`adopt` replaces them). The two frames live in `b` too (the JointFrames' buffers are views of
 * it), with their bodies' indices and offsets copied here: an evaluation of a joint touches this
 * object and one buffer, which on long chains (10 000 joints evicted from the caches by every
 * factorization) measured a sixth faster than reading them through the frame objects.
 */
export class JointKinematics {
  b: Float64Array = new Float64Array(JOINT_KINEMATICS_SIZE);
  private aBody: number;   // body index of side A, −1 for the world
  private aQ: number;      // its offset in q
  private aU: number;      // its offset in u
  private bBody: number;
  private bQ: number;
  private bU: number;
  RC: Float64Array = this.b.subarray(RC, RC + 9);
  RD: Float64Array = this.b.subarray(RD, RD + 9);
  xC: Float64Array = this.b.subarray(XC, XC + 3);
  qCD: Float64Array = this.b.subarray(QCD, QCD + 4);
  Om: Float64Array = this.b.subarray(OM, OM + 3);
  private readonly t = new Float64Array(3);   // ℓ_k or n, returned by lockAxis
  private kinSeen: unknown = null;
  private genSeen = -1;

  /**
   * the kinematics of the two frames, which move into this buffer (values kept). `rotations`
   * false: no row or coordinate of the joint reads an orientation beyond R_WC (a ball or a
   * point-on-plane/line joint), so `positions` skips R_WD and the quaternions q_WC, q_WD, q_CD
   */
  constructor(private readonly fa: JointFrame, private readonly fb: JointFrame, readonly rotations = true) {
    this.aBody = fa.bodyIndex; this.aQ = fa.qOffset; this.aU = fa.uOffset;
    this.bBody = fb.bodyIndex; this.bQ = fb.qOffset; this.bU = fb.uOffset;
    fa.adopt(this.b.subarray(FA, FA + 16));
    fb.adopt(this.b.subarray(FB, FB + 16));
  }

  /** moves the buffer, frames included, into `buf` (JOINT_KINEMATICS_SIZE numbers, values kept): see Joint.adoptScratch */
  adopt(buf: Float64Array): void {
    buf.set(this.b);
    this.b = buf;
    this.fa.adopt(buf.subarray(FA, FA + 16));
    this.fb.adopt(buf.subarray(FB, FB + 16));
    this.RC = buf.subarray(RC, RC + 9);
    this.RD = buf.subarray(RD, RD + 9);
    this.xC = buf.subarray(XC, XC + 3);
    this.qCD = buf.subarray(QCD, QCD + 4);
    this.Om = buf.subarray(OM, OM + 3);
  }

  /**
   * The frames at q: R, lever arm, origin and quaternion of C and D, then d, s and q_CD (cached:
   * recomputed only when the kinematics were updated since, i.e. q changed; violation, jacobian
   * and bias of one evaluation share one computation)
   */
  positions(ctx: ConstraintContext): void {
    if (this.kinSeen === ctx.kin && this.genSeen === ctx.kin.generation) return;
    this.kinSeen = ctx.kin;
    this.genSeen = ctx.kin.generation;
    const b = this.b;
    sideOrigin(ctx, this.aBody, this.aQ, b, FA, RRC, XC);
    sideOrigin(ctx, this.bBody, this.bQ, b, FB, RRD, XD);
    sideAxes(ctx, this.aBody, b, FA, RC);
    for (let i = 0; i < 3; i++) {
      b[DD + i] = b[XD + i]! - b[XC + i]!;
      b[SS + i] = b[RRC + i]! + b[DD + i]!;
    }
    if (!this.rotations) return;
    sideAxes(ctx, this.bBody, b, FB, RD);
    sideQuat(ctx, this.aQ, b, FA, QC);
    sideQuat(ctx, this.bQ, b, FB, QD);
    // q_CD = conj(q_WC) ⋆ q_WD
    const aw = b[QC]!, ax = -b[QC + 1]!, ay = -b[QC + 2]!, az = -b[QC + 3]!;
    const bw = b[QD]!, bx = b[QD + 1]!, by = b[QD + 2]!, bz = b[QD + 3]!;
    b[QCD] = aw * bw - ax * bx - ay * by - az * bz;
    b[QCD + 1] = aw * bx + bw * ax + ay * bz - az * by;
    b[QCD + 2] = aw * by + bw * ay + az * bx - ax * bz;
    b[QCD + 3] = aw * bz + bw * az + ax * by - ay * bx;
  }

  /** body velocities, ḋ, e, Ω and the translational bias vector at u (after `positions`) */
  velocities(ctx: ConstraintContext): void {
    const b = this.b, u = ctx.u;
    twist(u, this.aU, b, VA);
    twist(u, this.bU, b, VB);
    const ax = b[WA]!, ay = b[WA + 1]!, az = b[WA + 2]!, bx = b[WB]!, by = b[WB + 1]!, bz = b[WB + 2]!;
    const cx = b[RRC]!, cy = b[RRC + 1]!, cz = b[RRC + 2]!, dx = b[RRD]!, dy = b[RRD + 1]!, dz = b[RRD + 2]!;
    // ḋ = v_B + ω_B × r_D − v_A − ω_A × r_C
    const ddx = b[VB]! + (by * dz - bz * dy) - b[VA]! - (ay * cz - az * cy);
    const ddy = b[VB + 1]! + (bz * dx - bx * dz) - b[VA + 1]! - (az * cx - ax * cz);
    const ddz = b[VB + 2]! + (bx * dy - by * dx) - b[VA + 2]! - (ax * cy - ay * cx);
    b[DDOT] = ddx; b[DDOT + 1] = ddy; b[DDOT + 2] = ddz;
    // e = ḋ − ω_A × d
    const gx = b[DD]!, gy = b[DD + 1]!, gz = b[DD + 2]!;
    const ex = ddx - (ay * gz - az * gy), ey = ddy - (az * gx - ax * gz), ez = ddz - (ax * gy - ay * gx);
    b[EE] = ex; b[EE + 1] = ey; b[EE + 2] = ez;
    // Ω = R_WCᵀ(ω_B − ω_A)
    const x = bx - ax, y = by - ay, z = bz - az;
    b[OM] = b[RC]! * x + b[RC + 3]! * y + b[RC + 6]! * z;
    b[OM + 1] = b[RC + 1]! * x + b[RC + 4]! * y + b[RC + 7]! * z;
    b[OM + 2] = b[RC + 2]! * x + b[RC + 5]! * y + b[RC + 8]! * z;
    // the translational rows' common bias vector: ω_B × (ω_B × r_D) − ω_A × (ω_A × r_C) − ω_A × (ḋ + e)
    const px = by * dz - bz * dy, py = bz * dx - bx * dz, pz = bx * dy - by * dx;      // ω_B × r_D
    const qx = ay * cz - az * cy, qy = az * cx - ax * cz, qz = ax * cy - ay * cx;      // ω_A × r_C
    const sx = ddx + ex, sy = ddy + ey, sz = ddz + ez;                                 // ḋ + e
    b[BL] = (by * pz - bz * py) - (ay * qz - az * qy) - (ay * sz - az * sy);
    b[BL + 1] = (bz * px - bx * pz) - (az * qx - ax * qz) - (az * sx - ax * sz);
    b[BL + 2] = (bx * py - by * px) - (ax * qy - ay * qx) - (ax * sy - ay * sx);
  }

  /** c_k·d: the displacement of D from C along C's axis k */
  linearValue(k: number): number {
    const b = this.b;
    return b[RC + k]! * b[DD]! + b[RC + 3 + k]! * b[DD + 1]! + b[RC + 6 + k]! * b[DD + 2]!;
  }

  /** c_k·e, its rate */
  linearRate(k: number): number {
    const b = this.b;
    return b[RC + k]! * b[EE]! + b[RC + 3 + k]! * b[EE + 1]! + b[RC + 6 + k]! * b[EE + 2]!;
  }

  /**
   * translational row k into row `row` of the blocks, 6 columns each, row-major in G: side A's
   * block from G[oA], side B's from G[oB] (−1: a world side, no block)
   */
  linearJacobian(k: number, G: Float64Array, oA: number, oB: number, row: number): void {
    const b = this.b, cx = b[RC + k]!, cy = b[RC + 3 + k]!, cz = b[RC + 6 + k]!;
    if (oA >= 0) {
      const sx = b[SS]!, sy = b[SS + 1]!, sz = b[SS + 2]!, o = oA + 6 * row;
      G[o] = -cx; G[o + 1] = -cy; G[o + 2] = -cz;
      G[o + 3] = cy * sz - cz * sy; G[o + 4] = cz * sx - cx * sz; G[o + 5] = cx * sy - cy * sx;
    }
    if (oB >= 0) {
      const rx = b[RRD]!, ry = b[RRD + 1]!, rz = b[RRD + 2]!, o = oB + 6 * row;
      G[o] = cx; G[o + 1] = cy; G[o + 2] = cz;
      G[o + 3] = ry * cz - rz * cy; G[o + 4] = rz * cx - rx * cz; G[o + 5] = rx * cy - ry * cx;
    }
  }

  /**
   * For the geometric stiffness (geometricStiffness.ts): the world force f = Σ λ_i c_{axes[i]} of
   * the translational rows at multipliers lambda[o …], s = x_D − x_A and r_D → out[0 … 9)
   */
  stiffnessVectors(axes: Int32Array, lambda: Float64Array, o: number, out: Float64Array): void {
    const b = this.b;
    let fx = 0, fy = 0, fz = 0;
    for (let i = 0; i < axes.length; i++) {
      const k = axes[i]!, l = lambda[o + i]!;
      fx += l * b[RC + k]!; fy += l * b[RC + 3 + k]!; fz += l * b[RC + 6 + k]!;
    }
    out[0] = fx; out[1] = fy; out[2] = fz;
    for (let i = 0; i < 3; i++) { out[3 + i] = b[SS + i]!; out[6 + i] = b[RRD + i]!; }
  }

  /** κ of translational row k: c_k·(ω_B × (ω_B × r_D) − ω_A × (ω_A × r_C) − ω_A × ḋ − ω_A × e) */
  linearBias(k: number): number {
    const b = this.b;
    return b[RC + k]! * b[BL]! + b[RC + 3 + k]! * b[BL + 1]! + b[RC + 6 + k]! * b[BL + 2]!;
  }

  /** 2 v_k of q_CD */
  lockValue(k: number): number { return 2 * this.b[QCD + 1 + k]!; }

  /** t = ℓ_k = R_WC (w e_k + v × e_k) */
  private lockAxis(k: number): Float64Array {
    const b = this.b, w = b[QCD]!, vx = b[QCD + 1]!, vy = b[QCD + 2]!, vz = b[QCD + 3]!;
    // l = w e_k + v × e_k in C
    const lx = k === 0 ? w : k === 1 ? -vz : vy;
    const ly = k === 0 ? vz : k === 1 ? w : -vx;
    const lz = k === 0 ? -vy : k === 1 ? vx : w;
    const t = this.t;
    t[0] = b[RC]! * lx + b[RC + 1]! * ly + b[RC + 2]! * lz;
    t[1] = b[RC + 3]! * lx + b[RC + 4]! * ly + b[RC + 5]! * lz;
    t[2] = b[RC + 6]! * lx + b[RC + 7]! * ly + b[RC + 8]! * lz;
    return t;
  }

  /** rotational lock row k: G_A = [0, −ℓ_kᵀ], G_B = [0, ℓ_kᵀ] (blocks as in linearJacobian) */
  lockJacobian(k: number, G: Float64Array, oA: number, oB: number, row: number): void {
    const l = this.lockAxis(k);
    if (oA >= 0) { const o = oA + 6 * row; G[o] = 0; G[o + 1] = 0; G[o + 2] = 0; G[o + 3] = -l[0]!; G[o + 4] = -l[1]!; G[o + 5] = -l[2]!; }
    if (oB >= 0) { const o = oB + 6 * row; G[o] = 0; G[o + 1] = 0; G[o + 2] = 0; G[o + 3] = l[0]!; G[o + 4] = l[1]!; G[o + 5] = l[2]!; }
  }

  /** κ of lock row k: −½|Ω|² v_k − ℓ_k·(ω_A × ω_B) */
  lockBias(k: number): number {
    const l = this.lockAxis(k), b = this.b;
    const ax = b[WA]!, ay = b[WA + 1]!, az = b[WA + 2]!, bx = b[WB]!, by = b[WB + 1]!, bz = b[WB + 2]!;
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const o2 = b[OM]! * b[OM]! + b[OM + 1]! * b[OM + 1]! + b[OM + 2]! * b[OM + 2]!;
    return -0.5 * o2 * b[QCD + 1 + k]! - (l[0]! * cx + l[1]! * cy + l[2]! * cz);
  }

  /** x_C·y_D */
  universalValue(): number {
    const b = this.b;
    return b[RC]! * b[RD + 1]! + b[RC + 3]! * b[RD + 4]! + b[RC + 6]! * b[RD + 7]!;
  }

  /** the universal row: G_A = [0, nᵀ], G_B = [0, −nᵀ], n = x_C × y_D (blocks as in linearJacobian) */
  universalJacobian(G: Float64Array, oA: number, oB: number, row: number): void {
    const b = this.b, x0 = b[RC]!, x1 = b[RC + 3]!, x2 = b[RC + 6]!, y0 = b[RD + 1]!, y1 = b[RD + 4]!, y2 = b[RD + 7]!;
    const n0 = x1 * y2 - x2 * y1, n1 = x2 * y0 - x0 * y2, n2 = x0 * y1 - x1 * y0;
    if (oA >= 0) { const o = oA + 6 * row; G[o] = 0; G[o + 1] = 0; G[o + 2] = 0; G[o + 3] = n0; G[o + 4] = n1; G[o + 5] = n2; }
    if (oB >= 0) { const o = oB + 6 * row; G[o] = 0; G[o + 1] = 0; G[o + 2] = 0; G[o + 3] = -n0; G[o + 4] = -n1; G[o + 5] = -n2; }
  }

  /** κ of the universal row: ṅ·(ω_A − ω_B), ṅ = (ω_A × x_C) × y_D + x_C × (ω_B × y_D) */
  universalBias(): number {
    const b = this.b;
    const xx = b[RC]!, xy = b[RC + 3]!, xz = b[RC + 6]!, yx = b[RD + 1]!, yy = b[RD + 4]!, yz = b[RD + 7]!;
    const wax = b[WA]!, way = b[WA + 1]!, waz = b[WA + 2]!, wbx = b[WB]!, wby = b[WB + 1]!, wbz = b[WB + 2]!;
    // a = ω_A × x_C, c = ω_B × y_D
    const ax = way * xz - waz * xy, ay = waz * xx - wax * xz, az = wax * xy - way * xx;
    const cx = wby * yz - wbz * yy, cy = wbz * yx - wbx * yz, cz = wbx * yy - wby * yx;
    const nx = ay * yz - az * yy + (xy * cz - xz * cy);
    const ny = az * yx - ax * yz + (xz * cx - xx * cz);
    const nz = ax * yy - ay * yx + (xx * cy - xy * cx);
    return nx * (wax - wbx) + ny * (way - wby) + nz * (waz - wbz);
  }
}

/**
 * One side's frame origin in world, into b at offsets or (lever arm r = R_body p_f) and ox
 * (x = x_body + r); the frame is at b[of …] (p, q, R), the body's index and q offset are given
 * (−1 for the world, whose frame is in world)
 */
function sideOrigin(ctx: ConstraintContext, body: number, qo: number, b: Float64Array, of: number, or: number, ox: number): void {
  if (body < 0) {
    for (let k = 0; k < 3; k++) { b[or + k] = 0; b[ox + k] = b[of + k]!; }
    return;
  }
  const Rb = ctx.kin.R, m = 9 * body, qs = ctx.q, p0 = b[of]!, p1 = b[of + 1]!, p2 = b[of + 2]!;
  for (let i = 0; i < 3; i++) {
    const r = Rb[m + 3 * i]! * p0 + Rb[m + 3 * i + 1]! * p1 + Rb[m + 3 * i + 2]! * p2;
    b[or + i] = r;
    b[ox + i] = qs[qo + i]! + r;
  }
}

/** One side's frame axes in world, into b at oR (R = R_body R_f, row-major; the frame at b[of …]) */
function sideAxes(ctx: ConstraintContext, body: number, b: Float64Array, of: number, oR: number): void {
  const f = of + 7;
  if (body < 0) { for (let k = 0; k < 9; k++) b[oR + k] = b[f + k]!; return; }
  const Rb = ctx.kin.R, m = 9 * body;
  for (let i = 0; i < 3; i++) {
    const a0 = Rb[m + 3 * i]!, a1 = Rb[m + 3 * i + 1]!, a2 = Rb[m + 3 * i + 2]!;
    b[oR + 3 * i] = a0 * b[f]! + a1 * b[f + 3]! + a2 * b[f + 6]!;
    b[oR + 3 * i + 1] = a0 * b[f + 1]! + a1 * b[f + 4]! + a2 * b[f + 7]!;
    b[oR + 3 * i + 2] = a0 * b[f + 2]! + a1 * b[f + 5]! + a2 * b[f + 8]!;
  }
}

/** One side's frame orientation in world, into b at oq (q = q_body ⋆ q_f; the frame at b[of …], the body's q offset qo, −1 for the world) */
function sideQuat(ctx: ConstraintContext, qo: number, b: Float64Array, of: number, oq: number): void {
  const f = of + 3;
  if (qo < 0) { for (let k = 0; k < 4; k++) b[oq + k] = b[f + k]!; return; }
  const qs = ctx.q;
  const aw = qs[qo + 3]!, ax = qs[qo + 4]!, ay = qs[qo + 5]!, az = qs[qo + 6]!;
  const bw = b[f]!, bx = b[f + 1]!, by = b[f + 2]!, bz = b[f + 3]!;
  b[oq] = aw * bw - ax * bx - ay * by - az * bz;
  b[oq + 1] = aw * bx + bw * ax + ay * bz - az * by;
  b[oq + 2] = aw * by + bw * ay + az * bx - ax * bz;
  b[oq + 3] = aw * bz + bw * az + ax * by - ay * bx;
}

/** (v, ω) of a body at u offset uo into b at o (v) and o + 3 (ω), zero for the world (uo = −1) */
function twist(u: Float64Array, uo: number, b: Float64Array, o: number): void {
  if (uo < 0) { for (let k = 0; k < 6; k++) b[o + k] = 0; return; }
  for (let k = 0; k < 6; k++) b[o + k] = u[uo + k]!;
}
