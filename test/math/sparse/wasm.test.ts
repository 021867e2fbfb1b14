/**
 * The WebAssembly supernodal factorization and solve (src/math/sparse/wasm/supernodal.wat):
 * - the bytes embedded in kernels.ts are the compilation of the .wat source (wabt);
 * - for finite input they give the bits of the JavaScript factorization (panels, pivots, pivot
 *   counts), solve and product (cscMatVec's bits) on random quasi-definite KKT matrices in every ordering, with values
 *   zeroed at random inside the pattern, dense and mostly-zero right-hand sides, and a matrix
 *   refactored in place; with NaN or infinite entries, the same failure report;
 * - the arrays in the kernels' memory do not overlap and are as long as the kernels need;
 * - the step solver uses them; without WebAssembly a simulation runs in JavaScript, bit for bit
 *   the same.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { LdltSymbolic } from '../../../src/math/sparse/ldlt.js';
import { SupernodalSymbolic, SupernodalLdlt, L_TINY } from '../../../src/math/sparse/supernodal.js';
import { SUPERNODAL_WASM, BLOCKROWS_WASM } from '../../../src/math/sparse/wasm/kernels.js';
import { compileWat } from '../../../scripts/kernels.mjs';
import { rng } from '../../helpers/numeric.js';
import { makeKkt, kktArb, orderingOptions } from '../../helpers/kkt.js';
import { Simulation } from '../../../src/simulation.js';
import { chainOfBodies } from '../../../examples/scenes.js';
import { cscMatVec, type Csc } from '../../../src/math/sparse/csc.js';
import { INTEGRATORS } from '../../../src/integrators/names.js';
import { parseModel } from '../../../src/io/loader.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** the column of stored entry k */
function kktColumn(csc: Csc, k: number): number {
  let j = 0;
  while (csc.colPtr[j + 1]! <= k) j++;
  return j;
}

describe('WebAssembly supernodal factorization and solve', () => {
  it('is embedded as the compilation of its .wat sources (run `npm run kernels` after editing one), each under 4 KB', async () => {
    for (const [file, embedded] of [['supernodal.wat', SUPERNODAL_WASM], ['blockrows.wat', BLOCKROWS_WASM]] as const) {
      const bytes = await compileWat(file);
      expect(Buffer.from(bytes).toString('base64')).toBe(embedded);
      // browsers have refused synchronous compilation of larger modules on the main thread (Chrome: 4 KB)
      expect(bytes.length).toBeLessThan(4096);
    }
  });

  it('gives the bits of the JavaScript factorization and solve', () => {
    fc.assert(fc.property(kktArb(50, 25, 40), fc.integer({ min: 0, max: 3 }), ({ nH, mRaw, densityPct, patSeed, valSeed, rMode, ordering }, zeros) => {
      const m = Math.min(mRaw, nH), patRand = rng(patSeed), valRand = rng(valSeed);
      const kkt = makeKkt(patRand, valRand, nH, m, densityPct / 100, rMode);
      const { n, csc } = kkt;
      // zeros inside the pattern (the kernels skip zero multipliers): about one entry in five
      if (zeros > 1) for (let k = 0; k < csc.values.length; k++) if (valRand() < 0.2 && csc.rowIdx[k] !== kktColumn(csc, k)) csc.values[k] = 0;
      const sn = new SupernodalSymbolic(new LdltSymbolic(n, csc.colPtr, csc.rowIdx, orderingOptions(kkt, ordering, patRand)));
      const f = new SupernodalLdlt(sn), g = new SupernodalLdlt(sn, { wasm: false });
      expect(f.usesWasm).toBe(true);
      // the factorization: same result, same panels and pivots (compared where it stopped, too)
      const rf = { ...f.factor(csc.values) }, rg = g.factorJs(csc.values);
      expect(rf).toEqual(rg);
      expect(Array.from(f.Lx)).toEqual(Array.from(g.Lx));
      expect(Array.from(f.D)).toEqual(Array.from(g.D));
      if (!rf.ok) return;
      // the values assembled in place, in the buffer the factorization reads: the same factorization
      const inPlace = new SupernodalLdlt(sn);
      inPlace.valueBuffer.set(csc.values.subarray(0, inPlace.valueBuffer.length));
      expect({ ...inPlace.factor(inPlace.valueBuffer) }).toEqual(rf);
      expect(Array.from(inPlace.Lx)).toEqual(Array.from(f.Lx));
      // in the second buffer (a matrix kept assembled there), in WebAssembly and in JavaScript:
      // the same factorization, and the products read that buffer
      const xv = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
      const fx = Array.from(f.multiply(new Float64Array(n), xv));
      for (const kept of [new SupernodalLdlt(sn), new SupernodalLdlt(sn, { wasm: false })]) {
        kept.assemblyBuffer.set(csc.values.subarray(0, kept.assemblyBuffer.length));
        expect({ ...kept.factor(kept.assemblyBuffer) }).toEqual(rf);
        // read in place: nothing was copied into the other buffer
        expect(kept.valueBuffer.every((v) => v === 0)).toBe(true);
        expect(Array.from(kept.Lx)).toEqual(Array.from(f.Lx));
        expect(Array.from(kept.multiply(new Float64Array(n), xv))).toEqual(fx);
      }
      // twice: a second factorization overwrites the panels the kernel reads
      for (let round = 0; round < 2; round++) {
        if (round === 1) {
          for (let k = 0; k < csc.values.length; k++) csc.values[k] = csc.values[k]! * (1 + 0.1 * valRand());
          const r1 = { ...f.factor(csc.values) };
          expect(r1).toEqual(g.factorJs(csc.values));
          expect(Array.from(f.Lx)).toEqual(Array.from(g.Lx));
          if (!r1.ok) return;
        }
        // zeros: that many in four entries are zero (the projection's right-hand sides are mostly zero)
        const rhs = Float64Array.from({ length: n }, (_, i) => (i % 4 < zeros ? 0 : Math.sin(1 + i * valSeed)));
        const viaWasm = f.solve(rhs.slice());
        expect(f.finite).toBe(viaWasm.every(Number.isFinite));
        const viaJs = f.solveJs(rhs.slice());
        expect(Array.from(viaWasm)).toEqual(Array.from(viaJs));
        // a non-finite right-hand side entry: reported by both
        const bad = rhs.slice();
        bad[Math.floor(valRand() * n)] = round === 0 ? NaN : Infinity;
        f.solve(bad.slice());
        expect(f.finite).toBe(false);
        f.solveJs(bad.slice());
        expect(f.finite).toBe(false);
        // the product with the factored values: cscMatVec's bits, in WebAssembly and in JavaScript
        const Ax = cscMatVec(new Float64Array(n), csc, rhs);
        expect(Array.from(f.multiply(new Float64Array(n), rhs))).toEqual(Array.from(Ax));
        g.factorJs(csc.values);
        expect(Array.from(g.multiply(new Float64Array(n), rhs))).toEqual(Array.from(Ax));
      }
    }), { numRuns: 200 });
  });

  // the couplings of distant links on the 10 000-link chain reached the subnormal range, where
  // every multiplication is slow (a solve took 2.25 ms against 1.54 ms flushed)
  it('stores entries of L below L_TINY as zero, in both kernels, and still solves exactly', () => {
    // [[1, t], [t, 1]]: L₂₁ = t
    const colPtr = Int32Array.from([0, 2, 4]), rowIdx = Int32Array.from([0, 1, 0, 1]);
    for (const [t, kept] of [[1e-250, false], [1e-150, true]] as const) {
      const values = Float64Array.from([1, t, t, 1]);
      const sn = new SupernodalSymbolic(new LdltSymbolic(2, colPtr, rowIdx, { ordering: 'natural' }));
      for (const f of [new SupernodalLdlt(sn), new SupernodalLdlt(sn, { wasm: false })]) {
        expect(f.factor(values).ok).toBe(true);
        expect(Array.from(f.Lx).some((x) => x !== 0 && x !== 1)).toBe(kept);
        const x = f.solve(Float64Array.from([1, 2]));
        expect(x[0]).toBe(1);
        expect(x[1]).toBe(2);
      }
    }
    expect(L_TINY).toBe(1e-200);
    // regression: the first WebAssembly flush stored a NaN below the pivot as 0 (a comparison with
    // NaN is false), so the factorization of a matrix with a NaN entry succeeded
    const nanValues = Float64Array.from([1, NaN, NaN, 1]);
    const sn = new SupernodalSymbolic(new LdltSymbolic(2, colPtr, rowIdx, { ordering: 'natural' }));
    const f = new SupernodalLdlt(sn), g = new SupernodalLdlt(sn, { wasm: false });
    expect(f.usesWasm).toBe(true);
    expect({ ...f.factor(nanValues) }).toEqual(g.factorJs(nanValues));
    expect(f.factor(nanValues).ok).toBe(false);
  });

  it('reports a non-finite pivot like the JavaScript factor: same index and pivot counts', () => {
    // a NaN or infinite entry, on or off the diagonal, in random matrices and orderings
    fc.assert(fc.property(kktArb(30, 15, 40), fc.constantFrom(NaN, Infinity, -Infinity), fc.double({ min: 0, max: 1, noNaN: true }),
      ({ nH, mRaw, densityPct, patSeed, valSeed, rMode, ordering }, bad, where) => {
        const m = Math.min(mRaw, nH), patRand = rng(patSeed);
        const kkt = makeKkt(patRand, rng(valSeed), nH, m, densityPct / 100, rMode);
        const { n, csc } = kkt;
        const sn = new SupernodalSymbolic(new LdltSymbolic(n, csc.colPtr, csc.rowIdx, orderingOptions(kkt, ordering, patRand)));
        const f = new SupernodalLdlt(sn), g = new SupernodalLdlt(sn, { wasm: false });
        // one entry and its mirror
        const k = Math.min(csc.values.length - 1, Math.floor(where * csc.values.length)), j = kktColumn(csc, k), i = csc.rowIdx[k]!;
        const v = csc.values.slice();
        v[k] = bad;
        for (let t = csc.colPtr[i]!; t < csc.colPtr[i + 1]!; t++) if (csc.rowIdx[t] === j) v[t] = bad;
        const rf = { ...f.factor(v) }, rg = g.factorJs(v);
        expect(rf.ok).toBe(false);
        expect(rf).toEqual(rg);
        // no product with a matrix that did not factor
        expect(() => f.multiply(new Float64Array(n), new Float64Array(n))).toThrow(/no successful factorization/);
      }), { numRuns: 200 });
  });

  it('lays out its arrays without overlap, each as long as the kernels need', () => {
    // random KKT matrices (whose tallest panel is often the square root panel) and a chain's,
    // whose panels are taller than wide (9 columns, 12 rows)
    const chain = new Simulation(chainOfBodies(6));
    chain.step();
    const symbolics = [[1, 0], [12, 4], [40, 20]].map(([nH, m]) => {
      const kkt = makeKkt(rng(nH!), rng(m! + 1), nH!, m!, 0.3, 'positive');
      return new LdltSymbolic(kkt.n, kkt.csc.colPtr, kkt.csc.rowIdx, { ordering: 'amd' });
    });
    symbolics.push(chain.ws.solver.analysis!);
    for (const sym of symbolics) {
      const sn = new SupernodalSymbolic(sym);
      const L = new SupernodalLdlt(sn).wasmLayout!;
      const need: Record<string, number> = {
        Lx: sn.panelPtr[sn.count]!, D: sn.n, Dinv: sn.n, w: sn.n, acc: sn.maxRows, wd: sn.maxCols, vals: sym.nnzA, assembly: sym.nnzA, y: sn.n, x: sn.n, perm: sn.n, colPtrA: sn.n + 1, rowsA: sym.nnzA,
        cPanel: sn.cPanel.length, cSrc: sn.cPanel.length, first: sn.count + 1, rowPtr: sn.count + 1, rows: sn.rows.length, panelPtr: sn.count + 1,
        updPtr: sn.count + 1, updSource: sn.updSource.length, updBegin: sn.updSource.length, updEnd: sn.updSource.length,
        local: sn.n, rel: sn.maxRows, counts: 2,
      };
      expect([...L.names].sort()).toEqual(Object.keys(need).sort());
      let end = 0;
      L.names.forEach((name, i) => {
        const size = name === 'first' || L.offsets[i]! >= L.offsets[L.names.indexOf('first')]! ? 4 : 8;
        expect(L.lengths[i]).toBeGreaterThanOrEqual(need[name]!);
        expect(L.offsets[i]! % 8).toBe(0);
        expect(L.offsets[i]).toBeGreaterThanOrEqual(end);
        end = L.offsets[i]! + size * L.lengths[i]!;
      });
      expect(end).toBeLessThanOrEqual(L.bytes);
    }
    expect(new SupernodalSymbolic(chain.ws.solver.analysis!).maxRows).toBeGreaterThan(new SupernodalSymbolic(chain.ws.solver.analysis!).maxCols);
  });

  it('leaves a simulation to JavaScript where WebAssembly is missing, with the same bits', () => {
    // every integrator on a jointed chain, and the four-bar (redundant rows: regularization and refactorization)
    const fourBar = readFileSync(join(import.meta.dirname ?? '.', '..', '..', '..', 'examples', 'four-bar.json'), 'utf8');
    const scenes = [...INTEGRATORS.map((integrator) => () => new Simulation(chainOfBodies(8, { integrator }))), () => new Simulation(parseModel(fourBar))];
    const run = (make: () => Simulation) => { const sim = make(); sim.steps(60); return { q: Array.from(sim.state.q), u: Array.from(sim.state.u), wasm: sim.ws.solver.wasmSolves }; };
    const withWasm = scenes.map(run);
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const without = scenes.map(run);
      for (let i = 0; i < scenes.length; i++) {
        expect(withWasm[i]!.wasm).toBe(true);
        expect(without[i]!.wasm).toBe(false);
        expect(without[i]!.q).toEqual(withWasm[i]!.q);
        expect(without[i]!.u).toEqual(withWasm[i]!.u);
      }
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('runs the step solver of a simulation', () => {
    const sim = new Simulation(chainOfBodies(5));
    sim.steps(2);
    expect(sim.ws.solver.wasmSolves).toBe(true);
  });

  it('falls back to JavaScript on request, with the same results', () => {
    const kkt = makeKkt(rng(3), rng(4), 20, 8, 0.3, 'positive');
    const sn = new SupernodalSymbolic(new LdltSymbolic(kkt.n, kkt.csc.colPtr, kkt.csc.rowIdx, { ordering: 'amd' }));
    const a = new SupernodalLdlt(sn), b = new SupernodalLdlt(sn, { wasm: false });
    expect(b.usesWasm).toBe(false);
    a.factor(kkt.csc.values); b.factor(kkt.csc.values);
    const rhs = Float64Array.from({ length: kkt.n }, (_, i) => Math.cos(i));
    expect(Array.from(a.solve(rhs.slice()))).toEqual(Array.from(b.solve(rhs.slice())));
    expect(Array.from(a.Lx)).toEqual(Array.from(b.Lx));
  });
});
