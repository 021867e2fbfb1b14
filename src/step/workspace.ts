/**
 * The step workspace: the operations the integrators of theory.md §5 are written in.
 *
 *   fs.forces(q, u)       stage 4: f, and with fs.jacobians K = ∂f/∂q, D = ∂f/∂u
 *   constraints(q, u, …)  stage 5: G, g, κ and the row targets of the bilateral constraints
 *   mass(q)               the block-diagonal mass matrix M(q) (theory.md §2)
 *   factor / solveWith    stages 6-7: the KKT system [[M − a₀D − a₁K, Gᵀ], [G, −R]] on the blocks
 *   velocitySolve         stage 7 with this step's unilateral rows (step/solve.ts)
 *   advance(q, u, h)      stage 8: q ← q ⊕ h u, rotations by the exponential map (step/advance.ts)
 *
 * Vectors in the "KKT layout" (length n + m) hold the dynamic components' velocities, then the
 * constraint rows; the velocity layout (length nu) holds all components. Everything is
 * preallocated here; one per simulation.
 */
import * as stepFailure from './stepFailure.js';
import type { Model } from '../model/model.js';
import { ForceSystem } from '../assembly/forceSystem.js';
import { ConstraintSystem } from '../assembly/constraintSystem.js';
import { BlockMatrix, columnsMultiply } from '../assembly/blockSparse.js';
import { StiffnessScratch } from '../constraints/geometricStiffness.js';
import type { GeometricStiffnessTerm } from '../constraints/constraint.js';
import { Redundancy, REDUNDANT_PIVOT, REGULARIZATION } from './redundancy.js';
import { StepSolver, stepEntry, type StepSolverOptions, type SolveReport } from '../solvers/stepSolver.js';
import { spatialInertiaInto, spatialInertiaInverseOf, spatialScratch } from '../math/spatial.js';
import { skew, mul3, mulVec3, invert3 } from '../math/mat3.js';
import { ComponentTable } from '../forces/componentTable.js';
import { Advance } from './advance.js';
import type { UnilateralRows } from '../contact/rows.js';
import type { VelocitySolve } from './solve.js';

export class Workspace {
  readonly fs: ForceSystem;
  /** mass matrix M(q) in the component blocks; the same matrix as Gm (M and G fill disjoint blocks), its values in the factorization's memory (StepSolver.assemblyBuffer) */
  readonly M: BlockMatrix;
  /** the coefficients (a₀, a₁) of the last factored step matrix M − a₀D − a₁K (`stepMatrix`) */
  private readonly coef = new Float64Array(2);
  private stepValues: Float64Array | null = null;  // (nnz) `stepMatrix`'s, made at its first call
  readonly solver: StepSolver;
  readonly slotDiag: Int32Array;        // (nBlocks) slot of each diagonal block
  readonly cs: ConstraintSystem;        // the bilateral constraint rows
  /** G, Gᵀ and −R in the constraint blocks; the same matrix as M, so M + G needs no assembly */
  readonly Gm: BlockMatrix;
  private readonly small: number[] = [];
  private readonly pivotScratch: Float64Array;
  /** the regularization of redundant rows, per row, re-examined at every factorization */
  readonly redundancy: Redundancy;
  private readonly refactor = (): string | null => this.factorStep();
  private readonly qMid: Float64Array;  // (nq) midpoint configuration of the second-order schemes
  /** constraint names reported as redundant so far (warned once each) */
  readonly redundant = new Set<string>();
  /** with geometric stiffness on: the constraints that supply it, and their terms on this workspace's pattern */
  private readonly geometric: number[] = [];
  private readonly geometricTerms: GeometricStiffnessTerm[] = [];
  private readonly stiffnessScratch = new StiffnessScratch();
  /** this step's unilateral rows and their solve (set by the stepper when the model has contacts, limits or motors) */
  unilateral: { readonly rows: UnilateralRows; readonly solve: VelocitySolve } | null = null;
  /** the R given to the redundant rows found last (the warning reports it; 0 while none was found) */
  get regularization(): number { return this.redundancy.last; }
  private readonly M6 = new Float64Array(36);
  private readonly jacobianEnds: Int32Array;  // (n) the end of each column of K and D (their layout's colPtr from 1)
  private readonly comps: ComponentTable;
  private readonly advancer: Advance;  // stage 8  // every component as flat arrays (`advance`; its masses for the spatial-inertia helpers, no double argument)
  // (component blocks) each block's component: index, offsets in q and u, 1 for a rigid body; read
  // by the per-block loops instead of the component objects (each a cache miss on long chains)
  private readonly blockIndex: Int32Array;
  private readonly blockQ: Int32Array;
  private readonly blockU: Int32Array;
  private readonly blockBody: Uint8Array;
  private readonly sp = spatialScratch();
  private readonly c3 = new Float64Array(3);
  private readonly J9 = new Float64Array(9);
  private readonly a6 = new Float64Array(6);
  private readonly S1 = new Float64Array(9);
  private readonly S2 = new Float64Array(9);
  private readonly S3 = new Float64Array(9);
  private readonly T3 = new Float64Array(9);
  private readonly U9 = new Float64Array(9);
  private readonly v3 = new Float64Array(3);
  private readonly w3 = new Float64Array(3);
  // statistics of the last solves (for reports and warnings)
  /** steps taken without the geometric stiffness, because with it the step matrix was indefinite */
  geometricFallbacks = 0;
  /** the first of those steps' inertia message */
  firstGeometricFallback: string | null = null;
  maxResidual = 0;
  unconverged = 0;
  inertiaWarnings = 0;
  lastInertia: string | null = null;
  /** the first factorization whose inertia was wrong: the component of its first wrong pivot, and the inertia */
  firstIndefinite: string | null = null;

  constructor(readonly model: Model, opts: StepSolverOptions = {}) {
    this.cs = new ConstraintSystem(model);
    this.qMid = new Float64Array(model.nq);
    this.comps = new ComponentTable(model.components);
    const blocks = new ComponentTable(Array.from(model.blockComponent, (ci) => model.components[ci]!));
    this.blockIndex = blocks.index; this.blockQ = blocks.qOffset; this.blockU = blocks.uOffset; this.blockBody = blocks.body;
    this.advancer = new Advance(this.comps, this.blockQ, this.blockBody, model.blockStart);
    this.pivotScratch = new Float64Array(model.nRows);
    this.redundancy = new Redundancy(model.nSolve, this.cs);
    this.fs = new ForceSystem(model, (p) => {
      this.cs.register(p);
      if (!model.settings.geometricStiffness) return;
      model.constraints.forEach((_, ci) => { const t = this.cs.geometricStiffness(ci, p); if (t) { this.geometric.push(ci); this.geometricTerms.push(t); } });
    }, this.cs.kin);
    // the pattern's symbolic analysis when the workspace is made, not in the first step; M + G
    // is assembled where the factorization reads it in place
    this.solver = new StepSolver(opts);
    this.solver.prepare(this.fs.layout, model.nSolve);
    this.M = new BlockMatrix(this.fs.layout, this.solver.assemblyBuffer);
    this.jacobianEnds = this.fs.jacobianLayout.colPtr.subarray(1);
    this.Gm = this.M;
    this.slotDiag = Int32Array.from({ length: model.blockSize.length }, (_, b) => this.fs.pattern.find(b, b));
    this.cs.bind(this.fs.layout);
  }

  /**
   * M ← M(q): m I for particles, the world spatial inertia about the origin for bodies, plus
   * rotational[9b …] (3×3 row-major, the projection's curvature) on body block b's rotations
   */
  mass(q: Float64Array, rotational: Float64Array | null = null): void {
    const M = this.M, kin = this.fs.kin;
    kin.update(q);
    // each diagonal block is overwritten; M is zero everywhere else from construction
    const JW = kin.JW, cW = kin.cW, values = M.values, colBase = this.fs.layout.colBase;
    for (let b = 0; b < this.blockIndex.length; b++) {
      const i = this.blockIndex[b]!, s = this.slotDiag[b]!;
      if (this.blockBody[b] === 0) { for (let k = 0; k < 3; k++) M.setEntry(s, k, k, this.comps.mass[i]!); continue; }
      spatialInertiaInto(values, colBase, 6 * s, 1, this.comps.mass, i, cW, 3 * i, JW, 9 * i);
      if (rotational !== null) M.add3(s, 3, 3, rotational, 1, 9 * b);
    }
  }

  /**
   * out ← M(q)⁻¹ f on the solve blocks, with the closed-form inverse of theory.md §2 per body, for
   * the q of the last kinematics update (forces or mass). out may alias f.
   */
  massInverse(out: Float64Array, f: Float64Array): void {
    const model = this.model, kin = this.fs.kin;
    const JW = kin.JW;
    for (let b = 0; b < this.blockIndex.length; b++) {
      const i = this.blockIndex[b]!, s = model.blockStart[b]!;
      if (this.blockBody[b] === 0) { for (let k = 0; k < 3; k++) out[s + k] = f[s + k]! / this.comps.mass[i]!; continue; }
      for (let k = 0; k < 3; k++) this.c3[k] = kin.cW[3 * i + k]!;
      for (let k = 0; k < 9; k++) this.J9[k] = JW[9 * i + k]!;
      if (kin.centred(i) && invert3(this.S1, this.J9)) {
        // the origin at the centre of mass: M⁻¹ = diag(I/m, J⁻¹)
        const m = this.comps.mass[i]!, Ji = this.S1, f3 = f[s + 3]!, f4 = f[s + 4]!, f5 = f[s + 5]!;
        out[s] = f[s]! / m; out[s + 1] = f[s + 1]! / m; out[s + 2] = f[s + 2]! / m;
        out[s + 3] = Ji[0]! * f3 + Ji[1]! * f4 + Ji[2]! * f5;
        out[s + 4] = Ji[3]! * f3 + Ji[4]! * f4 + Ji[5]! * f5;
        out[s + 5] = Ji[6]! * f3 + Ji[7]! * f4 + Ji[8]! * f5;
        continue;
      }
      spatialInertiaInverseOf(this.M6, this.comps.mass, i, this.c3, this.J9, this.sp);
      for (let r = 0; r < 6; r++) {
        let acc = 0;
        for (let j = 0; j < 6; j++) acc += this.M6[6 * r + j]! * f[s + j]!;
        this.a6[r] = acc;
      }
      for (let r = 0; r < 6; r++) out[s + r] = this.a6[r]!;
    }
  }

  /**
   * K ← K − ∂(M(q) a)/∂q at fixed a = M⁻¹f (solve layout), the mass-variation term of theory.md §4:
   * with δc = −[c]δθ and δJ = [δθ]J − J[δθ],
   *   ∂(M a)/∂θ = ( −m[a_ω][c] ;  m[a_v][c] − [J a_ω] + J[a_ω] − m([c × a_ω][c] + [c][a_ω][c]) ).
   * With it, K is the exact Jacobian of M(q_k) M(q)⁻¹ f(q, u), so the trapezoidal rule stays
   * second order for rigid bodies whose world inertia turns with them.
   */
  addMassVariation(a: Float64Array): void {
    const model = this.model, kin = this.fs.kin, K = this.fs.K;
    const JW = kin.JW;
    for (let b = 0; b < this.blockIndex.length; b++) {
      if (this.blockBody[b] === 0) continue;
      const i = this.blockIndex[b]!, s = model.blockStart[b]!, slot = this.slotDiag[b]!, m = this.comps.mass[i]!;
      for (let k = 0; k < 3; k++) this.c3[k] = kin.cW[3 * i + k]!;
      for (let k = 0; k < 9; k++) this.J9[k] = JW[9 * i + k]!;
      for (let k = 0; k < 3; k++) this.v3[k] = a[s + 3 + k]!;
      skew(this.S2, this.v3);                                   // [a_ω]
      // rows ω, every body: −(J[a_ω] − [J a_ω])
      mul3(this.S3, this.J9, this.S2);
      K.add3(slot, 3, 3, this.S3, -1);
      skew(this.S3, mulVec3(this.w3, this.J9, this.v3));
      K.add3(slot, 3, 3, this.S3, 1);
      // the origin at the centre of mass (c = 0): nothing else
      if (kin.centred(i)) continue;
      skew(this.S1, this.c3);                                   // [c]
      // rows v: K_vθ −= −m[a_ω][c]
      // (scaled here, not by add3: a non-integer argument of a call V8 does not inline is boxed)
      mul3(this.T3, this.S2, this.S1);
      for (let k = 0; k < 9; k++) this.U9[k] = m * this.T3[k]!;
      K.add3(slot, 0, 3, this.U9, 1);
      // rows ω: m([c][a_ω][c] + [c × a_ω][c] − [a_v][c]), one block
      mul3(this.U9, this.S1, this.T3);                          // [c][a_ω][c]
      const ax = this.v3[0]!, ay = this.v3[1]!, az = this.v3[2]!;
      const cx = this.c3[0]!, cy = this.c3[1]!, cz = this.c3[2]!;
      this.v3[0] = cy * az - cz * ay; this.v3[1] = cz * ax - cx * az; this.v3[2] = cx * ay - cy * ax;
      mul3(this.S3, skew(this.S2, this.v3), this.S1);           // [c × a_ω][c]
      for (let k = 0; k < 3; k++) this.v3[k] = a[s + k]!;
      mul3(this.T3, skew(this.S2, this.v3), this.S1);           // [a_v][c]
      for (let k = 0; k < 9; k++) this.U9[k] = m * (this.U9[k]! + this.S3[k]! - this.T3[k]!);
      K.add3(slot, 3, 3, this.U9, 1);
    }
  }

  /**
   * Factors M − a₀D − a₁K (M from the last `mass`, K and D from the last `forces` with
   * jacobians) for the following `solveWith` calls. M and the constraint blocks (one matrix) are
   * read where they are: a non-symmetric step matrix is formed only as its symmetric part, in the
   * factorization's own buffer (StepSolver.factorCombination: one copy of M + G there, then the
   * Jacobian entries combined), so no separate A is formed (on a 10 000-link chain each such pass
   * streams 19 MB).
   */
  factor(a0: number, a1: number): void {
    this.coef[0] = a0; this.coef[1] = a1;
    this.factorKkt(false);
  }

  /**
   * `factor`, tentatively: a matrix with fewer positive pivots than velocity unknowns, or whose
   * factorization fails at a velocity unknown, is neither recorded nor reported; returns false
   * then, and the caller factors another matrix (the step without the geometric stiffness that
   * made it indefinite). Everything else (redundant constraint rows, other inertia problems) is
   * handled and recorded as by `factor`, and returns true.
   */
  tryFactor(a0: number, a1: number): boolean {
    this.coef[0] = a0; this.coef[1] = a1;
    return this.factorKkt(true);
  }

  /** counts a step taken without the geometric stiffness (after `tryFactor` failed with it) */
  noteGeometricFallback(): void {
    this.geometricFallbacks++;
    this.firstGeometricFallback ??= this.solver.report.inertia ?? 'the factorization failed';
  }

  /**
   * (nnz) the step matrix A = M − a₀D − a₁K (default: the last factored coefficients), formed on
   * request: for tests and diagnostics, and for `pgs` on a block-diagonal step, which inverts its
   * diagonal blocks (step/contactPgs.ts); the solves never need A itself
   */
  stepMatrix(a0 = this.coef[0]!, a1 = this.coef[1]!): Float64Array {
    const P = this.M.values, D = this.fs.D.values, K = this.fs.K.values;
    const A = (this.stepValues ??= new Float64Array(P.length));
    const at = this.fs.jacobianIndex;
    for (let k = 0; k < A.length; k++) A[k] = stepEntry(P, D, a0, K, a1, k, at[k]!);
    return A;
  }

  /**
   * Factors the step matrix of `coef` (symmetric when both are zero: mass and constraint blocks
   * only). With constraint rows, a zero or near-zero pivot of a hard row means redundant
   * constraints: the rows of its dependency get a tiny regularization R (1e-8 of the median
   * constraint pivot), written into their −R diagonal (where `rows` keeps it while the dependency
   * lasts), the matrix is refactored, and the constraints of the dependency are recorded in
   * `redundant` (the simulation warns once per name). Rows whose dependency has gone lose their R
   * first, and the matrix is refactored without it (redundancy.ts).
   */
  private factorKkt(tentative: boolean): boolean {
    const P = this.M.values, n = this.model.nSolve, m = this.model.nRows;
    let msg = this.factorStep();
    // tentative: fewer positive pivots than velocity unknowns (the velocity block is not definite),
    // or a failure at a velocity unknown, is the caller's to handle; a failure at a constraint
    // row, or more positive pivots than velocity unknowns, means redundant rows, handled below
    // as always
    if (msg && tentative && this.velocityBlockIndefinite()) return false;
    if (m > 0 && this.cs.hasHardRows) {
      // dependencies that have gone lose their R, and the matrix is factored without it
      if (this.redundancy.release(this.solver, P)) {
        msg = this.factorStep();
        if (msg && tentative && this.velocityBlockIndefinite()) return false;
      }
      // new redundant hard rows: a failed pivot, or a small one (R sits above the threshold, so
      // regularized rows are not flagged again); a tiny compliant pivot alone is only named
      const failed = this.solver.failedAt >= n;
      const typical = this.solver.smallPivots(n, REDUNDANT_PIVOT, this.small, this.pivotScratch);
      const reg = REGULARIZATION * (typical > 0 ? typical : 1);
      if (failed || this.redundancy.hasHardRow(this.small)) {
        // regularize the rows of their dependencies and refactor (the pivot rows alone named if that fails)
        const pivots = failed ? [this.solver.failedAt, ...this.small] : [...this.small], rows = new Set<number>();
        msg = this.redundancy.regularize(this.solver, P, pivots, reg, this.refactor, this.pivotScratch, rows);
        this.redundancy.name(rows, this.redundant);
        // the regularized matrix may still have an indefinite velocity block: the caller's too
        if (msg && tentative && this.velocityBlockIndefinite()) return false;
      } else if (this.small.length > 0 && this.redundancy.name(this.small.map((k) => k - n), this.redundant)) this.redundancy.last = reg;
    }
    if (msg) {
      this.inertiaWarnings++;
      this.lastInertia = msg;
      // a zero or non-finite pivot: the step cannot be solved; name the component
      const at = this.solver.failedAt;
      if (at >= 0) stepFailure.pivot(this, at);
      // a pivot of the wrong sign in a symmetric step matrix: it is not quasi-definite and the
      // step's energy is no longer bounded (theory.md §6; a 50×50 cloth at h = 10 ms that steps
      // on from there reaches 3e8 J twenty steps later): a failed step, not a result. A
      // non-symmetric matrix is solved by GMRES, for which the factored symmetric part is only
      // the preconditioner: a 200-link chain steps on with joints that hold. Its first such step
      // is warned of, and the energy watch fails the steps that blow up (report/stability.ts)
      const wrong = this.solver.firstWrongPivot(n);
      if (wrong >= 0 && this.solver.symmetric) stepFailure.inertia(this, wrong, msg);
      this.firstIndefinite ??= wrong >= 0 ? `${stepFailure.ownerOf(this, wrong)} (${msg})` : msg;
    }
    // handled here (recorded or regularized): only the tentative case above is the caller's
    return true;
  }

  /** the last factorization failed at a velocity unknown, or left fewer positive pivots than velocity unknowns */
  private velocityBlockIndefinite(): boolean {
    const sv = this.solver, n = this.model.nSolve;
    return sv.failedAt >= 0 ? sv.failedAt < n : sv.positivePivots < n;
  }

  /** one factorization of the step matrix of `coef`: returns the inertia message or null */
  private factorStep(): string | null {
    const a0 = this.coef[0]!, a1 = this.coef[1]!, n = this.model.nSolve;
    if (a0 === 0 && a1 === 0) return this.solver.factor(this.fs.layout, this.M.values, n);
    return this.solver.factorCombination(this.fs.layout, this.M.values, this.fs.D.values, a0, this.fs.K.values, a1, this.fs.jacobianEntries, n);
  }

  /**
   * x ← A⁻¹ rhs by the factorization alone, for symmetric matrices inside an iteration that checks
   * its own convergence; a non-finite result is reported like in `solveWith`.
   */
  solveDirect(rhs: Float64Array, x: Float64Array): void {
    if (!this.solver.solveDirect(rhs, x)) stepFailure.nonFinite(this, rhs);
  }

  /** (ncomp) each component's offset in u, by component index */
  get uOffsets(): Int32Array { return this.comps.uOffset; }
  /** (ncomp) each component's offset in q, by component index */
  get qOffsets(): Int32Array { return this.comps.qOffset; }
  /** (ncomp) 1 for a rigid body, 0 for a particle, by component index */
  get bodyFlags(): Uint8Array { return this.comps.body; }

  /**
   * Stage 7, the velocity solve of every integrator: x ← [Δu; μ] of the factored step with this
   * step's unilateral and bounded rows (step/solve.ts; u is the velocity Δu adds to). Without
   * rows, `solveWith`.
   */
  velocitySolve(rhs: Float64Array, x: Float64Array, u: Float64Array): void {
    const un = this.unilateral;
    if (un === null || un.rows.count === 0) { this.solveWith(rhs, x); return; }
    un.solve.solve(un.rows, rhs, x, u);
  }

  /**
   * x ← A⁻¹ rhs with the last factorization (solve layout). A non-finite right-hand side or
   * step matrix throws a `NonFiniteError` naming the first component concerned, so a blow-up is
   * never swallowed by the solver.
   */
  solveWith(rhs: Float64Array, x: Float64Array, tol?: number): SolveReport {
    const rep = this.solver.solve(rhs, x, tol);
    if (!Number.isFinite(rep.residual)) stepFailure.nonFinite(this, rhs);
    // a loose solve (tol given) sits inside an iteration that checks its own convergence
    if (tol === undefined) {
      if (rep.residual > this.maxResidual) this.maxResidual = rep.residual;
      if (!rep.converged) this.unconverged++;
    }
    return rep;
  }

  /**
   * With `geometricStiffness` on: K += ∂(Gᵀλ)/∂q at the previous step's λ (theory.md §12) of every
   * constraint that supplies it (distance constraints: an axial spring of tension −λ; joints:
   * their translational rows, constraints/geometricStiffness.ts)
   */
  addGeometricStiffness(q: Float64Array, u: Float64Array): boolean {
    if (this.geometric.length === 0) return false;
    const ctx = this.fs.bind(q, u), rowStart = this.model.rowStart;
    for (let i = 0; i < this.geometric.length; i++) this.geometricTerms[i]!.add(ctx, this.cs.lambda, rowStart[this.geometric[i]!]!, this.fs.K, this.fs.D, this.stiffnessScratch);
    return true;
  }

  /**
   * Stage 5: evaluates the constraints at (q, u) and sets their rows for a step h. At the
   * acceleration level compliant rows become forces added to `fc` (KKT layout).
   */
  constraints(q: Float64Array, u: Float64Array, h: number, level: 'velocity' | 'acceleration', fc: Float64Array | null = null): void {
    if (this.model.nRows === 0) return;
    const ctx = this.fs.bind(q, u);
    // κ enters the velocity-level rows under Baumgarte only (the 'first' targets of the other methods have none)
    const bias = level === 'acceleration' || this.cs.stabilization.method === 'baumgarte';
    this.cs.evaluate(ctx, this.Gm, level === 'acceleration', fc, bias);
    // first-order velocity steps take G u⁺ = 0 (no derivative term): measured on the falling
    // 100-link chain, the extrapolation −hκ from q_k fed energy into the whip until it diverged
    this.cs.rows(this.Gm, h, this.redundancy.R, level === 'velocity' ? 'first' : 'acceleration', this.cs.g);
  }

  /**
   * Stage 5 for the second-order schemes: the constraints evaluated at the predicted midpoint
   * q ⊕ (h/2) u, so that the impulse acts along the step's mean constraint direction; the
   * hard rows then ask G_mid u⁺ = −(h/2) κ (≈ G(q⁺) u⁺ = 0). With G at q_k the trapezoidal rule
   * and Bridson-Marino drop to first order on curved constraints (the period of a 90° pendulum
   * was 1% long at h = 1 ms).
   */
  constraintsAtMidpoint(q: Float64Array, u: Float64Array, h: number, scheme: 'second' | 'half'): void {
    if (this.model.nRows === 0) return;
    // g at q_k for the compliant rows' and Baumgarte's or SPOOK's targets (hard rows under the
    // projection do not read it), then everything else at the midpoint. The kinematics are left
    // at the midpoint: every later evaluation binds its own positions first.
    if (this.cs.hasCompliantRows || this.cs.stabilization.method !== 'projection') this.cs.violation(this.fs.bind(q, u), this.cs.gK);
    this.qMid.set(q);
    this.advance(this.qMid, u, 0.5 * h);
    const ctx = this.fs.bind(this.qMid, u);
    this.cs.evaluate(ctx, this.Gm, scheme === 'half', null);
    this.cs.rows(this.Gm, h, this.redundancy.R, scheme, this.cs.gK);
  }

  /**
   * fc += Gᵀλ of the compliant rows at (q, u), λ = −(g + βġ)/α: compliance applied as the spring
   * it is, explicit in position (Bridson-Marino, which uses no position Jacobian, theory.md §5).
   * Overwrites the constraint stage's g, G u and κ (not the targets).
   */
  compliantForces(q: Float64Array, u: Float64Array, fc: Float64Array): void {
    if (!this.cs.hasCompliantRows) return;
    this.cs.evaluate(this.fs.bind(q, u), this.Gm, true, fc);
  }

  /** the constraint part of a KKT right-hand side: c − G u (velocity increments) or c (accelerations) */
  constraintRhs(rhs: Float64Array, level: 'velocity' | 'acceleration'): void {
    const n = this.model.nSolve, cs = this.cs;
    for (let i = 0; i < cs.m; i++) rhs[n + i] = level === 'velocity' ? cs.target[i]! - cs.Gu[i]! : cs.target[i]!;
  }

  /**
   * λ ← w·λ + s·(−μ) from a KKT solution x (μ = −λ̃; s = 1/h for impulses, 1 for forces). At the
   * acceleration level compliant rows are forces: their λ comes from `lambdaForce`.
   */
  storeLambda(x: Float64Array, s: number, w = 0, accel = false): void {
    const n = this.model.nSolve, cs = this.cs, lam = cs.lambda;
    for (let i = 0; i < lam.length; i++) lam[i] = w * lam[i]! + (accel && !cs.hard[i] ? s * cs.lambdaForce[i]! : -s * x[n + i]!);
  }

  /** out (solve layout) ← v (velocity layout) */
  gather(out: Float64Array, v: Float64Array): Float64Array {
    const m = this.model, U = this.blockU;
    for (let b = 0; b < U.length; b++) {
      const o = U[b]!, s = m.blockStart[b]!, n = m.blockSize[b]!;
      for (let k = 0; k < n; k++) out[s + k] = v[o + k]!;
    }
    return out;
  }

  /** v (velocity layout) += s · x (solve layout) */
  scatterAdd(v: Float64Array, x: Float64Array, s: number): void {
    const m = this.model, U = this.blockU;
    for (let b = 0; b < U.length; b++) {
      const o = U[b]!, st = m.blockStart[b]!, n = m.blockSize[b]!;
      for (let k = 0; k < n; k++) v[o + k] = v[o + k]! + s * x[st + k]!;
    }
  }

  /** out = K x or M x (KKT layout) */
  mulK(out: Float64Array, x: Float64Array): void {
    const J = this.fs.jacobianLayout;
    columnsMultiply(out, this.fs.K.values, J.colPtr, this.jacobianEnds, J.rowIdx, x, this.model.nSolve);
  }
  /** out = D x (KKT layout) */
  mulD(out: Float64Array, x: Float64Array): void {
    const J = this.fs.jacobianLayout;
    columnsMultiply(out, this.fs.D.values, J.colPtr, this.jacobianEnds, J.rowIdx, x, this.model.nSolve);
  }
  mulM(out: Float64Array, x: Float64Array): void {
    const L = this.fs.layout;
    columnsMultiply(out, this.M.values, L.colPtr, this.fs.split, L.rowIdx, x, this.model.nSolve);
  }

  /** q ← q ⊕ δ for a KKT-layout displacement δ of the dynamic components (translations, world rotation vectors) */
  displace(q: Float64Array, d: Float64Array): void { this.advancer.displace(q, d); }

  /** stage 8: q ← q ⊕ h u for every component (step/advance.ts) */
  advance(q: Float64Array, u: Float64Array, h: number): void { this.advancer.advance(q, u, h); }

  /** the potential energy at (q, u): the forces' (gravity, springs) and the compliant rows' */
  potentialEnergy(q: Float64Array, u: Float64Array): number {
    let V = this.fs.potentialEnergy(q, u);
    if (this.cs.hasCompliantRows) {
      const g = (this.gEnergy ??= new Float64Array(this.model.nRows));
      this.cs.violation(this.fs.bind(q, u), g);
      V += this.cs.compliantEnergy(g);
    }
    return V;
  }

  /** (m) scratch of potentialEnergy, made on its first use */
  private gEnergy: Float64Array | null = null;

  /** kinetic energy ½ uᵀ M(q) u = Σ ½ m |v_com|² + ½ ωᵀ J_W ω */
  kineticEnergy(q: Float64Array, u: Float64Array): number {
    const kin = this.fs.kin;
    kin.update(q);
    let T = 0;
    const J = kin.JW;
    const comps = this.model.components;
    for (let k = 0; k < comps.length; k++) {
      const c = comps[k]!;
      const o = c.uOffset;
      if (c.kind === 'particle') { T += 0.5 * c.mass * (u[o]! ** 2 + u[o + 1]! ** 2 + u[o + 2]! ** 2); continue; }
      const i = c.index, cx = kin.cW[3 * i]!, cy = kin.cW[3 * i + 1]!, cz = kin.cW[3 * i + 2]!;
      const wx = u[o + 3]!, wy = u[o + 4]!, wz = u[o + 5]!;
      const vx = u[o]! + wy * cz - wz * cy, vy = u[o + 1]! + wz * cx - wx * cz, vz = u[o + 2]! + wx * cy - wy * cx;
      const j = 9 * i;
      const Jwx = J[j]! * wx + J[j + 1]! * wy + J[j + 2]! * wz;
      const Jwy = J[j + 3]! * wx + J[j + 4]! * wy + J[j + 5]! * wz;
      const Jwz = J[j + 6]! * wx + J[j + 7]! * wy + J[j + 8]! * wz;
      T += 0.5 * c.mass * (vx * vx + vy * vy + vz * vz) + 0.5 * (wx * Jwx + wy * Jwy + wz * Jwz);
    }
    return T;
  }
}
