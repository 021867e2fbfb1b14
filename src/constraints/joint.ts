/**
 * One generic joint between body A and body B (either may be the world, not both), driven by axis
 * masks (Rapier style): a preset type or a custom { linear, angular } mask of locked axes of
 * frame C. Derived in theory.md §9 (rows, coordinates, roll-pitch-yaw angles), with the quaternion
 * rates of §3.
 *
 * Frames: C fixed in A (pose X_AC), D fixed in B (X_BD); `Joint.atWorldFrame` places both on one
 * world frame at load time, so g = 0 there. Rows, in this order (derivations of g, ġ, G and
 * κ = Ġu for each kind in jointRows.ts):
 *   - translational, for each locked axis k of C:  g = e_kᵀ R_WCᵀ (x_D − x_C)
 *   - rotational lock, for each locked axis k:     g = 2 vec(q_CD)_k,  q_CD = q_WC⁻¹ ⋆ q_WD,
 *     ġ = (wI − [v]) R_WCᵀ(ω_B − ω_A) (w ≥ 0 at set-up; large errors: jointRows.ts)
 *   - or the universal row:                        g = x_C·y_D,  ġ = (x_C × y_D)·(ω_A − ω_B)
 *
 *   type            translation   rotation               rows   coordinates
 *   ball            x y z         free                   3      —
 *   hinge           x y z         lock x y (free z)      5      rz
 *   slider          x y (free z)  lock x y z             5      tz
 *   cylindrical     x y (free z)  lock x y (free z)      4      tz, rz
 *   universal       x y z         x_C·y_D = 0            4      rx, ry
 *   gimbal          x y z         free                   3      theta, phi, psi (RPY of R_CD)
 *   planar          z             lock x y (free z)      3      tx, ty, rz
 *   point-on-plane  z             free                   1      tx, ty
 *   point-on-line   x y           free                   2      tz
 *   weld            x y z         lock x y z             6      —
 * A custom mask has the lock rows of its locked axes and the coordinates of its free axes (an
 * angle when exactly one rotation axis is free).
 *
 * Coordinates, with Ω = R_WCᵀ(ω_B − ω_A) the angular velocity of D relative to C in C's axes
 * (Ṙ_CD = [Ω] R_CD, since Ṙ_WC = [ω_A] R_WC):
 *   - t_k = c_k·d (d = x_D − x_C, c_k = R_WC e_k), rate c_k·(ḋ − ω_A × d);
 *   - the angle about a free axis k, 2 atan2(v_k, w) of q_CD ∈ (−2π, 2π] (continuous through a
 *     half turn: it counts the double cover of q_CD), rate 2(w v̇_k − v_k ẇ)/(w² + v_k²) with
 *     q̇_CD = ½ Ω ⋆ q_CD (ẇ = −½ Ω·v, v̇ = ½(wΩ + Ω × v));
 *   - universal: R_CD = Rx(rx) Ry(ry) on the constraint, so rx = atan2(R₂₁, R₁₁),
 *     ry = atan2(R₀₂, R₀₀), differentiated exactly with Ṙ_CD = [Ω] R_CD (valid off it too);
 *   - gimbal: (θ, φ, ψ) = mat3ToRpy(R_CD), R_CD = Rz(θ) Ry(φ) Rx(ψ) (theory.md §9). The base
 *     frame of the rate map A is C, so the rates are A⁻¹(θ, φ) Ω: the relative ω in C's axes, not
 *     in world (tested against finite differences). At the singularity (|cos φ| < GIMBAL_SINGULAR_TOL)
 *     only θ ∓ ψ is defined; mat3ToRpy then reports ψ = 0 and we report the finite rates
 *     (Ω_z, −sθ Ω_x + cθ Ω_y, 0): Ω_z is the rate of θ ∓ ψ there, and φ̇ is the regular row of A⁻¹.
 * `isSingular` flags those configurations (and the degenerate ones of the angle and universal
 * maps); rates stay finite. The simulation warns about the gimbal's only (Simulation.checkSingular).
 */
import type { RigidBody, Vec3Tuple, QuatTuple } from '../model/model.js';
import type { BilateralConstraint, ConstraintContext, GeometricStiffnessTerm } from './constraint.js';
import { ModelError, unitQuaternion } from '../model/errors.js';
import { quatToMat3, quatMul, quatConj } from '../math/quat.js';
import { mulAtB3 } from '../math/mat3.js';
import { type Pose, pose, poseRelative } from '../math/transform.js';
import { omegaToRpyRate, rpyIsSingular, mat3ToRpyInto } from '../math/rpy.js';
import type { BlockMatrix, BlockPattern } from '../assembly/blockSparse.js';
import type { ForceContext } from '../forces/force.js';
import { addTranslationalStiffness, addLeverCurvature, type StiffnessScratch } from './geometricStiffness.js';
import { type JointType, type JointMask, type JointLayout, JointFrame, JointKinematics, JOINT_KINEMATICS_SIZE, jointLayout,
  writeFrames, linearValue, linearRate, stiffnessVectors, rowValues, rowBiases, rowJacobians } from './jointRows.js';

export type { JointType, JointMask } from './jointRows.js';
export { JOINT_PRESETS } from './jointRows.js';

export interface JointSpec {
  /** a preset, or a custom mask of locked axes of C (true = locked) */
  type: JointType | JointMask;
  /** per-row compliance α ≥ 0 (m/N, rad/(N·m)): one value for all rows or one per row; default 0 */
  compliance?: number | readonly number[];
  /**
   * per-row damping β ≥ 0 (s) of compliant rows: one value (the compliant rows' when the joint
   * has any, its hard rows keeping 0; else every row's, which only SPOOK reads) or one per row;
   * default 0
   */
  damping?: number | readonly number[];
  /** instead of compliance: per-row stiffness k > 0 (N/m, N·m/rad), one value or one per row */
  stiffness?: number | readonly number[];
  /** with stiffness: the damping ratio ζ ≥ 0 of each row (default 0) */
  dampingRatio?: number;
}

/**
 * |cos φ| below which the gimbal is reported singular (warning, and the finite rates). Above
 * RPY_SINGULAR_TOL (1e-9) on purpose: a rotation at φ = ±π/2 up to the rounding of R_CD (cos φ
 * about √(2·2⁻⁵³) ≈ 1.5e-8 from an asin of R₂₀) must still be flagged, and A⁻¹ grows as 1/cos φ.
 */
export const GIMBAL_SINGULAR_TOL = 1e-7;
/** w² + v_k² (angle) or the squared radii of the universal atan2 pairs below which those maps degenerate */
const DEGENERATE_SQ = 1e-18;

/** per-row values from a scalar or an array; finite and ≥ 0 (> 0 with `positive`) */
function perRow(path: string, v: number | readonly number[] | undefined, rows: number, positive = false): Float64Array {
  const out = new Float64Array(rows);
  if (v === undefined) return out;
  if (typeof v === 'number') out.fill(v);
  else if (v.length !== rows) throw new ModelError(path, `needs one value or ${rows} (one per row), got ${v.length}`);
  else out.set(v);
  if (!out.every((x) => Number.isFinite(x) && (positive ? x > 0 : x >= 0))) throw new ModelError(path, `must be finite and ${positive ? 'positive' : 'non-negative'} (got ${JSON.stringify(v)})`);
  return out;
}

/** the quaternion of a body in q (identity for the world) */
function bodyQuat(b: RigidBody | null, q: Float64Array): Float64Array {
  return b ? Float64Array.of(q[b.qOffset + 3]!, q[b.qOffset + 4]!, q[b.qOffset + 5]!, q[b.qOffset + 6]!) : Float64Array.of(1, 0, 0, 0);
}

/**
 * A joint's geometric stiffness on one workspace's pattern: its translational rows' term
 * (geometricStiffness.ts) on the slots of (A, A), (A, B), (B, A), (B, B), −1 where a side has none
 */
class TranslationalStiffness implements GeometricStiffnessTerm {
  constructor(private readonly k: JointKinematics, private readonly linear: Int32Array, private readonly slots: Int32Array) {}

  add(ctx: ForceContext, lambda: Float64Array, o: number, K: BlockMatrix, _D: BlockMatrix, t: StiffnessScratch): void {
    const s = this.slots;
    this.k.positions(ctx);
    stiffnessVectors(this.k.b, 0, this.linear, 0, this.linear.length, lambda, o, t.fsr);
    addTranslationalStiffness(K, t.fsr, 0, s[0]!, s[1]!, s[2]!, s[3]!, t);
  }
}

/**
 * A joint's term of the position projection's curvature (step/stabilize.ts; summed over
 * the joints by JointBatch.addCurvature): the lever curvature C of its three translational rows
 * (axes codes[co …]; the joint's kinematics at b[o …], after framePositions) at the
 * multipliers mu[lo …], added to curvature[9·block …] for the blocks bA and bB (−1: none;
 * geometricStiffness.ts, addLeverCurvature). The three rows' multipliers are the world force f,
 * and μᵀg = f·(x_D − x_C) has no A-B coupling. Side A's lever is s = r_C + d, not r_C: the rows
 * measure d along C's axes, which turn with A (G_A = [−c_kᵀ, (c_k × s)ᵀ], jointRows.ts); on the
 * manifold (d = 0) the two agree.
 */
export function jointLeverCurvature(b: Float64Array, o: number, codes: Int32Array, co: number, mu: Float64Array, lo: number,
  bA: number, bB: number, curvature: Float64Array, inertiaTrace: Float64Array, t: StiffnessScratch): void {
  stiffnessVectors(b, o, codes, co, 3, mu, lo, t.fsr);
  if (bB >= 0) addLeverCurvature(curvature, bB, inertiaTrace, t.fsr, 1, 6, t);
  if (bA >= 0) addLeverCurvature(curvature, bA, inertiaTrace, t.fsr, -1, 3, t);
}

/**
 * One workspace's scratch of a Joint (`Joint.createScratch`): its frames' kinematics and its
 * Jacobian blocks (views of the workspace's constraint pool), and the relative rotation's scratch
 */
export class JointScratch {
  /** the blocks in the order of `components` (views of G) */
  readonly blocks: readonly Float64Array[];
  readonly Rcd = new Float64Array(9);
  readonly M = new Float64Array(9);
  readonly rpy = new Float64Array(3);
  /**
   * k: the kinematics; G: (12 · rows) side A's Jacobian block, then side B's, of a joint with
   * sides A and B (null: the world)
   */
  constructor(readonly k: JointKinematics, readonly G: Float64Array, bodyA: RigidBody | null, bodyB: RigidBody | null) {
    const r6 = G.length / 2, sides = [bodyA ? G.subarray(0, r6) : null, bodyB ? G.subarray(r6) : null];
    this.blocks = sides.filter((g): g is Float64Array => g !== null);
  }
}

export class Joint implements BilateralConstraint<JointScratch> {
  readonly rows: number;
  readonly components: readonly number[];
  readonly compliance: Float64Array;
  readonly damping: Float64Array;
  readonly softness?: { readonly stiffness: Float64Array; readonly dampingRatio: number };
  readonly type: JointType | 'custom';
  /** row labels: 'tx' … (translational), 'rx' … (lock), 'universal' */
  readonly rowNames: readonly string[];
  /** the readable coordinates, in the order of `coordinates` */
  readonly coordinateNames: readonly string[];
  /** X_AC (the world pose for a world side): views of the joint's frame, do not modify (each workspace works on copies) */
  get frameA(): Pose { return { p: this.fa.p, q: this.fa.q }; }
  /** X_BD, likewise */
  get frameB(): Pose { return { p: this.fb.p, q: this.fb.q }; }
  /** its rows and coordinates (shared by every joint of its preset: read-only) */
  readonly layout: JointLayout;
  private readonly fa: JointFrame;
  private readonly fb: JointFrame;
  /** some row or coordinate reads the orientations beyond R_WC (JointKinematics.rotations) */
  private readonly rotations: boolean;

  /**
   * bodyA/bodyB: a rigid body or null (the world). (pAC, qAC): frame C in A's coordinates (in
   * world for the world), (pBD, qBD): frame D in B's. q0: the positions the sign of q_CD is
   * chosen at (w ≥ 0).
   */
  constructor(readonly name: string, readonly bodyA: RigidBody | null, readonly bodyB: RigidBody | null,
    pAC: Vec3Tuple, qAC: QuatTuple, pBD: Vec3Tuple, qBD: QuatTuple, spec: JointSpec, q0: Float64Array) {
    // sides: at least one body, two different bodies
    const path = `joint "${name}"`;
    if (!bodyA && !bodyB) throw new ModelError(path, 'both sides are the world');
    if (bodyA && bodyA === bodyB) throw new ModelError(`${path}.bodyB`, `bodyA and bodyB are the same body "${bodyA.name}"`);
    for (const b of [bodyA, bodyB]) if (b && b.qOffset + 7 > q0.length) throw new ModelError(path, `q0 does not hold body "${b.name}"`);
    // layout, per-row parameters
    this.layout = jointLayout(spec.type, path);
    this.type = this.layout.type;
    this.rows = this.layout.rows;
    this.rowNames = this.layout.rowNames;
    this.coordinateNames = this.layout.coordinateNames;
    this.compliance = perRow(`${path}.compliance`, spec.compliance, this.rows);
    this.damping = perRow(`${path}.damping`, spec.damping, this.rows);
    // one damping value is the compliant rows' when the joint has any: the hard rows keep 0 (under
    // SPOOK a hard row's damping would set its relaxation, which a value meant for the soft rows
    // must not; constraints/softness.ts, ignoredDampingRow)
    if (typeof spec.damping === 'number' && this.compliance.some((a) => a > 0)) {
      for (let r = 0; r < this.rows; r++) if (!(this.compliance[r]! > 0)) this.damping[r] = 0;
    }
    // softness in physical units, converted by the simulation at set-up
    if (spec.stiffness !== undefined) {
      if (spec.compliance !== undefined || spec.damping !== undefined) throw new ModelError(`${path}.stiffness`, 'give either stiffness (with dampingRatio) or compliance (with damping), not both');
      const zeta = spec.dampingRatio ?? 0;
      if (!(zeta >= 0) || !Number.isFinite(zeta)) throw new ModelError(`${path}.dampingRatio`, `must be finite and non-negative (got ${zeta})`);
      // a stiffness of 0 would silently be a hard row: k > 0, as for distance constraints
      this.softness = { stiffness: perRow(`${path}.stiffness`, spec.stiffness, this.rows, true), dampingRatio: zeta };
    } else if (spec.dampingRatio !== undefined) throw new ModelError(`${path}.dampingRatio`, 'goes with stiffness');
    // frames (unit quaternions, finite positions)
    this.fa = new JointFrame(bodyA);
    this.fb = new JointFrame(bodyB);
    // orientations beyond R_WC: lock and universal rows, and the rotational coordinates
    this.rotations = this.layout.angular.length > 0 || this.layout.universal || this.layout.rotation !== 'none';
    const frames: [JointFrame, Vec3Tuple, QuatTuple, string][] = [[this.fa, pAC, qAC, 'frameA'], [this.fb, pBD, qBD, 'frameB']];
    for (const [f, p, q, key] of frames) {
      if (p.length !== 3 || !p.every(Number.isFinite)) throw new ModelError(`${path}.${key}.position`, `must be finite (got ${JSON.stringify(p)})`);
      f.p.set(p);
      f.q.set(unitQuaternion(`${path}.${key}.orientation`, q));
    }
    // the sign of q_CD: w ≥ 0 at q0 (flip q_BD, the same rotation)
    const qC = quatMul(new Float64Array(4), bodyQuat(bodyA, q0), this.fa.q);
    const qD = quatMul(new Float64Array(4), bodyQuat(bodyB, q0), this.fb.q);
    const qCD = quatMul(new Float64Array(4), quatConj(qC, qC), qD);
    if (qCD[0]! < 0) for (let i = 0; i < 4; i++) this.fb.q[i] = -this.fb.q[i]!;
    quatToMat3(this.fa.R, this.fa.q);
    quatToMat3(this.fb.R, this.fb.q);
    // components (non-dynamic bodies too: their velocity enters ġ)
    this.components = [bodyA, bodyB].filter((b): b is RigidBody => b !== null).map((b) => b.index);
  }

  /**
   * A joint whose frames C and D coincide, at load time, with one frame given in world
   * (position, orientation body → world), using the bodies' poses in q0: g(q0) = 0.
   */
  static atWorldFrame(name: string, bodyA: RigidBody | null, bodyB: RigidBody | null, q0: Float64Array,
    position: Vec3Tuple, orientation: QuatTuple, spec: JointSpec): Joint {
    const path = `joint "${name}"`;
    if (position.length !== 3 || !position.every(Number.isFinite)) throw new ModelError(`${path}.position`, `must be finite (got ${JSON.stringify(position)})`);
    const qW = unitQuaternion(`${path}.orientation`, orientation);
    // X_AC = X_WA⁻¹ X_WF and X_BD = X_WB⁻¹ X_WF (a world side keeps X_WF)
    const X_WF = pose(position, qW), X = pose(), tmp = pose();
    const local = (b: RigidBody | null): [Vec3Tuple, QuatTuple] => {
      if (!b) return [[position[0], position[1], position[2]], [qW[0]!, qW[1]!, qW[2]!, qW[3]!]];
      if (b.qOffset + 7 > q0.length) throw new ModelError(path, `q0 does not hold body "${b.name}"`);
      const o = b.qOffset;
      poseRelative(X, pose(q0.subarray(o, o + 3), q0.subarray(o + 3, o + 7)), X_WF, tmp);
      return [[X.p[0]!, X.p[1]!, X.p[2]!], [X.q[0]!, X.q[1]!, X.q[2]!, X.q[3]!]];
    };
    const [pa, qa] = local(bodyA), [pb, qb] = local(bodyB);
    return new Joint(name, bodyA, bodyB, pa, qa, pb, qb, spec, q0);
  }

  /**
   * `atWorldFrame` with the frame's z axis along `axis` (the hinge, slider and cylinder axis),
   * x and y completing it by the shortest rotation from world z.
   */
  static atWorldAxis(name: string, bodyA: RigidBody | null, bodyB: RigidBody | null, q0: Float64Array,
    position: Vec3Tuple, axis: Vec3Tuple, spec: JointSpec): Joint {
    const n = axis.length === 3 && axis.every(Number.isFinite) ? Math.hypot(axis[0], axis[1], axis[2]) : NaN;
    if (!(n > 1e-12) || !Number.isFinite(n)) throw new ModelError(`joint "${name}".axis`, `must be finite and non-zero (got ${JSON.stringify(axis)})`);
    const x = axis[0] / n, y = axis[1] / n, z = axis[2] / n;
    // the shortest rotation e_z → a: (1 + z, e_z × a) normalised; a half turn about x for a = −e_z
    const q: QuatTuple = z > -1 + 1e-12 ? [1 + z, -y, x, 0] : [0, 1, 0, 0];
    return Joint.atWorldFrame(name, bodyA, bodyB, q0, position, q, spec);
  }

  /** kinematics, both frames and both Jacobian blocks */
  get scratchSize(): number { return JOINT_KINEMATICS_SIZE + 12 * this.rows; }

  /** the kinematics (frames copied in) and both Jacobian blocks in pool (scratchSize numbers) */
  createScratch(pool: Float64Array): JointScratch {
    const S = JOINT_KINEMATICS_SIZE;
    const k = new JointKinematics(this.fa, this.fb, this.rotations, pool.subarray(0, S));
    return new JointScratch(k, pool.subarray(S, S + 12 * this.rows), this.bodyA, this.bodyB);
  }

  /** copies the two frames into a kinematics buffer b at offset o (JointBatch) */
  writeFrames(b: Float64Array, o: number): void { writeFrames(b, o, this.fa, this.fb); }

  violation(ctx: ConstraintContext, out: Float64Array, o: number, s: JointScratch): void {
    s.k.positions(ctx);
    rowValues(s.k.b, 0, this.layout.codes, 0, this.rows, out, o);
  }

  jacobian(ctx: ConstraintContext, s: JointScratch): readonly Float64Array[] {
    const r6 = 6 * this.rows;
    this.jacobianInto(ctx, s.G, this.bodyA ? 0 : r6, r6, s);
    return s.blocks;
  }

  /** the blocks into out: side A's from o0 and side B's from o1 (B's from o0 when A is the world) */
  jacobianInto(ctx: ConstraintContext, out: Float64Array, o0: number, o1: number, s: JointScratch): void {
    // blocks in the order of `components`: A's then B's, or B's alone when A is the world
    const oA = this.bodyA ? o0 : -1, oB = this.bodyB ? (this.bodyA ? o1 : o0) : -1;
    s.k.positions(ctx);
    rowJacobians(s.k.b, 0, this.layout.codes, 0, this.rows, out, oA, oB);
  }

  bias(ctx: ConstraintContext, out: Float64Array, o: number, s: JointScratch): void {
    s.k.positions(ctx);
    s.k.velocities(ctx);
    rowBiases(s.k.b, 0, this.layout.codes, 0, this.rows, out, o);
  }

  /**
   * the geometric stiffness of the translational rows (geometricStiffness.ts) on the blocks (A, A),
   * (A, B), (B, A), (B, B) of `pattern` (a world or non-dynamic side has none); none without
   * translational rows
   */
  geometricStiffness(pattern: BlockPattern, s: JointScratch): GeometricStiffnessTerm | null {
    if (this.layout.linear.length === 0) return null;
    const bA = this.bodyA ? this.bodyA.block : -1, bB = this.bodyB ? this.bodyB.block : -1;
    const couple = (i: number, j: number): number => (i >= 0 && j >= 0 ? pattern.couple(i, j) : -1);
    const slots = Int32Array.of(couple(bA, bA), couple(bA, bB), couple(bB, bA), couple(bB, bB));
    return new TranslationalStiffness(s.k, this.layout.linear, slots);
  }

  /** true when side A is the world (components[0] is then body B) */
  get sideAIsWorld(): boolean { return this.bodyA === null; }

  /** world position of frame C (where reaction wrenches are reported) */
  anchor(ctx: ConstraintContext, out: Float64Array, s: JointScratch): Float64Array {
    s.k.positions(ctx);
    out[0] = s.k.xC[0]!; out[1] = s.k.xC[1]!; out[2] = s.k.xC[2]!;
    return out;
  }

  /** the coordinates named by `coordinateNames` → out[o …] (m and rad), evaluated in s */
  coordinates(ctx: ConstraintContext, out: Float64Array, o: number, s: JointScratch): void {
    const k = s.k, L = this.layout;
    k.positions(ctx);
    let c = o;
    for (let i = 0; i < L.freeLinear.length; i++) out[c++] = linearValue(k.b, 0, L.freeLinear[i]!);
    if (L.rotation === 'angle') {
      out[c] = 2 * Math.atan2(k.qCD[1 + L.angleAxis]!, k.qCD[0]!);
    } else if (L.rotation === 'universal') {
      const R = this.relativeRotation(s);
      out[c] = Math.atan2(R[7]!, R[4]!);
      out[c + 1] = Math.atan2(R[2]!, R[0]!);
    } else if (L.rotation === 'rpy') {
      const a = this.rpyAngles(s);
      out[c] = a[0]!; out[c + 1] = a[1]!; out[c + 2] = a[2]!;
    }
  }

  /** their time derivatives at (q, u) → out[o …], evaluated in s; finite everywhere (see `isSingular`) */
  coordinateRates(ctx: ConstraintContext, out: Float64Array, o: number, s: JointScratch): void {
    const k = s.k, L = this.layout;
    k.positions(ctx);
    k.velocities(ctx);
    let c = o;
    for (let i = 0; i < L.freeLinear.length; i++) out[c++] = linearRate(k.b, 0, L.freeLinear[i]!);
    const Om = k.Om, ox = Om[0]!, oy = Om[1]!, oz = Om[2]!;
    if (L.rotation === 'angle') {
      // 2 d/dt atan2(v_k, w), q̇_CD = ½ Ω ⋆ q_CD
      const q = k.qCD, w = q[0]!, vx = q[1]!, vy = q[2]!, vz = q[3]!, a = L.angleAxis;
      const wd = -0.5 * (ox * vx + oy * vy + oz * vz);
      const cr = a === 0 ? oy * vz - oz * vy : a === 1 ? oz * vx - ox * vz : ox * vy - oy * vx;
      const vk = q[1 + a]!, vd = 0.5 * (w * Om[a]! + cr), den = w * w + vk * vk;
      out[c] = den > DEGENERATE_SQ ? (2 * (w * vd - vk * wd)) / den : 0;
    } else if (L.rotation === 'universal') {
      // Ṙ_CD = [Ω] R_CD: the entries (1,1), (2,1), (0,0), (0,2)
      const R = this.relativeRotation(s);
      const r11d = oz * R[1]! - ox * R[7]!, r21d = ox * R[4]! - oy * R[1]!;
      const r00d = oy * R[6]! - oz * R[3]!, r02d = oy * R[8]! - oz * R[5]!;
      const d1 = R[4]! * R[4]! + R[7]! * R[7]!, d2 = R[0]! * R[0]! + R[2]! * R[2]!;
      out[c] = d1 > DEGENERATE_SQ ? (R[4]! * r21d - R[7]! * r11d) / d1 : 0;
      out[c + 1] = d2 > DEGENERATE_SQ ? (R[0]! * r02d - R[2]! * r00d) / d2 : 0;
    } else if (L.rotation === 'rpy') {
      const a = this.rpyAngles(s), th = a[0]!, ph = a[1]!, M = s.M;
      if (omegaToRpyRate(M, th, ph, GIMBAL_SINGULAR_TOL)) {
        out[c] = M[0]! * ox + M[1]! * oy + M[2]! * oz;
        out[c + 1] = M[3]! * ox + M[4]! * oy + M[5]! * oz;
        out[c + 2] = M[6]! * ox + M[7]! * oy + M[8]! * oz;
      } else {
        out[c] = oz;
        out[c + 1] = -Math.sin(th) * ox + Math.cos(th) * oy;
        out[c + 2] = 0;
      }
    }
  }

  /**
   * true where the coordinate rates are not defined: the gimbal at |cos φ| < tol (the simulation
   * warns with tol = 1e-2, where the rates are amplified a hundredfold), a degenerate angle or universal map
   */
  isSingular(ctx: ConstraintContext, s: JointScratch, tol = GIMBAL_SINGULAR_TOL): boolean {
    const k = s.k, L = this.layout;
    k.positions(ctx);
    if (L.rotation === 'rpy') return rpyIsSingular(this.rpyAngles(s)[1]!, tol);
    if (L.rotation === 'angle') {
      const w = k.qCD[0]!, v = k.qCD[1 + L.angleAxis]!;
      return !(w * w + v * v > DEGENERATE_SQ);
    }
    if (L.rotation === 'universal') {
      const R = this.relativeRotation(s);
      return !(R[4]! * R[4]! + R[7]! * R[7]! > DEGENERATE_SQ && R[0]! * R[0]! + R[2]! * R[2]! > DEGENERATE_SQ);
    }
    return false;
  }

  /** R_CD = R_WCᵀ R_WD (after positions) */
  private relativeRotation(s: JointScratch): Float64Array {
    return mulAtB3(s.Rcd, s.k.RC, s.k.RD);
  }

  /** (θ, φ, ψ) of R_CD (mat3ToRpyInto) */
  private rpyAngles(s: JointScratch): Float64Array {
    return mat3ToRpyInto(s.rpy, this.relativeRotation(s));
  }
}
