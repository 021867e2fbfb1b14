/**
 * Redundant constraint rows, regularized per row and re-examined at every factorization
 * (theory.md §6: GM̂⁻¹Gᵀ singular; 002: a singular W is normal, a box on a plane has four contacts
 * on six degrees of freedom).
 *
 * Finding: a hard row whose pivot vanishes (at most 1e-9 of the median constraint pivot, or a
 * failed factorization) belongs to a dependency y of the rows, Gᵀy = 0. To find its rows every
 * hard row gets R = 1e-8 × that median for one factorization: then the KKT system
 * [[M̂, Gᵀ], [G, −R]] with a unit right-hand side at a redundant row w has the multipliers
 * μ = −(GM̂⁻¹Gᵀ + R)⁻¹ e_w, whose part along the dependency is amplified by 1/R (about 1e8 times
 * the typical pivot's inverse), elsewhere O(1). So the hard rows with a visible share of μ (above
 * 1e-3 of its largest entry) are the rows of w's dependency: both hinges of a doubled hinge, every
 * hinge of a four-bar loop, not a pendulum hung from it. The redundant rows (the witnesses) are
 * those whose regularized pivot is about R (a failed factorization shows only the first of
 * them); each gets one solve, and dependencies that share a row form one group. Then R stays on
 * the groups' rows only (every other hard row back to 0) and the matrix is factored again. The
 * groups are derived anew whenever a new redundant hard row appears.
 *
 * Releasing: along an exact dependency a witness's regularized pivot is about R |y|²/y_w²,
 * whatever M̂; when the configuration leaves the singular one the row's own Schur complement s
 * grows and the pivot becomes about s plus that. A group whose every witness pivot exceeds
 * RELEASE_RATIO = 1e3 times its value when the group was regularized has lost its dependency: R is
 * then under 1e-3 of those pivots, and without R they stay above about 1e-5 of the median pivot,
 * four decades above the 1e-9 that finds redundancy, so a released group is found again only if
 * the configuration moves back toward the singular one. Its rows lose R, and the caller factors
 * again in the same step.
 *
 * The state (per row: R, group, the witnesses' reference pivots) is carried by checkpoints.
 */
import type { StepSolver } from '../solvers/stepSolver.js';
import type { ConstraintSystem } from '../assembly/constraintSystem.js';

/** unregularized constraint pivots up to this multiple of the median are redundant rows */
export const REDUNDANT_PIVOT = 1e-9;
/** the regularization R of a redundant row, as a multiple of the median constraint pivot */
export const REGULARIZATION = 1e-8;
/** a group keeps R while one of its witness pivots is at most this multiple of its regularized value */
export const RELEASE_RATIO = 1e3;
/** a row's share of the multipliers, relative to the largest, above which it is in the dependency */
const DEPENDENCY_SHARE = 1e-3;
/** regularized pivots up to this multiple of the median constraint pivot are redundant rows (R is 1e-8 of it) */
const REGULARIZED_PIVOT = 1e-6;
/** the largest multiplier times R at or above which a solve shows the 1/R of a dependency (elsewhere about 1e-8) */
const DEPENDENCY_SIGNATURE = 1e-3;

/** the rows marked as witnesses in `ref` */
function witnessRows(ref: Float64Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < ref.length; i++) if (ref[i]! > 0) out.push(i);
  return out;
}

export class Redundancy {
  /** (m) each row's R: > 0 on the hard rows of a current dependency, 0 on every other row */
  readonly R: Float64Array;
  /** the R given at the last regularization (the warning reports it; 0 while none was found) */
  last = 0;
  private readonly group: Int32Array;  // (m) 1 + the label of a regularized row's group, 0 for the others
  private readonly ref: Float64Array;  // (m) a witness row's |pivot| once its group is regularized, 0 for the others
  private readonly alive: Uint8Array;  // (m) scratch of `release`: the groups whose dependency holds, by label
  private regularized = 0;             // rows with R > 0
  private readonly small: number[] = [];
  private b: Float64Array | null = null;   // (nKkt) a right-hand side, made at the first use
  private x: Float64Array | null = null;   // (nKkt) its solution

  constructor(private readonly n: number, private readonly cs: ConstraintSystem) {
    const m = cs.m;
    this.R = new Float64Array(m);
    this.group = new Int32Array(m);
    this.ref = new Float64Array(m);
    this.alive = new Uint8Array(m);
  }

  /** true when one of the KKT indices `pivots` is a hard row */
  hasHardRow(pivots: readonly number[]): boolean {
    for (let t = 0; t < pivots.length; t++) if (this.cs.hard[pivots[t]! - this.n] === 1) return true;
    return false;
  }

  /**
   * After a successful factorization: the groups whose dependency has gone (every witness pivot
   * above RELEASE_RATIO times its regularized value) lose their R, in the −R diagonals of `P`;
   * true when one did (the caller factors again)
   */
  release(solver: StepSolver, P: Float64Array): boolean {
    if (this.regularized === 0 || solver.failedAt >= 0) return false;
    const { n, ref, group, alive } = this, m = ref.length;
    alive.fill(0);
    for (let i = 0; i < m; i++) if (ref[i]! > 0 && Math.abs(solver.pivotOf(n + i)) <= RELEASE_RATIO * ref[i]!) alive[group[i]! - 1] = 1;
    let released = false;
    for (let i = 0; i < m; i++) {
      const label = group[i]!;
      if (label === 0 || alive[label - 1] === 1) continue;
      this.set(P, i, 0);
      group[i] = 0; ref[i] = 0;
      released = true;
    }
    return released;
  }

  /**
   * After a factorization with redundant hard rows (`pivots`: KKT indices of its failed and small
   * pivots): gives the rows of their dependencies R = reg (every other hard row 0) in the −R
   * diagonals of `P`, factoring with `refactor`; `rows` += the constraint rows to name (the pivot
   * rows and every row of a group). Returns the last factorization's inertia message.
   */
  regularize(solver: StepSolver, P: Float64Array, pivots: readonly number[], reg: number, refactor: () => string | null, scratch: Float64Array, rows: Set<number>): string | null {
    const { n, cs, group, ref } = this, hard = cs.hard, m = hard.length;
    for (const k of pivots) rows.add(k - n);
    this.last = reg;
    // every hard row regularized, so that the multipliers show each dependency
    for (let i = 0; i < m; i++) if (hard[i] === 1) this.set(P, i, reg);
    group.fill(0); ref.fill(0);
    let msg = refactor();
    const hardPivots = pivots.filter((k) => hard[k - n] === 1).map((k) => k - n);
    if (solver.failedAt >= 0) { this.keepAll(P, hardPivots, reg); return msg; }
    // the witnesses: the hard pivot rows, and the hard rows whose regularized pivot is about R
    solver.smallPivots(n, REGULARIZED_PIVOT, this.small, scratch);
    const witnesses = [...new Set([...pivots, ...this.small])].filter((k) => hard[k - n] === 1).sort((a, b) => a - b);
    for (const k of witnesses) {
      const found = this.dependency(solver, k, reg);
      // a pivot row without a dependency signature keeps R alone; a small regularized pivot is then no witness
      if (found.length === 0 && !pivots.includes(k)) continue;
      this.join(found, k - n);
      for (const i of found) rows.add(i);
    }
    // R on the groups' rows only
    for (let i = 0; i < m; i++) if (hard[i] === 1) this.set(P, i, group[i] !== 0 ? reg : 0);
    msg = refactor();
    if (solver.failedAt >= 0) {
      // a dependency the shares missed: every hard row keeps R, as one group
      this.keepAll(P, [...hardPivots, ...witnessRows(ref)], reg);
      msg = refactor();
      if (solver.failedAt >= 0) return msg;
    }
    // each witness's reference: its regularized pivot
    for (let i = 0; i < m; i++) if (ref[i]! > 0) ref[i] = Math.abs(solver.pivotOf(n + i));
    return msg;
  }

  /** out += the constraints of the constraint rows `rows`, in row order; true when one is new */
  name(rows: Iterable<number>, out: Set<string>): boolean {
    const before = out.size, cs = this.cs;
    for (const i of [...rows].sort((a, b) => a - b)) out.add(cs.model.constraints[cs.rowOwner(i).constraint]!.name);
    return out.size > before;
  }

  /** the row's R ← r, in the constraint system's R and the −R diagonal of `P` (the next factorization's) */
  private set(P: Float64Array, i: number, r: number): void {
    const old = this.R[i]!;
    if (old === r) return;
    const cs = this.cs, base = cs.R[i]! - old;
    cs.R[i] = base + r;
    P[cs.rowDiagonals[i]!] = -cs.R[i]!;
    this.R[i] = r;
    this.regularized += (r > 0 ? 1 : 0) - (old > 0 ? 1 : 0);
  }

  /** witness row w (ref marks it) and the rows `found` into one group, merging the groups they touch */
  private join(found: readonly number[], w: number): void {
    const group = this.group, label = group[w]! !== 0 ? group[w]! : 1 + w;
    const relabel = (from: number): void => { for (let i = 0; i < group.length; i++) if (group[i] === from) group[i] = label; };
    group[w] = label;
    this.ref[w] = 1;
    for (const i of found) {
      const g = group[i]!;
      if (g !== 0 && g !== label) relabel(g);
      group[i] = label;
    }
  }

  /**
   * after a failed factorization: every hard row gets R = reg as one group with the hard rows
   * `witnesses`, whose reference is R itself until a factorization gives their pivots; without a
   * witness no row keeps R (the failure is not a redundancy)
   */
  private keepAll(P: Float64Array, witnesses: readonly number[], reg: number): void {
    const { group, ref } = this, hard = this.cs.hard, label = witnesses.length > 0 ? 1 + witnesses[0]! : 0;
    group.fill(0); ref.fill(0);
    for (let i = 0; i < hard.length; i++) if (hard[i] === 1) { this.set(P, i, label > 0 ? reg : 0); group[i] = label; }
    for (const w of witnesses) ref[w] = reg;
  }

  /** the hard rows with a share of μ for a right-hand side at KKT index k, with k's row; none when the solve shows no dependency */
  private dependency(solver: StepSolver, k: number, reg: number): number[] {
    const { n } = this, hard = this.cs.hard, m = hard.length;
    const b = (this.b ??= new Float64Array(n + m)), x = (this.x ??= new Float64Array(n + m));
    b.fill(0);
    b[k] = 1;
    if (!solver.solveDirect(b, x)) return [];
    let big = 0;
    for (let i = 0; i < m; i++) { const a = Math.abs(x[n + i]!); if (hard[i] === 1 && a > big) big = a; }
    // no 1/R in the answer: nothing depends on this row
    if (!(big * reg >= DEPENDENCY_SIGNATURE)) return [];
    const found: number[] = [k - n];
    for (let i = 0; i < m; i++) if (hard[i] === 1 && i !== k - n && Math.abs(x[n + i]!) > DEPENDENCY_SHARE * big) found.push(i);
    return found;
  }

  /** (3m + 1) the carried state: R, the groups, the witnesses' references, the last R */
  static carriedLength(m: number): number { return 3 * m + 1; }

  /** out[o …] ← the state a checkpoint carries (carriedLength) */
  save(out: Float64Array, o: number): void {
    const m = this.R.length;
    out.set(this.R, o);
    for (let i = 0; i < m; i++) out[o + m + i] = this.group[i]!;
    out.set(this.ref, o + 2 * m);
    out[o + 3 * m] = this.last;
  }

  /** the state ← src[o …] (as `save` wrote it); the rows write R into the matrix at the next step */
  load(src: Float64Array, o: number): void {
    const m = this.R.length;
    this.R.set(src.subarray(o, o + m));
    for (let i = 0; i < m; i++) this.group[i] = src[o + m + i]!;
    this.ref.set(src.subarray(o + 2 * m, o + 3 * m));
    this.last = src[o + 3 * m]!;
    this.regularized = 0;
    for (let i = 0; i < m; i++) if (this.R[i]! > 0) this.regularized++;
  }
}
