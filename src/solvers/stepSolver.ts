/**
 * The solve stage: A x = b for the (possibly non-symmetric) step matrix A = M − a₀D − a₁K.
 *
 * Strategy (docs/nonsymmetric.md): factor the symmetric part S = (A + Aᵀ)/2 with the sparse
 * supernodal LDLᵀ (AMD ordering, symbolic analysis cached by pattern signature). When A is symmetric,
 * solve with S and polish by iterative refinement. When A is not symmetric (the Jacobians of
 * rigid-body forces, theory.md §13), solve A x = b exactly: x = S⁻¹b and corrections
 * x ← x + S⁻¹(b − A x) while each gains a factor 4 (a small skew part: one or two reach the
 * tolerance), then GMRES preconditioned by S⁻¹ from that iterate. Refinement and corrections
 * are one routine (math/sparse/refine.ts), with the ∞-norm or the 2-norm residual. Non-convergence
 * is reported, never hidden.
 *
 * Inertia check: the number of positive pivots must equal the number of velocity unknowns.
 */
import { LdltSymbolic, checkInertia, type LdltOrdering } from '../math/sparse/ldlt.js';
import { SupernodalSymbolic, SupernodalLdlt } from '../math/sparse/supernodal.js';
import { cscTransposeMap, type Csc } from '../math/sparse/csc.js';
import { refineSolve, type RefineOptions, type RefineResult } from '../math/sparse/refine.js';
import { Gmres } from '../math/sparse/gmres.js';
import type { BlockLayout } from '../assembly/blockSparse.js';

/**
 * GMRES stops at this relative 2-norm residual: measured on spinning bodies at h = 50 ms it
 * gives 3e-13 relative error against dense LU, while 1e-15 cost 50% more iterations (12.5
 * against 8 on the 100-link chain)
 */
export const GMRES_TOL = 1e-14;

/** a solve whose relative residual stays above this is counted as unconverged */
export const ACCEPTABLE_RESIDUAL = 1e-12;

/**
 * solves with S⁻¹ at most before GMRES takes over, on non-symmetric A: measured on the 100-link
 * chain the first solve ends at about 1e-13 (the LDLᵀ's rounding) and one correction reaches 1e-14
 */
export const CORRECTIONS = 3;

/** options of the linear solver of the step (sparse LDLᵀ with refinement) */
export interface StepSolverOptions {
  /** fill-reducing ordering of the LDLᵀ (default 'amd') */
  ordering?: 'amd' | 'natural';
  /** maximum refinement corrections (symmetric) or GMRES restart cycles (non-symmetric) per solve (default 30 / 10) */
  maxRefine?: number;
  /** target relative residual (default 1e-15; the solve stops earlier when the residual stops decreasing) */
  tol?: number;
}

export interface SolveReport {
  /** solves with the factorization (the first one included; refinement or corrections, by refineSolve), then GMRES iterations if any */
  iterations: number;
  /** final relative residual: ‖b − A x‖∞ / ‖b‖∞ for symmetric A, ‖b − A x‖₂ / ‖b‖₂ otherwise */
  residual: number;
  /** residual ≤ the acceptable residual (1e-12): the solve is trusted */
  converged: boolean;
  /** inertia or pivot problem of the symmetric part, else null */
  inertia: string | null;
}

/** the k-th smallest of a[0 … n) (Hoare's selection, in place, O(n) expected, deterministic pivots) */
function quickselect(a: Float64Array, n: number, k: number): number {
  let lo = 0, hi = n - 1;
  while (hi > lo) {
    // median-of-three pivot
    const mid = (lo + hi) >> 1, x = a[lo]!, y = a[mid]!, z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) { const t = a[i]!; a[i] = a[j]!; a[j] = t; i++; j--; }
    }
    if (k <= j) hi = j; else if (k >= i) lo = i; else return a[k]!;
  }
  return a[k]!;
}

/**
 * The pass of StepSolver.factorCombination over the mirror pairs (pk[p], pt[p]) of its entries
 * (each pair once, pk ≤ pt; a diagonal entry pairs with itself; ek[p], et[p] their places in D
 * and K, which hold those entries only), for A = P − a₀D − a₁K
 * (`stepEntry`): S ← the symmetric part of A there (S holds P on entry), the skew entries A − S
 * listed in (at, val); returns their number, with max |A − Aᵀ| and max |A| over the entries in
 * out[0], out[1]. A itself is not stored (the solves use S and the skew list).
 * (A function of its own: as a part of the method, V8 ran this loop about three times slower.)
 */
function combine(P: Float64Array, S: Float64Array, D: Float64Array, a0: number, K: Float64Array, a1: number,
  pk: Int32Array, pt: Int32Array, ek: Int32Array, et: Int32Array, at: Int32Array, val: Float64Array, out: Float64Array): number {
  const useD = a0 !== 0, useK = a1 !== 0;
  let skew = 0, scale = 0, c = 0;
  for (let p = 0; p < pk.length; p++) {
    const k = pk[p]!, t = pt[p]!, i = ek[p]!, j = et[p]!;
    const dk = (useD ? a0 * D[i]! : 0) + (useK ? a1 * K[i]! : 0), dt = (useD ? a0 * D[j]! : 0) + (useK ? a1 * K[j]! : 0), avg = 0.5 * (dk + dt);
    const pkv = P[k]!, ptv = P[t]!, ak = pkv - dk, atv = ptv - dt;
    S[k] = pkv - avg; S[t] = ptv - avg;
    const m = Math.abs(ak) > Math.abs(atv) ? Math.abs(ak) : Math.abs(atv);
    if (m > scale) scale = m;
    // A − S = avg − d on the two entries of a non-symmetric pair
    if (dk !== dt) {
      at[c] = k; val[c++] = avg - dk;
      at[c] = t; val[c++] = avg - dt;
      const d = Math.abs(dk - dt);
      if (d > skew) skew = d;
    }
  }
  out[0] = skew;
  out[1] = scale;
  return c;
}

/**
 * Entry k of the step matrix A = P − a₀D − a₁K, as `combine` forms it, for D and K holding the
 * blocks between components only: e is k's place in them, −1 for a constraint entry (A = P
 * there). A zero coefficient drops its matrix: Bridson-Marino (a₁ = 0) never uses K, so a
 * non-finite K must not reach A.
 */
export function stepEntry(P: Float64Array, D: Float64Array, a0: number, K: Float64Array, a1: number, k: number, e: number): number {
  if (e < 0) return P[k]!;
  return P[k]! - ((a0 !== 0 ? a0 * D[e]! : 0) + (a1 !== 0 ? a1 * K[e]! : 0));
}

/**
 * Multiply-adds of a supernodal factorization on `sn` in units of a solve's: the dense LDLᵀ of
 * each panel (column c updates the later columns c2 on their rows c2 … nr − 1) and the updates
 * between panels (a source K's rows [b, e) in the target's columns: column p receives nrK − p
 * rows of ncK products each), against the forward and backward substitutions over every panel's
 * lower trapezoid. On the ball-joint chains (9 × 12 panels) it is 2.24; measured there, a
 * factorization took 2.3–2.75 chord iterations of the projection (docs/benchmarks.md), so a rule
 * that weighs one against the other by it leans slightly towards refactoring.
 */
function factorCostInSolves(sn: SupernodalSymbolic): number {
  const { first, rowPtr, updPtr, updSource, updBegin, updEnd } = sn;
  let factor = 0, solve = 0;
  for (let J = 0; J < sn.count; J++) {
    const nc = first[J + 1]! - first[J]!, nr = rowPtr[J + 1]! - rowPtr[J]!;
    solve += 2 * (nc * nr - (nc * (nc + 1)) / 2);
    for (let c2 = 1; c2 < nc; c2++) factor += c2 * (nr - c2);
    for (let u = updPtr[J]!; u < updPtr[J + 1]!; u++) {
      const K = updSource[u]!, ncK = first[K + 1]! - first[K]!, nrK = rowPtr[K + 1]! - rowPtr[K]!;
      for (let p = updBegin[u]!; p < updEnd[u]!; p++) factor += (nrK - p) * ncK;
    }
  }
  return solve > 0 ? factor / solve : 0;
}

export class StepSolver {
  private symbolic: LdltSymbolic | null = null;
  private numeric: SupernodalLdlt | null = null;
  private costRatio = 0;
  private signature = '';
  private tmap: Int32Array = new Int32Array(0);
  private sym: Float64Array = new Float64Array(0);       // (nnz) values of S, in the buffer the factorization reads (valueBuffer)
  private r: Float64Array = new Float64Array(0);
  private dx: Float64Array = new Float64Array(0);
  private gmres: Gmres | null = null;
  private colOf: Int32Array = new Int32Array(0);        // (nnz) column of each pattern entry
  private skewAt: Int32Array = new Int32Array(0);       // (nnz capacity) entries where A ≠ S
  private skewVal: Float64Array = new Float64Array(0);  // (nnz capacity) A − S there
  private nSkew = 0;
  private rowPivots: Int32Array = new Int32Array(0);  // (m) see smallPivots
  private pivotsFrom = -1;
  private readonly combined = new Float64Array(2);  // skew and scale from `combine`
  private pairsOf: Int32Array | null = null;          // the entries the pairs below were listed for
  private pairK: Int32Array = new Int32Array(0);      // (pairs) the mirror pairs of those entries, each once: k ≤ t
  private pairT: Int32Array = new Int32Array(0);
  private pairKe: Int32Array = new Int32Array(0);     // (pairs) their places in the entries (in D and K)
  private pairTe: Int32Array = new Int32Array(0);
  /** max |A − Aᵀ| of the last factored matrix (0 for a symmetric one) */
  skew = 0;
  /** max |A| of the last factored matrix (over the component blocks after factorCombination): the symmetry test's scale */
  scale = 0;
  /** the last factored matrix is symmetric (to rounding): its factorization is the step matrix's own */
  get symmetric(): boolean { return this.skew <= 1e-14 * this.scale; }
  /** solve index of the pivot at which the last factorization failed, −1 if it did not */
  failedAt = -1;
  /** positive pivots of the last factorization (of those computed, when it failed) */
  positivePivots = 0;
  /** refinement of a symmetric matrix (∞-norm residual) */
  private readonly refineOpts: RefineOptions = { maxIter: 30, tol: 1e-15, norm: 'max', fromZero: true };
  /** the corrections of a non-symmetric one (2-norm residual, as GMRES after them) */
  private readonly correctOpts: RefineOptions = { maxIter: CORRECTIONS, tol: GMRES_TOL, norm: 'euclidean', fromZero: true };
  private pattern: Csc = { n: 0, colPtr: new Int32Array(1), rowIdx: new Int32Array(0), values: new Float64Array(0) };
  private readonly refineResult: RefineResult = { iterations: 0, residual: 0, converged: false };
  readonly report: SolveReport = { iterations: 0, residual: 0, converged: true, inertia: null };
  /**
   * A x = S x + N x: S from the buffer the factorization read (WebAssembly where the solves
   * are), then the skew entries. A symmetric A has no skew entries.
   */
  private readonly apply = (out: Float64Array, x: Float64Array): void => {
    this.numeric!.multiply(out, x);
    this.addSkew(out, x);
  };
  private readonly solveS = (x: Float64Array): void => { this.numeric!.solve(x); };
  /** A z = S z + (A − S) z = v + N z for z = S⁻¹ v: only the entries of the skew part N */
  private readonly applyPreconditioned = (out: Float64Array, v: Float64Array, z: Float64Array): void => {
    out.set(v);
    this.addSkew(out, z);
  };

  /** out += N x over the skew entries N = A − S of the last factored matrix */
  private addSkew(out: Float64Array, x: Float64Array): void {
    const at = this.skewAt, val = this.skewVal, rows = this.pattern.rowIdx, cols = this.colOf;
    for (let t = 0; t < this.nSkew; t++) { const k = at[t]!; out[rows[k]!] += val[t]! * x[cols[k]!]!; }
  }

  constructor(private readonly opts: StepSolverOptions = {}) {}

  /**
   * the symbolic analysis of `layout` now (ordering, elimination tree, supernodes, the kernels'
   * memory), which the first factorization would otherwise do: a workspace calls it when it is
   * made, so that no step carries the analysis (chain100's took 1.5 ms warm, 10–17 ms on a cold
   * start). Every later factorization must use the same `nPositive`.
   */
  prepare(layout: BlockLayout, nPositive: number): void { this.analyse(layout, nPositive); }

  /**
   * a factorization's multiply-adds in units of a solve's, on the prepared analysis
   * (`factorCostInSolves`): what a caller weighs chord iterations against a refactorization with
   */
  get factorCost(): number { return this.costRatio; }

  /**
   * (nnz of the prepared layout) the array the factorization reads in place besides the one the
   * step's combination forms S in (SupernodalLdlt.assemblyBuffer): a matrix kept there between
   * factorizations (the workspace's M + G) is factored without a copy; refined solves
   * (`solve`) read it again, so it must not change between a factorization and those. After a
   * new analysis (another pattern) it is another array, and one kept in the old one is copied as
   * any other.
   */
  get assemblyBuffer(): Float64Array { return this.numeric!.assemblyBuffer; }

  /**
   * (re)analyses the pattern when its signature changed. Unknowns from `nPositive` on are
   * constraint rows: they are ordered after their neighbours (`delayed`) so a zero R factors.
   */
  private analyse(layout: BlockLayout, nPositive: number): void {
    if (this.symbolic && this.signature === layout.signature) return;
    const ordering: LdltOrdering = this.opts.ordering ?? 'amd';
    const delayed = nPositive < layout.n ? Uint8Array.from({ length: layout.n }, (_, i) => (i >= nPositive ? 1 : 0)) : undefined;
    this.symbolic = new LdltSymbolic(layout.n, layout.colPtr, layout.rowIdx, delayed ? { ordering, delayed } : { ordering });
    this.numeric = new SupernodalLdlt(new SupernodalSymbolic(this.symbolic));
    this.costRatio = factorCostInSolves(this.numeric.sn);
    this.signature = layout.signature;
    this.listRowPivots(nPositive);
    // the pattern alone (the values are the factorization's)
    this.pattern = { n: layout.n, colPtr: layout.colPtr, rowIdx: layout.rowIdx, values: new Float64Array(0) };
    this.tmap = cscTransposeMap(this.pattern);
    this.pairsOf = null;
    // S is formed where the factorization reads it (no copy)
    this.sym = this.numeric.valueBuffer;
    this.colOf = new Int32Array(layout.nnz);
    for (let j = 0; j < layout.n; j++) for (let k = layout.colPtr[j]!; k < layout.colPtr[j + 1]!; k++) this.colOf[k] = j;
    this.skewAt = new Int32Array(layout.nnz);
    this.skewVal = new Float64Array(layout.nnz);
    this.r = new Float64Array(layout.n);
    this.dx = new Float64Array(layout.n);
    this.gmres = new Gmres(layout.n, Math.min(30, Math.max(1, layout.n)));
  }

  /** rowPivots ← the permuted positions of the original indices ≥ from, ascending */
  private listRowPivots(from: number): void {
    const sym = this.symbolic!, ks: number[] = [];
    for (let k = 0; k < sym.n; k++) if (sym.perm[k]! >= from) ks.push(k);
    this.rowPivots = Int32Array.from(ks);
    this.pivotsFrom = from;
  }

  /**
   * Original indices ≥ `from` (constraint rows) whose pivot magnitude is at most tol × the median
   * magnitude of such pivots, written to `out`; returns that median, or −1 when none is small
   * after a successful factorization (the median is then not computed). Near-zero pivots of
   * constraint rows, against the typical one, mean redundant constraints. `scratch` holds the
   * magnitudes (length ≥ n − from). After a failed factorization only the pivots computed before
   * the failure count (the later ones are from an earlier matrix; the failed one is `failedAt`).
   */
  smallPivots(from: number, tol: number, out: number[], scratch: Float64Array): number {
    out.length = 0;
    const num = this.numeric, sym = this.symbolic;
    if (!num || !sym) return 0;
    const end = this.failedAt >= 0 ? sym.pinv[this.failedAt]! : sym.n;
    // the permuted positions k of the indices ≥ from, ascending (listed by the analysis for its own `from`)
    if (this.pivotsFrom !== from) this.listRowPivots(from);
    const P = this.rowPivots;
    let c = 0, lo = Infinity, hi = 0;
    for (let t = 0; t < P.length; t++) {
      const k = P[t]!;
      if (k >= end) break;
      const d = Number.isFinite(num.D[k]!) ? Math.abs(num.D[k]!) : 0;
      scratch[c++] = d;
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
    if (c === 0) return 0;
    // none small against the largest, so none against the median: after a successful factorization
    // the median is not needed (the usual case: every factorization of a well-posed model)
    if (lo > tol * hi && this.failedAt < 0) return -1;
    const median = quickselect(scratch, c, c >> 1);
    for (let t = 0; t < P.length; t++) {
      const k = P[t]!;
      if (k >= end) break;
      if (!(Math.abs(num.D[k]!) > tol * median)) out.push(sym.perm[k]!);
    }
    return median;
  }

  /** the pivot of original index i in the last successful factorization (NaN before any or after a failure) */
  pivotOf(i: number): number {
    const num = this.numeric, sym = this.symbolic;
    if (!num || !sym || this.failedAt >= 0) return NaN;
    return num.D[sym.pinv[i]!]!;
  }

  /**
   * After a factorization whose inertia is wrong: the original index of the first pivot, in
   * elimination order, whose sign is wrong (≤ 0 for an index below `n`, a velocity unknown;
   * ≥ 0 at or above it, a constraint row), or the failed pivot; −1 when every sign is right.
   */
  firstWrongPivot(n: number): number {
    const num = this.numeric, sym = this.symbolic;
    if (!num || !sym) return -1;
    if (this.failedAt >= 0) return this.failedAt;
    for (let k = 0; k < sym.n; k++) {
      const i = sym.perm[k]!, d = num.D[k]!;
      if (i < n ? !(d > 0) : !(d < 0)) return i;
    }
    return -1;
  }

  /** true when the LDLᵀ solves run as WebAssembly (SupernodalLdlt; JavaScript where it is missing) */
  get wasmSolves(): boolean { return this.numeric?.usesWasm ?? false; }

  /** the symbolic analysis in use (for benchmarks and tests) */
  get analysis(): LdltSymbolic | null { return this.symbolic; }

  /**
   * Factors a symmetric matrix (values on `layout`) as it is; returns the inertia message or null.
   * Call once per matrix, then `solve` any number of right-hand sides.
   */
  factor(layout: BlockLayout, values: Float64Array, expectedPositive = layout.n): string | null {
    this.analyse(layout, expectedPositive);
    this.skew = 0;
    this.scale = 1;
    this.nSkew = 0;
    return this.factorNumeric(layout, values, expectedPositive);
  }

  /**
   * `factor` for A = P − a₀D − a₁K (`stepEntry`), which need not be symmetric: P (nnz, for
   * instance M plus the constraint blocks: symmetric by construction) is read, not changed. D and
   * K hold the entries `entries` only (ascending value indices, closed under transposition: the
   * blocks between components), D[e] and K[e] being the value at entries[e]; A = P elsewhere. Only those entries are combined, each mirror
   * pair once, giving the symmetric part S (formed where the factorization reads it) and the list
   * of skew entries in one pass; elsewhere S = P. The scale of the symmetry test is max |A| over
   * `entries` (they include the diagonal blocks).
   */
  factorCombination(layout: BlockLayout, P: Float64Array, D: Float64Array, a0: number, K: Float64Array, a1: number,
    entries: Int32Array, expectedPositive = layout.n): string | null {
    this.analyse(layout, expectedPositive);
    const S = this.sym, res = this.combined;
    // listed once per pattern: the caller passes the same entries array every step (a new one would list them again)
    if (this.pairsOf !== entries) this.listPairs(entries);
    S.set(P);
    this.nSkew = combine(P, S, D, a0, K, a1, this.pairK, this.pairT, this.pairKe, this.pairTe, this.skewAt, this.skewVal, res);
    this.skew = res[0]!;
    this.scale = res[1]!;
    return this.factorNumeric(layout, S, expectedPositive);
  }

  /** pairK, pairT ← the mirror pairs (k, tᵀ(k)) of `entries` with k ≤ t, in the order of the entries; pairKe, pairTe their places in `entries` */
  private listPairs(entries: Int32Array): void {
    const k: number[] = [], t: number[] = [], ke: number[] = [], te: number[] = [];
    const place = new Int32Array(this.tmap.length);
    for (let e = 0; e < entries.length; e++) place[entries[e]!] = e;
    for (let e = 0; e < entries.length; e++) {
      const a = entries[e]!, b = this.tmap[a]!;
      if (b >= a) { k.push(a); t.push(b); ke.push(e); te.push(place[b]!); }
    }
    this.pairK = Int32Array.from(k);
    this.pairT = Int32Array.from(t);
    this.pairKe = Int32Array.from(ke);
    this.pairTe = Int32Array.from(te);
    this.pairsOf = entries;
  }

  /** the values of the last `factorCombination`'s matrix (its symmetric part), for tests; error reports form the step matrix itself (Workspace.stepMatrix) */
  get factoredValues(): Float64Array { return this.sym; }

  private factorNumeric(layout: BlockLayout, values: Float64Array, expectedPositive: number): string | null {
    const res = this.numeric!.factor(values);
    this.failedAt = res.ok ? -1 : res.zeroAt;
    this.positivePivots = res.positive;
    this.report.inertia = res.ok && res.positive === expectedPositive ? null : checkInertia(res, expectedPositive, layout.n - expectedPositive);
    return this.report.inertia;
  }

  /**
   * x ← S⁻¹ b with the factorization alone (no residual, no refinement): for symmetric matrices
   * inside an iteration that checks its own convergence (the projection). Returns false when
   * some entry of x is not finite (x and b have the matrix's n entries; longer ones are not
   * checked beyond n).
   */
  solveDirect(b: Float64Array, x: Float64Array): boolean {
    x.set(b);
    this.numeric!.solve(x);
    return this.numeric!.finite;
  }

  /** x ← A⁻¹ b: refinement for symmetric A; corrections, then S⁻¹-preconditioned GMRES if they stall, otherwise */
  solve(b: Float64Array, x: Float64Array, tolerance?: number): SolveReport {
    const tol = tolerance ?? this.opts.tol ?? 1e-15;
    const rr = this.refineResult;
    if (this.symmetric) {
      // symmetric up to rounding: refinement (against the true A) is enough
      this.refineOpts.maxIter = this.opts.maxRefine ?? 30;
      this.refineOpts.tol = tol;
      refineSolve(this.apply, this.solveS, b, x, this.r, this.dx, this.refineOpts, rr);
      this.report.iterations = rr.iterations;
      this.report.residual = rr.residual;
    } else {
      // the 2-norm residual cannot go below rounding, about ε√n of the right-hand side
      const floor = 4 * Number.EPSILON * Math.sqrt(b.length), gtol = Math.max(tol, GMRES_TOL, floor);
      // corrections first: with a small skew part (the usual case) one or two reach the tolerance
      this.correctOpts.tol = gtol;
      refineSolve(this.apply, this.solveS, b, x, this.r, this.dx, this.correctOpts, rr);
      this.report.iterations = rr.iterations;
      this.report.residual = rr.residual;
      if (rr.residual > gtol) {
        // the corrections ended above the tolerance (a large skew part): GMRES from their iterate
        const g = this.gmres!.solve(this.apply, this.solveS, b, x, gtol, this.opts.maxRefine ?? 10, this.applyPreconditioned);
        this.report.iterations += g.iterations;
        this.report.residual = g.residual;
      }
    }
    // aim for rounding level; trust anything below 1e-12
    this.report.converged = this.report.residual <= ACCEPTABLE_RESIDUAL;
    return this.report;
  }
}
