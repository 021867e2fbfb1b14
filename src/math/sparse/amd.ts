/**
 * Approximate Minimum Degree (AMD) fill-reducing ordering.
 *
 * Algorithm: P. R. Amestoy, T. A. Davis and I. S. Duff, "An approximate minimum
 * degree ordering algorithm", SIAM J. Matrix Anal. Appl. 17(4):886–905, 1996
 * (Algorithm 2 there). Written from the paper's description; summary:
 *
 * - Quotient graph. Every node is a *variable* (not yet eliminated) or an
 *   *element* (an eliminated pivot standing for the clique it created). A variable
 *   i keeps A_i (adjacent variables not covered by an element) and E_i (adjacent
 *   elements); an element e keeps L_e (its variables). Variables are grouped into
 *   supervariables of weight |i| = nv[i]; only principal variables are stored.
 * - Step: take a variable p of least approximate external degree; form
 *   L_p = (A_p ∪ ⋃_{e∈E_p} L_e) \ {p}; p becomes an element and every e ∈ E_p is
 *   absorbed into it (element absorption).
 * - Degree update for each i ∈ L_p. A first scan gives w(e) = |L_e \ L_p| for every
 *   element e adjacent to L_p (start at |L_e|, subtract |i| for each i ∈ L_e ∩ L_p).
 *   A second scan prunes A_i ← A_i \ L_p, E_i ← (E_i \ E_p) ∪ {p} and sets
 *     d_i = min( n_left − |i|,  d_i^old + |L_p \ i|,
 *                |A_i| + |L_p \ i| + Σ_{e ∈ E_i \ p} |L_e \ L_p| ),
 *   an upper bound on the true external degree (eq. (4) of the paper).
 *   Elements with w(e) = 0 satisfy L_e ⊆ L_p and are absorbed too (aggressive
 *   absorption, always on here).
 * - Mass elimination: a variable i ∈ L_p left with A_i = ∅ and E_i = {p} is
 *   eliminated together with p (it adds no fill).
 * - Supervariable detection: variables of L_p with equal hash Σ A_i + Σ E_i are
 *   compared; indistinguishable ones (same A_i and E_i) are merged.
 * - Dense rows (degree > max(16, α√n), α = 10 as in the AMD package, Amestoy, Davis
 *   and Duff, ACM TOMS 30(3), 2004) are removed before the start and ordered last.
 *
 * The input is the pattern of a square matrix in CSC form; the pattern is used as
 * the one of A + Aᵀ, the diagonal and duplicates are ignored. The output `perm`
 * lists the old indices in pivot order (perm[k] = old index of pivot k). Members of
 * a supervariable, and variables mass-eliminated with a pivot, are ordered
 * consecutively. The ordering is deterministic.
 */

export interface AmdOptions {
  /** dense-row factor α: rows of degree > max(16, α√n) are ordered last; negative disables (default 10) */
  denseAlpha?: number;
}

// node states
const VAR = 0; // principal variable, not yet eliminated
const ELEM = 1; // live element
const DEAD_ELEM = 2; // element absorbed into a later one
const MERGED = 3; // non-principal member of a supervariable
const ELIMINATED = 4; // variable eliminated (by mass elimination) with a pivot
const DENSE = 5; // dense row, ordered last

const EMPTY: number[] = [];

/** approximate minimum degree ordering of the n×n pattern (colPtr: n+1, rowIdx: nnz) */
export function amdOrder(n: number, colPtr: Int32Array, rowIdx: Int32Array, opts: AmdOptions = {}): Int32Array {
  const perm = new Int32Array(n);
  if (n === 0) return perm;
  const g = buildGraph(n, colPtr, rowIdx, opts.denseAlpha ?? 10);
  const { kind, vlist } = g;
  // elist[i]: E_i (elements adjacent to variable i)
  const elist: number[][] = new Array<number[]>(n);
  // nv[i]: weight of supervariable i (0 once merged / eliminated)
  const nv = new Int32Array(n);
  // deg[i]: approximate external degree; esize[e]: |L_e| (weighted)
  const deg = new Int32Array(n);
  const esize = new Int32Array(n);
  // degree buckets: doubly linked lists head[d] -> next/prev
  const head = new Int32Array(n + 1).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  // mark[i] === tag: i ∈ L_p ∪ {p} in the current step
  const mark = new Int32Array(n).fill(-1);
  // wStamp[e] === tag: wVal[e] = |L_e \ L_p| in the current step
  const wStamp = new Int32Array(n).fill(-1);
  const wVal = new Int32Array(n);
  // dext[i]: |A_i| + Σ |L_e \ L_p| of the current step; hash[i]: Σ A_i + Σ E_i
  const dext = new Int32Array(n);
  const hash = new Float64Array(n);
  // hash buckets (bucket = hash mod n) and a stamp array for set comparisons
  const hhead = new Int32Array(n).fill(-1);
  const hnext = new Int32Array(n).fill(-1);
  const cmp = new Int32Array(n).fill(-1);
  let cmpTag = 0;
  // member chains of supervariables: chainNext[i], chainTail[head]
  const chainNext = new Int32Array(n).fill(-1);
  const chainTail = new Int32Array(n);
  let out = 0;
  let mindeg = n;
  let nleft = 0;

  // degree-bucket helpers
  const insert = (i: number, d: number): void => {
    prev[i] = -1;
    next[i] = head[d];
    if (head[d] >= 0) prev[head[d]] = i;
    head[d] = i;
    if (d < mindeg) mindeg = d;
  };
  const remove = (i: number): void => {
    if (prev[i] >= 0) next[prev[i]] = next[i]; else head[deg[i]] = next[i];
    if (next[i] >= 0) prev[next[i]] = prev[i];
    prev[i] = next[i] = -1;
  };
  const emit = (i: number): void => {
    for (let v = i; v >= 0; v = chainNext[v]) perm[out++] = v;
  };

  // initial quotient graph: no elements, unit supervariables
  for (let i = 0; i < n; i++) {
    elist[i] = [];
    chainTail[i] = i;
    if (kind[i] === DENSE) continue;
    nv[i] = 1;
    nleft++;
    deg[i] = vlist[i].length;
    insert(i, deg[i]);
  }

  for (let tag = 0; nleft > 0; tag++) {
    // select a pivot of least approximate degree
    while (head[mindeg] < 0) mindeg++;
    const p = head[mindeg];
    remove(p);
    const nvp = nv[p];
    mark[p] = tag;

    // L_p = (A_p ∪ L_e for e ∈ E_p) \ p; absorb the elements of E_p
    const Lp: number[] = [];
    let lpw = 0;
    const addToLp = (i: number): void => {
      if (kind[i] !== VAR || mark[i] === tag) return;
      mark[i] = tag;
      Lp.push(i);
      lpw += nv[i];
      remove(i);
    };
    for (const e of elist[p]) {
      if (kind[e] !== ELEM) continue;
      for (const i of vlist[e]) addToLp(i);
      kind[e] = DEAD_ELEM;
      vlist[e] = EMPTY;
    }
    for (const i of vlist[p]) addToLp(i);

    // p becomes an element
    kind[p] = ELEM;
    vlist[p] = Lp;
    elist[p] = EMPTY;
    esize[p] = lpw;
    nleft -= nvp;
    emit(p);

    // first scan: wVal[e] = |L_e \ L_p| for every element adjacent to L_p
    for (const i of Lp) {
      for (const e of elist[i]) {
        if (kind[e] !== ELEM) continue;
        if (wStamp[e] !== tag) {
          wStamp[e] = tag;
          wVal[e] = esize[e];
        }
        wVal[e] -= nv[i];
      }
    }

    // second scan: prune E_i and A_i, external degree sums, hashes, mass elimination
    let massw = 0;
    for (const i of Lp) {
      let dsum = 0;
      let h = 0;
      const E = elist[i];
      let ne = 0;
      for (const e of E) {
        if (kind[e] !== ELEM) continue;
        const we = wVal[e];
        if (we <= 0) {
          // aggressive absorption: L_e ⊆ L_p
          kind[e] = DEAD_ELEM;
          vlist[e] = EMPTY;
          continue;
        }
        E[ne++] = e;
        dsum += we;
        h += e;
      }
      E.length = ne;
      const A = vlist[i];
      let na = 0;
      for (const j of A) {
        if (kind[j] !== VAR || mark[j] === tag) continue;
        A[na++] = j;
        dsum += nv[j];
        h += j;
      }
      A.length = na;
      if (ne === 0 && na === 0) {
        // mass elimination: i is adjacent to p only
        kind[i] = ELIMINATED;
        massw += nv[i];
        nv[i] = 0;
        elist[i] = EMPTY;
        vlist[i] = EMPTY;
        emit(i);
        continue;
      }
      E.push(p);
      dext[i] = dsum;
      hash[i] = h;
    }
    esize[p] -= massw;
    nleft -= massw;

    // supervariable detection: bucket the remaining variables of L_p by hash
    for (const i of Lp) {
      if (kind[i] !== VAR) continue;
      const b = hash[i] % n;
      hnext[i] = hhead[b];
      hhead[b] = i;
    }
    for (const i of Lp) {
      if (kind[i] !== VAR) continue;
      const b = hash[i] % n;
      const first = hhead[b];
      if (first < 0) continue;
      hhead[b] = -1;
      for (let a = first; a >= 0; a = hnext[a]) {
        if (kind[a] !== VAR) continue;
        // stamp the sets of a, then compare each later candidate c against them
        cmpTag++;
        for (const e of elist[a]) cmp[e] = cmpTag;
        for (const j of vlist[a]) cmp[j] = cmpTag;
        for (let c = hnext[a]; c >= 0; c = hnext[c]) {
          if (kind[c] !== VAR || hash[c] !== hash[a]) continue;
          if (!sameSets(cmp, cmpTag, elist[a], vlist[a], elist[c], vlist[c])) continue;
          // merge c into a
          nv[a] += nv[c];
          nv[c] = 0;
          kind[c] = MERGED;
          elist[c] = EMPTY;
          vlist[c] = EMPTY;
          chainNext[chainTail[a]] = c;
          chainTail[a] = chainTail[c];
        }
      }
    }

    // final approximate degrees; L_p keeps its principal variables only
    let nl = 0;
    for (const i of Lp) {
      if (kind[i] !== VAR) continue;
      Lp[nl++] = i;
      const ext = esize[p] - nv[i];
      const d = Math.min(deg[i] + ext, dext[i] + ext, nleft - nv[i]);
      deg[i] = d;
      insert(i, d);
    }
    Lp.length = nl;
  }

  // dense rows last, in index order
  for (let i = 0; i < n; i++) if (kind[i] === DENSE) perm[out++] = i;
  if (out !== n) throw new Error(`amdOrder: internal error, ordered ${out} of ${n} nodes`);
  return perm;
}

/** true if (Ec, Ac) equals the stamped sets (Ea, Aa): same sizes and every entry stamped */
function sameSets(
  cmp: Int32Array, tag: number, Ea: number[], Aa: number[], Ec: number[], Ac: number[],
): boolean {
  if (Ea.length !== Ec.length || Aa.length !== Ac.length) return false;
  for (const e of Ec) if (cmp[e] !== tag) return false;
  for (const j of Ac) if (cmp[j] !== tag) return false;
  return true;
}

/** node states and adjacency lists (vlist[i]: neighbours of i in A + Aᵀ, no diagonal, no dense rows) */
function buildGraph(
  n: number, colPtr: Int32Array, rowIdx: Int32Array, denseAlpha: number,
): { kind: Uint8Array; vlist: number[][] } {
  // validate the pattern
  if (colPtr.length < n + 1 || colPtr[0] !== 0) throw new Error('amdOrder: colPtr must have n+1 entries starting at 0');
  for (let j = 0; j < n; j++) {
    if (colPtr[j + 1] < colPtr[j]) throw new Error(`amdOrder: colPtr decreases at column ${j}`);
  }
  if (rowIdx.length < colPtr[n]) throw new Error('amdOrder: rowIdx shorter than colPtr[n]');
  // symmetric adjacency, sorted, without duplicates or diagonal (so equivalent inputs give the same ordering)
  const vlist: number[][] = new Array<number[]>(n);
  for (let i = 0; i < n; i++) vlist[i] = [];
  const seen = new Int32Array(n).fill(-1);
  for (let j = 0; j < n; j++) {
    for (let k = colPtr[j]; k < colPtr[j + 1]; k++) {
      const i = rowIdx[k];
      if (i < 0 || i >= n) throw new Error(`amdOrder: row index ${i} out of range in column ${j}`);
      if (i === j) continue;
      vlist[j].push(i);
      vlist[i].push(j);
    }
  }
  for (let i = 0; i < n; i++) {
    const list = vlist[i];
    let m = 0;
    for (const j of list) {
      if (seen[j] === i) continue;
      seen[j] = i;
      list[m++] = j;
    }
    list.length = m;
    list.sort((a, b) => a - b);
  }
  // dense rows: removed from the graph and ordered last
  const kind = new Uint8Array(n);
  if (denseAlpha >= 0) {
    const dense = Math.min(n, Math.max(16, denseAlpha * Math.sqrt(n)));
    let any = false;
    for (let i = 0; i < n; i++) {
      if (vlist[i].length > dense) { kind[i] = DENSE; any = true; }
    }
    if (any) {
      for (let i = 0; i < n; i++) {
        if (kind[i] === DENSE) { vlist[i] = []; continue; }
        vlist[i] = vlist[i].filter((j) => kind[j] !== DENSE);
      }
    }
  }
  return { kind, vlist };
}
