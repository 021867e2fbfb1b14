/**
 * The lemke contact solve (step/lemkeStep.ts): the rows' impulses from the Anitescu-Stewart LCP,
 * read through the permutation (normals first, then each contact's directions); a solve that ends
 * without a solution leaves no impulse, never the arbitrary one of its last basis.
 */
import { describe, it, expect, vi } from 'vitest';
import { LemkeStep } from '../../src/step/lemkeStep.js';
import { UnilateralRows, ROW_NORMAL, ROW_FRICTION } from '../../src/contact/rows.js';
import { DenseLcpMatrix } from '../../src/solvers/lcp/types.js';
import { AnitescuStewart } from '../../src/solvers/lcp/anitescuStewart.js';

/** one contact with K friction directions: a normal row then its K direction rows */
function contactRows(K: number, mu: number): UnilateralRows {
  const rows = new UnilateralRows();
  const i = rows.add(ROW_NORMAL, -1, 0, 0, 0, Infinity, 0);
  for (let j = 0; j < K; j++) { const r = rows.add(ROW_FRICTION, -1, 0, 0, -Infinity, Infinity, 0); rows.normalOf[r] = i; rows.mu[r] = mu; }
  return rows;
}

describe('LemkeStep', () => {
  it('a particle pressed onto a plane takes exactly the impulse that stops it', () => {
    // unit mass particle, n = z, directions in the plane at 0°, 90°, 180°, 270°: W = J Jᵀ
    const K = 4, n = 1 + K, d = [[0, 0, 1], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]];
    const W = new Float64Array(n * n);
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) W[a * n + b] = d[a]![0]! * d[b]![0]! + d[a]![1]! * d[b]![1]! + d[a]![2]! * d[b]![2]!;
    const rows = contactRows(K, 0.5), q = Float64Array.from([-1, 0, 0, 0, 0]);
    const rep = new LemkeStep(K).solve(new DenseLcpMatrix(n, W), q, rows);
    expect(rep.status).toBe('solved');
    expect(rows.z[0]).toBeCloseTo(1, 14);
    for (let j = 1; j < n; j++) expect(rows.z[j]).toBeCloseTo(0, 14);
  });
  it('a solve that ends without a solution leaves no impulse and says so', () => {
    // Lemke stopped on a ray with an arbitrary last basis (as on large degenerate problems)
    const spy = vi.spyOn(AnitescuStewart.prototype, 'solve').mockImplementation((_p, out) => {
      out.theta.fill(1e9); out.beta.fill(1e9);
      return { status: 'ray-termination', iterations: 7, boundIterations: 1, residual: 1 };
    });
    const K = 4, n = 1 + K, rows = contactRows(K, 0.5);
    const rep = new LemkeStep(K).solve(new DenseLcpMatrix(n, new Float64Array(n * n)), new Float64Array(n), rows);
    spy.mockRestore();
    expect(rep.status).toBe('ray-termination');
    for (let j = 0; j < n; j++) expect(rows.z[j]).toBe(0);
  });
});
