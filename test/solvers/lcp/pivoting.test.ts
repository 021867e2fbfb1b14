/**
 * The `pivoting` box-LCP solver (src/solvers/lcp/pivoting.ts; 000 §0.7, §0.8, §0.10): against
 * brute-force enumeration of every (lo, free, hi) assignment on small random problems, on-demand
 * columns against a dense matrix, the friction fixed point on a particle with exact answers, and
 * the singular W of a box resting on four contacts.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { BoxLcpPivoting, boxLcpResidual, type BoxFriction } from '../../../src/solvers/lcp/pivoting.js';
import { PrincipalFactor } from '../../../src/solvers/lcp/principalFactor.js';
import { DenseLcpMatrix, type LcpMatrix, type LcpReport } from '../../../src/solvers/lcp/types.js';
import { choleskyDense } from '../../../src/math/dense.js';
import { enumerateBoxLcp, boxLcpViolation, boxLcpSlack } from '../../helpers/boxLcpEnumerate.js';
import { rng, maxAbsDiff } from '../../helpers/numeric.js';

const INF = Infinity;

/** A = B Bᵀ + eps I with B n × k entries in [−1, 1] (k < n and eps = 0: singular PSD) */
function gram(r: () => number, n: number, k: number, eps: number): Float64Array {
  const B = Array.from({ length: n * k }, () => 2 * r() - 1), A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = i === j ? eps : 0;
      for (let c = 0; c < k; c++) s += B[i * k + c]! * B[j * k + c]!;
      A[i * n + j] = s;
    }
  }
  return A;
}

/** bounds of a random kind per row: standard, box around 0, box off 0, bilateral, one-sided */
function randomBounds(r: () => number, n: number): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(n), hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const kind = Math.floor(5 * r());
    if (kind === 0) { lo[i] = 0; hi[i] = INF; }
    else if (kind === 1) { lo[i] = -r(); hi[i] = r(); }
    else if (kind === 2) { lo[i] = 0.2 * r(); hi[i] = lo[i]! + 0.5 * r() + 1e-3; }
    else if (kind === 3) { lo[i] = -INF; hi[i] = INF; }
    else { lo[i] = -INF; hi[i] = r() - 0.5; }
  }
  return { lo, hi };
}

/** the solver's run on a dense matrix; z, its report and its residual checked independently */
function run(A: Float64Array, q: Float64Array, lo: Float64Array, hi: Float64Array, solver = new BoxLcpPivoting(4)) {
  const n = q.length, z = new Float64Array(n);
  const report = { ...solver.solve(new DenseLcpMatrix(n, A), q, lo, hi, null, z) };
  return { z, report, violation: boxLcpViolation(A, q, lo, hi, z) };
}

/** solved, finite, and w = A z + q equal to that of every solution (unique for PSD A) to 1e-9 */
function expectEnumerationsW(A: Float64Array, q: Float64Array, lo: Float64Array, hi: Float64Array, z: Float64Array, report: LcpReport) {
  const ref = enumerateBoxLcp(A, q, lo, hi);
  expect(ref.length).toBeGreaterThan(0);
  expect(report.status).toBe('solved');
  expect(z.every(Number.isFinite)).toBe(true);
  expect(maxAbsDiff(boxLcpSlack(A, q, z), ref[0]!.w)).toBeLessThan(1e-9);
  expect(report.residual).toBeLessThan(1e-10);
  expect(boxLcpViolation(A, q, lo, hi, z)).toBeLessThan(1e-10);
}

describe('BoxLcpPivoting against enumeration', () => {
  it('P-matrices with random bounds: the unique solution, to 1e-9', () => {
    const arb = fc.record({ n: fc.integer({ min: 1, max: 7 }), seed: fc.integer(), eps: fc.double({ min: 1e-3, max: 1, noNaN: true }) });
    fc.assert(fc.property(arb, ({ n, seed, eps }) => {
      const r = rng(seed), A = gram(r, n, n, eps), { lo, hi } = randomBounds(r, n);
      const q = Float64Array.from({ length: n }, () => 4 * r() - 2);
      const { z, report, violation } = run(A, q, lo, hi);
      const ref = enumerateBoxLcp(A, q, lo, hi);
      expect(ref.length).toBeGreaterThan(0);
      for (const s of ref) expect(maxAbsDiff(s.z, ref[0]!.z)).toBeLessThan(1e-9);
      expect(report.status).toBe('solved');
      expect(maxAbsDiff(z, ref[0]!.z)).toBeLessThan(1e-9);
      expect(report.residual).toBeLessThan(1e-10);
      expect(violation).toBeLessThan(1e-10);
    }), { seed: 42, numRuns: 150 });
  });

  it('standard PSD LCPs with a feasible point: solved, w equal to the enumeration\'s', () => {
    const arb = fc.record({ n: fc.integer({ min: 1, max: 8 }), k: fc.integer({ min: 1, max: 8 }), seed: fc.integer() });
    fc.assert(fc.property(arb, ({ n, k, seed }) => {
      const r = rng(seed), A = gram(r, n, Math.min(k, n), 0);
      // q = w0 − A x0 with x0, w0 ≥ 0: x0 is feasible
      const x0 = Float64Array.from({ length: n }, () => (r() < 0.5 ? 0 : r()));
      const w0 = Float64Array.from({ length: n }, () => (r() < 0.5 ? 0 : r()));
      const q = boxLcpSlack(A, w0, x0.map((x) => -x));
      const lo = new Float64Array(n), hi = new Float64Array(n).fill(INF);
      const { z, report } = run(A, q, lo, hi);
      expectEnumerationsW(A, q, lo, hi, z, report);
    }), { seed: 42, numRuns: 150 });
  });

  it('degenerate LCPs (duplicate rows and columns, zero q entries): no cycling, a valid solution', () => {
    const arb = fc.record({ n: fc.integer({ min: 2, max: 8 }), base: fc.integer({ min: 1, max: 4 }), seed: fc.integer(), box: fc.boolean() });
    fc.assert(fc.property(arb, ({ n, base, seed, box }) => {
      const r = rng(seed), k = Math.min(base, n), C = gram(r, k, k, 0.1 * r());
      // variable i copies base variable map[i]: A has duplicate rows and columns
      const map = Array.from({ length: n }, (_, i) => (i < k ? i : Math.floor(k * r())));
      const A = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * n + j] = C[map[i]! * k + map[j]!]!;
      const qb = Array.from({ length: k }, () => (r() < 0.3 ? 0 : 2 * r() - 1.5));
      const q = Float64Array.from({ length: n }, (_, i) => qb[map[i]!]!);
      const lo = new Float64Array(n), hi = new Float64Array(n).fill(INF);
      if (box) for (let i = 0; i < n; i++) { lo[i] = -r(); hi[i] = r(); }
      const { z, report } = run(A, q, lo, hi);
      expectEnumerationsW(A, q, lo, hi, z, report);
    }), { seed: 42, numRuns: 150 });
  });
});

describe('PrincipalFactor', () => {
  it('appends, removes and solves like a fresh factor of the same set; refuses dependent columns', () => {
    const r = rng(7), n = 12, A = gram(r, n, n, 0.05);
    // a column-major copy with column 11 = column 3 + column 5 (dependent)
    for (let i = 0; i < n; i++) { A[i * n + 11] = A[i * n + 3]! + A[i * n + 5]!; }
    for (let j = 0; j < n; j++) A[11 * n + j] = A[j * n + 11]!;
    A[11 * n + 11] = A[3 * n + 3]! + 2 * A[3 * n + 5]! + A[5 * n + 5]!;
    const f = new PrincipalFactor(2);
    f.reset(n);
    for (const j of [0, 3, 5, 7, 1, 9, 2]) expect(f.tryAppend(j, A, j * n)).toBe(true);
    expect(f.tryAppend(11, A, 11 * n)).toBe(false);
    // the null direction: A (d on the free set, 1 at 11) = 0 on every row
    const d = new Float64Array(n);
    f.nullDirection(d);
    const x = new Float64Array(n);
    for (let k = 0; k < f.m; k++) x[f.order[k]!] = d[k]!;
    x[11] = 1;
    const Ax = boxLcpSlack(A, new Float64Array(n), x);
    expect(Math.max(...Ax.map(Math.abs))).toBeLessThan(1e-12);
    // remove two, append one; then a solve equals a dense solve on the resulting set
    f.remove(f.pos[3]!); f.remove(0); expect(f.tryAppend(11, A, 11 * n)).toBe(true);
    const set = Array.from(f.order.subarray(0, f.m));
    expect(set).toEqual([5, 7, 1, 9, 2, 11]);
    const b = Float64Array.from(set, () => r() - 0.5), sol = b.slice();
    f.solve(sol);
    for (let a = 0; a < set.length; a++) {
      let s = 0;
      for (let c = 0; c < set.length; c++) s += A[set[a]! * n + set[c]!]! * sol[c]!;
      expect(Math.abs(s - b[a]!)).toBeLessThan(1e-12);
    }
  });
});

/** LcpMatrix W = N K⁻¹ Nᵀ whose columns are solves with the Cholesky factor of K, counting them */
class SolvedColumns implements LcpMatrix {
  requested = 0;
  private readonly x: Float64Array;
  constructor(readonly n: number, private readonly N: Float64Array, private readonly L: Float64Array, private readonly m: number) {
    this.x = new Float64Array(m);
  }
  column(j: number, out: Float64Array): void {
    this.requested++;
    const { N, L, m, x } = this;
    // K x = N_jᵀ by forward and backward substitution
    for (let i = 0; i < m; i++) {
      let s = N[j * m + i]!;
      for (let k = 0; k < i; k++) s -= L[i * m + k]! * x[k]!;
      x[i] = s / L[i * m + i]!;
    }
    for (let i = m - 1; i >= 0; i--) {
      let s = x[i]!;
      for (let k = i + 1; k < m; k++) s -= L[k * m + i]! * x[k]!;
      x[i] = s / L[i * m + i]!;
    }
    for (let i = 0; i < this.n; i++) {
      let s = 0;
      for (let k = 0; k < m; k++) s += N[i * m + k]! * x[k]!;
      out[i] = s;
    }
  }
  diagonal(j: number): number {
    const col = new Float64Array(this.n);
    this.column(j, col);
    return col[j]!;
  }
}

/** a random "KKT" K (SPD, m × m), sparse rows N (n × m, 3 entries each); W dense as Yᵀ Y with Y = L⁻¹Nᵀ */
function kktProblem(seed: number, n: number, m: number) {
  const r = rng(seed), K = gram(r, m, m, 0.5), chol = choleskyDense(K, m)!;
  const N = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let e = 0; e < 3; e++) N[i * m + Math.floor(m * r())] = 2 * r() - 1;
  const Y = new Float64Array(m * n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < m; i++) {
      let s = N[j * m + i]!;
      for (let k = 0; k < i; k++) s -= chol.L[i * m + k]! * Y[k * n + j]!;
      Y[i * n + j] = s / chol.L[i * m + i]!;
    }
  }
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let k = 0; k < m; k++) s += Y[k * n + i]! * Y[k * n + j]!;
    W[i * n + j] = s;
  }
  return { r, W, onDemand: new SolvedColumns(n, N, chol.L, m) };
}

describe('on-demand pivoting equals dense pivoting', () => {
  it('same z to 1e-12, with fewer columns than rows when few rows are active', () => {
    fc.assert(fc.property(fc.integer(), fc.boolean(), (seed, withFriction) => {
      const n = 30, { r, W, onDemand } = kktProblem(seed, n, 40);
      // most rows separate (q > 0); with friction, rows come in (normal, tangent, tangent) triples
      const q = Float64Array.from({ length: n }, () => (r() < 0.2 ? -r() : 0.05 + r()));
      const lo = new Float64Array(n), hi = new Float64Array(n).fill(INF);
      const friction: BoxFriction | null = withFriction
        ? { normalOf: Int32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -1 : i - (i % 3))), mu: new Float64Array(n).fill(0.4) }
        : null;
      const zDense = new Float64Array(n), zOnDemand = new Float64Array(n);
      const dense = { ...new BoxLcpPivoting(8).solve(new DenseLcpMatrix(n, W), q, lo, hi, friction, zDense) };
      const solver = new BoxLcpPivoting(8);
      const lazy = solver.solve(onDemand, q, lo, hi, friction, zOnDemand);
      expect(dense.status).toBe('solved');
      expect(lazy.status).toBe('solved');
      // W formed as Yᵀ Y differs from the solved columns by rounding (1e-16), which cond(W_αα)
      // carries into z: compare relative to ‖z‖∞
      const zMax = Math.max(1, ...zDense.map(Math.abs));
      expect(maxAbsDiff(zDense, zOnDemand)).toBeLessThan(1e-12 * zMax);
      // the same columns in a dense matrix: the same arithmetic, bit for bit
      const Wc = new Float64Array(n * n), col = new Float64Array(n), zSame = new Float64Array(n);
      for (let j = 0; j < n; j++) { onDemand.column(j, col); for (let i = 0; i < n; i++) Wc[i * n + j] = col[i]!; }
      onDemand.requested -= n;
      new BoxLcpPivoting(8).solve(new DenseLcpMatrix(n, Wc), q, lo, hi, friction, zSame);
      expect(Array.from(zSame)).toEqual(Array.from(zOnDemand));
      expect(lazy.residual).toBeLessThan(1e-10);
      // a column per row that is ever free or bound away from zero, each once
      const used = zOnDemand.reduce((c, z) => c + (z !== 0 ? 1 : 0), 0);
      expect(onDemand.requested).toBe(solver.stats.columns);
      expect(onDemand.requested).toBeGreaterThanOrEqual(used);
      if (!withFriction) expect(onDemand.requested).toBeLessThan(n);
    }), { seed: 42, numRuns: 40 });
  });
});

describe('box friction: bounds ±μθ iterated to a fixed point', () => {
  // a unit-mass particle on the plane z = 0; rows (normal z, tangents x, y); z is a force, W = (h/m) I
  const h = 0.01, mass = 1, g = 9.81;
  const friction = { normalOf: Int32Array.from([-1, 0, 0]), mu: new Float64Array(3) };
  const lo = Float64Array.from([0, -INF, -INF]), hi = Float64Array.from([INF, INF, INF]);
  const W = new DenseLcpMatrix(3, Float64Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1].map((v) => (h / mass) * v)));

  it('a pushed particle sticks when |push| ≤ μ·normal and slides with |friction| = μθ per direction above', () => {
    const arb = fc.record({ mu: fc.double({ min: 0.05, max: 1.5, noNaN: true }), fx: fc.double({ min: -2, max: 2, noNaN: true }), fy: fc.double({ min: -2, max: 2, noNaN: true }) });
    fc.assert(fc.property(arb, ({ mu, fx, fy }) => {
      const normal = mass * g, push = [fx * mu * normal, fy * mu * normal];
      friction.mu.fill(mu);
      // free velocity after one step: gravity and the push
      const q = Float64Array.from([-h * g, (h * push[0]!) / mass, (h * push[1]!) / mass]);
      const z = new Float64Array(3);
      const report = new BoxLcpPivoting(3).solve(W, q, lo, hi, friction, z);
      expect(report.status).toBe('solved');
      expect(report.boundIterations).toBe(2);
      expect(Math.abs(z[0]! - normal)).toBeLessThan(1e-12 * normal);
      for (let d = 0; d < 2; d++) {
        const p = push[d]!, cap = mu * normal;
        // sticking cancels the push; sliding opposes it at the bound
        const expected = Math.abs(p) <= cap ? -p : -Math.sign(p) * cap;
        expect(Math.abs(z[1 + d]! - expected)).toBeLessThan(1e-12 * normal);
      }
      expect(report.residual).toBeLessThan(1e-12);
    }), { seed: 42, numRuns: 200 });
  });

  it('starts from the normal impulse passed in: one bound iteration when it is already right', () => {
    friction.mu.fill(0.5);
    const q = Float64Array.from([-h * g, h * 10, 0]), z = Float64Array.from([mass * g, 0, 0]);
    const report = new BoxLcpPivoting(3).solve(W, q, lo, hi, friction, z);
    expect(report.boundIterations).toBe(1);
    expect(z[1]).toBeCloseTo(-0.5 * mass * g, 12);
  });

  it('reports iteration-limit when the bound iterations are capped', () => {
    friction.mu.fill(0.5);
    const q = Float64Array.from([-h * g, h * 10, 0]), z = new Float64Array(3);
    const report = new BoxLcpPivoting(3).solve(W, q, lo, hi, friction, z, { maxBoundIterations: 1 });
    expect(report.status).toBe('iteration-limit');
    expect(z.every(Number.isFinite)).toBe(true);
  });
});

/** [d; r × d]: the row of a body's (v of the centre of mass, ω) for direction d at r from the centre */
function bodyRow(r: number[], d: number[]): number[] {
  return [...d, r[1]! * d[2]! - r[2]! * d[1]!, r[2]! * d[0]! - r[0]! * d[2]!, r[0]! * d[1]! - r[1]! * d[0]!];
}

/** a box of half extents (a, b, c) on the plane z = 0: four corner contacts, rows (normal, x, y) each */
function boxOnPlane(mass: number, a: number, b: number, c: number) {
  const I = [(mass / 3) * (b * b + c * c), (mass / 3) * (a * a + c * c), (mass / 3) * (a * a + b * b)];
  const invM = [1 / mass, 1 / mass, 1 / mass, 1 / I[0]!, 1 / I[1]!, 1 / I[2]!];
  const J: number[][] = [];
  for (const [sx, sy] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    const r = [sx! * a, sy! * b, -c];
    J.push(bodyRow(r, [0, 0, 1]), bodyRow(r, [1, 0, 0]), bodyRow(r, [0, 1, 0]));
  }
  const n = J.length, W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) W[i * n + j] = J[i]!.reduce((s, v, k) => s + v * invM[k]! * J[j]![k]!, 0);
  /** q = J v and the velocity after impulses z: v + M⁻¹ Jᵀ z */
  const q = (v: number[]) => Float64Array.from(J, (row) => row.reduce((s, x, k) => s + x * v[k]!, 0));
  const after = (v: number[], z: Float64Array) => v.map((x, k) => x + invM[k]! * J.reduce((s, row, i) => s + row[k]! * z[i]!, 0));
  const normalOf = Int32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -1 : i - (i % 3)));
  return { n, W, q, after, normalOf };
}

describe('singular W: a box resting on a plane by four corners', () => {
  const mass = 2, h = 0.01, g = 9.81, box = boxOnPlane(mass, 0.2, 0.15, 0.1), n = box.n;
  const lo = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : -INF)), hi = new Float64Array(n).fill(INF);
  const sum = (z: Float64Array, off: number[]) => off.reduce((s, k) => s + z[k]!, 0);

  it('comes to rest from any warm start: total normal impulse m(gh + v), no NaN', () => {
    const arb = fc.record({ sets: fc.array(fc.integer({ min: -1, max: 1 }), { minLength: n, maxLength: n }), vDown: fc.double({ min: 0, max: 1, noNaN: true }), mu: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(fc.property(arb, ({ sets, vDown, mu }) => {
      const v = [0, 0, -g * h - vDown, 0, 0, 0], z = new Float64Array(n), solver = new BoxLcpPivoting(4);
      const report = solver.solve(new DenseLcpMatrix(n, box.W), box.q(v), lo, hi, { normalOf: box.normalOf, mu: new Float64Array(n).fill(mu) }, z, { initialSets: Int8Array.from(sets) });
      expect(report.status).toBe('solved');
      expect(z.every(Number.isFinite)).toBe(true);
      const weight = mass * (g * h + vDown);
      expect(Math.abs(sum(z, [0, 3, 6, 9]) - weight)).toBeLessThan(1e-10 * weight);
      for (const x of box.after(v, z)) expect(Math.abs(x)).toBeLessThan(1e-12);
      expect(report.residual).toBeLessThan(1e-10);
    }), { seed: 42, numRuns: 100 });
  });

  it('sliding at 1 m/s: friction μ m g h, the front corners carry (1 + cμ/a)/2 of the weight', () => {
    const mu = 0.5, v = [1, 0, -g * h, 0, 0, 0], z = new Float64Array(n);
    const report = new BoxLcpPivoting(4).solve(new DenseLcpMatrix(n, box.W), box.q(v), lo, hi, { normalOf: box.normalOf, mu: new Float64Array(n).fill(mu) }, z);
    expect(report.status).toBe('solved');
    expect(report.boundIterations).toBeGreaterThan(2);
    const weight = mass * g * h;
    expect(Math.abs(sum(z, [0, 3]) - ((1 + (0.1 * mu) / 0.2) / 2) * weight)).toBeLessThan(1e-10 * weight);
    expect(Math.abs(sum(z, [6, 9]) - ((1 - (0.1 * mu) / 0.2) / 2) * weight)).toBeLessThan(1e-10 * weight);
    expect(Math.abs(sum(z, [1, 4, 7, 10]) + mu * weight)).toBeLessThan(1e-10 * weight);
    const after = box.after(v, z);
    expect(Math.abs(after[0]! - (1 - (mu * weight) / mass))).toBeLessThan(1e-12);
    for (const k of [1, 2, 3, 4, 5]) expect(Math.abs(after[k]!)).toBeLessThan(1e-12);
    expect(report.residual).toBeLessThan(1e-10);
  });
});

describe('BoxLcpPivoting: the descent safeguard, warm starts, failures', () => {
  it('singular problems with finite boxes through the descent (forced or not): the enumeration\'s w', () => {
    const totals = { descent: 0, nullSteps: 0 };
    const arb = fc.record({ n: fc.integer({ min: 2, max: 8 }), k: fc.integer({ min: 1, max: 7 }), seed: fc.integer(), force: fc.boolean() });
    fc.assert(fc.property(arb, ({ n, k, seed, force }) => {
      const r = rng(seed), A = gram(r, n, Math.min(k, n - 1), 0);
      const lo = Float64Array.from({ length: n }, () => -r()), hi = lo.map((l) => (r() < 0.5 ? -l : l + 2 * r() + 1e-3));
      const q = Float64Array.from({ length: n }, () => (r() < 0.2 ? 0 : 4 * r() - 2));
      const solver = new BoxLcpPivoting(4), z = new Float64Array(n);
      const report = solver.solve(new DenseLcpMatrix(n, A), q, lo, hi, null, z, { maxBlockFailures: force ? 0 : 3 });
      totals.descent += solver.stats.descentSteps; totals.nullSteps += solver.stats.nullSteps;
      expectEnumerationsW(A, q, lo, hi, z, report);
    }), { seed: 42, numRuns: 200 });
    // the runs went through the safeguard and its null-direction steps
    expect(totals.descent).toBeGreaterThan(100);
    expect(totals.nullSteps).toBeGreaterThan(10);
  });

  it('a warm start from the last sets takes no pivot and gives the same z', () => {
    const r = rng(5), n = 40, A = gram(r, n, n, 0.01), { lo, hi } = randomBounds(r, n);
    const q = Float64Array.from({ length: n }, () => 2 * r() - 1), solver = new BoxLcpPivoting(4);
    const z1 = new Float64Array(n), z2 = new Float64Array(n);
    expect(solver.solve(new DenseLcpMatrix(n, A), q, lo, hi, null, z1).iterations).toBeGreaterThan(0);
    const sets = solver.sets.slice();
    expect(sets.every((s) => s === -1 || s === 0 || s === 1)).toBe(true);
    const report = solver.solve(new DenseLcpMatrix(n, A), q, lo, hi, null, z2, { initialSets: sets });
    expect(report.iterations).toBe(0);
    expect(maxAbsDiff(z1, z2)).toBeLessThan(1e-14);
    expect(Array.from(solver.sets)).toEqual(Array.from(sets));
  });

  it('no solution: "singular" for inconsistent redundant bilateral rows, "infeasible" for a standard LCP', () => {
    const run2 = (a: number[], q: number[], lo: number[], hi: number[]) => {
      const z = new Float64Array(2);
      const report = new BoxLcpPivoting(2).solve(new DenseLcpMatrix(2, Float64Array.from(a)), Float64Array.from(q), Float64Array.from(lo), Float64Array.from(hi), null, z);
      expect(z.every(Number.isFinite)).toBe(true);
      return report.status;
    };
    // z1 + z2 = 1 and z1 + z2 = 2
    expect(run2([1, 1, 1, 1], [-1, -2], [-INF, -INF], [INF, INF])).toBe('singular');
    // w1 + w2 = −2 with w ≥ 0
    expect(run2([1, -1, -1, 1], [-1, -1], [0, 0], [INF, INF])).toBe('infeasible');
    // consistent redundant rows are solved
    expect(run2([1, 1, 1, 1], [-1, -1], [-INF, -INF], [INF, INF])).toBe('solved');
  });

  it('refuses bad input with a ModelError naming the row, and a matrix column that is not finite', () => {
    const A = new DenseLcpMatrix(2, Float64Array.from([1, 0, 0, 1])), z = new Float64Array(2), s = new BoxLcpPivoting(2);
    const lo = Float64Array.from([0, 0]), hi = Float64Array.from([1, 1]);
    expect(() => s.solve(A, Float64Array.from([NaN, 0]), lo, hi, null, z)).toThrow(/row 0/);
    expect(() => s.solve(A, Float64Array.from([0, 0]), lo, Float64Array.from([1, -1]), null, z)).toThrow(/row 1/);
    const bad = { normalOf: Int32Array.from([1, 0]), mu: Float64Array.from([0.5, 0.5]) };
    expect(() => s.solve(A, Float64Array.from([0, 0]), lo, hi, bad, z)).toThrow(/friction row 0/);
    // a column that is not finite (a failed solve upstream) is reported, not propagated
    const broken: LcpMatrix = { n: 2, column: (j, out) => { out[0] = NaN; out[1] = 1; }, diagonal: () => 1 };
    expect(() => s.solve(broken, Float64Array.from([-1, -1]), lo, hi, null, z)).toThrow(/column 0 of the LCP matrix is not finite/);
  });

  it('the residual of types.ts: bound violations and min(|z − bound|, |w|) over max(1, scale)', () => {
    const lo = Float64Array.from([0, 0, 0]), hi = Float64Array.from([1, 1, 1]);
    expect(boxLcpResidual(Float64Array.from([0, 0.5, 1]), Float64Array.from([1, 0, -1]), lo, hi, 3, 0.5)).toBe(0);
    expect(boxLcpResidual(Float64Array.from([0.1, 0.5, 1]), Float64Array.from([1, 0, -1]), lo, hi, 3, 0.5)).toBeCloseTo(0.1, 15);
    expect(boxLcpResidual(Float64Array.from([0, 0.5, 1.25]), Float64Array.from([1, 0.01, -1]), lo, hi, 3, 2)).toBeCloseTo(0.125, 15);
  });
});
