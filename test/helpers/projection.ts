/**
 * Dense oracles of the mass-weighted projections (theory.md §8) for tests: with W = M⁻¹Gᵀ and
 * S = G W, the correction c(r) = W S⁻¹ r gives P_v u = u − c(G u) and the position step
 * δq = −c(g). M is n×n and G m×n, row-major.
 */
import { luDense, luSolveDense } from '../../src/math/dense.js';

/** r (m) ↦ M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹ r (n), dense */
export function massWeightedCorrection(M: Float64Array, G: Float64Array, n: number, m: number): (r: Float64Array) => Float64Array {
  const luM = luDense(M, n)!, x = new Float64Array(n), col = new Float64Array(n);
  // W = M⁻¹Gᵀ (n×m, column by column) and S = G W
  const W = new Float64Array(n * m), S = new Float64Array(m * m);
  for (let j = 0; j < m; j++) {
    for (let k = 0; k < n; k++) col[k] = G[j * n + k]!;
    luSolveDense(x, luM, col);
    for (let k = 0; k < n; k++) W[k * m + j] = x[k]!;
  }
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) { let s = 0; for (let k = 0; k < n; k++) s += G[i * n + k]! * W[k * m + j]!; S[i * m + j] = s; }
  const luS = luDense(S, m)!, y = new Float64Array(m);
  return (r) => {
    luSolveDense(y, luS, r);
    return Float64Array.from({ length: n }, (_, k) => { let s = 0; for (let j = 0; j < m; j++) s += W[k * m + j]! * y[j]!; return s; });
  };
}
