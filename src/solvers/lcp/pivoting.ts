/**
 * The `pivoting` complementarity solver: a box LCP (w = A z + q, lo ≤ z ≤ hi, the conventions of
 * types.ts) by block principal pivoting with columns of A on demand (000 §0.7, §0.8), and box
 * friction, bounds ±μθ, iterated to a fixed point (000 §0.10 with the signs of ERRATA A.1).
 * A is symmetric positive semidefinite (the engine's N̄A⁻¹N̄ᵀ), possibly singular.
 *
 * Each variable is at lo, at hi, or free (in α). The bound ones take their bound values, the free
 * ones solve A_αα z_α = −(q_α + A_α,bound z_bound), and a variable is infeasible when free outside
 * its box or bound with w of the wrong sign. Block principal pivoting (Júdice & Pires 1994)
 * switches every infeasible variable at once while their number reaches new minima. After
 * `maxBlockFailures` switches without one, a safeguard that cannot cycle finishes the solve: an
 * active-set descent on the equivalent QP min ½zᵀAz + qᵀz over the box, from the sets made
 * feasible. (Murty's least-index principal pivots, the classical safeguard, are finite on
 * P-matrices only: they cycled on 80 of 3000 random singular problems. Going back to block
 * switches at a new minimum, as Júdice-Pires do, took 1.5 to 14 times more pivots than staying in
 * the descent on random singular and ill-conditioned problems, and no fewer on well-conditioned
 * ones.)
 *
 * A column of A is requested only for a variable that enters α or is bound at a nonzero value,
 * once per solve (a sparse solve each in the engine). The Cholesky factor of A_αα is kept across
 * pivots (principalFactor.ts): leaving variables by rank-one removals, or the tail rebuilt when
 * cheaper; entering ones appended. A column dependent on α's (A_αα would be singular: redundant
 * rows, a box resting on four contacts) is refused, and the variable stays bound (a bilateral one
 * is parked at 0). When the descent frees such a variable r, A z is constant along the null
 * direction (−A_αα⁻¹ a_αr, 1) and the objective falls along it at the rate |w_r|: the step goes to
 * the first bound (r's other bound, or a free variable's, which then leaves α for r). No bound on
 * that ray means no solution: 'infeasible' ('singular' for an inconsistent bilateral row).
 *
 * Friction rows (normalOf[i] ≥ 0) have hi_i = μ_i max(θ, 0), lo_i = −hi_i, θ first taken from the
 * z passed in; solved, the bounds follow the new normal impulses (frictionBounds.ts), and the
 * problem is solved again from the last sets until they settle.
 */
import { ModelError } from '../../model/errors.js';
import { ColumnCache, PrincipalFactor } from './principalFactor.js';
import { FrictionBounds, type BoxFriction } from './frictionBounds.js';
import type { LcpMatrix, LcpReport, LcpStatus } from './types.js';

export type { BoxFriction } from './frictionBounds.js';

/** options of one solve */
export interface BoxLcpOptions {
  /** warm start: −1 at lo, 0 free, +1 at hi per variable (`BoxLcpPivoting.sets` of the last solve) */
  initialSets?: Int8Array;
  /** pivots allowed over the whole solve (default 50 n + 50) */
  maxIterations?: number;
  /** friction-bound iterations (default 50) */
  maxBoundIterations?: number;
  /** block switches without a new minimum of infeasibilities before the descent (default 3) */
  maxBlockFailures?: number;
}

/** counters of the last solve */
export interface BoxLcpStats {
  /** columns of A requested */
  columns: number;
  /** block switches */
  blockPivots: number;
  /** steps of the descent safeguard (cut Newton steps and frees), null-direction steps included */
  descentSteps: number;
  /** descent steps along a null direction of a singular A */
  nullSteps: number;
}

/** the set codes: at lo, free, at hi, and parked (a dependent bilateral variable held at 0) */
const LO = -1, FREE = 0, HI = 1, PARKED = 2;
/** infeasibility tolerance, relative to the scales of z and w */
const FEASIBLE = 1e-12;

/**
 * The complementarity residual of types.ts: the largest violation of the box conditions, with
 * the complementarity of row i measured as min(|z_i − bound|, |w_i|), over max(1, scale), where
 * scale = max(‖z‖∞‖A‖, ‖q‖∞) is the caller's.
 */
export function boxLcpResidual(
  z: Float64Array, w: Float64Array, lo: Float64Array, hi: Float64Array, n: number, scale: number,
): number {
  let r = 0;
  for (let i = 0; i < n; i++) {
    const zi = z[i]!, wi = w[i]!;
    // z within its bounds
    let v = Math.max(lo[i]! - zi, zi - hi[i]!, 0);
    // w > 0 only at lo, w < 0 only at hi
    if (wi > 0) v = Math.max(v, Math.min(zi - lo[i]!, wi));
    else if (wi < 0) v = Math.max(v, Math.min(hi[i]! - zi, -wi));
    if (v > r) r = v;
  }
  return r / Math.max(1, scale);
}

/** block principal pivoting for box LCPs with columns on demand; one instance per engine workspace */
export class BoxLcpPivoting {
  private n = 0;
  private cap = 0;
  private q: Float64Array = new Float64Array(0);
  private z: Float64Array = new Float64Array(0);
  private state!: Int8Array;
  /** the last non-free set of each variable: where a dependent entering variable goes back to */
  private prev!: Int8Array;
  private outSets!: Int8Array;
  private lo!: Float64Array;
  private hi!: Float64Array;
  private w!: Float64Array;
  private work!: Float64Array;
  private dir!: Float64Array;
  private list!: Int32Array;
  private infeasible!: Int32Array;
  private columns: ColumnCache;
  /** entering variables sent back by `enter` since the last block switch */
  private reverts = 0;
  /** set changes made by the last bound update (they count as the next solve's pivots) */
  private boundMoves = 0;
  /** the last descent step had zero length */
  private zeroStep = false;
  private factor: PrincipalFactor;
  private bounds: FrictionBounds;
  /** scales of this solve: max |q|, max diagonal of the requested columns, tolerances */
  private qMax = 0;
  private tolW = 0;
  private tolZ = 0;
  private readonly report: LcpReport = { status: 'solved', iterations: 0, boundIterations: 0, residual: 0 };
  /** counters of the last solve */
  readonly stats: BoxLcpStats = { columns: 0, blockPivots: 0, descentSteps: 0, nullSteps: 0 };

  constructor(capacity = 16) {
    const c = Math.max(4, capacity);
    this.grow(c);
    this.columns = new ColumnCache(c);
    this.factor = new PrincipalFactor(Math.min(c, 64));
    this.bounds = new FrictionBounds(c);
  }

  /** the final sets of the last solve (−1 at lo, 0 free, +1 at hi): the next solve's warm start */
  get sets(): Int8Array { return this.outSets.subarray(0, this.n); }

  /** w = A z + q of the last solve's z */
  get slack(): Float64Array { return this.w.subarray(0, this.n); }

  /**
   * Solves the box LCP; z is the output (and, with friction, its normal entries give the first
   * bound estimate). lo_i ≤ hi_i (equal bounds fix z_i); lo_i = −∞, hi_i = +∞ makes row i
   * bilateral. The returned report is this solver's own object, overwritten by the next solve.
   */
  solve(
    A: LcpMatrix, q: Float64Array, lo: Float64Array, hi: Float64Array,
    friction: BoxFriction | null, z: Float64Array, opts?: BoxLcpOptions,
  ): LcpReport {
    this.setUp(A, q, lo, hi, friction, z);
    const n = this.n, report = this.report;
    const maxIter = opts?.maxIterations ?? 50 * n + 50;
    const maxBounds = friction ? opts?.maxBoundIterations ?? 50 : 1;
    const maxFails = opts?.maxBlockFailures ?? 3;
    if (friction) {
      this.bounds.begin(friction, n, z, 'BoxLcpPivoting.solve');
      this.applyBounds(friction);
    }
    this.initialSets(opts?.initialSets);
    report.iterations = 0;
    let status: LcpStatus = 'solved';
    // solve, then move the friction bounds to the new normal impulses, until they settle
    for (let b = 1; ; b++) {
      report.boundIterations = b;
      const pivots = report.iterations - this.boundMoves;
      status = this.pivot(maxIter, maxFails);
      if (status !== 'solved' || !friction || this.bounds.next(friction, n, z, report.iterations > pivots)) break;
      if (b >= maxBounds) { status = 'iteration-limit'; break; }
      this.applyBounds(friction);
    }
    this.finish(friction);
    report.status = status;
    return report;
  }

  /** checks the input, sizes the arrays, copies the bounds, empties the column cache */
  private setUp(
    A: LcpMatrix, q: Float64Array, lo: Float64Array, hi: Float64Array,
    friction: BoxFriction | null, z: Float64Array,
  ): void {
    const n = A.n, where = 'BoxLcpPivoting.solve';
    if (q.length < n || lo.length < n || hi.length < n || z.length < n) {
      throw new ModelError(where, `q, lo, hi and z need ${n} entries`);
    }
    if (n > this.cap) this.grow(n);
    this.n = n; this.q = q; this.z = z;
    let qMax = 0;
    for (let i = 0; i < n; i++) {
      // NaN fails every comparison below
      if (!(Math.abs(q[i]!) < Infinity) || !(lo[i]! <= hi[i]!) || lo[i] === Infinity || hi[i] === -Infinity) {
        throw new ModelError(where, `row ${i}: needs a finite q and lo ≤ hi (q ${q[i]}, lo ${lo[i]}, hi ${hi[i]})`);
      }
      qMax = Math.max(qMax, Math.abs(q[i]!));
      this.lo[i] = lo[i]!; this.hi[i] = hi[i]!;
    }
    this.qMax = qMax;
    this.columns.reset(A);
    this.factor.reset(n);
    const s = this.stats;
    s.blockPivots = 0; s.descentSteps = 0; s.nullSteps = 0;
  }

  /** the starting sets: the warm start where it is valid for the bounds, else a guess near z = 0 */
  private initialSets(sets: Int8Array | undefined): void {
    const n = this.n, lo = this.lo, hi = this.hi;
    for (let i = 0; i < n; i++) {
      const s = sets && i < sets.length ? sets[i]! : 2;
      let t = this.defaultSet(i);
      if (s === FREE && lo[i]! < hi[i]!) t = FREE;
      else if (s === LO && lo[i]! > -Infinity) t = LO;
      else if (s === HI && hi[i]! < Infinity && lo[i]! < hi[i]!) t = HI;
      this.state[i] = t;
      this.prev[i] = this.fallbackSet(i);
    }
  }

  /** the guess without a warm start: free when 0 is inside the box, else the bound nearest 0 */
  private defaultSet(i: number): number {
    const lo = this.lo[i]!, hi = this.hi[i]!;
    if (lo === hi) return LO;
    if (lo < 0 && hi > 0) return FREE;
    return this.fallbackSet(i);
  }

  /** where a variable goes when it cannot be free: the finite bound nearest 0, or parked */
  private fallbackSet(i: number): number {
    const lo = this.lo[i]!, hi = this.hi[i]!;
    if (lo === -Infinity) return hi === Infinity ? PARKED : HI;
    return hi === Infinity || Math.abs(lo) <= Math.abs(hi) ? LO : HI;
  }

  /**
   * Júdice-Pires: block switches while the number of infeasible variables reaches new minima;
   * after maxFails switches without one, the descent safeguard to the solution
   */
  private pivot(maxIter: number, maxFails: number): LcpStatus {
    const report = this.report;
    let best = this.n + 1, fails = maxFails;
    this.syncFactor();
    for (;;) {
      this.computeZ();
      const count = this.findInfeasible();
      if (count === 0) return 'solved';
      if (report.iterations >= maxIter) return 'iteration-limit';
      // a new minimum resets the allowance of block switches
      if (count < best) { best = count; fails = maxFails; }
      else if (--fails < 0) {
        const s = this.descend(maxIter);
        if (s !== null) return s;
        continue;
      }
      report.iterations++;
      this.stats.blockPivots++;
      this.reverts = 0;
      this.blockSwitch(count);
      this.syncFactor();
      // every entering variable was dependent and went back: the sets did not move
      if (this.reverts === count) fails = 0;
    }
  }

  /** z from the sets: bound values, then z_α = −A_αα⁻¹ w_α(bound part); w = A z + q; scales */
  private computeZ(): void {
    const n = this.n, z = this.z, w = this.w, state = this.state, f = this.factor;
    // bound variables and their part of w
    for (let i = 0; i < n; i++) w[i] = this.q[i]!;
    for (let i = 0; i < n; i++) {
      const s = state[i]!;
      if (s === FREE) { z[i] = 0; continue; }
      const v = this.valueAt(i);
      z[i] = v;
      if (v !== 0) this.columns.addTo(this.w, i, v);
    }
    // free variables (from zero), and their part of w
    this.solveFree();
    const wScale = this.scales();
    // one step of refinement when w_α is not zero to rounding
    let r = 0;
    for (let k = 0; k < f.m; k++) r = Math.max(r, Math.abs(w[f.order[k]!]!));
    if (r > 64 * Number.EPSILON * wScale) this.solveFree();
  }

  /** the tolerances from the scales of z and w; returns the scale of w */
  private scales(): number {
    let zMax = 0;
    for (let i = 0; i < this.n; i++) zMax = Math.max(zMax, Math.abs(this.z[i]!));
    const wScale = Math.max(this.qMax, this.columns.diagMax * zMax, 1e-300);
    this.tolW = FEASIBLE * wScale;
    this.tolZ = FEASIBLE * Math.max(zMax, 1e-300);
    return wScale;
  }

  /** z_α += −A_αα⁻¹ w_α, and w += A_:α of that change */
  private solveFree(): void {
    const f = this.factor, m = f.m, work = this.work, order = f.order;
    for (let k = 0; k < m; k++) work[k] = -this.w[order[k]!]!;
    f.solve(work);
    for (let k = 0; k < m; k++) {
      const j = order[k]!;
      this.z[j] = this.z[j]! + work[k]!;
      this.columns.addTo(this.w, j, work[k]!);
    }
  }

  /** lists the infeasible variables in increasing index order; returns their number */
  private findInfeasible(): number {
    const n = this.n, z = this.z, w = this.w, lo = this.lo, hi = this.hi, tw = this.tolW, tz = this.tolZ;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const s = this.state[i]!;
      let bad: boolean;
      if (s === FREE) bad = z[i]! < lo[i]! - tz || z[i]! > hi[i]! + tz;
      else if (s === LO) bad = w[i]! < -tw && lo[i]! < hi[i]!;
      else if (s === HI) bad = w[i]! > tw && lo[i]! < hi[i]!;
      else bad = Math.abs(w[i]!) > tw;
      if (bad) this.infeasible[count++] = i;
    }
    return count;
  }

  /** every infeasible variable changes set: free ones go to the bound they cross, bound ones become free */
  private blockSwitch(count: number): void {
    const state = this.state, z = this.z;
    for (let k = 0; k < count; k++) {
      const i = this.infeasible[k]!;
      if (state[i] === FREE) {
        state[i] = z[i]! < this.lo[i]! ? LO : HI;
        this.prev[i] = state[i]!;
      } else {
        this.prev[i] = state[i]!;
        state[i] = FREE;
      }
    }
  }

  /**
   * makes the factor's set the free set: leaving variables out (rank-one removals, or the tail
   * rebuilt when cheaper), entering ones appended in index order; a dependent one goes back
   */
  private syncFactor(): void {
    const f = this.factor, state = this.state, order = f.order, m = f.m;
    // cost of the removals against rebuilding the tail from the first leaving position
    let leaving = 0, first = m, removeCost = 0;
    for (let k = 0; k < m; k++) {
      if (state[order[k]!] === FREE) continue;
      leaving++; first = Math.min(first, k); removeCost += 2 * (m - k) * (m - k);
    }
    const kept = m - first - leaving;
    const rebuildCost = ((first + kept) ** 3 - first ** 3) / 6 + (m - first) * m;
    if (leaving > 0 && rebuildCost < removeCost) {
      // rebuild: the survivors after `first` re-enter in their order
      let count = 0;
      for (let k = first; k < m; k++) if (state[order[k]!] === FREE) this.list[count++] = order[k]!;
      f.truncate(first);
      for (let k = 0; k < count; k++) this.enter(this.list[k]!);
    } else if (leaving > 0) {
      for (let k = m - 1; k >= first; k--) if (state[order[k]!] !== FREE) f.remove(k);
    }
    // entering variables
    for (let i = 0; i < this.n; i++) if (state[i] === FREE && f.pos[i]! < 0) this.enter(i);
  }

  /** appends variable i to the factor; a dependent one returns to its last bound (or is parked) */
  private enter(i: number): boolean {
    const at = this.columns.offset(i);
    if (this.factor.tryAppend(i, this.columns.data, at)) return true;
    this.state[i] = this.prev[i]!;
    this.reverts++;
    return false;
  }

  /**
   * The safeguard: an active-set descent on the equivalent QP min ½zᵀAz + qᵀz, lo ≤ z ≤ hi, from
   * the current sets made feasible, to the solution. Newton steps on the free face, cut at the
   * first bound (that variable leaves α); at the face's minimum, the bound variable with the most
   * violated w is freed (the least-index one after a zero-length step, Bland's rule against
   * cycling). The objective falls at every step that is not of zero length, so no face repeats.
   * Returns null at the solution, or the status of a failure.
   */
  private descend(maxIter: number): LcpStatus | null {
    const report = this.report, stats = this.stats;
    this.makeFeasible();
    for (let degenerate = false; ;) {
      if (report.iterations >= maxIter) return 'iteration-limit';
      this.scales();
      this.zeroStep = false;
      const cut = this.faceStep();
      degenerate ||= this.zeroStep;
      if (cut) { report.iterations++; stats.descentSteps++; continue; }
      const count = this.findInfeasible();
      if (count === 0) return null;
      report.iterations++; stats.descentSteps++;
      const r = degenerate ? this.infeasible[0]! : this.mostViolated(count);
      degenerate = false;
      // (a free one outside its box by more than rounding should not occur; it goes to the bound)
      if (this.state[r] === FREE) { this.leave(this.factor.pos[r]!, this.z[r]! < this.lo[r]! ? LO : HI); continue; }
      this.prev[r] = this.state[r]!;
      this.state[r] = FREE;
      if (this.enter(r)) continue;
      // dependent: step along its null direction
      stats.nullSteps++;
      const s = this.nullStep(r);
      if (s !== null) return s;
      degenerate ||= this.zeroStep;
    }
  }

  /** the listed infeasible variable with the largest |w| (the first on ties) */
  private mostViolated(count: number): number {
    let best = this.infeasible[0]!, size = -1;
    for (let k = 0; k < count; k++) {
      const i = this.infeasible[k]!, v = Math.abs(this.w[i]!);
      if (v > size) { size = v; best = i; }
    }
    return best;
  }

  /** free variables outside their box go to the bound they cross; w follows the clamped z */
  private makeFeasible(): void {
    const n = this.n, z = this.z, w = this.w;
    for (let i = 0; i < n; i++) {
      if (this.state[i] !== FREE) continue;
      if (z[i]! < this.lo[i]!) this.state[i] = LO;
      else if (z[i]! > this.hi[i]!) this.state[i] = HI;
      else continue;
      this.prev[i] = this.state[i]!;
      z[i] = this.valueAt(i);
    }
    this.syncFactor();
    for (let i = 0; i < n; i++) w[i] = this.q[i]!;
    for (let i = 0; i < n; i++) this.columns.addTo(this.w, i, z[i]!);
  }

  /**
   * one Newton step on the free face, p = −A_αα⁻¹ w_α, cut at the first bound; returns true when
   * a bound cut it (the blocking variable has left α), false at the face's minimum
   */
  private faceStep(): boolean {
    const f = this.factor, m = f.m, p = this.work, z = this.z, lo = this.lo, hi = this.hi;
    let wMax = 0;
    for (let k = 0; k < m; k++) { p[k] = -this.w[f.order[k]!]!; wMax = Math.max(wMax, Math.abs(p[k]!)); }
    if (wMax <= this.tolW) return false;
    f.solve(p);
    // ratio test: the largest step ≤ 1 that keeps every free variable in its box
    let alpha = 1, blocker = -1;
    for (let k = 0; k < m; k++) {
      const j = f.order[k]!, pk = p[k]!;
      const t = pk > 0 ? (hi[j]! - z[j]!) / pk : pk < 0 ? (lo[j]! - z[j]!) / pk : Infinity;
      if (Math.max(t, 0) < alpha) { alpha = Math.max(t, 0); blocker = k; }
    }
    for (let k = 0; k < m; k++) this.move(f.order[k]!, alpha * p[k]!);
    this.zeroStep = alpha === 0;
    if (blocker < 0) return false;
    this.leave(blocker, p[blocker]! > 0 ? HI : LO);
    return true;
  }

  /** z_j += dz, and w with it */
  private move(j: number, dz: number): void {
    this.z[j] = this.z[j]! + dz;
    this.columns.addTo(this.w, j, dz);
  }

  /** the free variable at factor position k leaves α at bound `set`, exactly on it */
  private leave(k: number, set: number): void {
    const j = this.factor.order[k]!;
    this.state[j] = set;
    this.prev[j] = set;
    this.move(j, this.valueAt(j) - this.z[j]!);
    this.factor.remove(k);
  }

  /** the value of a bound or parked variable */
  private valueAt(i: number): number {
    const s = this.state[i]!;
    return s === LO ? this.lo[i]! : s === HI ? this.hi[i]! : 0;
  }

  /**
   * r's column depends on α's (A_{α∪r} singular): along d = (−A_αα⁻¹ a_αr, 1) A z does not change
   * (A is PSD) and the objective falls at the rate |w_r| in the direction −sign(w_r); step to the
   * first bound: r's own (it changes bound), or a free variable's (it leaves α, r enters)
   */
  private nullStep(r: number): LcpStatus | null {
    const f = this.factor, m = f.m, d = this.dir, z = this.z, lo = this.lo, hi = this.hi;
    const sgn = this.w[r]! < 0 ? 1 : -1;
    f.nullDirection(d);
    for (let k = 0; k < m; k++) d[k] = sgn * d[k]!;
    // ratio test: r's own bound first, then the free variables' (the earliest position on ties)
    let tBest = sgn > 0 ? hi[r]! - z[r]! : z[r]! - lo[r]!, blocker = -1;
    for (let k = 0; k < m; k++) {
      const dk = d[k]!, j = f.order[k]!;
      if (Math.abs(dk) <= 1e-12) continue;
      const t = Math.max(0, dk > 0 ? (hi[j]! - z[j]!) / dk : (lo[j]! - z[j]!) / dk);
      if (t < tBest) { tBest = t; blocker = k; }
    }
    if (tBest === Infinity) return this.fallbackSet(r) === PARKED ? 'singular' : 'infeasible';
    this.zeroStep = tBest === 0;
    // the step: w does not change (to rounding); r moves by ±t
    for (let k = 0; k < m; k++) this.move(f.order[k]!, tBest * d[k]!);
    if (blocker < 0) {
      this.state[r] = sgn > 0 ? HI : LO;
      this.prev[r] = this.state[r]!;
      this.move(r, this.valueAt(r) - z[r]!);
      return null;
    }
    this.move(r, sgn * tBest);
    this.leave(blocker, d[blocker]! > 0 ? HI : LO);
    this.state[r] = FREE;
    // r back on its bound if rounding still finds it dependent
    if (!this.enter(r)) this.move(r, this.valueAt(r) - z[r]!);
    return null;
  }

  /**
   * the friction rows' bounds from the current estimate of their normal impulses; a row whose box
   * opens from zero starts free, a row whose box closes is fixed at it
   */
  private applyBounds(fr: BoxFriction): void {
    const lo = this.lo, hi = this.hi, state = this.state;
    this.boundMoves = 0;
    for (let i = 0; i < this.n; i++) {
      if (fr.normalOf[i]! < 0) continue;
      const h = this.bounds.bound(fr, i), closed = !(hi[i]! > lo[i]!), s = state[i];
      hi[i] = h; lo[i] = -h;
      if (h === 0) { state[i] = LO; this.prev[i] = LO; }
      else if (closed && state[i] !== FREE) state[i] = FREE;
      if (state[i] !== s) this.boundMoves++;
    }
  }

  /** clamps free z into its box, the residual against the final bounds, the sets for the next warm start */
  private finish(friction: BoxFriction | null): void {
    const n = this.n, z = this.z, lo = this.lo, hi = this.hi;
    for (let i = 0; i < n; i++) {
      if (this.state[i] !== FREE) continue;
      const c = Math.min(Math.max(z[i]!, lo[i]!), hi[i]!);
      if (c !== z[i]) { this.columns.addTo(this.w, i, c - z[i]!); z[i] = c; }
    }
    // the true bounds of the friction rows follow the final normal impulses
    for (let i = 0; friction && i < n; i++) {
      const k = friction.normalOf[i]!;
      if (k >= 0) { hi[i] = friction.mu[i]! * Math.max(z[k]!, 0); lo[i] = -hi[i]!; }
    }
    let zMax = 0;
    for (let i = 0; i < n; i++) zMax = Math.max(zMax, Math.abs(z[i]!));
    this.report.residual = boxLcpResidual(z, this.w, lo, hi, n, Math.max(zMax * this.columns.diagMax, this.qMax));
    this.stats.columns = this.columns.count;
    for (let i = 0; i < n; i++) this.outSets[i] = this.state[i] === PARKED ? FREE : this.state[i]!;
  }

  /** grows every per-variable array to at least n (outside the solve loops) */
  private grow(n: number): void {
    const c = Math.max(n, 2 * this.cap);
    this.cap = c;
    this.state = new Int8Array(c); this.prev = new Int8Array(c); this.outSets = new Int8Array(c);
    this.lo = new Float64Array(c); this.hi = new Float64Array(c); this.w = new Float64Array(c);
    this.work = new Float64Array(c); this.dir = new Float64Array(c);
    this.list = new Int32Array(c); this.infeasible = new Int32Array(c);
  }
}
