/**
 * Tests of the sparse LDLᵀ factorization for quasi-definite KKT matrices
 * [[H, Gᵀ], [G, −R]], of iterative refinement, and of the CSC helpers, against
 * the dense kernels (LU with partial pivoting as the oracle).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { luDense, luSolveDense, matVecDense } from '../../../src/math/dense.js';
import {
  type Csc, cscFromDense, cscMatVec, cscSymmetrizeValues, cscToDense, cscTransposeMap,
} from '../../../src/math/sparse/csc.js';
import {
  LdltNumeric, LdltSymbolic, checkInertia, patternSignature,
} from '../../../src/math/sparse/ldlt.js';
import { refineSolve } from '../../../src/math/sparse/refine.js';
import { rng, maxAbs, maxAbsDiff } from '../../helpers/numeric.js';
import { shuffled, makeKkt, kktArb, orderingOptions, backwardError, orderingGrowth, normInfDense } from '../../helpers/kkt.js';


function relResidual(A: Csc, x: Float64Array, b: Float64Array): number {
  const Ax = cscMatVec(new Float64Array(A.n), A, x);
  return maxAbsDiff(Ax, b) / Math.max(maxAbs(b), Number.MIN_VALUE);
}

/** dense L of the scalar factor */
function denseL(num: LdltNumeric): Float64Array {
  const { n, Lp } = num.symbolic;
  const L = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    L[j * n + j] = 1;
    for (let p = Lp[j]!; p < Lp[j + 1]!; p++) L[num.Li[p]! * n + j] = num.Lx[p]!;
  }
  return L;
}

function randomVector(n: number, rand: () => number): Float64Array {
  return Float64Array.from({ length: n }, () => 2 * rand() - 1);
}

/** factors, solves and refines K x = b; returns x, the residual, the first solve's residual and its max |x| */
function solveAndRefine(num: LdltNumeric, A: Csc, b: Float64Array, maxIter = 10) {
  const n = A.n;
  const x = b.slice();
  num.solve(x);
  const first = relResidual(A, x, b), firstMax = maxAbs(x);
  const result = refineSolve(
    (out, v) => cscMatVec(out, A, v), (v) => num.solve(v), b, x, new Float64Array(n), new Float64Array(n), { maxIter },
  );
  return { x, first, firstMax, result };
}

const arb = kktArb(40, 20, 30);

describe('LdltSymbolic / LdltNumeric on quasi-definite KKT matrices', () => {
  it('matches dense LU, refines to 1e-12 and has inertia (n_H, m), with AMD, natural and random orders', () => {
    fc.assert(fc.property(arb, ({ nH, mRaw, densityPct, patSeed, valSeed, rMode, ordering }) => {
      const m = Math.min(mRaw, nH);
      const patRand = rng(patSeed);
      const kkt = makeKkt(patRand, rng(valSeed), nH, m, densityPct / 100, rMode);
      const { n, csc } = kkt;
      const sym = new LdltSymbolic(n, csc.colPtr, csc.rowIdx, orderingOptions(kkt, ordering, patRand));
      const num = new LdltNumeric(sym);
      const res = num.factor(csc.values);
      expect(res.ok).toBe(true);
      expect(res.positive).toBe(nH);
      expect(res.negative).toBe(m);
      expect(checkInertia(res, nH, m)).toBeNull();
      if (n <= 30) expect(backwardError(denseL(num), num.D, sym.perm, kkt.K, n)).toBeLessThanOrEqual(4 * n * Number.EPSILON);
      // solve + refinement against dense LU
      const b = randomVector(n, rng(valSeed ^ 0x5bd1e995));
      const { x, first, firstMax, result } = solveAndRefine(num, csc, b);
      // one solve is backward stable up to the growth ρ of this ordering (from an independent dense
      // LDLᵀ): ‖b − K x̂‖ ≤ γ₃ₙ ρ ‖K‖ ‖x̂‖
      const rho = orderingGrowth(kkt.K, n, sym.perm)!;
      expect(first * maxAbs(b)).toBeLessThanOrEqual(3 * n * Number.EPSILON * rho * normInfDense(kkt.K, n) * firstMax);
      expect(result.residual).toBeLessThanOrEqual(1e-12);
      expect(relResidual(csc, x, b)).toBeLessThanOrEqual(1e-12);
      const lu = luDense(kkt.K, n);
      expect(lu).not.toBeNull();
      const xlu = luSolveDense(new Float64Array(n), lu!, b);
      expect(maxAbsDiff(x, xlu)).toBeLessThanOrEqual(1e-9 * Math.max(1, maxAbs(xlu)));
    }), { numRuns: 250 });
  });

  it('reuses one symbolic analysis and one numeric object for new values on the same pattern', () => {
    fc.assert(fc.property(arb, fc.integer(), ({ nH, mRaw, densityPct, patSeed, valSeed }, valSeed2) => {
      const m = Math.min(mRaw, nH);
      const a = makeKkt(rng(patSeed), rng(valSeed), nH, m, densityPct / 100, 'positive');
      const b = makeKkt(rng(patSeed), rng(valSeed2), nH, m, densityPct / 100, 'mixed');
      expect(patternSignature(b.n, b.csc.colPtr, b.csc.rowIdx)).toBe(patternSignature(a.n, a.csc.colPtr, a.csc.rowIdx));
      const sym = new LdltSymbolic(a.n, a.csc.colPtr, a.csc.rowIdx, { ordering: 'amd', delayed: b.zeroR });
      expect(sym.samePattern(b.n, b.csc.colPtr, b.csc.rowIdx)).toBe(true);
      const num = new LdltNumeric(sym);
      const Li = num.Li;
      for (const kkt of [a, b, a]) {
        const res = num.factor(kkt.csc.values);
        expect(checkInertia(res, nH, m)).toBeNull();
        const rhs = randomVector(kkt.n, rng(valSeed2 + 1));
        const { result } = solveAndRefine(num, kkt.csc, rhs);
        expect(result.residual).toBeLessThanOrEqual(1e-12);
        const xlu = luSolveDense(new Float64Array(kkt.n), luDense(kkt.K, kkt.n)!, rhs);
        const x = rhs.slice();
        num.solve(x);
        refineSolve((o, v) => cscMatVec(o, kkt.csc, v), (v) => num.solve(v), rhs, x, new Float64Array(kkt.n), new Float64Array(kkt.n));
        expect(maxAbsDiff(x, xlu)).toBeLessThanOrEqual(1e-9 * Math.max(1, maxAbs(xlu)));
      }
      // the numeric object kept its buffers
      expect(num.Li).toBe(Li);
    }), { numRuns: 60 });
  });

  it('recovers after a failed factorization (zero or NaN pivot) on the same objects', () => {
    const kkt = makeKkt(rng(11), rng(12), 12, 5, 0.3, 'positive');
    const sym = new LdltSymbolic(kkt.n, kkt.csc.colPtr, kkt.csc.rowIdx);
    const num = new LdltNumeric(sym);
    // NaN in an H entry
    const bad = kkt.csc.values.slice();
    bad[0] = NaN;
    const r1 = num.factor(bad);
    expect(r1.ok).toBe(false);
    expect(checkInertia(r1, 12, 5)).toMatch(/failed/);
    expect(() => num.solve(new Float64Array(kkt.n))).toThrow();
    // a zero first pivot: the 1×1 leading block of P K Pᵀ set to 0
    const first = sym.perm[0]!;
    const zero = kkt.csc.values.slice();
    for (let k = kkt.csc.colPtr[first]!; k < kkt.csc.colPtr[first + 1]!; k++) if (kkt.csc.rowIdx[k] === first) zero[k] = 0;
    const r2 = num.factor(zero);
    expect(r2.ok).toBe(false);
    expect(r2.zeroAt).toBe(first);
    // then the good values
    const r3 = num.factor(kkt.csc.values);
    expect(checkInertia(r3, 12, 5)).toBeNull();
    const rhs = randomVector(kkt.n, rng(13));
    expect(solveAndRefine(num, kkt.csc, rhs).result.residual).toBeLessThanOrEqual(1e-12);
  });

  it('reports the original index of a zero pivot', () => {
    // [[0, 1], [1, 0]] in natural order and reversed
    const A = cscFromDense(new Float64Array([0, 1, 1, 0]), 2, false);
    const natural = new LdltNumeric(new LdltSymbolic(2, A.colPtr, A.rowIdx, { ordering: 'natural' }));
    expect(natural.factor(A.values).zeroAt).toBe(0);
    const reversed = new LdltNumeric(new LdltSymbolic(2, A.colPtr, A.rowIdx, { ordering: Int32Array.from([1, 0]) }));
    const r = reversed.factor(A.values);
    expect(r.ok).toBe(false);
    expect(r.zeroAt).toBe(1);
  });

  it('flags a KKT matrix with indefinite H through the inertia check', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 1, max: 10 }), fc.integer(), fc.constantFrom('amd', 'natural'),
      (nH, mRaw, seed, ordering) => {
        const m = Math.min(mRaw, nH - 1);
        const kkt = makeKkt(rng(seed), rng(seed + 1), nH, m, 0.2, 'positive');
        const { n, K } = kkt;
        // decouple node 0 from everything and flip its diagonal: H gets one negative eigenvalue, −R − G H⁻¹ Gᵀ stays negative definite
        for (let j = 0; j < n; j++) { if (j !== 0) { K[j] = 0; K[j * n] = 0; } }
        K[0] = -1;
        const csc = cscFromDense(K, n, true);
        const num = new LdltNumeric(new LdltSymbolic(n, csc.colPtr, csc.rowIdx, { ordering: ordering as 'amd' | 'natural' }));
        const res = num.factor(csc.values);
        // the rest is quasi-definite with R > 0, so the factorization succeeds with inertia (n_H − 1, m + 1)
        expect(res.ok).toBe(true);
        expect(res.positive).toBe(nH - 1);
        expect(res.negative).toBe(m + 1);
        expect(checkInertia(res, nH, m)).toMatch(/not quasi-definite/);
      }), { numRuns: 60 });
  });

  it('counts pivot signs equal to the inertia (Sylvester) for diagonally dominant indefinite matrices', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 60 }), fc.integer(), fc.integer({ min: 2, max: 30 }), (n, seed, densityPct) => {
      const rand = rng(seed);
      const A = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          if (rand() * 100 >= densityPct) continue;
          const v = 2 * rand() - 1;
          A[i * n + j] = v;
          A[j * n + i] = v;
        }
      }
      // disjoint Gershgorin discs: the inertia is the sign count of the diagonal
      let positive = 0;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += Math.abs(A[i * n + j]!);
        const sign = rand() < 0.5 ? -1 : 1;
        if (sign > 0) positive++;
        A[i * n + i] = sign * (1 + s + rand());
      }
      const csc = cscFromDense(A, n, true);
      const num = new LdltNumeric(new LdltSymbolic(n, csc.colPtr, csc.rowIdx));
      const res = num.factor(csc.values);
      expect(checkInertia(res, positive, n - positive)).toBeNull();
      const b = randomVector(n, rand);
      expect(solveAndRefine(num, csc, b).result.residual).toBeLessThanOrEqual(1e-12);
    }), { numRuns: 100 });
  });

  it('needs `delayed` for R = 0 under AMD: plain AMD hits a zero pivot at a constraint row', () => {
    // H = path 0-1-2, one constraint row coupled to node 0 only, R = 0
    const K = new Float64Array([
      4, 1, 0, 1,
      1, 4, 1, 0,
      0, 1, 4, 0,
      1, 0, 0, 0,
    ]);
    const csc = cscFromDense(K, 4, true);
    const zeroR = Uint8Array.from([0, 0, 0, 1]);
    const plain = new LdltNumeric(new LdltSymbolic(4, csc.colPtr, csc.rowIdx, { ordering: Int32Array.from([3, 0, 1, 2]) }));
    const r = plain.factor(csc.values);
    expect(r.ok).toBe(false);
    expect(r.zeroAt).toBe(3);
    const sym = new LdltSymbolic(4, csc.colPtr, csc.rowIdx, { ordering: Int32Array.from([3, 0, 1, 2]), delayed: zeroR });
    expect(Array.from(sym.perm)).toEqual([0, 3, 1, 2]);
    expect(checkInertia(new LdltNumeric(sym).factor(csc.values), 3, 1)).toBeNull();
  });

  it('places every delayed node after all its unflagged neighbours, keeping the rest in order', () => {
    fc.assert(fc.property(arb, ({ nH, mRaw, densityPct, patSeed, valSeed }) => {
      const m = Math.min(mRaw, nH);
      const kkt = makeKkt(rng(patSeed), rng(valSeed), nH, m, densityPct / 100, 'zero');
      const { n, csc } = kkt;
      const plain = new LdltSymbolic(n, csc.colPtr, csc.rowIdx);
      const sym = new LdltSymbolic(n, csc.colPtr, csc.rowIdx, { delayed: kkt.zeroR });
      const pos = sym.pinv;
      for (let c = nH; c < n; c++) {
        for (let k = csc.colPtr[c]!; k < csc.colPtr[c + 1]!; k++) {
          const j = csc.rowIdx[k]!;
          if (j < nH) expect(pos[c]!).toBeGreaterThan(pos[j]!);
        }
      }
      // unflagged nodes keep their AMD relative order
      const primal = (p: Int32Array): number[] => Array.from(p).filter((i) => i < nH);
      expect(primal(sym.perm)).toEqual(primal(plain.perm));
    }), { numRuns: 100 });
  });

  it('works when zero diagonal entries of R are not stored at all', () => {
    const kkt = makeKkt(rng(5), rng(6), 20, 8, 0.2, 'mixed');
    const { n, csc } = kkt;
    // drop stored zeros on the diagonal
    const colPtr = new Int32Array(n + 1);
    const rows: number[] = [];
    const vals: number[] = [];
    for (let j = 0; j < n; j++) {
      for (let k = csc.colPtr[j]!; k < csc.colPtr[j + 1]!; k++) {
        if (csc.rowIdx[k] === j && csc.values[k] === 0) continue;
        rows.push(csc.rowIdx[k]!);
        vals.push(csc.values[k]!);
      }
      colPtr[j + 1] = rows.length;
    }
    expect(rows.length).toBeLessThan(csc.rowIdx.length);
    const A: Csc = { n, colPtr, rowIdx: Int32Array.from(rows), values: Float64Array.from(vals) };
    for (const opts of [{ ordering: 'natural' as const }, { delayed: kkt.zeroR }]) {
      const num = new LdltNumeric(new LdltSymbolic(n, A.colPtr, A.rowIdx, opts));
      expect(checkInertia(num.factor(A.values), 20, 8)).toBeNull();
      expect(solveAndRefine(num, A, randomVector(n, rng(7))).result.residual).toBeLessThanOrEqual(1e-12);
    }
  });

  it('computes nnz(L), column counts and the elimination tree of brute-force symbolic elimination', () => {
    const arb = fc.integer({ min: 1, max: 40 }).chain((n) => fc.record({
      n: fc.constant(n),
      edges: fc.array(fc.tuple(fc.nat({ max: n - 1 }), fc.nat({ max: n - 1 })), { maxLength: 3 * n }),
      permSeed: fc.integer(),
      ordering: fc.constantFrom('amd', 'natural', 'random'),
    }));
    fc.assert(fc.property(arb, ({ n, edges, permSeed, ordering }) => {
      const dense = new Float64Array(n * n);
      for (let i = 0; i < n; i++) dense[i * n + i] = 1;
      for (const [i, j] of edges) { dense[i * n + j] = 1; dense[j * n + i] = 1; }
      const A = cscFromDense(dense, n, true);
      const sym = new LdltSymbolic(n, A.colPtr, A.rowIdx, {
        ordering: ordering === 'random' ? Int32Array.from(shuffled(n, rng(permSeed))) : ordering as 'amd' | 'natural',
      });
      // eliminate on a boolean matrix in the permuted order
      const { perm } = sym;
      const B = new Uint8Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) B[i * n + j] = dense[perm[i]! * n + perm[j]!] !== 0 ? 1 : 0;
      let total = 0;
      for (let k = 0; k < n; k++) {
        const below: number[] = [];
        for (let i = k + 1; i < n; i++) if (B[i * n + k]) below.push(i);
        expect(sym.Lnz[k]).toBe(below.length);
        expect(sym.parent[k]).toBe(below.length > 0 ? below[0] : -1);
        total += below.length;
        for (const i of below) for (const j of below) B[i * n + j] = 1;
      }
      expect(sym.nnzL).toBe(total);
    }), { numRuns: 200 });
  });

  it('rejects invalid patterns and orderings', () => {
    // (1, 0) stored without (0, 1)
    expect(() => new LdltSymbolic(2, Int32Array.from([0, 2, 3]), Int32Array.from([0, 1, 1]))).toThrow(/symmetric/);
    // duplicate entry
    expect(() => new LdltSymbolic(2, Int32Array.from([0, 2, 3]), Int32Array.from([0, 0, 1]))).toThrow(/duplicate/);
    const A = cscFromDense(new Float64Array([2, 1, 1, 2]), 2);
    expect(() => new LdltSymbolic(2, A.colPtr, A.rowIdx, { ordering: Int32Array.from([0, 0]) })).toThrow(/permutation/);
    expect(() => new LdltSymbolic(2, A.colPtr, A.rowIdx, { ordering: Int32Array.from([0]) })).toThrow();
  });

  it('distinguishes patterns by signature and samePattern', () => {
    const a = cscFromDense(new Float64Array([2, 1, 0, 1, 2, 1, 0, 1, 2]), 3);
    const b = cscFromDense(new Float64Array([2, 0, 1, 0, 2, 1, 1, 1, 2]), 3);
    const sym = new LdltSymbolic(3, a.colPtr, a.rowIdx);
    expect(sym.signature).toBe(patternSignature(3, a.colPtr, a.rowIdx));
    expect(patternSignature(3, b.colPtr, b.rowIdx)).not.toBe(sym.signature);
    expect(sym.samePattern(3, b.colPtr, b.rowIdx)).toBe(false);
    expect(sym.samePattern(3, a.colPtr.slice(), a.rowIdx.slice())).toBe(true);
  });

  it('handles n = 0 and n = 1', () => {
    const e = new LdltNumeric(new LdltSymbolic(0, Int32Array.from([0]), new Int32Array(0)));
    expect(e.factor(new Float64Array(0)).ok).toBe(true);
    const one = new LdltNumeric(new LdltSymbolic(1, Int32Array.from([0, 1]), Int32Array.from([0])));
    expect(checkInertia(one.factor(Float64Array.from([-4])), 0, 1)).toBeNull();
    expect(Array.from(one.solve(Float64Array.from([2])))).toEqual([-0.5]);
  });
});

describe('refineSolve', () => {
  it('solves A x = b for A = S + small skew part with the factorization of S = (A + Aᵀ)/2', () => {
    fc.assert(fc.property(arb, fc.integer({ min: 1, max: 20 }), ({ nH, mRaw, densityPct, patSeed, valSeed, rMode }, skewPct) => {
      const m = Math.min(mRaw, nH);
      const kkt = makeKkt(rng(patSeed), rng(valSeed), nH, m, densityPct / 100, rMode);
      const { n, csc } = kkt;
      // skew part on the pattern: A_ij = S_ij + e, A_ji = S_ji − e, |e| ≤ 1e-3 · skewPct
      const rand = rng(valSeed + 17);
      const tmap = cscTransposeMap(csc);
      const A: Csc = { ...csc, values: csc.values.slice() };
      for (let k = 0; k < tmap.length; k++) {
        const t = tmap[k]!;
        if (t <= k) continue;
        const e = 1e-3 * skewPct * (2 * rand() - 1);
        A.values[k] = A.values[k]! + e;
        A.values[t] = A.values[t]! - e;
      }
      // factor the symmetric part
      const S = cscSymmetrizeValues(new Float64Array(A.values.length), A, tmap);
      expect(maxAbsDiff(S, csc.values)).toBeLessThanOrEqual(1e-15 * maxAbs(csc.values) * 4);
      const num = new LdltNumeric(new LdltSymbolic(n, csc.colPtr, csc.rowIdx, { delayed: kkt.zeroR }));
      expect(checkInertia(num.factor(S), nH, m)).toBeNull();
      // refine with the non-symmetric operator
      const b = randomVector(n, rand);
      const x = new Float64Array(n);
      const res = refineSolve((o, v) => cscMatVec(o, A, v), (v) => num.solve(v), b, x, new Float64Array(n), new Float64Array(n), { maxIter: 100, tol: 1e-13 });
      expect(res.residual).toBeLessThanOrEqual(1e-12);
      expect(relResidual(A, x, b)).toBeLessThanOrEqual(1e-12);
      // against dense LU of the non-symmetric A
      const xlu = luSolveDense(new Float64Array(n), luDense(cscToDense(A), n)!, b);
      expect(maxAbsDiff(x, xlu)).toBeLessThanOrEqual(1e-9 * Math.max(1, maxAbs(xlu)));
    }), { numRuns: 100 });
  });

  it('stops and reports when the residual stops decreasing', () => {
    const K = cscFromDense(new Float64Array([4, 1, 0, 1, 3, 1, 0, 1, 2]), 3);
    const Kd = cscToDense(K);
    const b = Float64Array.from([1, 2, 3]);
    const x = new Float64Array(3);
    // a "solve" with the wrong sign makes every correction worse
    const lu = luDense(Kd, 3)!;
    const tmp = new Float64Array(3);
    const wrong = (v: Float64Array): void => {
      luSolveDense(tmp, lu, v);
      for (let i = 0; i < 3; i++) v[i] = -tmp[i]!;
    };
    const res = refineSolve((o, v) => cscMatVec(o, K, v), wrong, b, x, new Float64Array(3), new Float64Array(3));
    expect(res.converged).toBe(false);
    // one solve used, its correction not kept: x is exactly the guess
    expect(res.iterations).toBe(1);
    expect(res.residual).toBe(1);
    expect(Array.from(x)).toEqual([0, 0, 0]);
    // the right solve converges and counts its iterations
    const good = refineSolve((o, v) => cscMatVec(o, K, v), (v) => { luSolveDense(tmp, lu, v); v.set(tmp); }, b, x, new Float64Array(3), new Float64Array(3));
    expect(good.converged || good.residual < 1e-15).toBe(true);
    expect(good.iterations).toBeGreaterThanOrEqual(1);
    const Ax = matVecDense(new Float64Array(3), Kd, x, 3);
    expect(maxAbsDiff(Ax, b)).toBeLessThan(1e-14);
  });

  it('leaves a guess bit for bit when its first correction does not help, and starts from M⁻¹b under fromZero', () => {
    const K = cscFromDense(new Float64Array([4, 1, 0, 1, 3, 1, 0, 1, 2]), 3);
    const lu = luDense(cscToDense(K), 3)!, tmp = new Float64Array(3);
    const wrong = (v: Float64Array): void => { luSolveDense(tmp, lu, v); for (let i = 0; i < 3; i++) v[i] = -tmp[i]!; };
    const right = (v: Float64Array): void => { luSolveDense(tmp, lu, v); v.set(tmp); };
    const b = Float64Array.from([1, 2, 3]);
    // a guess that a wrong-signed correction makes worse: x is not touched, not even rounded
    const x = Float64Array.from([0.1 + 0.2, 1 / 3, Math.PI]), x0 = x.slice();
    const bad = refineSolve((o, v) => cscMatVec(o, K, v), wrong, b, x, new Float64Array(3), new Float64Array(3), { norm: 'euclidean' });
    expect(bad.iterations).toBe(1);
    expect(Array.from(x)).toEqual(Array.from(x0));
    // fromZero: the first solve is x = M⁻¹ b itself (counted), no product with the zero vector
    let products = 0;
    const y = Float64Array.from([7, 7, 7]);
    const good = refineSolve((o, v) => { products++; cscMatVec(o, K, v); }, right, b, y, new Float64Array(3), new Float64Array(3), { fromZero: true, norm: 'euclidean', tol: 1e-15 });
    expect(good.iterations).toBeGreaterThanOrEqual(1);
    expect(products).toBe(good.iterations);
    expect(maxAbsDiff(y, luSolveDense(new Float64Array(3), lu, b))).toBeLessThan(1e-15);
    // the euclidean residual it reports is ‖b − K y‖₂ / ‖b‖₂
    const Ky = matVecDense(new Float64Array(3), cscToDense(K), y, 3);
    const r2 = (b[0]! - Ky[0]!) ** 2 + (b[1]! - Ky[1]!) ** 2 + (b[2]! - Ky[2]!) ** 2;
    expect(good.residual).toBeCloseTo(Math.sqrt(r2) / Math.sqrt(14), 20);
  });

  it('returns at once for b = 0 with x = 0, and for an exact initial guess', () => {
    const K = cscFromDense(new Float64Array([2, 1, 1, 2]), 2);
    let solves = 0;
    const res = refineSolve((o, v) => cscMatVec(o, K, v), () => { solves++; }, new Float64Array(2), new Float64Array(2), new Float64Array(2), new Float64Array(2));
    expect(res).toEqual({ iterations: 0, residual: 0, converged: true });
    expect(solves).toBe(0);
  });
});

describe('csc helpers', () => {
  const arb = fc.record({ n: fc.integer({ min: 1, max: 20 }), seed: fc.integer(), densityPct: fc.integer({ min: 0, max: 60 }) });
  const randomSparse = (n: number, seed: number, densityPct: number): Float64Array => {
    const rand = rng(seed);
    return Float64Array.from({ length: n * n }, () => (rand() * 100 < densityPct ? 2 * rand() - 1 : 0));
  };

  it('round-trips dense ↔ CSC with a structurally symmetric pattern, sorted rows and a stored diagonal', () => {
    fc.assert(fc.property(arb, ({ n, seed, densityPct }) => {
      const D = randomSparse(n, seed, densityPct);
      const A = cscFromDense(D, n, true);
      expect(Array.from(cscToDense(A))).toEqual(Array.from(D));
      for (let j = 0; j < n; j++) {
        const rows = Array.from(A.rowIdx.subarray(A.colPtr[j]!, A.colPtr[j + 1]!));
        expect(rows).toContain(j);
        expect(rows).toEqual([...rows].sort((a, b) => a - b));
        for (let i = 0; i < n; i++) {
          const stored = rows.includes(i);
          expect(stored).toBe(i === j || D[i * n + j] !== 0 || D[j * n + i] !== 0);
        }
      }
      expect(cscFromDense(D, n, false).rowIdx.length).toBe(n * n);
    }), { numRuns: 100 });
  });

  it('multiplies like the dense matrix', () => {
    fc.assert(fc.property(arb, ({ n, seed, densityPct }) => {
      const D = randomSparse(n, seed, densityPct);
      const x = randomVector(n, rng(seed + 1));
      const y = cscMatVec(new Float64Array(n).fill(7), cscFromDense(D, n), x);
      expect(maxAbsDiff(y, matVecDense(new Float64Array(n), D, x, n))).toBeLessThanOrEqual(1e-15 * n);
    }), { numRuns: 100 });
  });

  it('maps each entry to its mirror and symmetrizes values (also in place)', () => {
    fc.assert(fc.property(arb, ({ n, seed, densityPct }) => {
      const D = randomSparse(n, seed, densityPct);
      const A = cscFromDense(D, n);
      const tmap = cscTransposeMap(A);
      for (let j = 0; j < n; j++) {
        for (let k = A.colPtr[j]!; k < A.colPtr[j + 1]!; k++) {
          const t = tmap[k]!;
          expect(A.rowIdx[t]).toBe(j);
          expect(t).toBeGreaterThanOrEqual(A.colPtr[A.rowIdx[k]!]!);
          expect(t).toBeLessThan(A.colPtr[A.rowIdx[k]! + 1]!);
          expect(tmap[t]).toBe(k);
        }
      }
      const S = cscToDense({ ...A, values: cscSymmetrizeValues(new Float64Array(A.values.length), A, tmap) });
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(S[i * n + j]).toBe(0.5 * (D[i * n + j]! + D[j * n + i]!));
      const inPlace = A.values.slice();
      cscSymmetrizeValues(inPlace, { ...A, values: inPlace }, tmap);
      expect(Array.from(cscToDense({ ...A, values: inPlace }))).toEqual(Array.from(S));
    }), { numRuns: 100 });
  });

  it('rejects a pattern that is not structurally symmetric', () => {
    const A: Csc = { n: 2, colPtr: Int32Array.from([0, 2, 3]), rowIdx: Int32Array.from([0, 1, 1]), values: Float64Array.from([1, 2, 3]) };
    expect(() => cscTransposeMap(A)).toThrow(/symmetric/);
  });
});
