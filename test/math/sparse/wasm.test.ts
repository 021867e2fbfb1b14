/**
 * The WebAssembly supernodal factorization and solve (src/math/sparse/wasm/supernodal.wat):
 * - the bytes embedded in kernels.ts are the compilation of the .wat source (wabt);
 * - they give the bits of the JavaScript factorization (panels, pivots, pivot counts, the index
 *   of a failed pivot) and solve on random quasi-definite KKT matrices in every ordering, with
 *   dense and mostly-zero right-hand sides, and a matrix refactored in place;
 * - the step solver uses them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LdltSymbolic } from '../../../src/math/sparse/ldlt.js';
import { SupernodalSymbolic, SupernodalLdlt } from '../../../src/math/sparse/supernodal.js';
import { SUPERNODAL_WASM } from '../../../src/math/sparse/wasm/kernels.js';
import { compileWat } from '../../../scripts/kernels.mjs';
import { rng } from '../../helpers/numeric.js';
import { makeKkt, kktArb, orderingOptions } from '../../helpers/kkt.js';
import { Simulation } from '../../../src/simulation.js';
import { chainOfBodies } from '../../../examples/scenes.js';

describe('WebAssembly supernodal solve', () => {
  it('is embedded as the compilation of its .wat source (run `npm run kernels` after editing it)', async () => {
    const bytes = await compileWat('supernodal.wat');
    expect(Buffer.from(bytes).toString('base64')).toBe(SUPERNODAL_WASM);
  });

  it('gives the bits of the JavaScript factorization and solve', () => {
    fc.assert(fc.property(kktArb(50, 25, 40), fc.integer({ min: 0, max: 3 }), ({ nH, mRaw, densityPct, patSeed, valSeed, rMode, ordering }, zeros) => {
      const m = Math.min(mRaw, nH), patRand = rng(patSeed), valRand = rng(valSeed);
      const kkt = makeKkt(patRand, valRand, nH, m, densityPct / 100, rMode);
      const { n, csc } = kkt;
      const sn = new SupernodalSymbolic(new LdltSymbolic(n, csc.colPtr, csc.rowIdx, orderingOptions(kkt, ordering, patRand)));
      const f = new SupernodalLdlt(sn), g = new SupernodalLdlt(sn, { wasm: false });
      expect(f.usesWasm).toBe(true);
      // the factorization: same result, same panels and pivots (compared where it stopped, too)
      const rf = { ...f.factor(csc.values) }, rg = g.factorJs(csc.values);
      expect(rf).toEqual(rg);
      expect(Array.from(f.Lx)).toEqual(Array.from(g.Lx));
      expect(Array.from(f.D)).toEqual(Array.from(g.D));
      if (!rf.ok) return;
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
        const viaWasm = f.solve(rhs.slice()), viaJs = f.solveJs(rhs.slice());
        expect(Array.from(viaWasm)).toEqual(Array.from(viaJs));
      }
    }), { numRuns: 200 });
  });

  it('reports a non-finite pivot by its original index, as the JavaScript factor does', () => {
    // a NaN or infinite diagonal entry makes its pivot non-finite
    const kkt = makeKkt(rng(5), rng(6), 12, 4, 0.4, 'positive');
    const sn = new SupernodalSymbolic(new LdltSymbolic(kkt.n, kkt.csc.colPtr, kkt.csc.rowIdx, { ordering: 'natural' }));
    const f = new SupernodalLdlt(sn), g = new SupernodalLdlt(sn, { wasm: false });
    for (const bad of [NaN, Infinity, -Infinity]) {
      const v = kkt.csc.values.slice();
      // the diagonal of column 5 (the first stored entry whose row is 5)
      for (let k = kkt.csc.colPtr[5]!; k < kkt.csc.colPtr[6]!; k++) if (kkt.csc.rowIdx[k] === 5) v[k] = bad;
      const rf = { ...f.factor(v) }, rg = g.factorJs(v);
      expect(rf.ok).toBe(false);
      expect(rf).toEqual(rg);
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
