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
import { Slab } from '../math/slab.js';
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

/** resolves a preset name or a custom mask; throws ModelError for unknown names, bad masks or no rows */
export function jointLayout(type: JointType | JointMask, path: string): JointLayout {
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

/** an attachment frame: its body (null = world) and pose in body coordinates (in world for the world) */
export class JointFrame {
  private readonly slab = new Slab(16);
  readonly p = this.slab.take(3);
  readonly q = this.slab.take(4);
  readonly R = this.slab.take(9);
  constructor(readonly body: RigidBody | null) {}
}

/**
 * The kinematics of frames C and D at one (q, u), with the row kernels. `positions` must run
 * before any value or Jacobian, `velocities` (after `positions`) before rates and biases.
 */
export class JointKinematics {
  // all the vectors below, in one allocation (78 numbers)
  private readonly slab = new Slab(78);
  readonly RC = this.slab.take(9);     // R_WC
  readonly RD = this.slab.take(9);     // R_WD
  readonly xC = this.slab.take(3);
  readonly xD = this.slab.take(3);
  readonly rC = this.slab.take(3);     // lever arm of C from A's origin (0 for the world)
  readonly rD = this.slab.take(3);
  readonly d = this.slab.take(3);      // x_D − x_C
  readonly s = this.slab.take(3);      // x_D − x_A = r_C + d
  readonly qC = this.slab.take(4);     // q_WC
  readonly qD = this.slab.take(4);     // q_WD
  readonly qCD = this.slab.take(4);    // q_WC⁻¹ ⋆ q_WD
  readonly vA = this.slab.take(3);
  readonly wA = this.slab.take(3);
  readonly vB = this.slab.take(3);
  readonly wB = this.slab.take(3);
  readonly dd = this.slab.take(3);     // ḋ
  readonly e = this.slab.take(3);      // ḋ − ω_A × d
  readonly Om = this.slab.take(3);     // Ω = R_WCᵀ(ω_B − ω_A)
  readonly bl = this.slab.take(3);     // world vector whose c_k component is κ of translational row k
  private readonly t1 = this.slab.take(3);
  private readonly t2 = this.slab.take(3);

  /** frame poses at q: R, lever arm, origin and quaternion of C and D, then d, s and q_CD */
  private kinSeen: unknown = null;
  private genSeen = -1;

  /**
   * The frames at q (cached: recomputed only when the kinematics were updated since, i.e. q
   * changed; violation, jacobian and bias of one evaluation share one computation)
   */
  positions(ctx: ConstraintContext, fa: JointFrame, fb: JointFrame): void {
    if (this.kinSeen === ctx.kin && this.genSeen === ctx.kin.generation) return;
    this.kinSeen = ctx.kin;
    this.genSeen = ctx.kin.generation;
    side(ctx, fa, this.RC, this.rC, this.xC, this.qC);
    side(ctx, fb, this.RD, this.rD, this.xD, this.qD);
    for (let i = 0; i < 3; i++) {
      this.d[i] = this.xD[i]! - this.xC[i]!;
      this.s[i] = this.rC[i]! + this.d[i]!;
    }
    // q_CD = conj(q_WC) ⋆ q_WD
    const aw = this.qC[0]!, ax = -this.qC[1]!, ay = -this.qC[2]!, az = -this.qC[3]!;
    const bw = this.qD[0]!, bx = this.qD[1]!, by = this.qD[2]!, bz = this.qD[3]!;
    const o = this.qCD;
    o[0] = aw * bw - ax * bx - ay * by - az * bz;
    o[1] = aw * bx + bw * ax + ay * bz - az * by;
    o[2] = aw * by + bw * ay + az * bx - ax * bz;
    o[3] = aw * bz + bw * az + ax * by - ay * bx;
  }

  /** body velocities, ḋ, e and Ω at u (after `positions`) */
  velocities(ctx: ConstraintContext, fa: JointFrame, fb: JointFrame): void {
    twist(ctx.u, fa.body, this.vA, this.wA);
    twist(ctx.u, fb.body, this.vB, this.wB);
    const wA = this.wA, wB = this.wB, rC = this.rC, rD = this.rD, d = this.d;
    // ḋ = v_B + ω_B × r_D − v_A − ω_A × r_C;  e = ḋ − ω_A × d
    for (let i = 0; i < 3; i++) {
      const j = (i + 1) % 3, k = (i + 2) % 3;
      this.dd[i] = this.vB[i]! + wB[j]! * rD[k]! - wB[k]! * rD[j]! - this.vA[i]! - (wA[j]! * rC[k]! - wA[k]! * rC[j]!);
    }
    for (let i = 0; i < 3; i++) {
      const j = (i + 1) % 3, k = (i + 2) % 3;
      this.e[i] = this.dd[i]! - (wA[j]! * d[k]! - wA[k]! * d[j]!);
    }
    // Ω = R_WCᵀ(ω_B − ω_A)
    const R = this.RC, x = wB[0]! - wA[0]!, y = wB[1]! - wA[1]!, z = wB[2]! - wA[2]!;
    this.Om[0] = R[0]! * x + R[3]! * y + R[6]! * z;
    this.Om[1] = R[1]! * x + R[4]! * y + R[7]! * z;
    this.Om[2] = R[2]! * x + R[5]! * y + R[8]! * z;
    // the translational rows' common bias vector: ω_B × (ω_B × r_D) − ω_A × (ω_A × r_C) − ω_A × (ḋ + e)
    const t1 = this.t1, t2 = this.bl;
    cross(t1, wB, rD); cross(t2, wB, t1);
    cross(t1, wA, rC);
    const ax = wA[1]! * t1[2]! - wA[2]! * t1[1]!, ay = wA[2]! * t1[0]! - wA[0]! * t1[2]!, az = wA[0]! * t1[1]! - wA[1]! * t1[0]!;
    for (let i = 0; i < 3; i++) t1[i] = this.dd[i]! + this.e[i]!;
    const bx = wA[1]! * t1[2]! - wA[2]! * t1[1]!, by = wA[2]! * t1[0]! - wA[0]! * t1[2]!, bz = wA[0]! * t1[1]! - wA[1]! * t1[0]!;
    t2[0] = t2[0]! - ax - bx; t2[1] = t2[1]! - ay - by; t2[2] = t2[2]! - az - bz;
  }

  /** c_k·d: the displacement of D from C along C's axis k */
  linearValue(k: number): number {
    const R = this.RC, d = this.d;
    return R[k]! * d[0]! + R[3 + k]! * d[1]! + R[6 + k]! * d[2]!;
  }

  /** c_k·e, its rate */
  linearRate(k: number): number {
    const R = this.RC, e = this.e;
    return R[k]! * e[0]! + R[3 + k]! * e[1]! + R[6 + k]! * e[2]!;
  }

  /** translational row k into row `row` of the blocks (A and/or B, 6 columns; null = world side) */
  linearJacobian(k: number, GA: Float64Array | null, GB: Float64Array | null, row: number): void {
    const R = this.RC, cx = R[k]!, cy = R[3 + k]!, cz = R[6 + k]!;
    if (GA) {
      const s = this.s, o = 6 * row;
      GA[o] = -cx; GA[o + 1] = -cy; GA[o + 2] = -cz;
      GA[o + 3] = cy * s[2]! - cz * s[1]!; GA[o + 4] = cz * s[0]! - cx * s[2]!; GA[o + 5] = cx * s[1]! - cy * s[0]!;
    }
    if (GB) {
      const r = this.rD, o = 6 * row;
      GB[o] = cx; GB[o + 1] = cy; GB[o + 2] = cz;
      GB[o + 3] = r[1]! * cz - r[2]! * cy; GB[o + 4] = r[2]! * cx - r[0]! * cz; GB[o + 5] = r[0]! * cy - r[1]! * cx;
    }
  }

  /** κ of translational row k: c_k·(ω_B × (ω_B × r_D) − ω_A × (ω_A × r_C) − ω_A × ḋ − ω_A × e) */
  linearBias(k: number): number {
    const R = this.RC, b = this.bl;
    return R[k]! * b[0]! + R[3 + k]! * b[1]! + R[6 + k]! * b[2]!;
  }

  /** 2 v_k of q_CD */
  lockValue(k: number): number { return 2 * this.qCD[1 + k]!; }

  /** t1 = ℓ_k = R_WC (w e_k + v × e_k) */
  private lockAxis(k: number): Float64Array {
    const q = this.qCD, w = q[0]!, vx = q[1]!, vy = q[2]!, vz = q[3]!;
    // l = w e_k + v × e_k in C
    const lx = k === 0 ? w : k === 1 ? -vz : vy;
    const ly = k === 0 ? vz : k === 1 ? w : -vx;
    const lz = k === 0 ? -vy : k === 1 ? vx : w;
    const R = this.RC, t = this.t1;
    t[0] = R[0]! * lx + R[1]! * ly + R[2]! * lz;
    t[1] = R[3]! * lx + R[4]! * ly + R[5]! * lz;
    t[2] = R[6]! * lx + R[7]! * ly + R[8]! * lz;
    return t;
  }

  /** rotational lock row k: G_A = [0, −ℓ_kᵀ], G_B = [0, ℓ_kᵀ] */
  lockJacobian(k: number, GA: Float64Array | null, GB: Float64Array | null, row: number): void {
    const l = this.lockAxis(k), o = 6 * row;
    if (GA) { GA[o] = 0; GA[o + 1] = 0; GA[o + 2] = 0; GA[o + 3] = -l[0]!; GA[o + 4] = -l[1]!; GA[o + 5] = -l[2]!; }
    if (GB) { GB[o] = 0; GB[o + 1] = 0; GB[o + 2] = 0; GB[o + 3] = l[0]!; GB[o + 4] = l[1]!; GB[o + 5] = l[2]!; }
  }

  /** κ of lock row k: −½|Ω|² v_k − ℓ_k·(ω_A × ω_B) */
  lockBias(k: number): number {
    const l = this.lockAxis(k), Om = this.Om;
    cross(this.t2, this.wA, this.wB);
    const o2 = Om[0]! * Om[0]! + Om[1]! * Om[1]! + Om[2]! * Om[2]!;
    return -0.5 * o2 * this.qCD[1 + k]! - (l[0]! * this.t2[0]! + l[1]! * this.t2[1]! + l[2]! * this.t2[2]!);
  }

  /** x_C·y_D */
  universalValue(): number {
    const C = this.RC, D = this.RD;
    return C[0]! * D[1]! + C[3]! * D[4]! + C[6]! * D[7]!;
  }

  /** the universal row: G_A = [0, nᵀ], G_B = [0, −nᵀ], n = x_C × y_D */
  universalJacobian(GA: Float64Array | null, GB: Float64Array | null, row: number): void {
    const C = this.RC, D = this.RD, n = this.t1;
    this.t2[0] = C[0]!; this.t2[1] = C[3]!; this.t2[2] = C[6]!;
    const y0 = D[1]!, y1 = D[4]!, y2 = D[7]!, x = this.t2;
    n[0] = x[1]! * y2 - x[2]! * y1; n[1] = x[2]! * y0 - x[0]! * y2; n[2] = x[0]! * y1 - x[1]! * y0;
    const o = 6 * row;
    if (GA) { GA[o] = 0; GA[o + 1] = 0; GA[o + 2] = 0; GA[o + 3] = n[0]!; GA[o + 4] = n[1]!; GA[o + 5] = n[2]!; }
    if (GB) { GB[o] = 0; GB[o + 1] = 0; GB[o + 2] = 0; GB[o + 3] = -n[0]!; GB[o + 4] = -n[1]!; GB[o + 5] = -n[2]!; }
  }

  /** κ of the universal row: ṅ·(ω_A − ω_B), ṅ = (ω_A × x_C) × y_D + x_C × (ω_B × y_D) */
  universalBias(): number {
    const C = this.RC, D = this.RD, wA = this.wA, wB = this.wB;
    const xx = C[0]!, xy = C[3]!, xz = C[6]!, yx = D[1]!, yy = D[4]!, yz = D[7]!;
    // a = ω_A × x_C, b = ω_B × y_D
    const ax = wA[1]! * xz - wA[2]! * xy, ay = wA[2]! * xx - wA[0]! * xz, az = wA[0]! * xy - wA[1]! * xx;
    const bx = wB[1]! * yz - wB[2]! * yy, by = wB[2]! * yx - wB[0]! * yz, bz = wB[0]! * yy - wB[1]! * yx;
    const nx = ay * yz - az * yy + (xy * bz - xz * by);
    const ny = az * yx - ax * yz + (xz * bx - xx * bz);
    const nz = ax * yy - ay * yx + (xx * by - xy * bx);
    return nx * (wA[0]! - wB[0]!) + ny * (wA[1]! - wB[1]!) + nz * (wA[2]! - wB[2]!);
  }
}

/** out = a × b (no aliasing) */
function cross(out: Float64Array, a: Float64Array, b: Float64Array): void {
  const ax = a[0]!, ay = a[1]!, az = a[2]!, bx = b[0]!, by = b[1]!, bz = b[2]!;
  out[0] = ay * bz - az * by; out[1] = az * bx - ax * bz; out[2] = ax * by - ay * bx;
}

/** one side's frame in world: R = R_body R_f, r = R_body p_f, x = x_body + r, q = q_body ⋆ q_f */
function side(ctx: ConstraintContext, f: JointFrame, R: Float64Array, r: Float64Array, x: Float64Array, q: Float64Array): void {
  const b = f.body;
  if (!b) {
    R.set(f.R); q.set(f.q);
    r[0] = 0; r[1] = 0; r[2] = 0;
    x[0] = f.p[0]!; x[1] = f.p[1]!; x[2] = f.p[2]!;
    return;
  }
  const Rb = ctx.kin.R, m = 9 * b.index, Rf = f.R, p = f.p, qs = ctx.q, o = b.qOffset;
  for (let i = 0; i < 3; i++) {
    const a0 = Rb[m + 3 * i]!, a1 = Rb[m + 3 * i + 1]!, a2 = Rb[m + 3 * i + 2]!;
    R[3 * i] = a0 * Rf[0]! + a1 * Rf[3]! + a2 * Rf[6]!;
    R[3 * i + 1] = a0 * Rf[1]! + a1 * Rf[4]! + a2 * Rf[7]!;
    R[3 * i + 2] = a0 * Rf[2]! + a1 * Rf[5]! + a2 * Rf[8]!;
    r[i] = a0 * p[0]! + a1 * p[1]! + a2 * p[2]!;
    x[i] = qs[o + i]! + r[i]!;
  }
  const aw = qs[o + 3]!, ax = qs[o + 4]!, ay = qs[o + 5]!, az = qs[o + 6]!;
  const bw = f.q[0]!, bx = f.q[1]!, by = f.q[2]!, bz = f.q[3]!;
  q[0] = aw * bw - ax * bx - ay * by - az * bz;
  q[1] = aw * bx + bw * ax + ay * bz - az * by;
  q[2] = aw * by + bw * ay + az * bx - ax * bz;
  q[3] = aw * bz + bw * az + ax * by - ay * bx;
}

/** (v, ω) of a body, zero for the world */
function twist(u: Float64Array, b: RigidBody | null, v: Float64Array, w: Float64Array): void {
  if (!b) { v.fill(0); w.fill(0); return; }
  const o = b.uOffset;
  v[0] = u[o]!; v[1] = u[o + 1]!; v[2] = u[o + 2]!;
  w[0] = u[o + 3]!; w[1] = u[o + 4]!; w[2] = u[o + 5]!;
}
