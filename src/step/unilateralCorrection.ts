/**
 * Stage 9, after the projection: the one-sided rows (contact normals, limits) again on the final
 * velocity (theory.md §15).
 *
 * The velocity projection of the bilateral joints (step/stabilize.ts) makes G(q⁺) u = 0 at the
 * new positions without seeing the unilateral rows, and on a chain it turns the links by up to
 * 0.5 rad/s after the step's solve: a limit that the solve held is pushed past, a little more each
 * step. So the rows with w = J u + b < 0 after the projection, and those whose impulse was active,
 * take a correction δu = A_p⁻¹ [Nᵀz₂; 0] in the projection's last factorization A_p (its metric,
 * and its G: at the final positions, or at the positions of its last refactorization, where the
 * joints keep G δu = 0 to first order): the LCP w₂ = W₂ z₂ + (N u + b + reg z),
 * W₂ = N̄ A_p⁻¹ N̄ᵀ, z₂ ≥ 0, by pivoting. Friction and motor rows are left as the step's solve
 * made them. Nothing runs without bilateral hard rows under the projection, or without a violated row.
 */
import type { Workspace } from './workspace.js';
import { UnilateralRows, ROW_NORMAL, ROW_LIMIT } from '../contact/rows.js';
import { ReducedMatrix } from './reduced.js';
import { BoxLcpPivoting } from '../solvers/lcp/pivoting.js';

/** a row violated by less than this (m/s or rad/s) after the projection is left alone */
const VIOLATION_TOL = 1e-10;

export class UnilateralCorrection {
  private readonly sub = new UnilateralRows();
  private readonly W: ReducedMatrix;
  private readonly pivoting = new BoxLcpPivoting(16);
  private from = new Int32Array(16);       // (sub rows) the step's row each came from
  private q = new Float64Array(16);
  private lo = new Float64Array(16);
  private hi = new Float64Array(16);
  private readonly rhs: Float64Array;       // (nKkt)
  private readonly y: Float64Array;         // (nKkt)
  /** corrections made (steps with a violated row after the projection) */
  corrections = 0;

  constructor(private readonly ws: Workspace) {
    this.W = new ReducedMatrix(ws);
    this.rhs = new Float64Array(ws.model.nKkt);
    this.y = new Float64Array(ws.model.nKkt);
  }

  /** true when the projection runs on this model (hard bilateral rows under 'projection') */
  static applies(ws: Workspace): boolean {
    return ws.model.nRows > 0 && ws.cs.hasHardRows && ws.cs.stabilization.method === 'projection';
  }

  /** u ← u + δu keeping the one-sided rows of `rows` after the projection; their impulses add to rows.z */
  run(rows: UnilateralRows, u: Float64Array): void {
    if (!this.select(rows, u)) return;
    const n = this.sub.count, ws = this.ws;
    this.W.reset(this.sub);
    this.sub.z.fill(0, 0, n);
    this.lo.fill(0, 0, n);
    this.hi.fill(Infinity, 0, n);
    this.pivoting.solve(this.W, this.q, this.lo, this.hi, null, this.sub.z);
    // u += A_p⁻¹ [Nᵀz₂; 0], and the impulses into the step's rows
    this.rhs.fill(0);
    for (let j = 0; j < n; j++) if (this.sub.z[j] !== 0) this.W.scatterRow(this.rhs, j, this.sub.z[j]!);
    ws.solveWith(this.rhs, this.y);
    ws.scatterAdd(u, this.y, 1);
    for (let j = 0; j < n; j++) rows.z[this.from[j]!] = rows.z[this.from[j]!]! + this.sub.z[j]!;
    this.corrections++;
  }

  /**
   * sub ← the one-sided rows that are violated at u or were active in the step's solve, with
   * q = N u + b; false when none is violated
   */
  private select(rows: UnilateralRows, u: Float64Array): boolean {
    const sub = this.sub, uo = this.ws.uOffsets, body = this.ws.bodyFlags;
    let violated = false;
    sub.count = 0;
    for (let i = 0; i < rows.count; i++) {
      const k = rows.kind[i]!;
      if (k !== ROW_NORMAL && k !== ROW_LIMIT) continue;
      // eq. 0.10: a compliant row's w includes its own (γα/h²) z
      const w = rows.rowVelocity(i, u, uo, body) + rows.b[i]! + rows.reg[i]! * rows.z[i]!;
      if (w >= -VIOLATION_TOL && !(rows.z[i]! > 0)) continue;
      if (w < -VIOLATION_TOL) violated = true;
      this.add(rows, i, w);
    }
    return violated;
  }

  /** copies row i into the subset, with its slack w */
  private add(rows: UnilateralRows, i: number, w: number): void {
    const sub = this.sub, j = sub.add(rows.kind[i]!, rows.compA[i]!, rows.compB[i]!, rows.b[i]!, 0, Infinity, rows.owner[i]!);
    for (let e = 0; e < 12; e++) sub.J[12 * j + e] = rows.J[12 * i + e]!;
    sub.reg[j] = rows.reg[i]!;
    if (this.from.length <= j) this.grow(2 * (j + 1));
    this.from[j] = i; this.q[j] = w;
  }

  private grow(cap: number): void {
    const f = new Int32Array(cap); f.set(this.from); this.from = f;
    const q = new Float64Array(cap); q.set(this.q); this.q = q;
    this.lo = new Float64Array(cap); this.hi = new Float64Array(cap);
  }
}
