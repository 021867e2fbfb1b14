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
 * impulses. The impulses stay in `rows.z` for the report (forces z/h) and the next step's warm start.
 */
import type { Workspace } from './workspace.js';
import type { UnilateralRows } from '../contact/rows.js';
import { ReducedMatrix } from './reduced.js';
import type { LcpReport } from '../solvers/lcp/types.js';
import { BoxLcpPivoting } from '../solvers/lcp/pivoting.js';
import { boxPgs } from '../solvers/lcp/pgs.js';

/** the complementarity solvers of the model's `contact.solver` */
export type ContactSolverName = 'pivoting' | 'lemke' | 'pgs';

/** what the last velocity solve with rows did */
export interface ContactSolveReport extends LcpReport {
  /** the solver that ran */
  solver: ContactSolverName;
  /** rows in the LCP */
  rows: number;
  /** columns of W computed through the factorization */
  columns: number;
}

/** the settings of the contact solvers (the model's `contact` entry) */
export interface ContactSolverSettings {
  readonly solver: ContactSolverName;
  /** Gauss-Seidel sweeps at most */
  readonly iterations: number;
  /** Gauss-Seidel stops when the largest impulse change is below this fraction of the largest impulse */
  readonly tolerance: number;
}

export class VelocitySolve {
  readonly W: ReducedMatrix;
  private q = new Float64Array(0);
  private lo = new Float64Array(0);
  private hi = new Float64Array(0);
  private readonly uFree: Float64Array;   // (nu)
  private readonly rhs: Float64Array;     // (nKkt)
  private readonly y: Float64Array;       // (nKkt)
  private readonly pivoting = new BoxLcpPivoting(16);
  /** the last solve with rows, or null when the last solve had none */
  report: ContactSolveReport | null = null;

  constructor(private readonly ws: Workspace, private readonly settings: ContactSolverSettings) {
    this.W = new ReducedMatrix(ws);
    this.uFree = new Float64Array(ws.model.nu);
    this.rhs = new Float64Array(ws.model.nKkt);
    this.y = new Float64Array(ws.model.nKkt);
  }

  /** x ← [Δu; μ] of the step with the rows (u: the velocity Δu adds to) */
  solve(rows: UnilateralRows, rhs: Float64Array, x: Float64Array, u: Float64Array): void {
    const ws = this.ws;
    ws.solveWith(rhs, x);
    if (rows.count === 0) { this.report = null; return; }
    // the reduced LCP: W through the factors, q = N u_free + b
    const n = rows.count;
    this.W.reset(rows);
    this.ensure(n);
    this.uFree.set(u);
    ws.scatterAdd(this.uFree, x, 1);
    for (let i = 0; i < n; i++) {
      this.q[i] = rows.rowVelocity(i, this.uFree, ws.uOffsets, ws.bodyFlags) + rows.b[i]!;
      this.lo[i] = rows.lo[i]!; this.hi[i] = rows.hi[i]!;
    }
    const rep = this.complementarity(rows);
    this.report = { ...rep, solver: this.settings.solver, rows: n, columns: this.W.columnsComputed };
    // x += A⁻¹ [Nᵀz; 0]
    this.rhs.fill(0);
    for (let j = 0; j < n; j++) if (rows.z[j] !== 0) this.W.scatterRow(this.rhs, j, rows.z[j]!);
    ws.solveWith(this.rhs, this.y);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + this.y[i]!;
  }

  /** z ← the solution of w = W z + q in the rows' boxes, by the model's solver */
  private complementarity(rows: UnilateralRows): LcpReport {
    const n = rows.count, friction = { normalOf: rows.normalOf.subarray(0, n), mu: rows.mu.subarray(0, n) };
    const q = this.q.subarray(0, n), lo = this.lo.subarray(0, n), hi = this.hi.subarray(0, n), z = rows.z.subarray(0, n);
    if (this.settings.solver === 'pgs') {
      return boxPgs(this.W, q, lo, hi, friction, z, { maxIterations: this.settings.iterations, tolerance: this.settings.tolerance });
    }
    return this.pivoting.solve(this.W, q, lo, hi, friction, z);
  }

  private ensure(n: number): void {
    if (this.q.length >= n) return;
    const cap = Math.max(n, 2 * this.q.length);
    this.q = new Float64Array(cap); this.lo = new Float64Array(cap); this.hi = new Float64Array(cap);
  }
}
