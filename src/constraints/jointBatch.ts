/**
 * The joints of one constraint stage, evaluated as one batch: their kinematics buffers (the layout
 * of JointKinematics.b, copies of the joints' frames included) back to back in one pool, their integers (bodies,
 * offsets, rows, where their rows and Jacobian blocks go) in one flat array, and loops that run
 * the row kernels of ./jointRows.ts over them. The math is the joints' own (the same kernels, in
 * the same order per joint, so the same bits); only the data layout differs.
 *
 * Why: on the 10 000-link chain, a violation pass through the joint objects (array → joint →
 * its kinematics object → its buffer, each a separate heap object) costs 142 ns per joint, against
 * 36 ns for the same arithmetic over flat arrays: with tens of thousands of small objects spread
 * over the heap, every evaluation misses the TLB at each step of that chain of pointers. The pool
 * belongs to the constraint stage (one per workspace), not to the model, so two simulations of one
 * model never share it.
 */
import type { ConstraintContext } from './constraint.js';
import { Joint, jointLeverCurvature } from './joint.js';
import { JOINT_KINEMATICS_SIZE, framePositions, frameVelocities, rowValues, rowBiases, rowJacobians } from './jointRows.js';
import type { StiffnessScratch } from './geometricStiffness.js';

// per-joint integers in JointBatch.meta
const A_BODY = 0;   // body index of side A (−1: the world)
const A_Q = 1;      // its offset in q
const A_U = 2;      // its offset in u
const B_BODY = 3;
const B_Q = 4;
const B_U = 5;
const ROT = 6;      // 1 when some row reads the orientations beyond R_WC (lock or universal rows)
const ROWS = 7;     // rows
const CODES = 8;    // offset of the rows' kernel codes in `codes`
const ROW = 9;      // first row among the stage's m rows
const G_A = 10;     // offset of side A's Jacobian block in the stage's kept blocks (−1: the world)
const G_B = 11;     // side B's
const CURVED = 12;  // 1 when the joint locks all three translations (the projection's curvature)
const BLK_A = 13;   // block of side A in M (−1: the world or not dynamic)
const BLK_B = 14;
const META = 15;

export class JointBatch {
  /** the joints' indices among the model's constraints, in model order */
  readonly constraints: Int32Array;
  private readonly pool: Float64Array;  // (JOINT_KINEMATICS_SIZE · joints) each joint's kinematics and frames
  private readonly meta: Int32Array;    // (META · joints) the integers above
  private readonly codes: Int32Array;   // (Σ rows) every joint's row codes (JointLayout.codes)
  /** the number of joints that lock all three translations (addCurvature) */
  readonly curved: number;
  /** the kinematics (and their generation) the pool's positions were computed at */
  private kinSeen: unknown = null;
  private genSeen = -1;

  /**
   * the joints among `constraints`, their rows from rowStart and their Jacobian blocks' offsets in
   * the kept blocks from keepAt (2 per constraint, as ConstraintSystem keeps them)
   */
  constructor(constraints: readonly unknown[], rowStart: Int32Array, keepAt: Int32Array) {
    const joints: Joint[] = [], index: number[] = [];
    constraints.forEach((c, ci) => { if (c instanceof Joint) { joints.push(c); index.push(ci); } });
    this.constraints = Int32Array.from(index);
    const S = JOINT_KINEMATICS_SIZE;
    this.pool = new Float64Array(S * joints.length);
    this.meta = new Int32Array(META * joints.length);
    this.codes = new Int32Array(joints.reduce((n, j) => n + j.rows, 0));
    let co = 0, curved = 0;
    joints.forEach((j, t) => {
      const ci = index[t]!, m = META * t, L = j.layout, A = j.bodyA, B = j.bodyB;
      j.writeFrames(this.pool, S * t);
      // the orientations beyond R_WC only where a row reads them (a gimbal's are for its coordinates)
      const rot = L.angular.length > 0 || L.universal ? 1 : 0;
      this.meta.set([A ? A.index : -1, A ? A.qOffset : -1, A ? A.uOffset : -1,
        B ? B.index : -1, B ? B.qOffset : -1, B ? B.uOffset : -1, rot, j.rows, co, rowStart[ci]!], m);
      // blocks in the order of `components`: A's then B's, or B's alone when A is the world
      this.meta[m + G_A] = j.bodyA ? keepAt[2 * ci]! : -1;
      this.meta[m + G_B] = j.bodyB ? keepAt[2 * ci + (j.bodyA ? 1 : 0)]! : -1;
      this.meta[m + CURVED] = L.linear.length === 3 ? 1 : 0;
      curved += this.meta[m + CURVED]!;
      this.meta[m + BLK_A] = j.bodyA ? j.bodyA.block : -1;
      this.meta[m + BLK_B] = j.bodyB ? j.bodyB.block : -1;
      this.codes.set(L.codes, co);
      co += j.rows;
    });
    this.curved = curved;
  }

  /** the number of joints */
  get count(): number { return this.constraints.length; }
  /** the frames' kinematics at ctx's positions, unless the pool holds them already */
  private positions(ctx: ConstraintContext): void {
    const kin = ctx.kin;
    if (this.kinSeen === kin && this.genSeen === kin.generation) return;
    const b = this.pool, M = this.meta, R = kin.R, q = ctx.q, S = JOINT_KINEMATICS_SIZE;
    for (let t = 0, n = this.count; t < n; t++) {
      const m = META * t;
      framePositions(b, S * t, R, q, M[m + A_BODY]!, M[m + A_Q]!, M[m + B_BODY]!, M[m + B_Q]!, M[m + ROT] === 1);
    }
    this.kinSeen = kin;
    this.genSeen = kin.generation;
  }

  /**
   * every joint's g into g (at its rows), with `kappa` its κ = Ġu, with `G` its Jacobian blocks
   * (at their offsets in the kept blocks), in one pass over the joints
   */
  evaluate(ctx: ConstraintContext, g: Float64Array, kappa: Float64Array | null, G: Float64Array | null): void {
    const kin = ctx.kin, fresh = !(this.kinSeen === kin && this.genSeen === kin.generation);
    const b = this.pool, M = this.meta, C = this.codes, R = kin.R, q = ctx.q, u = ctx.u, S = JOINT_KINEMATICS_SIZE;
    for (let t = 0, n = this.count; t < n; t++) {
      const m = META * t, o = S * t, rows = M[m + ROWS]!, co = M[m + CODES]!, row = M[m + ROW]!;
      // the frames at q, in the same pass (unless the pool holds them already)
      if (fresh) framePositions(b, o, R, q, M[m + A_BODY]!, M[m + A_Q]!, M[m + B_BODY]!, M[m + B_Q]!, M[m + ROT] === 1);
      rowValues(b, o, C, co, rows, g, row);
      if (kappa !== null) {
        frameVelocities(b, o, u, M[m + A_U]!, M[m + B_U]!);
        rowBiases(b, o, C, co, rows, kappa, row);
      }
      if (G !== null) rowJacobians(b, o, C, co, rows, G, M[m + G_A]!, M[m + G_B]!);
    }
    this.kinSeen = kin;
    this.genSeen = kin.generation;
  }

  /**
   * the projection's curvature of the joints that lock all three translations at multipliers
   * mu (at their rows), added to curvature[9·block …] (jointLeverCurvature, joint.ts)
   */
  addCurvature(ctx: ConstraintContext, mu: Float64Array, curvature: Float64Array, inertiaTrace: Float64Array, t: StiffnessScratch): void {
    this.positions(ctx);
    const b = this.pool, M = this.meta, C = this.codes, S = JOINT_KINEMATICS_SIZE;
    for (let j = 0, n = this.count; j < n; j++) {
      const m = META * j;
      if (M[m + CURVED] !== 1) continue;
      jointLeverCurvature(b, S * j, C, M[m + CODES]!, mu, M[m + ROW]!, M[m + BLK_A]!, M[m + BLK_B]!, curvature, inertiaTrace, t);
    }
  }
}
