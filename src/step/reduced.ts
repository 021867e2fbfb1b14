/**
 * The unilateral rows' matrix through the step's factorization (000 §0.7, §0.8; theory.md §15).
 *
 * The velocity solve with rows N (contacts, limits, motors) on top of the bilateral KKT system
 * A = [[M̂, Gᵀ], [G, −R]] is
 *
 *   A [Δu; μ] = [r + Nᵀz; c],   w = N u⁺ + b = N (u + Δu) + b.
 *
 * With x₀ = A⁻¹[r; c] (the step without the rows) and N̄ = [N, 0], w = W z + q for
 *
 *   W = N̄ A⁻¹ N̄ᵀ,   q = N (u + Δu₀) + b,
 *
 * the mixed LCP reduced to the rows' variables; the bilateral rows are eliminated by the
 * factorization the step already has. Column j of W costs one solve with those factors
 * (column j = N̄ A⁻¹ N̄ᵀ e_j), so the solvers ask only for the columns they need (§0.8) and each
 * is computed once per step. A compliant row adds its γα/h² to W's diagonal (eq. 0.10).
 *
 * A non-symmetric step matrix (the rigid-body Jacobians of theory.md §13) makes W non-symmetric:
 * the columns are still exact (the step's own solve with A), and step/solve.ts hands `pivoting`
 * the symmetric part of W, then polishes on W itself. The symmetric part S of A is no substitute
 * for A here: for a thin body turning at h|ω|(J_t − J_a) > J_a it is indefinite.
 */
import type { LcpMatrix } from '../solvers/lcp/types.js';
import type { UnilateralRows } from '../contact/rows.js';
import type { Workspace } from './workspace.js';

export class ReducedMatrix implements LcpMatrix {
  n = 0;
  private rows: UnilateralRows | null = null;
  /** (n·n) computed columns, column-major, allocated only when a solver asks for a column */
  private cols = new Float64Array(0);
  /** (n) 1 once column j is computed this step */
  private have = new Uint8Array(0);
  /** the distance between two columns in `cols`: this step's n */
  private stride = 0;
  private readonly rhs: Float64Array;   // (nKkt) N̄ᵀ e_j
  private readonly y: Float64Array;     // (nKkt) A⁻¹ N̄ᵀ e_j
  /** (ncomp) each component's offset in the solve layout, −1 when it has no block */
  readonly solveOffset: Int32Array;
  private readonly body: Uint8Array;
  /** columns computed this step (solves with the factorization) */
  columnsComputed = 0;

  constructor(private readonly ws: Workspace) {
    const m = ws.model;
    this.rhs = new Float64Array(m.nKkt);
    this.y = new Float64Array(m.nKkt);
    this.solveOffset = new Int32Array(m.components.length).fill(-1);
    m.blockComponent.forEach((c, b) => { this.solveOffset[c] = m.blockStart[b]!; });
    this.body = Uint8Array.from(m.components, (c) => (c.kind === 'body' ? 1 : 0));
  }

  /** starts a step with these rows (after the factorization): forgets last step's columns */
  reset(rows: UnilateralRows): void {
    this.rows = rows;
    this.n = rows.count;
    this.stride = this.n;
    if (this.have.length < this.n) this.have = new Uint8Array(Math.max(this.n, 2 * this.have.length));
    this.have.fill(0, 0, this.n);
    this.columnsComputed = 0;
  }

  /** room for the columns of this step, made at the first column asked for (n·n numbers) */
  private reserveColumns(): void {
    const need = this.stride * this.stride;
    if (this.cols.length < need) this.cols = new Float64Array(Math.max(need, 2 * this.cols.length));
  }

  column(j: number, out: Float64Array): void {
    const n = this.n, at = j * this.stride;
    if (!this.have[j]) this.compute(j, at);
    const cols = this.cols;
    for (let i = 0; i < n; i++) out[i] = cols[at + i]!;
  }

  diagonal(j: number): number {
    const at = j * this.stride;
    if (!this.have[j]) this.compute(j, at);
    return this.cols[at + j]!;
  }

  /** cols[at …] ← column j: one solve with the step's factors, then N times its velocity part */
  private compute(j: number, at: number): void {
    if (this.columnsComputed === 0) this.reserveColumns();
    const rows = this.rows!, rhs = this.rhs, y = this.y, out = this.cols;
    rhs.fill(0);
    this.scatterRow(rhs, j, 1);
    this.ws.solveWith(rhs, y);
    for (let i = 0; i < this.n; i++) out[at + i] = this.rowDot(i, y);
    out[at + j] = out[at + j]! + rows.reg[j]!;
    this.have[j] = 1;
    this.columnsComputed++;
  }

  /** out (solve layout) += s · J_jᵀ (the row's generalized impulse per unit z) */
  scatterRow(out: Float64Array, j: number, s: number): void {
    const rows = this.rows!;
    this.scatterSide(out, rows.J, 12 * j, rows.compA[j]!, s);
    this.scatterSide(out, rows.J, 12 * j + 6, rows.compB[j]!, s);
  }

  private scatterSide(out: Float64Array, J: Float64Array, at: number, c: number, s: number): void {
    if (c < 0) return;
    const o = this.solveOffset[c]!;
    if (o < 0) return;
    const w = this.body[c] ? 6 : 3;
    for (let k = 0; k < w; k++) out[o + k] = out[o + k]! + s * J[at + k]!;
  }

  /** J_i · y over the solve layout */
  rowDot(i: number, y: Float64Array): number {
    const rows = this.rows!;
    return this.sideDot(rows.J, 12 * i, rows.compA[i]!, y) + this.sideDot(rows.J, 12 * i + 6, rows.compB[i]!, y);
  }

  private sideDot(J: Float64Array, at: number, c: number, y: Float64Array): number {
    if (c < 0) return 0;
    const o = this.solveOffset[c]!;
    if (o < 0) return 0;
    const w = this.body[c] ? 6 : 3;
    let s = 0;
    for (let k = 0; k < w; k++) s += J[at + k]! * y[o + k]!;
    return s;
  }
}
