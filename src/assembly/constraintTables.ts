/**
 * The constant tables of a ConstraintSystem, built once when it is made: each constraint's
 * scratch, each row's parameters and each constraint side's place in the Jacobian blocks.
 */
import type { Model } from '../model/model.js';

/**
 * each constraint's scratch for one workspace, their Float64 numbers back to back in one pool
 * (the queries, reports and the geometric stiffness walk it in model order)
 */
export function constraintScratch(model: Model): unknown[] {
  const sizes = model.constraints.map((c) => c.scratchSize);
  const pool = new Float64Array(sizes.reduce((a, b) => a + b, 0));
  let at = 0;
  return model.constraints.map((c, ci) => {
    const p = pool.subarray(at, at + sizes[ci]!);
    at += sizes[ci]!;
    return c.createScratch(p);
  });
}

/** per row: 1 when hard (no compliance), the compliance α and the damping β */
export function rowParameters(model: Model): { hard: Uint8Array; alpha: Float64Array; beta: Float64Array } {
  const m = model.nRows, hard = new Uint8Array(m), alpha = new Float64Array(m), beta = new Float64Array(m);
  model.constraints.forEach((c, ci) => {
    for (let r = 0; r < c.rows; r++) {
      const i = model.rowStart[ci]! + r;
      hard[i] = c.compliance[r]! > 0 ? 0 : 1;
      alpha[i] = c.compliance[r]!;
      beta[i] = c.damping[r]!;
    }
  });
  return { hard, alpha, beta };
}

/**
 * per constraint side: its Jacobian block's columns, its first solve index (−1 when not dynamic)
 * and its block's offset among the kept blocks (`keep` numbers in all); per constraint, 1 when
 * all its rows are hard; and the kept blocks' table for KeptBlocks, in constraint order, sides in
 * order: (r0, rows, cols, its component's offset in u, offset in the kept blocks)
 */
export function sideTables(model: Model, hard: Uint8Array): {
  sideCols: Int32Array; sideSolve: Int32Array; keepAt: Int32Array; allHard: Uint8Array;
  keep: number; table: Int32Array;
} {
  const nc = model.constraints.length, comps = model.components;
  const sideCols = new Int32Array(2 * nc), sideU = new Int32Array(2 * nc);
  const sideSolve = new Int32Array(2 * nc).fill(-1);
  const keepAt = new Int32Array(2 * nc), allHard = new Uint8Array(nc), table: number[] = [];
  let keep = 0;
  model.constraints.forEach((c, ci) => {
    const r0 = model.rowStart[ci]!;
    c.components.forEach((ix, k) => {
      const comp = comps[ix]!, s = 2 * ci + k;
      sideCols[s] = comp.kind === 'particle' ? 3 : 6;
      keepAt[s] = keep;
      sideU[s] = comp.uOffset;
      if (comp.block >= 0) sideSolve[s] = model.blockStart[comp.block]!;
      table.push(r0, c.rows, sideCols[s]!, sideU[s]!, keep);
      keep += c.rows * sideCols[s]!;
    });
    let all = 1;
    for (let r = 0; r < c.rows; r++) if (!hard[r0 + r]) all = 0;
    allHard[ci] = all;
  });
  return { sideCols, sideSolve, keepAt, allHard, keep, table: Int32Array.from(table) };
}
