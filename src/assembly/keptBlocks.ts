/**
 * The constraint Jacobian blocks kept by the constraint stage, and their product with the
 * velocities, G u (ConstraintSystem). The blocks lie side after side in one array G, each m_c ×
 * s_k row-major; a table gives, for each block in constraint order, (r0, rows, cols, offset of
 * its component in u, offset in G). The product is, for each block row, a sum from 0 in column
 * order, added to G u's row (which starts at 0): in WebAssembly (../math/sparse/wasm/blockrows.wat)
 * where it exists, about 3× faster than the JavaScript here, which does the same operations in
 * the same order, so both give the same bits.
 */
import { BLOCKROWS_WASM } from '../math/sparse/wasm/kernels.js';
import { kernelLayout, instantiateKernels } from '../math/sparse/wasm/instance.js';

interface RowsKernel {
  rows: (nBlocks: number, m: number, pTable: number, pG: number, pU: number, pGu: number) => void;
  /** byte offsets of G, u, Gu, table */
  at: Int32Array;
  /** u in the kernel's memory */
  u: Float64Array;
}

export class KeptBlocks {
  /** (size) the Jacobian blocks, side after side (in the kernel's memory with WebAssembly) */
  readonly G: Float64Array;
  /** (m) G u of the last `multiply` (likewise) */
  readonly Gu: Float64Array;
  private readonly nBlocks: number;
  private readonly kernel: RowsKernel | null;

  /**
   * m rows, nu velocities, `table` five numbers per block (r0, rows, cols, uOffset, offset in G),
   * `size` numbers of G; `wasm` false keeps the product in JavaScript
   */
  constructor(readonly m: number, readonly nu: number, private readonly table: Int32Array, size: number, opts: { wasm?: boolean } = {}) {
    this.nBlocks = table.length / 5;
    const lengths = [Math.max(1, size), Math.max(1, nu), Math.max(1, m), Math.max(1, table.length)];
    const { offsets, bytes } = kernelLayout(lengths, 3);
    // no constraints, nothing to multiply: no instance (and no memory) for them
    const inst = opts.wasm === false || table.length === 0 ? null : instantiateKernels(BLOCKROWS_WASM, bytes, ['rows']);
    if (inst) {
      const buf = inst.memory;
      new Int32Array(buf, offsets[3]!, table.length).set(table);
      this.G = new Float64Array(buf, offsets[0]!, size);
      this.Gu = new Float64Array(buf, offsets[2]!, m);
      this.kernel = { rows: inst.exports['rows'] as RowsKernel['rows'], at: offsets, u: new Float64Array(buf, offsets[1]!, nu) };
    } else {
      this.G = new Float64Array(size);
      this.Gu = new Float64Array(m);
      this.kernel = null;
    }
  }

  /** true when the product runs as WebAssembly */
  get usesWasm(): boolean { return this.kernel !== null; }

  /** Gu ← G u (u in the velocity layout, nu numbers) */
  multiply(u: Float64Array): void {
    const k = this.kernel;
    if (k) {
      if (u.length === this.nu) k.u.set(u);
      else for (let i = 0; i < this.nu; i++) k.u[i] = u[i]!;
      k.rows(this.nBlocks, this.m, k.at[3]!, k.at[0]!, k.at[1]!, k.at[2]!);
      return;
    }
    this.multiplyJs(u);
  }

  /** `multiply` in JavaScript: the fallback, and the tests' oracle for the kernel */
  multiplyJs(u: Float64Array): void {
    const Gu = this.Gu, G = this.G, t = this.table;
    Gu.fill(0);
    for (let b = 0; b < this.nBlocks; b++) {
      const r0 = t[5 * b]!, rows = t[5 * b + 1]!, cols = t[5 * b + 2]!, uo = t[5 * b + 3]!, o = t[5 * b + 4]!;
      if (cols === 6) {
        // a body side: its six velocities read once for all rows (the same sums, in the same order)
        const u0 = u[uo]!, u1 = u[uo + 1]!, u2 = u[uo + 2]!, u3 = u[uo + 3]!, u4 = u[uo + 4]!, u5 = u[uo + 5]!;
        for (let r = 0, p = o; r < rows; r++, p += 6) {
          const acc = 0 + G[p]! * u0 + G[p + 1]! * u1 + G[p + 2]! * u2 + G[p + 3]! * u3 + G[p + 4]! * u4 + G[p + 5]! * u5;
          Gu[r0 + r] = Gu[r0 + r]! + acc;
        }
        continue;
      }
      for (let r = 0; r < rows; r++) {
        let acc = 0;
        for (let j = 0; j < cols; j++) acc += G[o + r * cols + j]! * u[uo + j]!;
        Gu[r0 + r] = Gu[r0 + r]! + acc;
      }
    }
  }
}
