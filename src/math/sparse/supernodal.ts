/**
 * Supernodal left-looking LDLᵀ without pivoting, for the same quasi-definite KKT matrices as the
 * scalar up-looking factor (./ldlt.ts), on the same symbolic analysis (ordering, elimination
 * tree, pattern of L). It computes the same L and D (in exact arithmetic; the sums run in a
 * different order) with dense kernels on column panels.
 *
 * Algorithm (E. G. Ng and B. W. Peyton, "Block sparse Cholesky algorithms on advanced
 * uniprocessor computers", SIAM J. Sci. Comput. 14(5), 1993; J. W. H. Liu, E. G. Ng and
 * B. W. Peyton, "On finding supernodes for sparse matrix computations", SIAM J. Matrix Anal.
 * Appl. 14(1), 1993), with D in place of square roots:
 * - a supernode is a run of consecutive columns f … l−1 of L where each column's parent is the
 *   next one and its pattern is the next one's plus that next row (Lnz[j−1] = Lnz[j] + 1): the
 *   columns share one row list R_J = (f, …, l−1, rows below l−1) and are stored as one dense
 *   column-major panel of |R_J| × (l − f) numbers;
 * - left-looking: panel J is loaded with its columns of A, then receives, from every earlier
 *   supernode K with rows in f … l−1, the update −L_K D_K L_Kᵀ restricted to those columns
 *   (the (K, J) pairs and the row ranges are found once in the symbolic phase; four target
 *   columns at a time, so that each number of L_K read feeds four multiply-adds: 1.2–1.4× faster on
 *   the cloth's wide supernodes than one column at a time), then is factored
 *   densely: d_c is the pivot, column c below it is divided by d_c, and the later columns of the
 *   panel are updated (right-looking inside the panel);
 * - the solves run over the panels: L z = P b column by column, D, then Lᵀ.
 * Loading A into the panels, the updates, the dense panel factorizations and the solves run as
 * WebAssembly (./wasm/supernodal.wat) wherever WebAssembly exists: on the 100-link chain's KKT
 * matrix a solve takes 11–12 µs against 28 in JavaScript, a factorization with its loading
 * 26–28 µs (of which 2 µs copy A's values into the kernels' memory; 37 µs while the loading was
 * JavaScript). They do the
 * same operations in the same order as `factorJs` and `solveJs` (the JavaScript versions: the
 * fallback, and the tests' oracle), so for finite input they give the same bits; the kernel
 * updates one target column at a time and skips a zero multiplier, where the JavaScript version
 * takes four columns at a time, so with a NaN or infinite entry in L the panels can differ while
 * the failure report (index, pivot counts) is the same. The panels, pivots and index arrays then
 * live in the kernels' memory (one WebAssembly.Memory per factorization object; the engine
 * reserves address space for each, so after some ten thousand live ones V8 refuses another and
 * that one falls back to JavaScript).
 * A zero or non-finite pivot stops the factorization and reports its original index, as the
 * scalar factor does.
 */
import type { LdltSymbolic, LdltResult } from './ldlt.js';
import { cscMatVec, type Csc } from './csc.js';
import { TINY } from '../dense.js';
import { SUPERNODAL_WASM } from './wasm/kernels.js';
import { kernelLayout, instantiateKernels } from './wasm/instance.js';

/**
 * Entries of L below this magnitude are stored as zero (both kernels, so the two still agree; NaN
 * is kept). The couplings L holds between distant unknowns of a chain decay geometrically with
 * the distance and reached the subnormal range on the 10 000-link chain (16 564 entries with the
 * projection's curvature term), where every multiplication takes a slow path: a solve took
 * 2.25 ms against 1.54 with them flushed. The .wat writes the same number as a literal.
 */
export const L_TINY = TINY;

/** the compiled kernels of ./wasm/supernodal.wat and the byte offsets of their arrays in its memory */
interface WasmKernels {
  solvePerm: (n: number, pPerm: number, pX: number, count: number, pLx: number, pDinv: number, pW: number, pAcc: number,
    pFirst: number, pRowPtr: number, pRows: number, pPanel: number) => number;
  factor: (count: number, pLx: number, pD: number, pDinv: number, pFirst: number, pRowPtr: number, pRows: number, pPanel: number,
    pUpdPtr: number, pUpdSrc: number, pUpdBeg: number, pUpdEnd: number, pLocal: number, pRel: number, pAcc: number, pWd: number, pCounts: number) => number;
  load: (nLx: number, nSrc: number, pLx: number, pVals: number, pCPanel: number, pCSrc: number) => void;
  multiply: (n: number, pColPtr: number, pRowsA: number, pVals: number, pX: number, pY: number) => void;
  /** byte offsets of the arrays, indexed by W */
  at: Int32Array;
  /** their element counts */
  lengths: Int32Array;
  /** the kernels' memory */
  memory: ArrayBuffer;
  /** (2) positive and negative pivots of the last factorization */
  counts: Int32Array;
}

/** the kernels' arrays in their memory, in this order: the f64 arrays (Lx … assembly), then the i32 ones */
const W = {
  Lx: 0, D: 1, Dinv: 2, w: 3, acc: 4, wd: 5, vals: 6, y: 7, x: 8, assembly: 9,
  first: 10, rowPtr: 11, rows: 12, panelPtr: 13, updPtr: 14, updSource: 15, updBegin: 16, updEnd: 17, local: 18, rel: 19, counts: 20, cPanel: 21, cSrc: 22,
  colPtrA: 23, rowsA: 24, perm: 25,
} as const;
/** the first i32 array */
const W_I32 = W.first;

/** the supernode partition and panel layout of one symbolic analysis */
export class SupernodalSymbolic {
  readonly n: number;
  /** number of supernodes */
  readonly count: number;
  /** (count + 1) first column of each supernode */
  readonly first: Int32Array;
  /** (count + 1) pointers into `rows` */
  readonly rowPtr: Int32Array;
  /** row lists R_J: the supernode's own columns, then the rows below, ascending */
  readonly rows: Int32Array;
  /** (count + 1) offsets of the panels in the value array */
  readonly panelPtr: Int32Array;
  /** (nnzC) for each slot of the symbolic's C (upper triangle of P A Pᵀ), its place in the panels */
  readonly cPanel: Int32Array;
  /** (count + 1) pointers into the update lists, by target supernode */
  readonly updPtr: Int32Array;
  /** the source supernode K of each update */
  readonly updSource: Int32Array;
  /** first and one-past-last index into R_K of the rows of K that fall in the target's columns */
  readonly updBegin: Int32Array;
  readonly updEnd: Int32Array;
  /** the largest panel height, and the largest panel width (workspace sizes) */
  readonly maxRows: number;
  readonly maxCols: number;

  constructor(readonly symbolic: LdltSymbolic) {
    const { n, parent, Lnz, Lp, Li, Cp, Ci } = symbolic;
    this.n = n;
    // fundamental-type supernodes: column j joins j−1 when L's pattern nests
    const first: number[] = [];
    for (let j = 0; j < n; j++) if (j === 0 || !(parent[j - 1] === j && Lnz[j - 1] === Lnz[j]! + 1)) first.push(j);
    first.push(n);
    const count = first.length - 1;
    this.count = count;
    this.first = Int32Array.from(first);
    const snode = new Int32Array(n);
    for (let J = 0; J < count; J++) for (let j = first[J]!; j < first[J + 1]!; j++) snode[j] = J;

    // row lists and panel offsets
    const rowPtr = new Int32Array(count + 1), panelPtr = new Int32Array(count + 1);
    let maxRows = 0, maxCols = 0;
    for (let J = 0; J < count; J++) {
      const f = first[J]!, l = first[J + 1]!, nc = l - f, nr = nc + Lnz[l - 1]!;
      rowPtr[J + 1] = rowPtr[J]! + nr;
      panelPtr[J + 1] = panelPtr[J]! + nr * nc;
      if (nr > maxRows) maxRows = nr;
      if (nc > maxCols) maxCols = nc;
    }
    const rows = new Int32Array(rowPtr[count]!);
    for (let J = 0; J < count; J++) {
      const f = first[J]!, l = first[J + 1]!;
      let t = rowPtr[J]!;
      for (let j = f; j < l; j++) rows[t++] = j;
      for (let p = Lp[l - 1]!; p < Lp[l]!; p++) rows[t++] = Li[p]!;
    }
    this.rowPtr = rowPtr;
    this.rows = rows;
    this.panelPtr = panelPtr;
    this.maxRows = maxRows;
    this.maxCols = maxCols;

    // C slot (i, j), i ≤ j, is the lower entry (row j, column i): its panel place
    const local = new Int32Array(n).fill(-1);
    const cPanel = new Int32Array(symbolic.Cp[n]!);
    for (let J = 0; J < count; J++) {
      const f = first[J]!, l = first[J + 1]!, r0 = rowPtr[J]!, nr = rowPtr[J + 1]! - r0;
      for (let t = 0; t < nr; t++) local[rows[r0 + t]!] = t;
      // the slots whose column index i lies in J: scan the C columns j ≥ f that can hold them
      for (let t = 0; t < nr; t++) {
        const j = rows[r0 + t]!;
        for (let s = Cp[j]!; s < Cp[j + 1]!; s++) {
          const i = Ci[s]!;
          if (i < f || i >= l || i > j) continue;
          cPanel[s] = panelPtr[J]! + (i - f) * nr + local[j]!;
        }
      }
      for (let t = 0; t < nr; t++) local[rows[r0 + t]!] = -1;
    }
    this.cPanel = cPanel;

    // updates: the below-rows of each K, split into runs that fall in one target supernode
    const src: number[] = [], beg: number[] = [], end: number[] = [], tgt: number[] = [];
    for (let K = 0; K < count; K++) {
      const r0 = rowPtr[K]!, nc = first[K + 1]! - first[K]!, nr = rowPtr[K + 1]! - r0;
      let p = nc;
      while (p < nr) {
        const J = snode[rows[r0 + p]!]!;
        let q = p + 1;
        while (q < nr && rows[r0 + q]! < first[J + 1]!) q++;
        src.push(K); beg.push(p); end.push(q); tgt.push(J);
        p = q;
      }
    }
    // group by target (stable: sources ascending within a target)
    const updPtr = new Int32Array(count + 1);
    for (const J of tgt) updPtr[J + 1]!++;
    for (let J = 0; J < count; J++) updPtr[J + 1]! += updPtr[J]!;
    const fill = updPtr.slice(0, count), m = tgt.length;
    this.updSource = new Int32Array(m); this.updBegin = new Int32Array(m); this.updEnd = new Int32Array(m);
    for (let u = 0; u < m; u++) {
      const at = fill[tgt[u]!]!++;
      this.updSource[at] = src[u]!; this.updBegin[at] = beg[u]!; this.updEnd[at] = end[u]!;
    }
    this.updPtr = updPtr;
  }
}

/** numeric supernodal factor on a fixed analysis; factor and solve do not allocate */
export class SupernodalLdlt {
  /** the panels, column-major, one after another */
  readonly Lx: Float64Array;
  /** (n) pivots, in permuted order */
  readonly D: Float64Array;
  /** (n) their reciprocals (the solves multiply) */
  private readonly Dinv: Float64Array;
  readonly result: LdltResult = { ok: false, positive: 0, negative: 0, zeroAt: -1 };
  private readonly local: Int32Array;   // (n) row → index in the current target's row list
  private readonly acc: Float64Array;   // (maxRows) one update column; the rows below a panel in the solves
  private readonly rel: Int32Array;     // (maxRows) index in the target's row list of each row of a source
  private readonly wd: Float64Array;    // (maxCols) D_K times one row of L_K
  private readonly wd2: Float64Array;   // (maxCols) the same for the second to fourth target column of a block
  private readonly wd3: Float64Array;
  private readonly wd4: Float64Array;
  private readonly acc2: Float64Array;  // (maxRows) the second to fourth update column of a block
  private readonly acc3: Float64Array;
  private readonly acc4: Float64Array;
  private readonly w: Float64Array;     // (n) solve vector
  private readonly vals: Float64Array;  // (nnzA) the values of the last factorization unless it was `assembly`'s (in the kernels' memory with WebAssembly): load and multiply read them
  private readonly assembly: Float64Array; // (nnzA) a second input buffer a caller may assemble A in (assemblyBuffer)
  private readonly input: Csc;          // the input matrix over vals (multiply in JavaScript)
  private readonly inputAssembly: Csc;  // the same over assembly
  private fromAssembly = false;         // the last factorization read `assembly` (multiply reads it too)
  private readonly y: Float64Array;     // (n) the product of multiply (in the kernels' memory; empty without WebAssembly)
  private readonly x: Float64Array;     // (n) the right-hand side and solution of a solve, unpermuted (likewise)
  /** false when the last solve's result has a non-finite entry */
  finite = true;
  private readonly kernel: WasmKernels | null;

  /** `wasm` false keeps everything in JavaScript (default: WebAssembly where it exists) */
  constructor(readonly sn: SupernodalSymbolic, opts: { wasm?: boolean } = {}) {
    const n = sn.n, nLx = sn.panelPtr[sn.count]!, nAcc = Math.max(1, sn.maxRows);
    this.kernel = opts.wasm !== false && typeof WebAssembly === 'object' ? SupernodalLdlt.instantiate(sn, nLx, nAcc) : null;
    if (this.kernel) {
      // the panels, pivots and solve vectors are views of the kernels' memory
      const k = this.kernel, mem = k.memory;
      this.Lx = new Float64Array(mem, k.at[W.Lx]!, nLx);
      this.D = new Float64Array(mem, k.at[W.D]!, n);
      this.Dinv = new Float64Array(mem, k.at[W.Dinv]!, n);
      this.w = new Float64Array(mem, k.at[W.w]!, n);
      this.acc = new Float64Array(mem, k.at[W.acc]!, nAcc);
      this.vals = new Float64Array(mem, k.at[W.vals]!, sn.symbolic.nnzA);
      this.assembly = new Float64Array(mem, k.at[W.assembly]!, sn.symbolic.nnzA);
      this.y = new Float64Array(mem, k.at[W.y]!, n);
      this.x = new Float64Array(mem, k.at[W.x]!, n);
    } else {
      this.Lx = new Float64Array(nLx);
      this.D = new Float64Array(n);
      this.Dinv = new Float64Array(n);
      this.w = new Float64Array(n);
      this.acc = new Float64Array(nAcc);
      this.vals = new Float64Array(sn.symbolic.nnzA);
      this.assembly = new Float64Array(sn.symbolic.nnzA);
      this.y = new Float64Array(0);
      this.x = new Float64Array(0);
    }
    this.input = { n, colPtr: sn.symbolic.colPtr, rowIdx: sn.symbolic.rowIdx, values: this.vals };
    this.inputAssembly = { n, colPtr: sn.symbolic.colPtr, rowIdx: sn.symbolic.rowIdx, values: this.assembly };
    this.local = new Int32Array(sn.n);
    this.rel = new Int32Array(Math.max(1, sn.maxRows));
    this.wd = new Float64Array(Math.max(1, sn.maxCols));
    this.wd2 = new Float64Array(Math.max(1, sn.maxCols));
    this.wd3 = new Float64Array(Math.max(1, sn.maxCols));
    this.wd4 = new Float64Array(Math.max(1, sn.maxCols));
    this.acc2 = new Float64Array(Math.max(1, sn.maxRows));
    this.acc3 = new Float64Array(Math.max(1, sn.maxRows));
    this.acc4 = new Float64Array(Math.max(1, sn.maxRows));
  }

  /**
   * Compiles ./wasm/supernodal.wat (its bytes, kernels.ts) into an instance with a memory of its
   * own, sized for this analysis, and copies the index arrays there; null if that fails
   */
  private static instantiate(sn: SupernodalSymbolic, nLx: number, nAcc: number): WasmKernels | null {
    const n = sn.n, nu = sn.updSource.length, nc1 = sn.count + 1;
    // element counts in the order of W (f64: 8 bytes, i32: 4), each start 8-byte aligned
    const nA = Math.max(1, sn.symbolic.nnzA), nS = Math.max(1, sn.cPanel.length);
    const lengths = [nLx, n, n, n, nAcc, Math.max(1, sn.maxCols), nA, n, n, nA, nc1, nc1, sn.rows.length, nc1, nc1, nu, nu, nu, n, nAcc, 2, nS, nS, n + 1, nA, n];
    const { offsets, bytes } = kernelLayout(lengths, W_I32);
    // compilation or memory can be refused: JavaScript then
    const inst = instantiateKernels(SUPERNODAL_WASM, bytes, ['solvePerm', 'factor', 'load', 'multiply']);
    if (!inst) return null;
    const ex = inst.exports;
    // the index arrays, copied once
    const buf = inst.memory, put = (slot: number, a: Int32Array) => new Int32Array(buf, offsets[slot]!, a.length).set(a);
    put(W.first, sn.first); put(W.rowPtr, sn.rowPtr); put(W.rows, sn.rows); put(W.panelPtr, sn.panelPtr);
    put(W.updPtr, sn.updPtr); put(W.updSource, sn.updSource); put(W.updBegin, sn.updBegin); put(W.updEnd, sn.updEnd);
    put(W.cPanel, sn.cPanel); put(W.cSrc, sn.symbolic.Csrc);
    put(W.colPtrA, sn.symbolic.colPtr); put(W.rowsA, sn.symbolic.rowIdx); put(W.perm, sn.symbolic.perm);
    return {
      solvePerm: ex['solvePerm'] as WasmKernels['solvePerm'], factor: ex['factor'] as WasmKernels['factor'], load: ex['load'] as WasmKernels['load'],
      multiply: ex['multiply'] as WasmKernels['multiply'], lengths: Int32Array.from(lengths),
      at: offsets, memory: buf, counts: new Int32Array(buf, offsets[W.counts]!, 2),
    };
  }

  /** where the kernels' arrays are (byte offsets and element counts, in the order of `W`), null without WebAssembly: for tests */
  get wasmLayout(): { names: readonly string[]; offsets: Int32Array; lengths: Int32Array; bytes: number } | null {
    const k = this.kernel;
    return k ? { names: Object.keys(W), offsets: k.at, lengths: k.lengths, bytes: k.memory.byteLength } : null;
  }

  /**
   * (nnzA) the array `factor` copies its values into (in the kernels' memory with WebAssembly):
   * a caller that assembles the values there and passes this array to `factor` saves the copy.
   * `multiply` reads the buffer the last factorization read (this one or `assemblyBuffer`): do
   * not write it between a factorization and the refined solves that use it.
   */
  get valueBuffer(): Float64Array { return this.vals; }

  /**
   * (nnzA, zeros until written) a second array `factor` reads in place, for a matrix kept assembled
   * between factorizations while others are formed in `valueBuffer` (the workspace's M + G)
   */
  get assemblyBuffer(): Float64Array { return this.assembly; }

  /** true when the factorization and solve run as WebAssembly */
  get usesWasm(): boolean { return this.kernel !== null; }

  /** factors P A Pᵀ = L D Lᵀ from the full input values (nnzA, parallel to the input pattern) */
  factor(values: Float64Array): LdltResult {
    const k = this.kernel;
    if (!k) return this.factorJs(values);
    // A's values into the kernels' memory (a copy, by begin, unless they are there already), loaded into the panels there
    const a = k.at, res = this.result;
    this.begin(values);
    k.load(this.Lx.length, this.sn.cPanel.length, a[W.Lx]!, a[this.fromAssembly ? W.assembly : W.vals]!, a[W.cPanel]!, a[W.cSrc]!);
    // the updates and the dense panel factorizations in WebAssembly
    const failed = k.factor(this.sn.count, a[W.Lx]!, a[W.D]!, a[W.Dinv]!, a[W.first]!, a[W.rowPtr]!, a[W.rows]!, a[W.panelPtr]!,
      a[W.updPtr]!, a[W.updSource]!, a[W.updBegin]!, a[W.updEnd]!, a[W.local]!, a[W.rel]!, a[W.acc]!, a[W.wd]!, a[W.counts]!);
    res.positive = k.counts[0]!; res.negative = k.counts[1]!;
    if (failed >= 0) { res.zeroAt = this.sn.symbolic.perm[failed]!; return res; }
    res.ok = true;
    return res;
  }

  /** checks that values cover the pattern, keeps a copy of them (for load and multiply) unless they are one of the two buffers, and resets the result */
  private begin(values: Float64Array): void {
    const nA = this.sn.symbolic.nnzA, res = this.result;
    if (values.length < nA) throw new Error('SupernodalLdlt.factor: values shorter than the pattern');
    // values written straight into `valueBuffer` or `assemblyBuffer` need no copy
    this.fromAssembly = values === this.assembly;
    if (values !== this.vals && !this.fromAssembly) {
      if (values.length === nA) this.vals.set(values);
      else for (let i = 0; i < nA; i++) this.vals[i] = values[i]!;
    }
    res.ok = false; res.positive = 0; res.negative = 0; res.zeroAt = -1;
  }

  /**
   * out ← A x for the matrix of the last factorization (the current contents of the buffer it
   * read, in the input pattern): the residuals of the solves that polish this factorization's answers. The
   * operations and their order are cscMatVec's, in WebAssembly or JavaScript alike.
   */
  multiply(out: Float64Array, x: Float64Array): Float64Array {
    const sym = this.sn.symbolic, n = sym.n, k = this.kernel;
    if (!this.result.ok) throw new Error('SupernodalLdlt.multiply: no successful factorization');
    if (x.length < n || out.length < n) throw new Error(`SupernodalLdlt.multiply: vectors shorter than the matrix (${n})`);
    if (k) {
      // x into the solve vector's place (free between solves), the product back from y
      const a = k.at, w = this.w, y = this.y;
      for (let i = 0; i < n; i++) w[i] = x[i]!;
      k.multiply(n, a[W.colPtrA]!, a[W.rowsA]!, a[this.fromAssembly ? W.assembly : W.vals]!, a[W.w]!, a[W.y]!);
      for (let i = 0; i < n; i++) out[i] = y[i]!;
      return out;
    }
    return cscMatVec(out, this.fromAssembly ? this.inputAssembly : this.input, x);
  }

  /** resets the result and loads A into the panels (zero elsewhere) in JavaScript: factorJs's loading */
  private load(values: Float64Array): void {
    const cPanel = this.sn.cPanel, Csrc = this.sn.symbolic.Csrc, Lx = this.Lx;
    this.begin(values);
    Lx.fill(0);
    for (let s = 0; s < cPanel.length; s++) Lx[cPanel[s]!]! += values[Csrc[s]!]!;
  }

  /**
   * `factor` in JavaScript: the fallback, and the tests' oracle for the WebAssembly kernel (which
   * sums the same products in the same order, one target column at a time where this takes four)
   */
  factorJs(values: Float64Array): LdltResult {
    const sn = this.sn, sym = sn.symbolic, { count, first, rowPtr, rows, panelPtr, updPtr, updSource, updBegin, updEnd } = sn;
    const { Lx, D, Dinv, local, acc, acc2, acc3, acc4, wd, wd2, wd3, wd4, rel } = this, res = this.result, perm = sym.perm;
    this.load(values);
    for (let J = 0; J < count; J++) {
      const f = first[J]!, nc = first[J + 1]! - f, r0 = rowPtr[J]!, nr = rowPtr[J + 1]! - r0, b = panelPtr[J]!;
      for (let t = 0; t < nr; t++) local[rows[r0 + t]!] = t;
      // updates from earlier supernodes: column R_K[p] of J gets −Σ_t L_K[p', t] D_K[t] L_K[p, t] on rows R_K[p'], p' ≥ p
      for (let e = updPtr[J]!; e < updPtr[J + 1]!; e++) {
        const K = updSource[e]!, p1 = updBegin[e]!, p2 = updEnd[e]!;
        const fK = first[K]!, ncK = first[K + 1]! - fK, rK = rowPtr[K]!, nrK = rowPtr[K + 1]! - rK, bK = panelPtr[K]!;
        // where K's rows p1 … land in J's row list
        for (let q = p1; q < nrK; q++) rel[q] = local[rows[rK + q]!]!;
        let p = p1;
        // four target columns at a time: each number of the source panel read once feeds all four
        for (; p + 3 < p2; p += 4) {
          for (let t = 0; t < ncK; t++) {
            const d = D[fK + t]!, col = bK + t * nrK;
            wd[t] = d * Lx[col + p]!; wd2[t] = d * Lx[col + p + 1]!; wd3[t] = d * Lx[col + p + 2]!; wd4[t] = d * Lx[col + p + 3]!;
          }
          for (let q = p; q < nrK; q++) { acc[q] = 0; acc2[q] = 0; acc3[q] = 0; acc4[q] = 0; }
          for (let t = 0; t < ncK; t++) {
            const w1 = wd[t]!, w2 = wd2[t]!, w3 = wd3[t]!, w4 = wd4[t]!, col = bK + t * nrK;
            // the leading triangle (rows p … p+2 reach only the columns at or before them)
            const l0 = Lx[col + p]!, l1 = Lx[col + p + 1]!, l2 = Lx[col + p + 2]!;
            acc[p]! += l0 * w1;
            acc[p + 1]! += l1 * w1; acc2[p + 1]! += l1 * w2;
            acc[p + 2]! += l2 * w1; acc2[p + 2]! += l2 * w2; acc3[p + 2]! += l2 * w3;
            for (let q = p + 3; q < nrK; q++) {
              const l = Lx[col + q]!;
              acc[q]! += l * w1; acc2[q]! += l * w2; acc3[q]! += l * w3; acc4[q]! += l * w4;
            }
          }
          const d1 = b + rel[p]! * nr, d2 = b + rel[p + 1]! * nr, d3 = b + rel[p + 2]! * nr, d4 = b + rel[p + 3]! * nr;
          for (let q = p; q < nrK; q++) Lx[d1 + rel[q]!]! -= acc[q]!;
          for (let q = p + 1; q < nrK; q++) Lx[d2 + rel[q]!]! -= acc2[q]!;
          for (let q = p + 2; q < nrK; q++) Lx[d3 + rel[q]!]! -= acc3[q]!;
          for (let q = p + 3; q < nrK; q++) Lx[d4 + rel[q]!]! -= acc4[q]!;
        }
        for (; p < p2; p++) {
          for (let t = 0; t < ncK; t++) wd[t] = D[fK + t]! * Lx[bK + t * nrK + p]!;
          for (let q = p; q < nrK; q++) acc[q] = 0;
          for (let t = 0; t < ncK; t++) {
            const wt = wd[t]!, col = bK + t * nrK;
            if (wt === 0) continue;
            for (let q = p; q < nrK; q++) acc[q]! += Lx[col + q]! * wt;
          }
          const dst = b + rel[p]! * nr;
          for (let q = p; q < nrK; q++) Lx[dst + rel[q]!]! -= acc[q]!;
        }
      }
      // dense LDLᵀ of the panel
      for (let c = 0; c < nc; c++) {
        const cb = b + c * nr, d = Lx[cb + c]!;
        if (d === 0 || !Number.isFinite(d)) { res.zeroAt = perm[f + c]!; return res; }
        const di = 1 / d;
        D[f + c] = d;
        Dinv[f + c] = di;
        if (d > 0) res.positive++; else res.negative++;
        // later columns of the panel: P[r, c2] −= P[r, c] P[c2, c] / d
        for (let c2 = c + 1; c2 < nc; c2++) {
          const coef = Lx[cb + c2]! * di;
          if (coef === 0) continue;
          const cb2 = b + c2 * nr;
          for (let r = c2; r < nr; r++) Lx[cb2 + r]! -= Lx[cb + r]! * coef;
        }
        // (an entry below L_TINY is flushed to zero: see L_TINY)
        for (let r = c + 1; r < nr; r++) { const v = Lx[cb + r]! * di; Lx[cb + r] = v < L_TINY && v > -L_TINY ? 0 : v; }
      }
    }
    res.ok = true;
    return res;
  }

  /** x ← A⁻¹ x in place (x: n), using the last successful factorization */
  solve(x: Float64Array): Float64Array {
    const k = this.kernel;
    if (!k) return this.solveJs(x);
    if (!this.result.ok) throw new Error('SupernodalLdlt.solve: no successful factorization');
    const a = k.at, n = this.sn.n, xk = this.x;
    if (x.length < n) throw new Error(`SupernodalLdlt.solve: x has ${x.length} entries, the matrix ${n}`);
    // x into the kernels' memory as it is (copies, no index arithmetic here), permuted there: w = P x, then x = Pᵀ w
    if (x.length === n) xk.set(x);
    else for (let i = 0; i < n; i++) xk[i] = x[i]!;
    this.finite = k.solvePerm(n, a[W.perm]!, a[W.x]!, this.sn.count, a[W.Lx]!, a[W.Dinv]!, a[W.w]!, a[W.acc]!,
      a[W.first]!, a[W.rowPtr]!, a[W.rows]!, a[W.panelPtr]!) === 0;
    if (x.length === n) x.set(xk);
    else for (let i = 0; i < n; i++) x[i] = xk[i]!;
    return x;
  }

  /** `solve` in JavaScript: the same operations in the same order as the WebAssembly kernel */
  solveJs(x: Float64Array): Float64Array {
    if (!this.result.ok) throw new Error('SupernodalLdlt.solve: no successful factorization');
    if (x.length < this.sn.n) throw new Error(`SupernodalLdlt.solve: x has ${x.length} entries, the matrix ${this.sn.n}`);
    const sn = this.sn, { count, first, rowPtr, rows, panelPtr } = sn, perm = sn.symbolic.perm, n = sn.n;
    const { Lx, Dinv, w, acc } = this;
    for (let k = 0; k < n; k++) w[k] = x[perm[k]!]!;
    // L z = w: the panel's triangle in place, then its rows below gathered in acc and scattered once
    for (let J = 0; J < count; J++) {
      const f = first[J]!, nc = first[J + 1]! - f, r0 = rowPtr[J]!, nr = rowPtr[J + 1]! - r0, b = panelPtr[J]!;
      for (let r = nc; r < nr; r++) acc[r] = 0;
      for (let c = 0; c < nc; c++) {
        const xc = w[f + c]!;
        if (xc === 0) continue;
        const cb = b + c * nr;
        for (let r = c + 1; r < nc; r++) w[f + r]! -= Lx[cb + r]! * xc;
        for (let r = nc; r < nr; r++) acc[r]! += Lx[cb + r]! * xc;
      }
      for (let r = nc; r < nr; r++) w[rows[r0 + r]!]! -= acc[r]!;
    }
    // D, then Lᵀ v = z: the rows below gathered once, then the panel's triangle backwards
    for (let J = count - 1; J >= 0; J--) {
      const f = first[J]!, nc = first[J + 1]! - f, r0 = rowPtr[J]!, nr = rowPtr[J + 1]! - r0, b = panelPtr[J]!;
      for (let r = nc; r < nr; r++) acc[r] = w[rows[r0 + r]!]!;
      for (let c = nc - 1; c >= 0; c--) {
        const cb = b + c * nr;
        let s = w[f + c]! * Dinv[f + c]!;
        for (let r = c + 1; r < nc; r++) s -= Lx[cb + r]! * w[f + r]!;
        for (let r = nc; r < nr; r++) s -= Lx[cb + r]! * acc[r]!;
        w[f + c] = s;
      }
    }
    let bad = false;
    for (let k = 0; k < n; k++) { const v = w[k]!; x[perm[k]!] = v; if (v - v !== 0) bad = true; }
    this.finite = !bad;
    return x;
  }
}
