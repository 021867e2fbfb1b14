/**
 * The rows of the generic joint (src/constraints/joint.ts; its layouts in ./jointLayout.ts): the
 * per-evaluation kinematics of the two joint frames, and the value g, Jacobian row G and bias
 * κ = Ġu of each row kind, as kernels over a joint's kinematics buffer (one joint's own, or a
 * JointBatch's pool, ./jointBatch.ts). Derived in theory.md §9 (three locked translations give the
 * ball-joint block G = [I, −[r]]), with the quaternion rates of §3.
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
export type { JointType, JointMask, JointLayout } from './jointLayout.js';
export { JOINT_PRESETS, jointLayout } from './jointLayout.js';

/**
 * An attachment frame of a joint, a parameter of the model: its body (null = world) and pose in
 * body coordinates (in world for the world). `buf` holds p (0…2), q (3…6) and R (7…15); p, q and
 * R are views of it. Written only while its joint is constructed; each workspace's kinematics
 * buffers hold copies (`JointKinematics`, `JointBatch`).
 */
export class JointFrame {
  readonly buf: Float64Array = new Float64Array(16);
  readonly p: Float64Array = this.buf.subarray(0, 3);
  readonly q: Float64Array = this.buf.subarray(3, 7);
  readonly R: Float64Array = this.buf.subarray(7, 16);
  /** the body's index and offsets in q and u (−1 for the world): read without touching the body */
  readonly bodyIndex: number;
  readonly qOffset: number;
  readonly uOffset: number;
  constructor(readonly body: RigidBody | null) {
    this.bodyIndex = body ? body.index : -1;
    this.qOffset = body ? body.qOffset : -1;
    this.uOffset = body ? body.uOffset : -1;
  }
}

/** copies frames C (fa) and D (fb) into a joint's kinematics buffer b at offset o (where the kernels read them) */
export function writeFrames(b: Float64Array, o: number, fa: JointFrame, fb: JointFrame): void {
  b.set(fa.buf, o + FA);
  b.set(fb.buf, o + FB);
}

// offsets of a joint's kinematics in its buffer (JointKinematics.b, or a JointBatch's pool at the
// joint's offset o; the kernels below index it directly, which measured faster on long chains
// than one small array per vector)
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
const LK = 104;    // (3) ℓ_k of the last lockAxis
/** numbers of a joint's kinematics buffer: the kinematics, both frames and ℓ_k */
export const JOINT_KINEMATICS_SIZE = 107;

/**
 * The kinematics of frames C and D at one (q, u) for one joint, in a buffer of one workspace
 * (a joint's scratch, `Joint.createScratch`), with the row kernels below. `positions` must run
 * before any value or Jacobian, `velocities` (after `positions`) before rates and biases. The
 * readable views (RC, RD, xC, qCD, Om) share the buffer `b`, which holds copies of the two frames
 * too, with their bodies' indices and offsets copied here. The constraint stage evaluates the
 * joints through a JointBatch instead (./jointBatch.ts), which holds the same buffers back to
 * back and runs the same kernels over them.
 */
export class JointKinematics {
  /** (JOINT_KINEMATICS_SIZE) the kinematics and both frames */
  readonly b: Float64Array;
  /** body index of side A (−1 for the world), its offsets in q and u, then side B's */
  readonly aBody: number;
  readonly aQ: number;
  readonly aU: number;
  readonly bBody: number;
  readonly bQ: number;
  readonly bU: number;
  readonly RC: Float64Array;
  readonly RD: Float64Array;
  readonly xC: Float64Array;
  readonly qCD: Float64Array;
  readonly Om: Float64Array;
  /** the kinematics (object and generation) the positions were computed at */
  private kinSeen: unknown = null;
  private genSeen = -1;

  /**
   * the kinematics of the two frames in `buf` (JOINT_KINEMATICS_SIZE numbers, a new array when
   * not given), where the frames are copied. `rotations` false: no row or coordinate of the joint
   * reads an orientation beyond R_WC (a ball or a point-on-plane/line joint), so `positions` skips
   * R_WD and the quaternions q_WC, q_WD, q_CD
   */
  constructor(fa: JointFrame, fb: JointFrame, readonly rotations = true,
    buf: Float64Array = new Float64Array(JOINT_KINEMATICS_SIZE)) {
    this.aBody = fa.bodyIndex; this.aQ = fa.qOffset; this.aU = fa.uOffset;
    this.bBody = fb.bodyIndex; this.bQ = fb.qOffset; this.bU = fb.uOffset;
    this.b = buf;
    writeFrames(buf, 0, fa, fb);
    this.RC = buf.subarray(RC, RC + 9);
    this.RD = buf.subarray(RD, RD + 9);
    this.xC = buf.subarray(XC, XC + 3);
    this.qCD = buf.subarray(QCD, QCD + 4);
    this.Om = buf.subarray(OM, OM + 3);
  }

  /**
   * framePositions into this buffer, cached: recomputed only when the kinematics were updated
   * since (q changed); violation, jacobian and bias of one evaluation share one computation
   */
  positions(ctx: ConstraintContext): void {
    if (this.kinSeen === ctx.kin && this.genSeen === ctx.kin.generation) return;
    this.kinSeen = ctx.kin;
    this.genSeen = ctx.kin.generation;
    framePositions(this.b, 0, ctx.kin.R, ctx.q, this.aBody, this.aQ, this.bBody, this.bQ, this.rotations);
  }

  /** frameVelocities into this buffer (after `positions`) */
  velocities(ctx: ConstraintContext): void { frameVelocities(this.b, 0, ctx.u, this.aU, this.bU); }
}

/**
 * The frames at q into b[o …]: R, lever arm, origin and quaternion of C and D, then d, s and q_CD
 * (the frames are read from b[o + FA …] and b[o + FB …]). R holds the bodies' R_WB (9 per
 * component, Kinematics.R), q the positions; aBody, bBody are body indices and aQ, bQ offsets in
 * q (−1 for the world). Without `rotations`, R_WD and the quaternions are skipped.
 */
export function framePositions(b: Float64Array, o: number, R: Float64Array, q: Float64Array,
  aBody: number, aQ: number, bBody: number, bQ: number, rotations: boolean): void {
  sideOrigin(R, q, aBody, aQ, b, o + FA, o + RRC, o + XC);
  sideOrigin(R, q, bBody, bQ, b, o + FB, o + RRD, o + XD);
  sideAxes(R, aBody, b, o + FA, o + RC);
  const d0 = b[o + XD]! - b[o + XC]!, d1 = b[o + XD + 1]! - b[o + XC + 1]!, d2 = b[o + XD + 2]! - b[o + XC + 2]!;
  const s0 = b[o + RRC]! + d0, s1 = b[o + RRC + 1]! + d1, s2 = b[o + RRC + 2]! + d2;
  b[o + DD] = d0; b[o + DD + 1] = d1; b[o + DD + 2] = d2;
  b[o + SS] = s0; b[o + SS + 1] = s1; b[o + SS + 2] = s2;
  if (!rotations) return;
  sideAxes(R, bBody, b, o + FB, o + RD);
  sideQuat(q, aQ, b, o + FA, o + QC);
  sideQuat(q, bQ, b, o + FB, o + QD);
  // q_CD = conj(q_WC) ⋆ q_WD
  const c = o + QC, d = o + QD;
  const aw = b[c]!, ax = -b[c + 1]!, ay = -b[c + 2]!, az = -b[c + 3]!;
  const bw = b[d]!, bx = b[d + 1]!, by = b[d + 2]!, bz = b[d + 3]!;
  b[o + QCD] = aw * bw - ax * bx - ay * by - az * bz;
  b[o + QCD + 1] = aw * bx + bw * ax + ay * bz - az * by;
  b[o + QCD + 2] = aw * by + bw * ay + az * bx - ax * bz;
  b[o + QCD + 3] = aw * bz + bw * az + ax * by - ay * bx;
}

/** body velocities, ḋ, e, Ω and the translational bias vector at u into b[o …] (after framePositions); aU, bU: the bodies' offsets in u (−1 for the world) */
export function frameVelocities(b: Float64Array, o: number, u: Float64Array, aU: number, bU: number): void {
  twist(u, aU, b, o + VA);
  twist(u, bU, b, o + VB);
  const ax = b[o + WA]!, ay = b[o + WA + 1]!, az = b[o + WA + 2]!, bx = b[o + WB]!, by = b[o + WB + 1]!, bz = b[o + WB + 2]!;
  const cx = b[o + RRC]!, cy = b[o + RRC + 1]!, cz = b[o + RRC + 2]!, dx = b[o + RRD]!, dy = b[o + RRD + 1]!, dz = b[o + RRD + 2]!;
  // ḋ = v_B + ω_B × r_D − v_A − ω_A × r_C
  const ddx = b[o + VB]! + (by * dz - bz * dy) - b[o + VA]! - (ay * cz - az * cy);
  const ddy = b[o + VB + 1]! + (bz * dx - bx * dz) - b[o + VA + 1]! - (az * cx - ax * cz);
  const ddz = b[o + VB + 2]! + (bx * dy - by * dx) - b[o + VA + 2]! - (ax * cy - ay * cx);
  b[o + DDOT] = ddx; b[o + DDOT + 1] = ddy; b[o + DDOT + 2] = ddz;
  // e = ḋ − ω_A × d
  const gx = b[o + DD]!, gy = b[o + DD + 1]!, gz = b[o + DD + 2]!;
  const ex = ddx - (ay * gz - az * gy), ey = ddy - (az * gx - ax * gz), ez = ddz - (ax * gy - ay * gx);
  b[o + EE] = ex; b[o + EE + 1] = ey; b[o + EE + 2] = ez;
  // Ω = R_WCᵀ(ω_B − ω_A)
  const x = bx - ax, y = by - ay, z = bz - az, r = o + RC;
  b[o + OM] = b[r]! * x + b[r + 3]! * y + b[r + 6]! * z;
  b[o + OM + 1] = b[r + 1]! * x + b[r + 4]! * y + b[r + 7]! * z;
  b[o + OM + 2] = b[r + 2]! * x + b[r + 5]! * y + b[r + 8]! * z;
  // the translational rows' common bias vector: ω_B × (ω_B × r_D) − ω_A × (ω_A × r_C) − ω_A × (ḋ + e)
  const px = by * dz - bz * dy, py = bz * dx - bx * dz, pz = bx * dy - by * dx;      // ω_B × r_D
  const qx = ay * cz - az * cy, qy = az * cx - ax * cz, qz = ax * cy - ay * cx;      // ω_A × r_C
  const sx = ddx + ex, sy = ddy + ey, sz = ddz + ez;                                 // ḋ + e
  b[o + BL] = (by * pz - bz * py) - (ay * qz - az * qy) - (ay * sz - az * sy);
  b[o + BL + 1] = (bz * px - bx * pz) - (az * qx - ax * qz) - (az * sx - ax * sz);
  b[o + BL + 2] = (bx * py - by * px) - (ax * qy - ay * qx) - (ax * sy - ay * sx);
}

/** c_k·d: the displacement of D from C along C's axis k */
export function linearValue(b: Float64Array, o: number, k: number): number {
  return b[o + RC + k]! * b[o + DD]! + b[o + RC + 3 + k]! * b[o + DD + 1]! + b[o + RC + 6 + k]! * b[o + DD + 2]!;
}

/** c_k·e, its rate (after frameVelocities) */
export function linearRate(b: Float64Array, o: number, k: number): number {
  return b[o + RC + k]! * b[o + EE]! + b[o + RC + 3 + k]! * b[o + EE + 1]! + b[o + RC + 6 + k]! * b[o + EE + 2]!;
}

/**
 * translational row k into row `row` of the blocks, 6 columns each, row-major in G: side A's
 * block from G[oA], side B's from G[oB] (−1: a world side, no block)
 */
function linearJacobian(b: Float64Array, o: number, k: number, G: Float64Array, oA: number, oB: number, row: number): void {
  const cx = b[o + RC + k]!, cy = b[o + RC + 3 + k]!, cz = b[o + RC + 6 + k]!;
  if (oA >= 0) {
    const sx = b[o + SS]!, sy = b[o + SS + 1]!, sz = b[o + SS + 2]!, g = oA + 6 * row;
    G[g] = -cx; G[g + 1] = -cy; G[g + 2] = -cz;
    G[g + 3] = cy * sz - cz * sy; G[g + 4] = cz * sx - cx * sz; G[g + 5] = cx * sy - cy * sx;
  }
  if (oB >= 0) {
    const rx = b[o + RRD]!, ry = b[o + RRD + 1]!, rz = b[o + RRD + 2]!, g = oB + 6 * row;
    G[g] = cx; G[g + 1] = cy; G[g + 2] = cz;
    G[g + 3] = ry * cz - rz * cy; G[g + 4] = rz * cx - rx * cz; G[g + 5] = rx * cy - ry * cx;
  }
}

/**
 * For the geometric stiffness and the projection's curvature (geometricStiffness.ts): the world
 * force f = Σ λ_i c_{axis i} of the translational rows at multipliers lambda[lo …] (their axes
 * are codes[co … co + n), the first rows), s = x_D − x_A and r_D → out[0 … 9)
 */
export function stiffnessVectors(b: Float64Array, o: number, codes: Int32Array, co: number, n: number, lambda: Float64Array, lo: number, out: Float64Array): void {
  let fx = 0, fy = 0, fz = 0;
  for (let i = 0; i < n; i++) {
    const k = codes[co + i]!, l = lambda[lo + i]!;
    fx += l * b[o + RC + k]!; fy += l * b[o + RC + 3 + k]!; fz += l * b[o + RC + 6 + k]!;
  }
  out[0] = fx; out[1] = fy; out[2] = fz;
  for (let i = 0; i < 3; i++) { out[3 + i] = b[o + SS + i]!; out[6 + i] = b[o + RRD + i]!; }
}

/** κ of translational row k: c_k·(ω_B × (ω_B × r_D) − ω_A × (ω_A × r_C) − ω_A × ḋ − ω_A × e) */
function linearBias(b: Float64Array, o: number, k: number): number {
  return b[o + RC + k]! * b[o + BL]! + b[o + RC + 3 + k]! * b[o + BL + 1]! + b[o + RC + 6 + k]! * b[o + BL + 2]!;
}

/** 2 v_k of q_CD */
function lockValue(b: Float64Array, o: number, k: number): number { return 2 * b[o + QCD + 1 + k]!; }

/** b[o + LK …] ← ℓ_k = R_WC (w e_k + v × e_k) */
function lockAxis(b: Float64Array, o: number, k: number): void {
  const w = b[o + QCD]!, vx = b[o + QCD + 1]!, vy = b[o + QCD + 2]!, vz = b[o + QCD + 3]!, r = o + RC;
  // l = w e_k + v × e_k in C
  const lx = k === 0 ? w : k === 1 ? -vz : vy;
  const ly = k === 0 ? vz : k === 1 ? w : -vx;
  const lz = k === 0 ? -vy : k === 1 ? vx : w;
  b[o + LK] = b[r]! * lx + b[r + 1]! * ly + b[r + 2]! * lz;
  b[o + LK + 1] = b[r + 3]! * lx + b[r + 4]! * ly + b[r + 5]! * lz;
  b[o + LK + 2] = b[r + 6]! * lx + b[r + 7]! * ly + b[r + 8]! * lz;
}

/** rotational lock row k: G_A = [0, −ℓ_kᵀ], G_B = [0, ℓ_kᵀ] (blocks as in linearJacobian) */
function lockJacobian(b: Float64Array, o: number, k: number, G: Float64Array, oA: number, oB: number, row: number): void {
  lockAxis(b, o, k);
  const l0 = b[o + LK]!, l1 = b[o + LK + 1]!, l2 = b[o + LK + 2]!;
  if (oA >= 0) { const g = oA + 6 * row; G[g] = 0; G[g + 1] = 0; G[g + 2] = 0; G[g + 3] = -l0; G[g + 4] = -l1; G[g + 5] = -l2; }
  if (oB >= 0) { const g = oB + 6 * row; G[g] = 0; G[g + 1] = 0; G[g + 2] = 0; G[g + 3] = l0; G[g + 4] = l1; G[g + 5] = l2; }
}

/** κ of lock row k: −½|Ω|² v_k − ℓ_k·(ω_A × ω_B) */
function lockBias(b: Float64Array, o: number, k: number): number {
  lockAxis(b, o, k);
  const ax = b[o + WA]!, ay = b[o + WA + 1]!, az = b[o + WA + 2]!, bx = b[o + WB]!, by = b[o + WB + 1]!, bz = b[o + WB + 2]!;
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  const w0 = b[o + OM]!, w1 = b[o + OM + 1]!, w2 = b[o + OM + 2]!, o2 = w0 * w0 + w1 * w1 + w2 * w2;
  return -0.5 * o2 * b[o + QCD + 1 + k]! - (b[o + LK]! * cx + b[o + LK + 1]! * cy + b[o + LK + 2]! * cz);
}

/** x_C·y_D */
function universalValue(b: Float64Array, o: number): number {
  return b[o + RC]! * b[o + RD + 1]! + b[o + RC + 3]! * b[o + RD + 4]! + b[o + RC + 6]! * b[o + RD + 7]!;
}

/** the universal row: G_A = [0, nᵀ], G_B = [0, −nᵀ], n = x_C × y_D (blocks as in linearJacobian) */
function universalJacobian(b: Float64Array, o: number, G: Float64Array, oA: number, oB: number, row: number): void {
  const x0 = b[o + RC]!, x1 = b[o + RC + 3]!, x2 = b[o + RC + 6]!, y0 = b[o + RD + 1]!, y1 = b[o + RD + 4]!, y2 = b[o + RD + 7]!;
  const n0 = x1 * y2 - x2 * y1, n1 = x2 * y0 - x0 * y2, n2 = x0 * y1 - x1 * y0;
  if (oA >= 0) { const g = oA + 6 * row; G[g] = 0; G[g + 1] = 0; G[g + 2] = 0; G[g + 3] = n0; G[g + 4] = n1; G[g + 5] = n2; }
  if (oB >= 0) { const g = oB + 6 * row; G[g] = 0; G[g + 1] = 0; G[g + 2] = 0; G[g + 3] = -n0; G[g + 4] = -n1; G[g + 5] = -n2; }
}

/** κ of the universal row: ṅ·(ω_A − ω_B), ṅ = (ω_A × x_C) × y_D + x_C × (ω_B × y_D) */
function universalBias(b: Float64Array, o: number): number {
  const xx = b[o + RC]!, xy = b[o + RC + 3]!, xz = b[o + RC + 6]!, yx = b[o + RD + 1]!, yy = b[o + RD + 4]!, yz = b[o + RD + 7]!;
  const wax = b[o + WA]!, way = b[o + WA + 1]!, waz = b[o + WA + 2]!, wbx = b[o + WB]!, wby = b[o + WB + 1]!, wbz = b[o + WB + 2]!;
  // a = ω_A × x_C, c = ω_B × y_D
  const ax = way * xz - waz * xy, ay = waz * xx - wax * xz, az = wax * xy - way * xx;
  const cx = wby * yz - wbz * yy, cy = wbz * yx - wbx * yz, cz = wbx * yy - wby * yx;
  const nx = ay * yz - az * yy + (xy * cz - xz * cy);
  const ny = az * yx - ax * yz + (xz * cx - xx * cz);
  const nz = ax * yy - ay * yx + (xx * cy - xy * cx);
  return nx * (wax - wbx) + ny * (way - wby) + nz * (waz - wbz);
}

/**
 * g of a joint's rows → out[row …]: row r's code codes[co + r] is its axis k (0…2) for a
 * translational row, 3 + k for a lock row, 6 for the universal row (JointLayout.codes)
 */
export function rowValues(b: Float64Array, o: number, codes: Int32Array, co: number, rows: number, out: Float64Array, row: number): void {
  for (let r = 0; r < rows; r++) {
    const c = codes[co + r]!;
    out[row + r] = c < 3 ? linearValue(b, o, c) : c < 6 ? lockValue(b, o, c - 3) : universalValue(b, o);
  }
}

/** κ of a joint's rows → out[row …] (after frameVelocities; codes as in rowValues) */
export function rowBiases(b: Float64Array, o: number, codes: Int32Array, co: number, rows: number, out: Float64Array, row: number): void {
  for (let r = 0; r < rows; r++) {
    const c = codes[co + r]!;
    out[row + r] = c < 3 ? linearBias(b, o, c) : c < 6 ? lockBias(b, o, c - 3) : universalBias(b, o);
  }
}

/** a joint's Jacobian blocks: side A's from G[oA], side B's from G[oB] (−1: none), 6 columns each, row-major (codes as in rowValues) */
export function rowJacobians(b: Float64Array, o: number, codes: Int32Array, co: number, rows: number, G: Float64Array, oA: number, oB: number): void {
  for (let r = 0; r < rows; r++) {
    const c = codes[co + r]!;
    if (c < 3) linearJacobian(b, o, c, G, oA, oB, r);
    else if (c < 6) lockJacobian(b, o, c - 3, G, oA, oB, r);
    else universalJacobian(b, o, G, oA, oB, r);
  }
}

/**
 * One side's frame origin in world, into b at offsets or (lever arm r = R_body p_f) and ox
 * (x = x_body + r); the frame is at b[of …] (p, q, R), the body's index and q offset are given
 * (−1 for the world, whose frame is in world)
 */
function sideOrigin(Rb: Float64Array, qs: Float64Array, body: number, qo: number, b: Float64Array, of: number, or: number, ox: number): void {
  const p0 = b[of]!, p1 = b[of + 1]!, p2 = b[of + 2]!;
  if (body < 0) {
    b[or] = 0; b[or + 1] = 0; b[or + 2] = 0;
    b[ox] = p0; b[ox + 1] = p1; b[ox + 2] = p2;
    return;
  }
  // every load before the first store: V8 cannot tell these arrays' entries from the ones stored
  // to at run-time offsets, so a load after a store is a load again (a fifth of the pass)
  const m = 9 * body;
  const r0 = Rb[m]! * p0 + Rb[m + 1]! * p1 + Rb[m + 2]! * p2;
  const r1 = Rb[m + 3]! * p0 + Rb[m + 4]! * p1 + Rb[m + 5]! * p2;
  const r2 = Rb[m + 6]! * p0 + Rb[m + 7]! * p1 + Rb[m + 8]! * p2;
  const x0 = qs[qo]! + r0, x1 = qs[qo + 1]! + r1, x2 = qs[qo + 2]! + r2;
  b[or] = r0; b[or + 1] = r1; b[or + 2] = r2;
  b[ox] = x0; b[ox + 1] = x1; b[ox + 2] = x2;
}

/** One side's frame axes in world, into b at oR (R = R_body R_f, row-major; the frame at b[of …]) */
function sideAxes(Rb: Float64Array, body: number, b: Float64Array, of: number, oR: number): void {
  const f = of + 7;
  if (body < 0) { for (let k = 0; k < 9; k++) b[oR + k] = b[f + k]!; return; }
  // the frame's R and the body's R into locals before any store (see sideOrigin)
  const f0 = b[f]!, f1 = b[f + 1]!, f2 = b[f + 2]!, f3 = b[f + 3]!, f4 = b[f + 4]!, f5 = b[f + 5]!, f6 = b[f + 6]!, f7 = b[f + 7]!, f8 = b[f + 8]!;
  const m = 9 * body;
  const a0 = Rb[m]!, a1 = Rb[m + 1]!, a2 = Rb[m + 2]!, a3 = Rb[m + 3]!, a4 = Rb[m + 4]!, a5 = Rb[m + 5]!, a6 = Rb[m + 6]!, a7 = Rb[m + 7]!, a8 = Rb[m + 8]!;
  b[oR] = a0 * f0 + a1 * f3 + a2 * f6;
  b[oR + 1] = a0 * f1 + a1 * f4 + a2 * f7;
  b[oR + 2] = a0 * f2 + a1 * f5 + a2 * f8;
  b[oR + 3] = a3 * f0 + a4 * f3 + a5 * f6;
  b[oR + 4] = a3 * f1 + a4 * f4 + a5 * f7;
  b[oR + 5] = a3 * f2 + a4 * f5 + a5 * f8;
  b[oR + 6] = a6 * f0 + a7 * f3 + a8 * f6;
  b[oR + 7] = a6 * f1 + a7 * f4 + a8 * f7;
  b[oR + 8] = a6 * f2 + a7 * f5 + a8 * f8;
}

/** One side's frame orientation in world, into b at oq (q = q_body ⋆ q_f; the frame at b[of …], the body's q offset qo, −1 for the world) */
function sideQuat(qs: Float64Array, qo: number, b: Float64Array, of: number, oq: number): void {
  const f = of + 3;
  if (qo < 0) { for (let k = 0; k < 4; k++) b[oq + k] = b[f + k]!; return; }
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
