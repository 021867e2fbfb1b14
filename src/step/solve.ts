/**
 * Stage 7, solve: the one velocity solve every integrator calls (theory.md §15).
 *
 * Given the factored step matrix A = [[M̂, Gᵀ], [G, −R]], the right-hand side [r; c] and this
 * step's unilateral and bounded rows N (contacts, friction, limits, motors; contact/rows.ts),
 * it returns x = [Δu; μ] with
 *
 *   A x = [r + Nᵀz; c],   w = N (u + Δu) + b,   z, w complementary within their boxes.
 *
 * Without rows it is the bilateral solve alone, bit for bit. With rows: x₀ = A⁻¹[r; c], the
 * reduced LCP w = W z + q of step/reduced.ts (W = N̄A⁻¹N̄ᵀ, q = N(u + Δu₀) + b) solved by the
 * model's contact solver, then x = x₀ + A⁻¹[Nᵀz; 0], so the bilateral impulses see the contact
 * impulses. Under `pgs` with a block-diagonal step matrix (no joints, no coupling forces) W never
 * goes through the factorization (step/contactPgs.ts). The impulses stay in `rows.z` for the
 * report (forces z/h) and the next step's warm start.
 */
import type { Workspace } from './workspace.js';
import { ROW_NORMAL, ROW_FRICTION, type UnilateralRows } from '../contact/rows.js';
import type { ContactSet } from '../contact/contactSet.js';
import { ReducedMatrix } from './reduced.js';
import { BlockDiagonalPgs } from './contactPgs.js';
import { LemkeStep } from './lemkeStep.js';
import { DenseLcpMatrix, type LcpMatrix, type LcpReport } from '../solvers/lcp/types.js';
import { BoxLcpPivoting } from '../solvers/lcp/pivoting.js';
import type { BoxFriction } from '../solvers/lcp/frictionBounds.js';
import { boxPgs } from '../solvers/lcp/pgs.js';
import type { ContactSettings } from '../model/contactModel.js';

/** the complementarity solvers of the model's `contact.solver` ('auto' resolved) */
export type ContactSolverName = 'pivoting' | 'lemke' | 'pgs';

/**
 * 'auto' takes `pgs` above this many rows when the rows are contacts on a block-diagonal step
 * matrix (no joints or coupling forces: PGS then needs no solve with the factorization), and
 * `pivoting` otherwise (docs/contact.md, "Solvers"; the pivoting scaling of docs/benchmarks.md)
 */
export const AUTO_PIVOTING_ROWS = 60;

/**
 * Gauss-Seidel sweeps that polish pivoting's answer on a non-symmetric W (pivoting solves its
 * symmetric part): the skew part of a spinning body's W is small against its diagonal, so a few
 * sweeps bring the complementarity residual of W itself to rounding level
 */
export const POLISH_SWEEPS = 30;

/** the complementarity residual (relative to the impulses) of an exact solve: pivoting's target */
export const SOLVED_RESIDUAL = 1e-10;

const POLISH = { maxIterations: POLISH_SWEEPS, tolerance: 1e-14 };

/** what the last velocity solve with rows did */
export interface ContactSolveReport extends LcpReport {
  /** the solver that ran */
  solver: ContactSolverName;
  /** rows in the LCP */
  rows: number;
  /** columns of W computed through the factorization */
  columns: number;
}

/** this step's contacts as the solve needs them (the stepper's) */
export interface StepContacts {
  readonly contacts: ContactSet;
  /** (contacts) each contact's normal row */
  readonly normalRow: Int32Array;
  /** (3·contacts) last step's impulses of the same contacts */
  readonly warm: Float64Array;
  /** (nq) the positions the rows were made at */
  readonly q: Float64Array;
}

export class VelocitySolve {
  readonly W: ReducedMatrix;
  private q = new Float64Array(0);
  private lo = new Float64Array(0);
  private hi = new Float64Array(0);
  private sets = new Int8Array(0);
  private readonly Wsym = new DenseLcpMatrix(0, new Float64Array(0));
  // the solvers' inputs, kept between steps (no objects made per step)
  private readonly friction: { normalOf: Int32Array; mu: Float64Array } = { normalOf: new Int32Array(0), mu: new Float64Array(0) };
  private readonly pivotOptions: { initialSets: Int8Array } = { initialSets: new Int8Array(0) };
  private readonly pgsOptions: { maxIterations: number; tolerance: number };
  private col = new Float64Array(0);
  private readonly uFree: Float64Array;   // (nu)
  private readonly rhs: Float64Array;     // (nKkt)
  private readonly y: Float64Array;       // (nKkt)
  private readonly pivoting = new BoxLcpPivoting(16);
  private readonly blockPgs: BlockDiagonalPgs | null;
  private readonly lemke: LemkeStep;
  /** the last solve with rows (one object, overwritten by each solve) */
  readonly report: ContactSolveReport = {
    status: 'solved', iterations: 0, boundIterations: 0, residual: 0, solver: 'pivoting', rows: 0, columns: 0,
  };

  constructor(private readonly ws: Workspace, private readonly settings: ContactSettings, private readonly step: StepContacts) {
    this.W = new ReducedMatrix(ws);
    this.uFree = new Float64Array(ws.model.nu);
    this.rhs = new Float64Array(ws.model.nKkt);
    this.y = new Float64Array(ws.model.nKkt);
    this.blockPgs = BlockDiagonalPgs.applies(ws)
      ? new BlockDiagonalPgs(ws, settings.friction, settings.iterations, settings.tolerance, settings.erp) : null;
    this.lemke = new LemkeStep(settings.directions);
    this.pgsOptions = { maxIterations: settings.iterations, tolerance: settings.tolerance };
  }

  /** the solver for these rows */
  solverFor(rows: UnilateralRows): ContactSolverName {
    const s = this.settings.solver;
    if (s !== 'auto') return s;
    return rows.count > AUTO_PIVOTING_ROWS && this.blockPgs !== null && this.onlyContacts(rows) ? 'pgs' : 'pivoting';
  }

  /** x ← [Δu; μ] of the step with the rows (u: the velocity Δu adds to) */
  solve(rows: UnilateralRows, rhs: Float64Array, x: Float64Array, u: Float64Array): void {
    const ws = this.ws, n = rows.count, solver = this.solverFor(rows);
    ws.solveWith(rhs, x);
    // the free velocity u + Δu₀
    this.uFree.set(u);
    ws.scatterAdd(this.uFree, x, 1);
    this.W.reset(rows);
    let rep: LcpReport;
    if (solver === 'pgs' && this.blockPgs !== null && this.onlyContacts(rows)) {
      const s = this.step;
      rep = this.blockPgs.solve(s.contacts, rows, s.normalRow, s.warm, s.q, this.uFree, x);
    } else {
      rep = this.reduced(rows, solver);
      // x += A⁻¹ [Nᵀz; 0]
      this.rhs.fill(0);
      for (let j = 0; j < n; j++) if (rows.z[j] !== 0) this.W.scatterRow(this.rhs, j, rows.z[j]!);
      ws.solveWith(this.rhs, this.y);
      for (let i = 0; i < x.length; i++) x[i] = x[i]! + this.y[i]!;
    }
    const r = this.report;
    r.status = rep.status; r.iterations = rep.iterations; r.boundIterations = rep.boundIterations;
    r.residual = rep.residual; r.solver = solver; r.rows = n; r.columns = this.W.columnsComputed;
  }

  /**
   * q ← q ⊕ the position correction of the last block-diagonal `pgs` solve (split impulses,
   * step/contactPgs.ts), once; stage 9 calls it after the advance. Nothing for the other solvers.
   */
  correctPositions(q: Float64Array): void { this.blockPgs?.correctPositions(q); }

  /** z ← the solution of the reduced LCP w = W z + q in the rows' boxes */
  private reduced(rows: UnilateralRows, solver: ContactSolverName): LcpReport {
    const n = rows.count;
    this.ensure(n);
    for (let i = 0; i < n; i++) {
      this.q[i] = rows.rowVelocity(i, this.uFree, this.ws.uOffsets, this.ws.bodyFlags) + rows.b[i]!;
      this.lo[i] = rows.lo[i]!; this.hi[i] = rows.hi[i]!;
    }
    // the solvers read the first n entries (A.n): the arrays go whole, so no views are made per step
    const W: LcpMatrix = this.W, q = this.q, z = rows.z, lo = this.lo, hi = this.hi, friction = this.friction;
    friction.normalOf = rows.normalOf; friction.mu = rows.mu;
    if (solver === 'lemke') return this.lemkeOrFallback(rows);
    if (solver === 'pgs') return boxPgs(W, q, lo, hi, friction, z, this.pgsOptions);
    return this.pivot(rows, friction);
  }

  /**
   * lemke's solve when it ends with a solution (residual ≤ SOLVED_RESIDUAL); otherwise (a ray, the
   * pivot cap, a basis whose residual shows it is not a solution) the contacts take the exact
   * frictionless impulses of pivoting this step, so that nothing sinks, and the report keeps
   * lemke's status
   */
  private lemkeOrFallback(rows: UnilateralRows): LcpReport {
    const rep = this.lemke.solve(this.W, this.q, rows);
    if (rep.status === 'solved' && rep.residual <= SOLVED_RESIDUAL) return rep;
    const status = rep.status === 'solved' ? 'iteration-limit' : rep.status;
    for (let i = 0; i < rows.count; i++) {
      if (rows.kind[i] === ROW_FRICTION) { this.lo[i] = 0; this.hi[i] = 0; }
      rows.z[i] = 0;
    }
    const fallback = this.pivot(rows, null);
    fallback.status = status;
    return fallback;
  }

  /** pivoting on the reduced LCP (friction: the rows' Coulomb coupling, or null for fixed boxes) */
  private pivot(rows: UnilateralRows, friction: BoxFriction | null): LcpReport {
    const W: LcpMatrix = this.W, q = this.q, z = rows.z, lo = this.lo, hi = this.hi, n = rows.count;
    this.pivotOptions.initialSets = this.warmSets(rows);
    if (this.ws.solver.symmetric) return this.pivoting.solve(W, q, lo, hi, friction, z, this.pivotOptions);
    // a non-symmetric W (spinning bodies): pivoting on its symmetric part, polished on W itself
    this.symmetricPart(n);
    this.pivoting.solve(this.Wsym, q, lo, hi, friction, z, this.pivotOptions);
    const rep = boxPgs(W, q, lo, hi, friction, z, POLISH);
    if (rep.residual <= SOLVED_RESIDUAL) rep.status = 'solved';
    return rep;
  }

  /** Wsym ← (W + Wᵀ)/2, dense, from every column of W */
  private symmetricPart(n: number): void {
    if (this.Wsym.a.length < n * n) this.Wsym.a = new Float64Array(Math.max(n * n, 2 * this.Wsym.a.length));
    this.Wsym.n = n;
    const a = this.Wsym.a, col = this.col.length >= n ? this.col : (this.col = new Float64Array(2 * n));
    for (let j = 0; j < n; j++) {
      this.W.column(j, col);
      for (let i = 0; i < n; i++) a[i * n + j] = col[i]!;
    }
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) { const m = 0.5 * (a[i * n + j]! + a[j * n + i]!); a[i * n + j] = m; a[j * n + i] = m; }
  }

  /**
   * pivoting's starting sets from the rows' warm start (last step's impulses of the same contacts):
   * a positive normal or limit impulse starts free; a box row starts at the bound its impulse sat
   * on, free inside its box (−1 at lo, 0 free, +1 at hi)
   */
  private warmSets(rows: UnilateralRows): Int8Array {
    const n = rows.count, z = rows.z, sets = this.sets;
    for (let i = 0; i < n; i++) {
      const zi = z[i]!, j = rows.normalOf[i]!;
      const hi = j >= 0 ? rows.mu[i]! * z[j]! : rows.hi[i]!, lo = j >= 0 ? -hi : rows.lo[i]!;
      if (lo === 0 && hi === Infinity) sets[i] = zi > 0 ? 0 : -1;
      else sets[i] = !(hi > lo) || zi <= lo ? -1 : zi >= hi ? 1 : 0;
    }
    return sets;
  }

  /** true when every row is a contact row (no limits or motors) */
  private onlyContacts(rows: UnilateralRows): boolean {
    for (let i = 0; i < rows.count; i++) if (rows.kind[i] !== ROW_NORMAL && rows.kind[i] !== ROW_FRICTION) return false;
    return true;
  }

  private ensure(n: number): void {
    if (this.q.length >= n) return;
    const cap = Math.max(n, 2 * this.q.length);
    this.q = new Float64Array(cap); this.lo = new Float64Array(cap); this.hi = new Float64Array(cap);
    this.sets = new Int8Array(cap);
  }
}
