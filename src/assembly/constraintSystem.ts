/**
 * The constraint stage of the step: evaluates every bilateral constraint's violation g, Jacobian
 * blocks G, velocity product G u and bias κ = Ġu, and assembles them into the KKT matrix
 *
 *   [ M̂   Gᵀ ] [ Δu ]   [ rhs_v     ]
 *   [ G   −R ] [ μ  ] = [ c − G u   ]        μ = −λ̃  (docs/ARCHITECTURE.md, sign convention)
 *
 * on the shared block pattern (constraint blocks come after the component blocks). This is the
 * symmetric quasi-definite form: n positive and m negative pivots. The row targets c and the
 * diagonal R depend on the stabilization method and the row's compliance (theory.md §7, §8); see
 * `rows`.
 *
 * One per simulation: it holds every constraint's scratch (`BilateralConstraint.createScratch`,
 * their Float64 numbers packed back to back in one pool, in model order) and the joints' batch;
 * the readouts (coordinates, rates, reactions) are answered from them by `readouts`
 * (./constraintReadouts.ts), with delegates here. The constraints themselves are never written,
 * so two simulations of one model share them safely.
 */
import { resolveStabilization, type Model, type ResolvedStabilization } from '../model/model.js';
import type { ConstraintContext, GeometricStiffnessTerm } from '../constraints/constraint.js';
import type { BlockPattern, BlockMatrix, BlockLayout } from './blockSparse.js';
import { KeptBlocks } from './keptBlocks.js';
import { JointBatch } from '../constraints/jointBatch.js';
import { GIMBAL_SINGULAR_TOL, Joint } from '../constraints/joint.js';
import { ConstraintReadouts } from './constraintReadouts.js';
import { constraintScratch, rowParameters, sideTables } from './constraintTables.js';
import { Kinematics } from '../model/kinematics.js';

export class ConstraintSystem {
  readonly m: number;                 // rows
  readonly n: number;                 // velocity unknowns
  readonly g: Float64Array;           // (m) violation g(q)
  readonly Gu: Float64Array;          // (m) G u
  readonly kappa: Float64Array;       // (m) κ = Ġ u
  readonly R: Float64Array;           // (m) diagonal of the (2,2) block, as −R
  readonly target: Float64Array;      // (m) c: the value G u⁺ + R λ̃ must take
  readonly lambda: Float64Array;      // (m) multipliers of the last step (N or N·m)
  readonly hard: Uint8Array;          // (m) 1 for rows without compliance
  private readonly alpha: Float64Array; // (m) each row's compliance α (the model's, fixed when it was built)
  private readonly beta: Float64Array;  // (m) each row's damping β
  private readonly allHard: Uint8Array;   // (constraints) 1 when every row of the constraint is hard
  private readonly sideCols: Int32Array;  // (2 · constraints) columns of each side's Jacobian block (3 or 6)
  private readonly sideSolve: Int32Array; // (2 · constraints) first solve index of each side's block, −1 if not dynamic
  private readonly keepAt: Int32Array;    // (2 · constraints) offset of each side's Jacobian block in Gkeep
  private readonly kept: KeptBlocks;      // those blocks and their product G u
  private readonly Gkeep: Float64Array;   // the Jacobian blocks of the last full evaluation, side after side (kept.G)
  /** the joints, evaluated as one batch over flat arrays (constraints/jointBatch.ts) */
  readonly joints: JointBatch;
  private readonly others: Int32Array;    // the other constraints (evaluated one by one), in model order
  readonly lambdaForce: Float64Array; // (m) compliant rows applied as forces (RK4): their λ
  readonly gK: Float64Array;          // (m) g at the start of the step (midpoint evaluations)
  /** true when some row has no compliance */
  readonly hasHardRows: boolean;
  /** true when some row has compliance */
  readonly hasCompliantRows: boolean;
  /** the model's stabilization, its defaults filled in once */
  readonly stabilization: ResolvedStabilization;
  private slotCB = new Int32Array(0); // (2 · nConstraints) slot of (constraint, component k)
  private slotBC = new Int32Array(0); // (2 · nConstraints) slot of (component k, constraint)
  private slotCC = new Int32Array(0); // (nConstraints) diagonal slot
  // where each kept Jacobian entry goes in the values of a matrix on the bound layout (`bind`): its
  // G entry and its Gᵀ entry (−1: not scattered this way, a non-dynamic side or a constraint with compliant rows)
  private layout: BlockLayout | null = null;
  private scatterG = new Int32Array(0);  // (Gkeep length)
  private scatterGT = new Int32Array(0); // (Gkeep length)
  private diagAt = new Int32Array(0);    // (m) value index of each row's diagonal entry (its −R)
  private readonly nb0: number;       // first constraint block

  /** the workspace's body caches (shared with its force stage), which the readouts update to their q */
  readonly kin: Kinematics;
  /** each constraint's scratch, in model order (its Float64 numbers in one pool) */
  private readonly scratch: unknown[];
  /** the readouts (coordinates, rates, reactions), answered in that scratch */
  readonly readouts: ConstraintReadouts;
  /** (2·constraints) a joint's component on side A and on side B, −1 for the world or another constraint */
  readonly jointSides: Int32Array;

  /** `kin`: the workspace's body caches, shared with its ForceSystem (made here when not given) */
  constructor(readonly model: Model, kin?: Kinematics) {
    this.kin = kin ?? new Kinematics(model);
    this.scratch = constraintScratch(model);
    this.readouts = new ConstraintReadouts(model, this.kin, this.scratch);
    this.jointSides = Int32Array.from(model.constraints.flatMap((c) => c instanceof Joint
      ? [c.bodyA ? c.bodyA.index : -1, c.bodyB ? c.bodyB.index : -1] : [-1, -1]));
    this.m = model.nRows;
    this.n = model.nSolve;
    this.stabilization = resolveStabilization(model.settings.stabilization);
    const m = this.m;
    this.g = new Float64Array(m); this.kappa = new Float64Array(m);
    this.R = new Float64Array(m); this.target = new Float64Array(m); this.lambda = new Float64Array(m);
    this.lambdaForce = new Float64Array(m);
    this.gK = new Float64Array(m);
    this.nb0 = model.blockComponent.length;
    const rows = rowParameters(model);
    this.hard = rows.hard; this.alpha = rows.alpha; this.beta = rows.beta;
    this.hasHardRows = this.hard.some((x) => x === 1);
    this.hasCompliantRows = this.hard.some((x) => x === 0);
    const sides = sideTables(model, this.hard);
    this.sideCols = sides.sideCols; this.sideSolve = sides.sideSolve;
    this.keepAt = sides.keepAt; this.allHard = sides.allHard;
    this.kept = new KeptBlocks(m, model.nu, sides.table, sides.keep);
    this.Gkeep = this.kept.G;
    this.Gu = this.kept.Gu;
    this.joints = new JointBatch(model.constraints, model.rowStart, this.keepAt);
    const batched = new Uint8Array(model.constraints.length);
    for (const ci of this.joints.constraints) batched[ci] = 1;
    this.others = Int32Array.from(Array.from(batched.keys()).filter((ci) => batched[ci] === 0));
  }

  // the last evaluation into a Gm: at which kinematics generation, in which mode
  private evalGm: BlockMatrix | null = null;
  private evalKin: unknown = null;
  private evalGen = -1;
  private evalHardOnly = false;

  /**
   * G u ← G(q) u on every row, from the Jacobian blocks of the last full evaluation (the positions
   * of that evaluation must still hold): the velocity projection's product, by the routine
   * `evaluate` uses, with u in the velocity layout (no gather into the solve layout)
   */
  mulKept(u: Float64Array): void { this.kept.multiply(u); }

  /**
   * Binds the rows to the layout built from the pattern they were registered on: the scatter map
   * of the hard constraints' kept Jacobian entries (entry t of Gkeep, row r and column j of side
   * k of constraint ci, goes to (r, j) of block (ci, k) and to (j, r) of block (k, ci)), and where
   * each row's diagonal entry (−R) lives. Once, before any evaluation; every matrix passed to
   * `evaluate`, `rows` and `projectionRows` is on this layout.
   */
  bind(layout: BlockLayout): void {
    const cons = this.model.constraints, cb = layout.colBase;
    this.scatterG = new Int32Array(this.Gkeep.length).fill(-1);
    this.scatterGT = new Int32Array(this.Gkeep.length).fill(-1);
    this.diagAt = new Int32Array(this.m);
    for (let ci = 0; ci < cons.length; ci++) {
      for (let r = 0; r < cons[ci]!.rows; r++) this.diagAt[this.model.rowStart[ci]! + r] = cb[6 * this.slotCC[ci]! + r]! + r;
    }
    for (let ci = 0; ci < cons.length; ci++) {
      if (this.allHard[ci] !== 1) continue;
      const c = cons[ci]!;
      for (let k = 0; k < c.components.length; k++) {
        const s = this.slotCB[2 * ci + k]!, sb = this.slotBC[2 * ci + k]!, cols = this.sideCols[2 * ci + k]!, o = this.keepAt[2 * ci + k]!;
        if (s < 0) continue;
        for (let r = 0; r < c.rows; r++) {
          for (let j = 0; j < cols; j++) {
            this.scatterG[o + r * cols + j] = cb[6 * s + j]! + r;
            this.scatterGT[o + r * cols + j] = cb[6 * sb + r]! + j;
          }
        }
      }
    }
    this.layout = layout;
  }

  /** (m) the index, in the values of a matrix on the bound layout, of each row's diagonal entry (its −R) */
  get rowDiagonals(): Int32Array { return this.diagAt; }

  /** the matrix passed in must be on the bound layout */
  private check(Gm: BlockMatrix): void {
    if (Gm.layout !== this.layout) throw new Error('ConstraintSystem: the matrix is not on the layout the rows were bound to (bind)');
  }

  /** registers the G blocks on the pattern (before it is built) */
  register(pattern: BlockPattern): void {
    const cons = this.model.constraints, comps = this.model.components;
    this.slotCB = new Int32Array(2 * cons.length).fill(-1);
    this.slotBC = new Int32Array(2 * cons.length).fill(-1);
    this.slotCC = new Int32Array(cons.length);
    for (let ci = 0; ci < cons.length; ci++) {
      const c = cons[ci]!, cb = this.nb0 + ci;
      this.slotCC[ci] = pattern.couple(cb, cb);
      for (let k = 0; k < c.components.length; k++) {
        const b = comps[c.components[k]!]!.block;
        if (b < 0) continue;
        this.slotCB[2 * ci + k] = pattern.couple(cb, b);
        this.slotBC[2 * ci + k] = pattern.find(b, cb);
      }
    }
  }

  /**
   * Evaluates g, G (into Gm as G and Gᵀ; the −R diagonal is set by `rows`), G u and κ at (q, u).
   * Every G and Gᵀ entry of Gm is overwritten, so Gm needs no zeroing (the diagonal blocks of the
   * constraint rows hold −R only on their diagonal, written by `rows` or `projectionRows`, zero
   * elsewhere from construction). With `hardOnly`, compliant rows are zero in Gm (the projection and
   * the acceleration-level matrices) and, if `fc` is given, applied instead as the forces
   * Gᵀλ, λ = −(g + β ġ)/α, added to fc (solve layout): compliance as the spring it is (theory.md §7).
   * `withBias` false skips κ (the projection needs g, G and G u only).
   */
  evaluate(ctx: ConstraintContext, Gm: BlockMatrix, hardOnly = false, fc: Float64Array | null = null, withBias = true): void {
    const kappa = withBias ? this.kappa : null;
    // the same positions as the last evaluation into this Gm, in a mode that assembled the same
    // Gm (the projection's last evaluation, then the next step's under the first-order schemes):
    // G is assembled and kept already; only g, κ and G u are new
    if (fc === null && Gm === this.evalGm && ctx.kin === this.evalKin && ctx.kin.generation === this.evalGen
      && (hardOnly === this.evalHardOnly || !this.hasCompliantRows)) {
      this.values(ctx, kappa, false);
      this.kept.multiply(ctx.u);
      return;
    }
    this.evalGm = Gm; this.evalKin = ctx.kin; this.evalGen = ctx.kin.generation; this.evalHardOnly = hardOnly;
    this.check(Gm);
    this.values(ctx, kappa, true);
    this.kept.multiply(ctx.u);
    // constraints with compliant rows block by block (whole, or hard rows only and the compliant
    // ones as forces, which need G u); the others go into Gm whole by the scatter below
    if (this.hasCompliantRows) this.assembleCompliant(Gm, hardOnly, fc);
    // the hard constraints' G and Gᵀ entries into Gm, in one pass over the kept blocks
    const Gk = this.Gkeep, v = Gm.values, dG = this.scatterG, dGT = this.scatterGT;
    for (let t = 0; t < Gk.length; t++) {
      const d = dG[t]!;
      if (d < 0) continue;
      const x = Gk[t]!;
      v[d] = x;
      v[dGT[t]!] = x;
    }
  }

  /**
   * g and (unless kappa is null) κ at ctx; with `blocks`, the Jacobian blocks too, kept for G u
   * now and for a later evaluation at the same positions: the joints in one pass (straight into
   * the kept blocks), the other constraints one by one
   */
  private values(ctx: ConstraintContext, kappa: Float64Array | null, blocks: boolean): void {
    const cons = this.model.constraints, rowStart = this.model.rowStart, others = this.others;
    const scratch = this.scratch, Gk = this.Gkeep;
    this.joints.evaluate(ctx, this.g, kappa, blocks ? Gk : null);
    for (let i = 0; i < others.length; i++) {
      const ci = others[i]!, c = cons[ci]!, r0 = rowStart[ci]!, s = scratch[ci];
      c.violation(ctx, this.g, r0, s);
      if (kappa) c.bias(ctx, kappa, r0, s);
      if (!blocks) continue;
      const G = c.jacobian(ctx, s), rows = c.rows;
      for (let k = 0; k < c.components.length; k++) {
        const Gb = G[k]!, o = this.keepAt[2 * ci + k]!, len = rows * this.sideCols[2 * ci + k]!;
        for (let t = 0; t < len; t++) Gk[o + t] = Gb[t]!;
      }
    }
  }

  /**
   * the kept blocks of the constraints with compliant rows into Gm: whole, or with `hardOnly`
   * the hard rows only, the compliant ones zero in Gm and, when fc is given, applied as the
   * forces Gᵀλ, λ = −(g + β ġ)/α, added to fc (after G u is formed: ġ = G u)
   */
  private assembleCompliant(Gm: BlockMatrix, hardOnly: boolean, fc: Float64Array | null): void {
    const cons = this.model.constraints, rowStart = this.model.rowStart, Gk = this.Gkeep;
    for (let ci = 0; ci < cons.length; ci++) {
      if (this.allHard[ci] === 1) continue;
      const c = cons[ci]!, r0 = rowStart[ci]!, rows = c.rows, nk = c.components.length;
      for (let k = 0; k < nk; k++) {
        const cols = this.sideCols[2 * ci + k]!, o = this.keepAt[2 * ci + k]!;
        const s = this.slotCB[2 * ci + k]!;
        if (s < 0) continue;
        if (!hardOnly) {
          Gm.setDense(s, Gk, rows, cols, o);
          Gm.setDenseTransposed(this.slotBC[2 * ci + k]!, Gk, rows, cols, o);
          continue;
        }
        const sb = this.slotBC[2 * ci + k]!, bo = this.sideSolve[2 * ci + k]!;
        for (let r = 0; r < rows; r++) {
          const i = r0 + r, hard = this.hard[i] === 1;
          for (let j = 0; j < cols; j++) {
            const x = hard ? Gk[o + r * cols + j]! : 0;
            Gm.setEntry(s, r, j, x);
            Gm.setEntry(sb, j, r, x);
          }
          if (hard || !fc) continue;
          const lam = -(this.g[i]! + this.beta[i]! * this.Gu[i]!) / this.alpha[i]!;
          this.lambdaForce[i] = lam;
          for (let j = 0; j < cols; j++) fc[bo + j] = fc[bo + j]! + Gk[o + r * cols + j]! * lam;
        }
      }
    }
  }

  /**
   * Row targets c (the value of G u⁺ + R λ̃) and diagonals R, written into `target` and, as −R,
   * into Gm (theory.md §7 and §8). `scheme` says where G was evaluated and
   * how positions advance: 'first' (G at q_k, q⁺ = q + h u⁺), 'second' (trapezoidal: G at the
   * midpoint, q⁺ = q + (h/2)(u + u⁺)), 'half' (Bridson-Marino: G at the midpoint, q⁺ = q + h u½),
   * 'acceleration' (RK4 stages: G a = c). `gK` holds g(q_k). `regularize` (m) is each hard row's
   * R as a redundant row (0 outside a dependency, step/redundancy.ts). Under 'acceleration' and 'half', compliant rows are applied as
   * forces (Workspace.compliantForces) and are inert here (G = 0 from `evaluate`, R = 1).
   */
  rows(Gm: BlockMatrix, h: number, regularize: Float64Array, scheme: 'first' | 'second' | 'half' | 'acceleration', gK: Float64Array): void {
    const st = this.stabilization;
    const { Gu, kappa, R, target } = this;
    this.check(Gm);
    const v = Gm.values, at = this.diagAt;
    const accel = scheme === 'acceleration', asForces = accel || scheme === 'half';
    // hard rows with projection: G u⁺ = −τκ, τ from where G was evaluated to the end of the step
    const tau = scheme === 'first' ? 0 : 0.5 * h;
    // row by row from flat arrays (on a 10 000-link chain, reading each constraint's own arrays costs 3 ms)
    for (let i = 0; i < this.m; i++) {
      const alpha = this.alpha[i]!, beta = this.beta[i]!;
      if (asForces && !this.hard[i]) {
        R[i] = 1;
        target[i] = 0;
      } else if (accel) {
        // a hard row (compliant ones were handled above): G a = −κ, with Baumgarte −αġ − βg,
        // with SPOOK the critically damped −(2/τ)ġ − g/τ² at τ = d h
        R[i] = regularize[i]!;
        if (st.method === 'baumgarte') target[i] = -kappa[i]! - st.alpha * Gu[i]! - st.beta * gK[i]!;
        else if (st.method === 'spook') { const t = st.relaxation * h; target[i] = -kappa[i]! - (2 / t) * Gu[i]! - gK[i]! / (t * t); }
        else target[i] = -kappa[i]!;
      } else if (st.method === 'spook' && (scheme !== 'second' || this.hard[i] === 1)) {
        // SPOOK in the u⁺ form (Lacoursière; theory.md §8): G u⁺ + Σ λ̃ = −(4k/h) g + k G u, k = 1/(1 + 4d),
        // Σ = 4kε/h²; a compliant row uses its own α as ε and d = β/h when it has damping. That
        // form is first order (q⁺ = q + h u⁺): under the trapezoidal rule a compliant row is the
        // trapezoidal spring below instead (as a SPOOK row, a stiff soft row feeds energy into
        // the chain until it diverges)
        const d = beta > 0 ? beta / h : st.relaxation, eps = alpha > 0 ? alpha : st.compliance, k = 1 / (1 + 4 * d);
        R[i] = (4 * eps * k) / (h * h) + (this.hard[i] ? regularize[i]! : 0);
        target[i] = -((4 * k) / h) * gK[i]! + k * Gu[i]!;
      } else if (alpha > 0) {
        if (scheme === 'second') {
          // trapezoidal: α λ̄ = −(g_k + g_{k+1})/2 − β ġ̄ with g_{k+1} = g_k + (h/2) G (u + u⁺):
          // G u⁺ + (γ₂α/h²) λ̃ = −γ₂ g_k / h − G u, γ₂ = (1/4 + β/(2h))⁻¹
          const g2 = 1 / (0.25 + beta / (2 * h));
          R[i] = (g2 * alpha) / (h * h);
          target[i] = (-g2 * gK[i]!) / h - Gu[i]!;
        } else {
          // theory.md §7: G u⁺ + (γα/h²) λ̃ = −γ g_k / h, γ = (1/2 + β/h)⁻¹
          const gamma = 1 / (0.5 + beta / h);
          R[i] = (gamma * alpha) / (h * h);
          target[i] = (-gamma * gK[i]!) / h;
        }
      } else if (st.method === 'baumgarte') {
        // Baumgarte (theory.md §8): g̈ + α ġ + β g = 0 → G u⁺ = G u − h (κ + α G u + β g)
        R[i] = regularize[i]!;
        target[i] = Gu[i]! - h * (kappa[i]! + st.alpha * Gu[i]! + st.beta * gK[i]!);
      } else {
        R[i] = regularize[i]!;
        // first-order schemes do not evaluate κ (it may be stale): their target is 0
        target[i] = tau === 0 ? 0 : -tau * kappa[i]!;
      }
      v[at[i]!] = -R[i]!;
    }
  }

  /** projection matrices (after `evaluate` with hardOnly): −regularize[i] on hard rows, −1 on compliant ones */
  projectionRows(Gm: BlockMatrix, regularize: Float64Array): void {
    this.check(Gm);
    const v = Gm.values, at = this.diagAt, R = this.R, hard = this.hard;
    for (let i = 0; i < this.m; i++) {
      R[i] = hard[i] === 1 ? regularize[i]! : 1;
      v[at[i]!] = -R[i]!;
    }
  }

  /** ‖g‖₂ over the hard rows */
  hardViolationNorm(): number {
    const hard = this.hard, g = this.g, m = this.m;
    let s = 0;
    for (let i = 0; i < m; i++) if (hard[i] === 1) s += g[i]! * g[i]!;
    return Math.sqrt(s);
  }

  /** the largest |g| over hard rows (NaN if one is NaN: the projection then stops) */
  maxHardViolation(): number { return this.maxHardAbs(this.g); }

  /** the largest |v[i]| over hard rows i (NaN if one is NaN) */
  maxHardAbs(v: Float64Array): number {
    const hard = this.hard, m = this.m;
    let e = 0;
    // once e is NaN no comparison replaces it
    for (let i = 0; i < m; i++) {
      const a = Math.abs(v[i]!);
      if (hard[i] === 1 && (a > e || a !== a)) e = a;
    }
    return e;
  }

  /** the hard row with the largest |g[i]| (the first of equals; a NaN row is never chosen), −1 without hard rows */
  worstHardRow(g: Float64Array): number {
    let best = -1, e = -1;
    for (let i = 0; i < this.m; i++) {
      const v = Math.abs(g[i]!);
      if (this.hard[i] === 1 && v > e) { e = v; best = i; }
    }
    return best;
  }

  /** recomputes g(q) only, into `out` (default g) */
  violation(ctx: ConstraintContext, out: Float64Array = this.g): void {
    const cons = this.model.constraints, others = this.others;
    this.joints.evaluate(ctx, out, null, null);
    for (let i = 0; i < others.length; i++) {
      const ci = others[i]!;
      cons[ci]!.violation(ctx, out, this.model.rowStart[ci]!, this.scratch[ci]);
    }
  }

  /**
   * the energy the compliant rows store at violation g: Σ g_i²/(2α_i), each such row being a
   * spring of stiffness 1/α (theory.md §7)
   */
  compliantEnergy(g: Float64Array): number {
    let V = 0;
    for (let i = 0; i < g.length; i++) if (this.hard[i] === 0) V += (g[i]! * g[i]!) / (2 * this.alpha[i]!);
    return V;
  }

  /** the constraint and row of KKT row i (0-based among the m rows) */
  rowOwner(i: number): { constraint: number; row: number } {
    const rs = this.model.rowStart;
    let c = 0;
    while (c + 1 < rs.length - 1 && rs[c + 1]! <= i) c++;
    return { constraint: c, row: i - rs[c]! };
  }

  /**
   * constraint ci's geometric stiffness on `pattern` (before it is built), evaluated in this
   * workspace's scratch; null when it has none (BilateralConstraint.geometricStiffness)
   */
  geometricStiffness(ci: number, pattern: BlockPattern): GeometricStiffnessTerm | null {
    return this.model.constraints[ci]!.geometricStiffness?.(pattern, this.scratch[ci]) ?? null;
  }

  /**
   * The coordinates of joint ci (its `coordinateNames`, m and rad) at q into out[0 …]; returns
   * their number (0, out untouched, when constraint ci is not a joint). u is not read.
   * (ConstraintReadouts.jointCoordinates)
   */
  jointCoordinates(ci: number, q: Float64Array, u: Float64Array, out: Float64Array): number {
    return this.readouts.jointCoordinates(ci, q, u, out);
  }

  /** the rates of those coordinates at (q, u) into out[0 …] (finite everywhere); returns their number */
  jointRates(ci: number, q: Float64Array, u: Float64Array, out: Float64Array): number {
    return this.readouts.jointRates(ci, q, u, out);
  }

  /**
   * Coordinate k of joint ci at q, with its velocity row into out12 (ċ = out12 · [u_A; u_B],
   * constraints/coordinateRows.ts); NaN where the row is singular (limits and motors skip it then)
   */
  coordinateRow(out12: Float64Array, ci: number, k: number, q: Float64Array, u: Float64Array): number {
    return this.readouts.coordinateRow(out12, ci, k, q, u);
  }

  /**
   * true when joint ci's coordinate rates are not defined at q (a gimbal with |cos φ| < tol, a
   * degenerate angle or universal map: Joint.isSingular); false for other constraints
   */
  isSingular(ci: number, q: Float64Array, u: Float64Array, tol = GIMBAL_SINGULAR_TOL): boolean {
    return this.readouts.isSingular(ci, q, u, tol);
  }

  /**
   * The wrench constraint ci applies to its side A from the multipliers `lambda` (all m rows,
   * N or N·m: `lambda` of the last step) at (q, u): out[0..3) the force, out[3..6) the torque
   * about the constraint's anchor (a joint's frame C origin, a distance constraint's first
   * point), world axes (the reaction on the world when side A is the world; constraints/report.ts)
   */
  reaction(ci: number, q: Float64Array, u: Float64Array, lambda: Float64Array, out: Float64Array): Float64Array {
    return this.readouts.reaction(ci, q, u, lambda, out);
  }
}
