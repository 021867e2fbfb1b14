/**
 * Frame springs (6-DOF bushings, theory.md §11), written directly in the engine's world
 * convention (world left perturbations).
 *
 * Frame 1 is rigidly attached to body A (or the world), frame 2 to body B (or the world):
 * X_1A = (R_1A, p_1), X_2B = (R_2B, p_2) in body coordinates. In world, with R_A the body → world
 * rotation of A (R_A = I and x_A = 0 for the world side):
 *
 *   r_1 = R_A p_1,  x_1 = x_A + r_1,  R_1W = R_A R_1A,  ẋ_1 = v_A + ω_A × r_1,  ω_1 = ω_A
 *
 * and likewise for frame 2 on B. With R_21 = R_1Wᵀ R_2W = exp([φu]) (φu in frame-1 axes), its
 * world-axis rotation vector is w = R_1W φu = log(R_2W R_1Wᵀ), φ = |w| ∈ [0, π]. The force and
 * torque on frame 1, in world axes, are
 *
 *   F = k_t (x_2 − x_1) + d_t (ẋ_2 − ẋ_1),    T = k_r w + d_r (ω_B − ω_A),
 *
 * and −F, −T on frame 2 (τ_2k = −k_r R_12 φu is −T in frame-2 axes since R_12 u = u). Moved to
 * each body's origin, the generalized forces are
 *
 *   f_A = (F, r_1 × F + T),    f_B = (−F, −r_2 × F − T).
 *
 * Newton's third law: the total force is 0 and the total moment about the world origin is
 * (x_1 − x_2) × F, which vanishes for the stiffness part (F ∥ x_2 − x_1), not for d_t: the
 * translational damping also damps ẋ_2 − ẋ_1 = ω × (x_2 − x_1) of a rigidly spinning pair (a
 * drag on rigid rotation when the spring is stretched). The d_r part is balanced.
 * Potential energy V = ½ k_t |x_2 − x_1|² + ½ k_r φ²; (F, T) of the stiffness part is −∂V/∂(x, θ).
 *
 * The matrix U: d(φu)/dt = U ω for ω of frame 2 relative to 1 in frame-1 axes. With
 * [u]² = uuᵀ − I and a = (φ/2) cot(φ/2),
 *
 *   U = ½(φ cot(φ/2) I + (2 − φ cot(φ/2)) uuᵀ − φ[u]) = a I − ½[φu] + c (φu)(φu)ᵀ,  c = (1 − a)/φ²,
 *
 * which is the inverse left Jacobian of SO(3), J_l⁻¹(φu); its world form is ᵂU = R_1W U R_1Wᵀ,
 * the same expression in w. Near φ = 0 we use the series a = 1 − φ²/12 − φ⁴/720 − φ⁶/30240,
 * c = 1/12 + φ²/720 + φ⁴/30240 (U → I at φ = 0). Under world left perturbations
 * R_A ← exp([δθ_A]) R_A, R_B ← exp([δθ_B]) R_B the relative rotation becomes
 * exp([δθ_B]) exp([w]) exp(−[δθ_A]), so δw = ᵂU δθ_B − ᵂUᵀ δθ_A (J_r⁻¹ = J_l⁻¹ᵀ).
 *
 * Near φ = π: U stays finite (a → 0, c → 1/π²), but the log map switches branch at φ = π
 * (w → −w): past a half turn the spring pulls the shorter way round, so the torque k_r w is
 * discontinuous there (the energy ½ k_r φ² is continuous, with a ridge at φ = π) and the
 * Jacobian is one-sided exactly at φ = π. Bushings are meant for small relative rotations.
 *
 * World Jacobians (theory.md §11), with δr_s = −[r_s] δθ_s and the world velocities held fixed
 * (so δẋ_1 = −[ω_A][r_1] δθ_A):
 *
 *   ∂F/∂x_A = −k_t I,   ∂F/∂θ_A = k_t[r_1] + d_t[ω_A][r_1],   ∂T/∂θ_A = −k_r ᵂUᵀ
 *   ∂F/∂x_B = +k_t I,   ∂F/∂θ_B = −k_t[r_2] − d_t[ω_B][r_2],  ∂T/∂θ_B = +k_r ᵂU
 *   ∂F/∂v_A = −d_t I,   ∂F/∂ω_A = d_t[r_1],   ∂T/∂ω_A = −d_r I   (and the opposite for B)
 *
 * Body s ∈ {A, B} with sign σ_A = +1, σ_B = −1 gets rows σ_s (∂F, [r_s] ∂F + ∂T), plus its own
 * lever-arm term σ_s [F][r_s] in K_θθ (δ(r_s × F) ∋ δr_s × F). The velocity Jacobian is
 *
 *   D_AA = [[−d_t I, d_t[r_1]], [−d_t[r_1], d_t[r_1][r_1] − d_r I]],
 *   D_AB = [[ d_t I, −d_t[r_2]], [ d_t[r_1], d_r I − d_t[r_1][r_2]]],  D_BA, D_BB likewise.
 *
 * The rotational stiffness and damping blocks carry the signs derived in theory.md §11, which
 * differ from some printed in the source it follows. The torque on each body is about its frame
 * origin, as the engine requires (force.ts). Verified against central finite differences in
 * test/forces/frameSpring.test.ts.
 */
import type { ForceEffector, ForceContext } from './force.js';
import type { RigidBody, Vec3Tuple, QuatTuple } from '../model/model.js';
import type { BlockPattern, BlockMatrix } from '../assembly/blockSparse.js';
import { ModelError, unitQuaternion } from '../model/errors.js';
import { skew, mul3 } from '../math/mat3.js';
import { quatMul, quatConj, quatToRotationVector } from '../math/quat.js';
import { pose, poseRelative } from '../math/transform.js';
import { invLeftJacobian } from '../math/so3.js';

export interface FrameSpringParams {
  /** k_t, N/m */
  translationalStiffness: number;
  /** k_r, N·m/rad */
  rotationalStiffness: number;
  /** d_t, N·s/m */
  translationalDamping: number;
  /** d_r, N·m·s/rad */
  rotationalDamping: number;
}

/**
 * The wrench a frame spring applies to its body B at one state of one simulation
 * (`ForceSystem.frameSpringReadout`): the force −F (N) and the torque −T (N·m) about the origin of
 * B's attachment frame (frame 2), both in world axes. Body A receives the opposite force, and the
 * torque +T about its own attachment frame's origin plus the moment (x_1 − x_2) × F of the force
 * pair, which vanishes with the stiffness part alone (see the module comment). When B is the
 * world, this is the wrench the spring applies to that world frame.
 */
export interface FrameSpringReadout {
  /** (3) the force on B, world axes (N) */
  force: Float64Array;
  /** (3) the torque on B about its attachment frame's origin, world axes (N·m) */
  torque: Float64Array;
}

/**
 * One workspace's scratch of a FrameSpring (`createScratch`): its pattern slots and what one
 * evaluation computes, per side s: index 0 (A, frame 1) and 1 (B, frame 2).
 */
export class FrameSpringScratch {
  /** slot of (s, t) at 2 s + t, −1 if not solved (`setup`) */
  readonly slots = new Int32Array(4).fill(-1);
  readonly r = [new Float64Array(3), new Float64Array(3)];      // world lever arms r_1, r_2
  readonly x = [new Float64Array(3), new Float64Array(3)];      // world positions x_1, x_2
  readonly xd = [new Float64Array(3), new Float64Array(3)];     // world velocities ẋ_1, ẋ_2
  readonly om = [new Float64Array(3), new Float64Array(3)];     // ω_A, ω_B
  readonly qs = [new Float64Array(4), new Float64Array(4)];     // frame 1, 2 → world
  readonly qb = new Float64Array(4);     // body quaternion
  readonly qr = new Float64Array(4);     // R_2W R_1Wᵀ
  readonly F = new Float64Array(3);      // force on frame 1
  readonly T = new Float64Array(3);      // torque on frame 1
  readonly w = new Float64Array(3);      // world rotation vector φu of frame 2 relative to 1
  // Jacobian scratch
  readonly U = new Float64Array(9);                              // ᵂU
  readonly Sr = [new Float64Array(9), new Float64Array(9)];     // [r_1], [r_2]
  readonly Fth = [new Float64Array(9), new Float64Array(9)];    // ∂F/∂θ_A, ∂F/∂θ_B
  readonly Tth = [new Float64Array(9), new Float64Array(9)];    // ∂T/∂θ_A, ∂T/∂θ_B
  readonly M1 = new Float64Array(9);
  readonly M2 = new Float64Array(9);
  readonly B3 = new Float64Array(9);     // a 3×3 block pre-scaled for add3 (scale 1: no boxed double)
  readonly sc = new Float64Array(3);     // −σ k_t, −σ d_t, −σ d_r of the block being added
  readonly M3 = new Float64Array(9);
}

export class FrameSpring implements ForceEffector<FrameSpringScratch> {
  readonly kt: number;
  readonly kr: number;
  readonly dt: number;
  readonly dr: number;
  // attachment frames: p_s (3) and the frame → body quaternion (4), per side s = 0 (A), 1 (B)
  private readonly p: Float64Array;         // (6)
  private readonly qf: Float64Array;        // (8)
  private readonly body: readonly (RigidBody | null)[];

  /**
   * bodyA/bodyB: a rigid body, or null for the world. (p1A, q1A): the pose of frame 1 in body A
   * coordinates (in world for the world); (p2B, q2B) likewise for frame 2 in B.
   */
  constructor(
    readonly name: string,
    readonly bodyA: RigidBody | null,
    readonly bodyB: RigidBody | null,
    p1A: Vec3Tuple, q1A: QuatTuple, p2B: Vec3Tuple, q2B: QuatTuple,
    params: FrameSpringParams,
  ) {
    // validation: at least one body, non-negative finite parameters
    const path = `frame spring "${name}"`;
    if (!bodyA && !bodyB) throw new ModelError(path, 'both frames are attached to the world');
    for (const key of ['translationalStiffness', 'rotationalStiffness', 'translationalDamping', 'rotationalDamping'] as const) {
      const v = params[key];
      if (!Number.isFinite(v) || v < 0) throw new ModelError(`${path}.${key}`, `must be finite and non-negative (got ${v})`);
    }
    // parameters and attachment frames (quaternions normalised)
    this.kt = params.translationalStiffness;
    this.kr = params.rotationalStiffness;
    this.dt = params.translationalDamping;
    this.dr = params.rotationalDamping;
    this.body = [bodyA, bodyB];
    this.p = Float64Array.of(...p1A, ...p2B);
    if (!this.p.every(Number.isFinite)) throw new ModelError(path, 'attachment positions must be finite');
    this.qf = new Float64Array(8);
    const quats = [q1A, q2B];
    for (let s = 0; s < 2; s++) this.qf.set(unitQuaternion(`${path}.${s === 0 ? 'q1A' : 'q2B'}`, quats[s]!), 4 * s);
  }

  /** the origins of frame 1 in A's coordinates and of frame 2 in B's (world for a world side): a copy */
  get origins(): [Vec3Tuple, Vec3Tuple] {
    const p = this.p;
    return [[p[0]!, p[1]!, p[2]!], [p[3]!, p[4]!, p[5]!]];
  }

  /**
   * A frame spring whose two attachment frames coincide, at load time, with one frame given in
   * world coordinates (position, orientation body → world), using the bodies' poses in q0.
   */
  static atWorldFrame(name: string, bodyA: RigidBody | null, bodyB: RigidBody | null, q0: Float64Array,
    position: Vec3Tuple, orientation: QuatTuple, params: FrameSpringParams): FrameSpring {
    // the world frame's unit quaternion
    const qW = unitQuaternion(`frame spring "${name}".orientation`, orientation);
    // the frame in each side's coordinates, X_BF = X_WB⁻¹ X_WF (the world side keeps X_WF)
    const X_WF = pose(position, qW), X_BF = pose(), tmp = pose();
    const local = (b: RigidBody | null): [Vec3Tuple, QuatTuple] => {
      if (!b) return [[...position], [qW[0]!, qW[1]!, qW[2]!, qW[3]!]];
      const o = b.qOffset;
      poseRelative(X_BF, pose(q0.subarray(o, o + 3), q0.subarray(o + 3, o + 7)), X_WF, tmp);
      return [[X_BF.p[0]!, X_BF.p[1]!, X_BF.p[2]!], [X_BF.q[0]!, X_BF.q[1]!, X_BF.q[2]!, X_BF.q[3]!]];
    };
    const [p1, q1] = local(bodyA), [p2, q2] = local(bodyB);
    return new FrameSpring(name, bodyA, bodyB, p1, q1, p2, q2, params);
  }

  createScratch(): FrameSpringScratch { return new FrameSpringScratch(); }

  setup(pattern: BlockPattern, st: FrameSpringScratch): void {
    // slots of the (A, A), (A, B), (B, A), (B, B) blocks that are solved
    st.slots.fill(-1);
    for (let s = 0; s < 2; s++) for (let t = 0; t < 2; t++) {
      const bs = this.body[s]?.block ?? -1, bt = this.body[t]?.block ?? -1;
      if (bs >= 0 && bt >= 0) st.slots[2 * s + t] = pattern.couple(bs, bt);
    }
  }

  /** evaluates lever arms, frame positions and velocities, w, F and T */
  private evaluate(ctx: ForceContext, st: FrameSpringScratch): void {
    const q = ctx.q, u = ctx.u;
    // per side: lever arm, frame position, frame velocity, ω, frame orientation
    for (let s = 0; s < 2; s++) {
      const b = this.body[s], r = st.r[s]!, x = st.x[s]!, xd = st.xd[s]!, om = st.om[s]!, qs = st.qs[s]!;
      const px = this.p[3 * s]!, py = this.p[3 * s + 1]!, pz = this.p[3 * s + 2]!;
      if (!b) {
        r.fill(0); xd.fill(0); om.fill(0);
        x[0] = px; x[1] = py; x[2] = pz;
        for (let k = 0; k < 4; k++) qs[k] = this.qf[4 * s + k]!;
        continue;
      }
      const R = ctx.kin.R, m = 9 * b.index, qo = b.qOffset, uo = b.uOffset;
      const rx = R[m]! * px + R[m + 1]! * py + R[m + 2]! * pz;
      const ry = R[m + 3]! * px + R[m + 4]! * py + R[m + 5]! * pz;
      const rz = R[m + 6]! * px + R[m + 7]! * py + R[m + 8]! * pz;
      r[0] = rx; r[1] = ry; r[2] = rz;
      x[0] = q[qo]! + rx; x[1] = q[qo + 1]! + ry; x[2] = q[qo + 2]! + rz;
      const wx = u[uo + 3]!, wy = u[uo + 4]!, wz = u[uo + 5]!;
      om[0] = wx; om[1] = wy; om[2] = wz;
      xd[0] = u[uo]! + wy * rz - wz * ry;
      xd[1] = u[uo + 1]! + wz * rx - wx * rz;
      xd[2] = u[uo + 2]! + wx * ry - wy * rx;
      for (let k = 0; k < 4; k++) { st.qb[k] = q[qo + 3 + k]!; st.qr[k] = this.qf[4 * s + k]!; }
      quatMul(qs, st.qb, st.qr);
    }
    // w = log(R_2W R_1Wᵀ), world axes, φ ∈ [0, π] (shortest rotation)
    quatConj(st.qr, st.qs[0]!);
    quatMul(st.qr, st.qs[1]!, st.qr);
    quatToRotationVector(st.w, st.qr);
    // F = k_t (x_2 − x_1) + d_t (ẋ_2 − ẋ_1),  T = k_r w + d_r (ω_B − ω_A)
    const x1 = st.x[0]!, x2 = st.x[1]!, v1 = st.xd[0]!, v2 = st.xd[1]!, wA = st.om[0]!, wB = st.om[1]!;
    for (let k = 0; k < 3; k++) {
      st.F[k] = this.kt * (x2[k]! - x1[k]!) + this.dt * (v2[k]! - v1[k]!);
      st.T[k] = this.kr * st.w[k]! + this.dr * (wB[k]! - wA[k]!);
    }
  }

  addForces(ctx: ForceContext, f: Float64Array, st: FrameSpringScratch): void {
    this.evaluate(ctx, st);
    const F = st.F, T = st.T;
    // f_s = σ_s (F, r_s × F + T)
    for (let s = 0; s < 2; s++) {
      const b = this.body[s];
      if (!b) continue;
      const sg = s === 0 ? 1 : -1, o = b.uOffset, r = st.r[s]!;
      const rx = r[0]!, ry = r[1]!, rz = r[2]!;
      f[o] = f[o]! + sg * F[0]!; f[o + 1] = f[o + 1]! + sg * F[1]!; f[o + 2] = f[o + 2]! + sg * F[2]!;
      f[o + 3] = f[o + 3]! + sg * (ry * F[2]! - rz * F[1]! + T[0]!);
      f[o + 4] = f[o + 4]! + sg * (rz * F[0]! - rx * F[2]! + T[1]!);
      f[o + 5] = f[o + 5]! + sg * (rx * F[1]! - ry * F[0]! + T[2]!);
    }
  }

  /** U = a I − ½[w] + c w wᵀ = J_l⁻¹(w), the U above in world axes (src/math/so3.ts) */
  private computeU(st: FrameSpringScratch): void {
    invLeftJacobian(st.U, st.w);
  }

  addJacobians(ctx: ForceContext, K: BlockMatrix, D: BlockMatrix, st: FrameSpringScratch): void {
    // nothing to fill when neither side is solved
    const sl = st.slots;
    if (sl[0]! < 0 && sl[3]! < 0) return;
    this.evaluate(ctx, st);
    this.computeU(st);
    const kt = this.kt, kr = this.kr, dt = this.dt, dr = this.dr, U = st.U;
    // per side t: [r_t], ∂F/∂θ_t = σ_t (k_t[r_t] + d_t[ω_t][r_t]), ∂T/∂θ_t (−k_r Uᵀ for A, k_r U for B)
    for (let t = 0; t < 2; t++) {
      const sg = t === 0 ? 1 : -1, Sr = st.Sr[t]!, Fth = st.Fth[t]!, Tth = st.Tth[t]!;
      skew(Sr, st.r[t]!);
      skew(st.M1, st.om[t]!);
      mul3(st.M2, st.M1, Sr);
      for (let k = 0; k < 9; k++) Fth[k] = sg * (kt * Sr[k]! + dt * st.M2[k]!);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) Tth[3 * i + j] = t === 0 ? -kr * U[3 * j + i]! : kr * U[3 * i + j]!;
    }
    // blocks (s, t): rows σ_s (∂F, [r_s] ∂F + ∂T) of the columns of side t
    for (let s = 0; s < 2; s++) for (let t = 0; t < 2; t++) {
      const slot = sl[2 * s + t]!;
      if (slot < 0) continue;
      const ss = s === 0 ? 1 : -1, sst = ss * (t === 0 ? 1 : -1);
      const Srs = st.Sr[s]!, Srt = st.Sr[t]!, Fth = st.Fth[t]!, Tth = st.Tth[t]!;
      // the block's scales, read by the adds from an array (a double argument would be boxed)
      const sc = st.sc, B = st.B3;
      sc[0] = -sst * kt; sc[1] = -sst * dt; sc[2] = -sst * dr;
      // K, x columns: ∂F/∂x_t = −σ_t k_t I
      K.addDiag3(slot, 0, 0, sc, 0);
      for (let k = 0; k < 9; k++) B[k] = sc[0]! * Srs[k]!;
      K.add3(slot, 3, 0, B, 1);
      // K, θ columns: σ_s ∂F/∂θ_t and σ_s ([r_s] ∂F/∂θ_t + ∂T/∂θ_t)
      K.add3(slot, 0, 3, Fth, ss);
      mul3(st.M3, Srs, Fth);
      for (let k = 0; k < 9; k++) st.M3[k] = st.M3[k]! + Tth[k]!;
      K.add3(slot, 3, 3, st.M3, ss);
      // D, v columns: ∂F/∂v_t = −σ_t d_t I
      D.addDiag3(slot, 0, 0, sc, 1);
      for (let k = 0; k < 9; k++) B[k] = sc[1]! * Srs[k]!;
      D.add3(slot, 3, 0, B, 1);
      // D, ω columns: ∂F/∂ω_t = σ_t d_t [r_t], ∂T/∂ω_t = −σ_t d_r I
      for (let k = 0; k < 9; k++) B[k] = sst * dt * Srt[k]!;
      D.add3(slot, 0, 3, B, 1);
      mul3(st.M3, Srs, Srt);
      for (let k = 0; k < 9; k++) B[k] = sst * dt * st.M3[k]!;
      D.add3(slot, 3, 3, B, 1);
      D.addDiag3(slot, 3, 3, sc, 2);
    }
    // the lever arm of each body turns with it: σ_s [F][r_s] on its own θθ block
    skew(st.M1, st.F);
    for (let s = 0; s < 2; s++) {
      const slot = sl[3 * s]!;
      if (slot < 0) continue;
      mul3(st.M2, st.M1, st.Sr[s]!);
      K.add3(slot, 3, 3, st.M2, s === 0 ? 1 : -1);
    }
  }

  potentialEnergy(ctx: ForceContext, st: FrameSpringScratch): number {
    this.evaluate(ctx, st);
    const x1 = st.x[0]!, x2 = st.x[1]!, w = st.w;
    let d2 = 0, p2 = 0;
    for (let k = 0; k < 3; k++) {
      const d = x2[k]! - x1[k]!;
      d2 += d * d;
      p2 += w[k]! * w[k]!;
    }
    return 0.5 * this.kt * d2 + 0.5 * this.kr * p2;
  }

  /** the wrench on B about its attachment frame's origin at ctx's state, evaluated in st, into out (FrameSpringReadout) */
  readout(ctx: ForceContext, st: FrameSpringScratch, out: FrameSpringReadout): void {
    this.evaluate(ctx, st);
    for (let k = 0; k < 3; k++) { out.force[k] = -st.F[k]!; out.torque[k] = -st.T[k]!; }
  }

  /** the relative rotation angle φ ∈ [0, π] at ctx's state, evaluated in st */
  angle(ctx: ForceContext, st: FrameSpringScratch): number {
    this.evaluate(ctx, st);
    return Math.hypot(st.w[0]!, st.w[1]!, st.w[2]!);
  }
}
