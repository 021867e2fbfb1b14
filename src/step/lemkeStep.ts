/**
 * The `lemke` contact solve (theory.md §15; 000 §0.10): the Anitescu-Stewart LCP with polyhedral
 * friction cones over this step's contact rows, by Lemke's method (solvers/lcp/anitescuStewart.ts).
 * The rows come contact by contact, a normal row then its K direction rows (contact/contactRows.ts,
 * 'polyhedral'); the LCP wants all normals first, then all directions, so W and q are read
 * through a permutation. Limits and motors are not part of that LCP: a model with them needs
 * `pivoting` or `pgs` (the loader says so).
 */
import type { LcpMatrix, LcpReport } from '../solvers/lcp/types.js';
import type { UnilateralRows } from '../contact/rows.js';
import { ROW_NORMAL, ROW_FRICTION } from '../contact/rows.js';
import { AnitescuStewart, type FrictionLcpResult, type FrictionLcpProblem } from '../solvers/lcp/anitescuStewart.js';

/** W with rows and columns renumbered: entry (i, j) = W(perm[i], perm[j]) */
class PermutedMatrix implements LcpMatrix {
  n = 0;
  perm = new Int32Array(0);
  W: LcpMatrix | null = null;
  private col = new Float64Array(0);
  column(j: number, out: Float64Array): void {
    const n = this.n;
    if (this.col.length < n) this.col = new Float64Array(Math.max(n, 2 * this.col.length));
    this.W!.column(this.perm[j]!, this.col);
    for (let i = 0; i < n; i++) out[i] = this.col[this.perm[i]!]!;
  }
  diagonal(j: number): number { return this.W!.diagonal(this.perm[j]!); }
}

export class LemkeStep {
  private readonly as = new AnitescuStewart();
  private readonly view = new PermutedMatrix();
  private b = new Float64Array(0);
  private mu = new Float64Array(0);
  private readonly out: FrictionLcpResult = { theta: new Float64Array(0), beta: new Float64Array(0), xi: new Float64Array(0) };

  private readonly problem: FrictionLcpProblem;

  constructor(private readonly k: number) {
    this.problem = { nc: 0, k, W: this.view, b: this.b, mu: this.mu };
  }

  /** rows.z ← θ on the normal rows and β on the direction rows, for w = W z + q */
  solve(W: LcpMatrix, q: Float64Array, rows: UnilateralRows): LcpReport {
    const n = rows.count, k = this.k, nc = n / (k + 1);
    this.reserve(n, nc);
    // the permutation: normals first, then each contact's directions
    const perm = this.view.perm;
    let c = 0;
    for (let i = 0; i < n; i += k + 1, c++) {
      if (rows.kind[i] !== ROW_NORMAL) throw new Error(`lemke: row ${i} is not a contact's normal row`);
      perm[c] = i;
      this.mu[c] = rows.mu[i + 1]!;
      for (let j = 0; j < k; j++) {
        if (rows.kind[i + 1 + j] !== ROW_FRICTION) throw new Error(`lemke: contact ${c} has no ${k} friction rows`);
        perm[nc + c * k + j] = i + 1 + j;
      }
    }
    this.view.n = n; this.view.W = W;
    for (let i = 0; i < n; i++) this.b[i] = q[perm[i]!]!;
    const pr = this.problem;
    pr.nc = nc; pr.k = k; pr.b = this.b; pr.mu = this.mu;
    const rep = this.as.solve(pr, this.out);
    // impulses back to the rows; a solve that did not end in a solution (a ray, the pivot cap)
    // leaves a basis whose impulses can be arbitrarily large: the rows then take none this step,
    // the status says so, and the next step's rows (with the penetration corrected by erp) retry
    const ok = rep.status === 'solved';
    for (let i = 0; i < nc; i++) rows.z[perm[i]!] = ok ? this.out.theta[i]! : 0;
    for (let r = 0; r < nc * k; r++) rows.z[perm[nc + r]!] = ok ? this.out.beta[r]! : 0;
    return rep;
  }

  private reserve(n: number, nc: number): void {
    if (this.b.length >= n) return;
    const cap = Math.max(n, 2 * this.b.length);
    this.b = new Float64Array(cap); this.view.perm = new Int32Array(cap); this.mu = new Float64Array(cap);
    this.out.theta = new Float64Array(cap); this.out.beta = new Float64Array(cap); this.out.xi = new Float64Array(cap);
    void nc;
  }
}
