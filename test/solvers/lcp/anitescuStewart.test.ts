/**
 * The Anitescu–Stewart friction LCP (000 §0.10, errata A.1): a particle and a flat box on a plane,
 * pushed sideways, against the exact stick and slide answers and maximal dissipation over the
 * polyhedral cone; small random problems against enumeration of the complementary bases.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AnitescuStewart, polyhedralDirections, type FrictionLcpResult,
} from '../../../src/solvers/lcp/anitescuStewart.js';
import { DenseLcpMatrix } from '../../../src/solvers/lcp/types.js';
import { ModelError } from '../../../src/model/errors.js';
import { rng } from '../../helpers/numeric.js';
import { enumerateLcp, gram, matVec, maxDiff } from '../../helpers/lcpEnumerate.js';

const g = 9.81, h = 0.01;

/** the rows [n; d_0 … d_{k−1}] of one contact with normal +z, as (1 + k) × 3 row-major */
function planeRows(k: number): Float64Array {
  const J = new Float64Array(3 * (1 + k));
  J[2] = 1;
  polyhedralDirections(J.subarray(3), [1, 0, 0], [0, 1, 0], k);
  return J;
}

/** solve output buffers */
function result(nc: number, k: number): FrictionLcpResult {
  return { theta: new Float64Array(nc), beta: new Float64Array(nc * k), xi: new Float64Array(nc) };
}

/**
 * A particle of mass m resting on the plane z = 0 under gravity, with velocity u and a horizontal
 * push f: returns the LCP solution and the velocity after the step v⁺ = v_free + Jᵀλ/m
 */
function particle(k: number, mu: number, u: number[], f: number[], m = 2) {
  const J = planeRows(k), rows = 1 + k;
  const W = gram(rows, 3, J).map((x) => x / m);
  const vFree = [u[0]! + (h * f[0]!) / m, u[1]! + (h * f[1]!) / m, u[2]! - h * g];
  const b = matVec(rows, 3, J, vFree);
  const out = result(1, k);
  const report = new AnitescuStewart().solve(
    { nc: 1, k, W: new DenseLcpMatrix(rows, W), b, mu: Float64Array.of(mu) }, out);
  const lambda = [out.theta[0]!, ...out.beta];
  const v = vFree.map((x, c) => x + lambda.reduce((s, l, r) => s + l * J[3 * r + c]!, 0) / m);
  return { ...out, report, v, J };
}

describe('polyhedral directions', () => {
  it('spreads k unit directions evenly over the tangent plane', () => {
    const t1 = [0, 0.6, 0.8], t2 = [1, 0, 0];
    const d = polyhedralDirections(new Float64Array(3 * 5), t1, t2, 5);
    for (let j = 0; j < 5; j++) {
      const dj = d.subarray(3 * j, 3 * j + 3);
      const a = (2 * Math.PI * j) / 5;
      expect(Math.hypot(...dj)).toBeCloseTo(1, 15);
      expect(dj[0]! * t1[0]! + dj[1]! * t1[1]! + dj[2]! * t1[2]!).toBeCloseTo(Math.cos(a), 15);
      expect(dj[0]! * t2[0]! + dj[1]! * t2[1]! + dj[2]! * t2[2]!).toBeCloseTo(Math.sin(a), 15);
    }
  });
});

describe('Anitescu–Stewart: a particle on a plane', () => {
  it('sticks when pushed below μ m g: zero velocity, the push balanced, no sliding speed', () => {
    const m = 2, mu = 0.5, F = 0.9 * mu * m * g;
    const s = particle(8, mu, [0, 0, 0], [F, 0, 0], m);
    expect(s.report.status).toBe('solved');
    expect(s.report.residual).toBeLessThan(1e-14);
    expect(s.theta[0]).toBeCloseTo(m * g * h, 14);
    for (const v of s.v) expect(Math.abs(v)).toBeLessThan(1e-14);
    expect(s.xi[0]).toBe(0);
    // the tangential impulse Dᵀβ is −F h along x, inside the cone
    let fx = 0, fy = 0, sum = 0;
    for (let j = 0; j < 8; j++) {
      fx += s.beta[j]! * s.J[3 + 3 * j]!;
      fy += s.beta[j]! * s.J[4 + 3 * j]!;
      sum += s.beta[j]!;
    }
    expect(fx).toBeCloseTo(-F * h, 14);
    expect(fy).toBeCloseTo(0, 14);
    expect(sum).toBeLessThanOrEqual(mu * s.theta[0]! * (1 + 1e-12));
  });

  it('slides when pushed above μ m g: β = μθ on the direction opposite the motion, ξ the speed', () => {
    const m = 2, mu = 0.5, F = 1.5 * mu * m * g;
    const s = particle(8, mu, [0, 0, 0], [F, 0, 0], m);
    expect(s.report.status).toBe('solved');
    const theta = m * g * h;
    expect(s.theta[0]).toBeCloseTo(theta, 14);
    // d_4 = −x is the only active direction
    for (let j = 0; j < 8; j++) expect(s.beta[j]).toBeCloseTo(j === 4 ? mu * theta : 0, 14);
    const vx = h * (F / m - mu * g);
    expect(s.v[0]).toBeCloseTo(vx, 14);
    expect(Math.abs(s.v[1]!) + Math.abs(s.v[2]!)).toBeLessThan(1e-14);
    expect(s.xi[0]).toBeCloseTo(vx, 14);
  });

  it('the stick-slip threshold is μ m g exactly along a cone edge', () => {
    const m = 1, mu = 0.3;
    for (const ratio of [0.999, 1.001]) {
      const s = particle(8, mu, [0, 0, 0], [ratio * mu * m * g, 0, 0], m);
      expect(s.xi[0]! > 1e-12).toBe(ratio > 1);
    }
  });

  it('a sliding particle gets maximal dissipation: friction along the edge most opposed to v', () => {
    const m = 1.5, mu = 0.4, V = 3, k = 8;
    // headings strictly between the cone's edges
    for (const phi of [0.3, 1.9, 2.5, 4.0, 5.6]) {
      const s = particle(k, mu, [V * Math.cos(phi), V * Math.sin(phi), 0], [0, 0, 0], m);
      expect(s.report.status).toBe('solved');
      const theta = m * g * h;
      // the edge d_j maximizing −d_j·v: the one nearest to the heading φ + π
      const jStar = ((Math.round(((phi + Math.PI) * k) / (2 * Math.PI)) % k) + k) % k;
      for (let j = 0; j < k; j++) expect(s.beta[j]).toBeCloseTo(j === jStar ? mu * theta : 0, 14);
      const d = s.J.subarray(3 + 3 * jStar, 6 + 3 * jStar);
      const vExpect = [V * Math.cos(phi) + mu * g * h * d[0]!, V * Math.sin(phi) + mu * g * h * d[1]!, 0];
      expect(maxDiff(s.v, vExpect)).toBeLessThan(1e-13);
      expect(s.xi[0]).toBeCloseTo(-(d[0]! * s.v[0]! + d[1]! * s.v[1]!), 13);
    }
  });

  it('a heading exactly between two edges shares the friction between them equally', () => {
    const m = 1, mu = 0.4, V = 2, k = 8;
    // −v bisects d_4 and d_5
    const phi = Math.PI / 8;
    const s = particle(k, mu, [V * Math.cos(phi), V * Math.sin(phi), 0], [0, 0, 0], m);
    const theta = m * g * h;
    expect(s.beta[4]! + s.beta[5]!).toBeCloseTo(mu * theta, 14);
    expect(s.beta[4]).toBeCloseTo(mu * theta / 2, 10);
    expect(Math.atan2(s.v[1]!, s.v[0]!)).toBeCloseTo(phi, 10);
  });

  it('a particle leaving the plane gets no impulse; ξ is still its tangential speed', () => {
    const s = particle(6, 0.5, [1, 0, 1], [0, 0, 0]);
    expect(s.report.status).toBe('solved');
    expect(s.theta[0]).toBe(0);
    expect(Array.from(s.beta)).toEqual([0, 0, 0, 0, 0, 0]);
    // max_j(−d_j·v) = 1 at d_3 = −x
    expect(s.xi[0]).toBeCloseTo(1, 15);
  });
});

/** 6 × 6 inverse mass of a box (mass m, half extents a) about its centre: diag(1/m, 1/I) */
function boxInverseMass(m: number, a: number[]): number[] {
  const [x, y, z] = a as [number, number, number];
  const I = [(y * y + z * z) * m / 3, (x * x + z * z) * m / 3, (x * x + y * y) * m / 3];
  return [1 / m, 1 / m, 1 / m, 1 / I[0]!, 1 / I[1]!, 1 / I[2]!];
}

describe('Anitescu–Stewart: a flat box on four corners (W singular)', () => {
  /** rows d·[I, −[r]] of the four bottom corners and the velocity after the step */
  function box(mu: number, F: number, k: number) {
    const m = 3, a = [0.5, 0.4, 0.1], Minv = boxInverseMass(m, a), nc = 4, rows = nc * (1 + k);
    const corners = [[1, 1], [-1, 1], [-1, -1], [1, -1]]
      .map(([sx, sy]) => [sx! * a[0]!, sy! * a[1]!, -a[2]!] as [number, number, number]);
    const dirs = planeRows(k);
    // row of contact c, direction e (0: normal, 1 + j: friction j), contact-major as the solver expects
    const J = new Float64Array(rows * 6);
    const rowOf = (c: number, e: number): number => (e === 0 ? c : nc + c * k + e - 1);
    corners.forEach((r, c) => {
      for (let e = 0; e <= k; e++) {
        const [dx, dy, dz] = [dirs[3 * e]!, dirs[3 * e + 1]!, dirs[3 * e + 2]!];
        const [rx, ry, rz] = r;
        // d·(v + ω × r) = d·v + (r × d)·ω
        J.set([dx, dy, dz, ry * dz - rz * dy, rz * dx - rx * dz, rx * dy - ry * dx], rowOf(c, e) * 6);
      }
    });
    const W = new Float64Array(rows * rows);
    for (let i = 0; i < rows; i++) for (let j = 0; j < rows; j++) {
      let s = 0;
      for (let c = 0; c < 6; c++) s += J[i * 6 + c]! * Minv[c]! * J[j * 6 + c]!;
      W[i * rows + j] = s;
    }
    const vFree = [(h * F) / m, 0, -h * g, 0, 0, 0];
    const b = matVec(rows, 6, J, vFree);
    const out = result(nc, k);
    const report = new AnitescuStewart(8).solve(
      { nc, k, W: new DenseLcpMatrix(rows, W), b, mu: new Float64Array(nc).fill(mu) }, out);
    const lambda = [...out.theta, ...out.beta];
    const v = vFree.map((x, c) => x + Minv[c]! * lambda.reduce((s, l, r) => s + l * J[r * 6 + c]!, 0));
    return { ...out, report, v, m };
  }

  it('sticks below μ m g: solved, at rest, the weight carried', () => {
    const s = box(0.5, 0.5 * 0.5 * 3 * g, 8);
    expect(s.report.status).toBe('solved');
    expect(s.report.residual).toBeLessThan(1e-12);
    for (const v of s.v) expect(Math.abs(v)).toBeLessThan(1e-12);
    expect(s.theta.reduce((x, y) => x + y, 0)).toBeCloseTo(s.m * g * h, 12);
  });

  it('slides above μ m g without turning: v_x = h (F/m − μ g)', () => {
    const mu = 0.5, F = 2 * mu * 3 * g;
    const s = box(mu, F, 8);
    expect(s.report.status).toBe('solved');
    expect(s.report.residual).toBeLessThan(1e-12);
    expect(s.v[0]).toBeCloseTo(h * (F / s.m - mu * g), 12);
    for (let c = 1; c < 6; c++) expect(Math.abs(s.v[c]!)).toBeLessThan(1e-12);
    const thetaSum = s.theta.reduce((x, y) => x + y, 0);
    expect(thetaSum).toBeCloseTo(s.m * g * h, 12);
    expect(s.beta.reduce((x, y) => x + y, 0)).toBeCloseTo(mu * thetaSum, 12);
  });
});

describe('Anitescu–Stewart against enumeration', () => {
  it('random contacts on a 6-dof body: solved, one of the enumerated solutions', () => {
    fc.assert(fc.property(fc.integer(), fc.constantFrom([1, 3], [1, 4], [1, 8], [2, 3]), (seed, [nc, k]) => {
      const r = rng(seed);
      const rows = nc! * (1 + k!), dof = 6;
      // W = J A⁻¹ Jᵀ with A⁻¹ = C Cᵀ, J random: positive semidefinite
      const C = Float64Array.from({ length: dof * dof }, () => 2 * r() - 1);
      const JC = new Float64Array(rows * dof);
      const J = Float64Array.from({ length: rows * dof }, () => 2 * r() - 1);
      for (let i = 0; i < rows; i++) for (let j = 0; j < dof; j++) {
        let s = 0;
        for (let c = 0; c < dof; c++) s += J[i * dof + c]! * C[c * dof + j]!;
        JC[i * dof + j] = s;
      }
      const W = gram(rows, dof, JC);
      const b = Float64Array.from({ length: rows }, () => 2 * r() - 1);
      const mu = Float64Array.from({ length: nc! }, () => r());
      const out = result(nc!, k!);
      const W_ = new DenseLcpMatrix(rows, W);
      const report = new AnitescuStewart().solve({ nc: nc!, k: k!, W: W_, b, mu }, out);
      expect(report.status).toBe('solved');
      expect(report.residual).toBeLessThan(1e-12);
      const z = [...out.theta, ...out.beta, ...out.xi];
      const n = z.length, M = lcpMatrix(nc!, k!, W, mu), q = new Float64Array(n);
      q.set(b);
      const dist = Math.min(...enumerateLcp(n, M, q, 1e-9).map((s) => maxDiff(s.z, z)));
      expect(dist / Math.max(1, ...z.map(Math.abs))).toBeLessThan(1e-8);
    }), { seed: 42, numRuns: 80 });
  });

  it('rejects inconsistent sizes and a negative μ', () => {
    const W = new DenseLcpMatrix(4, new Float64Array(16));
    const ok = { nc: 1, k: 3, W, b: new Float64Array(4), mu: Float64Array.of(0.5) };
    const as = new AnitescuStewart();
    expect(() => as.solve({ ...ok, k: 4 }, result(1, 4))).toThrow(/expected nc·\(1 \+ k\) = 5/);
    expect(() => as.solve({ ...ok, mu: Float64Array.of(-1) }, result(1, 3))).toThrow(ModelError);
    expect(() => as.solve(ok, result(1, 2))).toThrow(/AnitescuStewart.solve\(out\)/);
  });
});

/** the Anitescu–Stewart LCP matrix written out independently from its definition */
function lcpMatrix(nc: number, k: number, W: Float64Array, mu: Float64Array): Float64Array {
  const m = nc * (1 + k), n = m + nc, M = new Float64Array(n * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) M[i * n + j] = W[i * m + j]!;
  for (let c = 0; c < nc; c++) {
    for (let j = 0; j < k; j++) {
      const row = nc + c * k + j;
      M[row * n + m + c] = 1;
      M[(m + c) * n + row] = -1;
    }
    M[(m + c) * n + c] = mu[c]!;
  }
  return M;
}
