/**
 * The velocity solve with unilateral rows (step/solve.ts, 000 §0.7): the mixed LCP of a jointed
 * system with contact-like rows, reduced to the rows' variables through the step's sparse
 * factorization with columns on demand, against the same mixed LCP solved densely: A⁻¹ by dense LU
 * of the whole (non-symmetric) KKT matrix, W = N̄A⁻¹N̄ᵀ formed in full, and every assignment of the
 * rows to (lower bound, free, upper bound) enumerated. Also: without rows the solve is the bilateral solve
 * bit for bit.
 */
import { describe, it, expect } from 'vitest';
import { parseModel } from '../../src/io/loader.js';
import { Workspace } from '../../src/step/workspace.js';
import { VelocitySolve } from '../../src/step/solve.js';
import { UnilateralRows, ROW_NORMAL, ROW_MOTOR } from '../../src/contact/rows.js';
import { ContactSet } from '../../src/contact/contactSet.js';
import { DEFAULT_CONTACT } from '../../src/model/contactModel.js';
import { cscToDense } from '../../src/math/sparse/csc.js';
import { luDense, luSolveDense } from '../../src/math/dense.js';
import { enumerateBoxLcp } from '../helpers/boxLcpEnumerate.js';
import { rng } from '../helpers/fd.js';

/** three spinning bodies (a non-symmetric step matrix), two of them on hinges, and a free particle */
function buildModel(seed: number) {
  const r = rng(seed);
  const bodies = [0, 1, 2].map((i) => ({
    name: `B${i}`, mass: 1 + r(), inertia: [0.03, 0.04 + 0.01 * r(), 0.05, 0.003 * r(), 0, 0], com: [0.1, 0, 0],
    position: [0.2 * i, 0, 0], velocity: [r() - 0.5, r() - 0.5, r() - 0.5], angularVelocity: [3 * r(), -2 * r(), r()],
  }));
  return parseModel({
    version: 1, gravity: [0, 0, -9.81], bodies,
    particles: [{ name: 'p', mass: 0.3, position: [0, 0.4, 0], velocity: [0.2, 0, -1] }],
    joints: [
      { type: 'hinge', name: 'h0', bodyA: 'world', bodyB: 'B0', position: [0, 0, 0], axis: [0, 1, 0] },
      { type: 'hinge', name: 'h1', bodyA: 'B0', bodyB: 'B1', position: [0.2, 0, 0], axis: [0, 1, 0] },
    ],
  });
}

describe('the velocity solve with unilateral rows', () => {
  for (const seed of [1, 2, 3]) {
    it(`equals the dense mixed LCP enumerated (seed ${seed})`, () => {
      const model = buildModel(seed), ws = new Workspace(model), h = 0.01, r = rng(100 + seed);
      const n = model.nSolve, N = model.nKkt, q = model.initialQ, u = model.initialU;
      // the implicit Euler step matrix with the hinge rows, and its right-hand side
      ws.mass(q);
      const rhs = ws.gather(new Float64Array(N), ws.fs.forces(q, u));
      ws.fs.jacobians(q, u);
      ws.constraints(q, u, h, 'velocity');
      ws.factor(h, h * h);
      for (let i = 0; i < n; i++) rhs[i] = h * rhs[i]!;
      ws.constraintRhs(rhs, 'velocity');
      // five rows: three unilateral, two boxes, on random sides with random directions
      const rows = new UnilateralRows(), comps = model.components.length;
      for (let k = 0; k < 5; k++) {
        const A = k % 2 === 0 ? -1 : Math.floor(r() * comps), B = (k + 1) % comps;
        const i = k < 3 ? rows.add(ROW_NORMAL, A, B, r() - 0.5, 0, Infinity, k) : rows.add(ROW_MOTOR, A, B, r() - 0.5, -0.05, 0.05, k);
        for (let e = 0; e < 12; e++) rows.J[12 * i + e] = r() - 0.5;
        for (const [c, at] of [[A, 0], [B, 6]] as const) if (c >= 0 && model.components[c]!.kind === 'particle') rows.J.fill(0, 12 * i + at + 3, 12 * i + at + 6);
      }
      const vs = new VelocitySolve(ws, { ...DEFAULT_CONTACT, solver: 'pivoting' },
        { contacts: new ContactSet(), normalRow: new Int32Array(0), warm: new Float64Array(0), q });
      const x = new Float64Array(N);
      vs.solve(rows, rhs, x, u);
      expect(vs.report!.status).toBe('solved');
      expect(vs.report!.residual).toBeLessThan(1e-10);
      // dense: x₀ = A⁻¹ rhs, Y = A⁻¹N̄ᵀ, W = N̄Y, q = N(u + Δu₀) + b (spinning bodies make A,
      // and so W, non-symmetric)
      const Ad = cscToDense({ ...ws.fs.layout, values: ws.stepMatrix() }), lu = luDense(Ad, N)!;
      let skew = 0;
      for (let k = 0; k < N * N; k++) skew = Math.max(skew, Math.abs(Ad[k]! - Ad[(k % N) * N + Math.floor(k / N)]!));
      expect(skew).toBeGreaterThan(1e-6);
      const x0 = luSolveDense(new Float64Array(N), lu, rhs), Nbar = new Float64Array(5 * N);
      for (let j = 0; j < 5; j++) { const e = new Float64Array(N); vs.W.scatterRow(e, j, 1); Nbar.set(e, j * N); }
      const Y = Array.from({ length: 5 }, (_, j) => luSolveDense(new Float64Array(N), lu, Nbar.subarray(j * N, j * N + N)));
      const W = new Float64Array(25), qv = new Float64Array(5), uFree = u.slice();
      ws.scatterAdd(uFree, x0, 1);
      for (let i = 0; i < 5; i++) {
        for (let j = 0; j < 5; j++) for (let k = 0; k < N; k++) W[i * 5 + j] += Nbar[i * N + k]! * Y[j]![k]!;
        qv[i] = rows.rowVelocity(i, uFree, ws.uOffsets, ws.bodyFlags) + rows.b[i]!;
      }
      const sols = enumerateBoxLcp(W, qv, Float64Array.from(rows.lo.subarray(0, 5)), Float64Array.from(rows.hi.subarray(0, 5)));
      expect(sols.length).toBe(1);
      const z = sols[0]!.z, xd = Float64Array.from(x0);
      for (let j = 0; j < 5; j++) for (let k = 0; k < N; k++) xd[k] += z[j]! * Y[j]![k]!;
      let err = 0, scale = 0;
      for (let k = 0; k < N; k++) { err = Math.max(err, Math.abs(x[k]! - xd[k]!)); scale = Math.max(scale, Math.abs(xd[k]!)); }
      expect(err / scale).toBeLessThan(1e-9);
      for (let j = 0; j < 5; j++) expect(Math.abs(rows.z[j]! - z[j]!)).toBeLessThan(1e-9 * (1 + Math.abs(z[j]!)));
    });
  }

  it('without rows is the bilateral solve bit for bit', () => {
    const model = buildModel(4), ws = new Workspace(model), h = 0.01, N = model.nKkt, q = model.initialQ, u = model.initialU;
    ws.mass(q);
    const rhs = ws.gather(new Float64Array(N), ws.fs.forces(q, u));
    ws.fs.jacobians(q, u);
    ws.constraints(q, u, h, 'velocity');
    ws.factor(h, h * h);
    ws.constraintRhs(rhs, 'velocity');
    const a = new Float64Array(N), b = new Float64Array(N);
    ws.solveWith(rhs, a);
    ws.unilateral = { rows: new UnilateralRows(), solve: new VelocitySolve(ws, DEFAULT_CONTACT,
      { contacts: new ContactSet(), normalRow: new Int32Array(0), warm: new Float64Array(0), q }) };
    ws.velocitySolve(rhs, b, u);
    expect(Array.from(b)).toEqual(Array.from(a));
  });
});
