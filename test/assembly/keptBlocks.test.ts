/**
 * KeptBlocks (src/assembly/keptBlocks.ts): G u over the kept constraint Jacobian blocks, in
 * WebAssembly (blockrows.wat) and JavaScript with the same bits, against a plain dense product.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { KeptBlocks } from '../../src/assembly/keptBlocks.js';
import { rng } from '../helpers/numeric.js';

describe('KeptBlocks: G u', () => {
  it('gives the same bits in WebAssembly and JavaScript, and the dense product to rounding', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 1e6 }), (nc, seed) => {
      const r = rng(seed);
      // nc constraints of 1-6 rows on one or two of 12 components (particles: 3 velocities, bodies: 6)
      const compCols = Array.from({ length: 12 }, () => (r() < 0.3 ? 3 : 6)), compU: number[] = [];
      let nu = 0;
      for (const c of compCols) { compU.push(nu); nu += c; }
      const table: number[] = [];
      let m = 0, size = 0;
      for (let ci = 0; ci < nc; ci++) {
        const rows = 1 + Math.floor(6 * r()), sides = r() < 0.3 ? 1 : 2;
        for (let k = 0; k < sides; k++) {
          const comp = Math.floor(12 * r());
          table.push(m, rows, compCols[comp]!, compU[comp]!, size);
          size += rows * compCols[comp]!;
        }
        m += rows;
      }
      const t = Int32Array.from(table), wasm = new KeptBlocks(m, nu, t, size), js = new KeptBlocks(m, nu, t, size, { wasm: false });
      expect(wasm.usesWasm).toBe(true);
      expect(js.usesWasm).toBe(false);
      for (let i = 0; i < size; i++) { const x = r() < 0.1 ? 0 : 2 * r() - 1; wasm.G[i] = x; js.G[i] = x; }
      const u = Float64Array.from({ length: nu }, () => 10 * (r() - 0.5));
      wasm.multiply(u);
      js.multiply(u);
      expect(Array.from(wasm.Gu)).toEqual(Array.from(js.Gu));
      // the dense product
      const want = new Float64Array(m);
      for (let b = 0; b < t.length / 5; b++) {
        const [r0, rows, cols, uo, o] = Array.from(t.subarray(5 * b, 5 * b + 5));
        for (let i = 0; i < rows!; i++) for (let j = 0; j < cols!; j++) want[r0! + i] += wasm.G[o! + i * cols! + j]! * u[uo! + j]!;
      }
      for (let i = 0; i < m; i++) expect(Math.abs(wasm.Gu[i]! - want[i]!)).toBeLessThanOrEqual(1e-13 * (1 + Math.abs(want[i]!)));
      // a second product overwrites the first (G u starts from zero every time)
      u.fill(0);
      wasm.multiply(u);
      expect(wasm.Gu.every((x) => x === 0)).toBe(true);
    }), { numRuns: 100 });
  });
});
