/**
 * Block-sparse matrices over the solve blocks (3×3 particle blocks, 6×6 body blocks), stored as
 * CSC with a full, structurally symmetric pattern, and a map from each block (i, j) to its place
 * in the CSC arrays so that every step refills only the numbers.
 *
 * Usage: at set-up, `BlockPattern.couple(bi, bj)` returns a slot handle for block (bi, bj) (and
 * registers (bj, bi) too); `build()` fixes the CSC pattern. Each `BlockMatrix` on that layout
 * owns a values array; `add3(slot, r0, c0, A, s)` adds s·A to a 3×3 sub-block.
 */
import type { Mat3 } from '../math/mat3.js';
import type { Csc } from '../math/sparse/csc.js';

/**
 * out ← B x (out and x of length ≥ the rows), for B given column by column over its first n
 * columns: column j's entries start[j] … end[j] − 1 (values, rowIdx); the other columns are zero
 * (M in the full layout, whose component columns begin with their component rows; K and D in theirs)
 */
export function columnsMultiply(out: Float64Array, values: Float64Array, start: Int32Array, end: Int32Array, rowIdx: Int32Array, x: Float64Array, n: number): void {
  out.fill(0);
  for (let j = 0; j < n; j++) {
    const xj = x[j]!;
    if (xj === 0) continue;
    for (let p = start[j]!; p < end[j]!; p++) out[rowIdx[p]!] = out[rowIdx[p]!]! + values[p]! * xj;
  }
}

export class BlockPattern {
  readonly blockSize: Int32Array;    // (nb) rows/cols of each block
  readonly blockStart: Int32Array;   // (nb + 1) first scalar index of each block
  readonly n: number;                // scalar dimension
  private readonly slotOf = new Map<number, number>();
  private readonly slotI: number[] = [];
  private readonly slotJ: number[] = [];
  private built: BlockLayout | null = null;

  constructor(blockSize: Int32Array, blockStart: Int32Array) {
    this.blockSize = blockSize;
    this.blockStart = blockStart;
    this.n = blockStart[blockSize.length]!;
    // diagonal blocks always exist (mass matrix)
    for (let b = 0; b < blockSize.length; b++) this.couple(b, b);
  }

  /** registers blocks (bi, bj) and (bj, bi); returns the slot of (bi, bj) */
  couple(bi: number, bj: number): number {
    if (this.built) {
      // after build, only existing blocks can be asked for (a force re-binding to this pattern)
      const s = this.find(bi, bj);
      if (s < 0) throw new Error(`BlockPattern: block (${bi}, ${bj}) is not in the built pattern`);
      return s;
    }
    const nb = this.blockSize.length;
    if (bi < 0 || bj < 0 || bi >= nb || bj >= nb) throw new Error(`BlockPattern: block (${bi}, ${bj}) out of range`);
    const s = this.slot(bi, bj, true);
    this.slot(bj, bi, true);
    return s;
  }

  private slot(bi: number, bj: number, create: boolean): number {
    const key = bi * this.blockSize.length + bj;
    let s = this.slotOf.get(key);
    if (s === undefined) {
      if (!create) return -1;
      s = this.slotI.length;
      this.slotOf.set(key, s);
      this.slotI.push(bi);
      this.slotJ.push(bj);
    }
    return s;
  }

  /** the value indices (in the built layout) of every entry of the blocks (bi, bj) with both bi, bj < nb, ascending */
  entriesWithin(nb: number): Int32Array {
    const L = this.build(), out: number[] = [];
    for (let s = 0; s < this.slotI.length; s++) {
      const bi = this.slotI[s]!, bj = this.slotJ[s]!;
      if (bi >= nb || bj >= nb) continue;
      for (let c = 0; c < this.blockSize[bj]!; c++) for (let r = 0; r < this.blockSize[bi]!; r++) out.push(L.colBase[6 * s + c]! + r);
    }
    return Int32Array.from(out).sort();
  }

  /**
   * The layout of the blocks (bi, bj) with both bi, bj < nb alone, with the same slots (other
   * slots, and a block's columns past its size, have colBase −1), `compact`: for each value
   * index of the full layout its index in this one, −1 outside those blocks, and `entries`
   * (`entriesWithin(nb)`), in the full layout's order (column by column): entry e here is the
   * full layout's entries[e].
   */
  sublayout(nb: number): { layout: BlockLayout; compact: Int32Array; entries: Int32Array } {
    const L = this.build(), entries = this.entriesWithin(nb), compact = new Int32Array(L.nnz).fill(-1);
    for (let e = 0; e < entries.length; e++) compact[entries[e]!] = e;
    const colPtr = new Int32Array(this.n + 1), rowIdx = new Int32Array(entries.length);
    for (let j = 0; j < this.n; j++) {
      let h = 0;
      for (let p = L.colPtr[j]!; p < L.colPtr[j + 1]!; p++) if (compact[p]! >= 0) { rowIdx[compact[p]!] = L.rowIdx[p]!; h++; }
      colPtr[j + 1] = colPtr[j]! + h;
    }
    const colBase = Int32Array.from(L.colBase, (v, i) => {
      const s = Math.floor(i / 6), bj = this.slotJ[s]!;
      return this.slotI[s]! < nb && bj < nb && i % 6 < this.blockSize[bj]! ? compact[v]! : -1;
    });
    return { layout: { n: this.n, colPtr, rowIdx, colBase, nnz: entries.length, signature: `${L.signature}:${nb}` }, compact, entries };
  }

  /** slot of an existing block, or −1 */
  find(bi: number, bj: number): number { return this.slot(bi, bj, false); }

  /** fixes the CSC pattern; later calls return the same layout */
  build(): BlockLayout {
    if (this.built) return this.built;
    const nb = this.blockSize.length;
    // block columns: sorted list of block rows present in each block column
    const rowsOfCol: number[][] = Array.from({ length: nb }, () => []);
    for (let s = 0; s < this.slotI.length; s++) rowsOfCol[this.slotJ[s]!]!.push(this.slotI[s]!);
    for (const r of rowsOfCol) r.sort((a, b) => a - b);
    // scalar CSC pattern
    const colPtr = new Int32Array(this.n + 1);
    for (let bj = 0; bj < nb; bj++) {
      let h = 0;
      for (const bi of rowsOfCol[bj]!) h += this.blockSize[bi]!;
      for (let c = 0; c < this.blockSize[bj]!; c++) colPtr[this.blockStart[bj]! + c + 1] = h;
    }
    for (let k = 0; k < this.n; k++) colPtr[k + 1]! += colPtr[k]!;
    const rowIdx = new Int32Array(colPtr[this.n]!);
    // colBase[6 s + c]: index in values of row 0 of block s in its column c
    const colBase = new Int32Array(6 * this.slotI.length);
    for (let bj = 0; bj < nb; bj++) {
      for (let c = 0; c < this.blockSize[bj]!; c++) {
        const col = this.blockStart[bj]! + c;
        let p = colPtr[col]!;
        for (const bi of rowsOfCol[bj]!) {
          colBase[6 * this.find(bi, bj) + c] = p;
          for (let r = 0; r < this.blockSize[bi]!; r++) rowIdx[p++] = this.blockStart[bi]! + r;
        }
      }
    }
    // a cheap signature of the pattern: block count, slot count and a hash of the slot list
    let hash = 2166136261;
    for (let s = 0; s < this.slotI.length; s++) hash = Math.imul(hash ^ (this.slotI[s]! * 65599 + this.slotJ[s]!), 16777619);
    this.built = { n: this.n, colPtr, rowIdx, colBase, nnz: rowIdx.length, signature: `${nb}:${this.slotI.length}:${hash >>> 0}` };
    return this.built;
  }
}

export interface BlockLayout {
  readonly n: number;
  readonly colPtr: Int32Array;    // (n + 1)
  readonly rowIdx: Int32Array;    // (nnz)
  readonly colBase: Int32Array;   // (6 · slots) see BlockPattern.build
  readonly nnz: number;
  readonly signature: string;
}

export class BlockMatrix {
  readonly layout: BlockLayout;
  readonly values: Float64Array;   // (nnz)

  /** `values`: an array of at least nnz zeros to keep the values in (default: a new one) */
  constructor(layout: BlockLayout, values?: Float64Array) {
    this.layout = layout;
    if (values && (values.length < layout.nnz || values.some((x) => x !== 0))) throw new Error('BlockMatrix: the values array must hold nnz zeros');
    this.values = values ?? new Float64Array(layout.nnz);
  }

  zero(): void { this.values.fill(0); }

  /** the matrix as a CSC view (shares arrays) */
  csc(): Csc { return { n: this.layout.n, colPtr: this.layout.colPtr, rowIdx: this.layout.rowIdx, values: this.values }; }

  /**
   * adds s·A (3×3, row-major, from A[o]) at rows r0.., cols c0.. of block `slot`; callers in the
   * step pass s = ±1 and scale A themselves (a double argument of a call V8 does not inline is boxed)
   */
  add3(slot: number, r0: number, c0: number, A: Mat3, s: number, o = 0): void {
    const v = this.values, cb = this.layout.colBase;
    for (let c = 0; c < 3; c++) {
      const p = cb[6 * slot + c0 + c]! + r0;
      v[p] = v[p]! + s * A[o + c]!;
      v[p + 1] = v[p + 1]! + s * A[o + 3 + c]!;
      v[p + 2] = v[p + 2]! + s * A[o + 6 + c]!;
    }
  }

  /**
   * adds s·d[i] to the diagonal of the 3×3 sub-block at (r0, c0) of block `slot`, s a sign (±1):
   * the value is read from an array because a double passed to a call that V8 does not inline is
   * boxed (16 B per call)
   */
  addDiag3(slot: number, r0: number, c0: number, d: Float64Array, i: number, s = 1): void {
    const v = this.values, cb = this.layout.colBase, x = s * d[i]!;
    for (let c = 0; c < 3; c++) {
      const p = cb[6 * slot + c0 + c]! + r0 + c;
      v[p] = v[p]! + x;
    }
  }

  /** sets A (dense rows×cols, row-major, from A[o]) at the top-left of block `slot` */
  setDense(slot: number, A: Float64Array, rows: number, cols: number, o = 0): void {
    const v = this.values, cb = this.layout.colBase;
    for (let c = 0; c < cols; c++) {
      const p = cb[6 * slot + c]!;
      for (let r = 0; r < rows; r++) v[p + r] = A[o + r * cols + c]!;
    }
  }

  /** sets Aᵀ for a dense rows×cols row-major A (from A[o]), i.e. a cols×rows block, at the top-left of block `slot` */
  setDenseTransposed(slot: number, A: Float64Array, rows: number, cols: number, o = 0): void {
    const v = this.values, cb = this.layout.colBase;
    for (let c = 0; c < rows; c++) {
      const p = cb[6 * slot + c]!;
      for (let r = 0; r < cols; r++) v[p + r] = A[o + c * cols + r]!;
    }
  }

  /** sets entry (r, c) of block `slot` to s */
  setEntry(slot: number, r: number, c: number, s: number): void {
    this.values[this.layout.colBase[6 * slot + c]! + r] = s;
  }
}
