/**
 * Random quasi-definite KKT test matrices [[H, Gᵀ], [G, −R]] for the sparse factorizations.
 */
import { type Csc, cscFromDense } from '../../src/math/sparse/csc.js';

export function shuffled(n: number, rand: () => number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [p[i], p[j]] = [p[j]!, p[i]!];
  }
  return p;
}

export type RMode = 'positive' | 'mixed' | 'zero';

export interface Kkt {
  n: number;
  nH: number;
  m: number;
  /** n×n dense copy */
  K: Float64Array;
  csc: Csc;
  /** n flags: constraint rows with R = 0 */
  zeroR: Uint8Array;
}

/**
 * A random quasi-definite KKT matrix [[H, Gᵀ], [G, −R]] (m ≤ nH). The pattern comes
 * from patRand only, the values from valRand only. H is a strictly diagonally dominant
 * SPD matrix; each row c of G dominates in its own column σ(c), so G has full row rank
 * and K is nonsingular even where R = 0.
 */
export function makeKkt(patRand: () => number, valRand: () => number, nH: number, m: number, density: number, rMode: RMode): Kkt {
  const n = nH + m;
  const K = new Float64Array(n * n);
  const sgn = (): number => (valRand() < 0.5 ? -1 : 1);
  // H: random sparse symmetric, then a dominant positive diagonal
  for (let i = 0; i < nH; i++) {
    for (let j = i + 1; j < nH; j++) {
      if (patRand() >= density) continue;
      const v = sgn() * (0.1 + 0.4 * valRand());
      K[i * n + j] = v;
      K[j * n + i] = v;
    }
  }
  for (let i = 0; i < nH; i++) {
    let s = 0;
    for (let j = 0; j < nH; j++) s += Math.abs(K[i * n + j]!);
    K[i * n + i] = 1 + s + valRand();
  }
  // G: random sparse rows, each dominant in column σ(c)
  const sigma = shuffled(nH, patRand);
  const zeroR = new Uint8Array(n);
  for (let c = 0; c < m; c++) {
    const row = nH + c;
    let s = 0;
    for (let j = 0; j < nH; j++) {
      if (j === sigma[c] || patRand() >= density) continue;
      const v = sgn() * (0.1 + 0.9 * valRand());
      K[row * n + j] = v;
      K[j * n + row] = v;
      s += Math.abs(v);
    }
    const g = sgn() * (1 + s + valRand());
    K[row * n + sigma[c]!] = g;
    K[sigma[c]! * n + row] = g;
    // −R on the diagonal
    const r = Math.pow(10, -6 + 6 * valRand());
    const zero = rMode === 'zero' || (rMode === 'mixed' && valRand() < 0.5);
    K[row * n + row] = zero ? 0 : -r;
    zeroR[row] = zero ? 1 : 0;
  }
  return { n, nH, m, K, csc: cscFromDense(K, n, true), zeroR };
}
