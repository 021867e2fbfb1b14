/**
 * Non-symmetric step matrices (theory.md §13): rigid-body forces, damping of offset centres of mass
 * and via-point springs on markers give a non-symmetric K and D, so A = M − hD − h²K is not
 * symmetric. The step solver factors the symmetric part S and solves A by corrections
 * x ← x + S⁻¹(b − A x), then by GMRES preconditioned by S when they stall; its answer must match a
 * dense LU solve of A, and the error of using the symmetric part alone is measured.
 */
import { describe, it, expect, vi } from 'vitest';
import { Gmres } from '../../src/math/sparse/gmres.js';
import { CORRECTIONS, GMRES_TOL } from '../../src/solvers/stepSolver.js';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Workspace } from '../../src/step/workspace.js';
import { PathSpring } from '../../src/forces/pathSpring.js';
import { LinearMaterial } from '../../src/forces/materials.js';
import { cscToDense, cscTransposeMap } from '../../src/math/sparse/csc.js';
import { luDense, luSolveDense } from '../../src/math/dense.js';
import { rng } from '../helpers/fd.js';
import { chainOfBodies } from '../../examples/scenes.js';
import { Simulation } from '../../src/simulation.js';

function scene(seed: number) {
  const r = rng(seed);
  const b = new ModelAssembler();
  b.settings.gravity = [0, 0, -9.81];
  for (let i = 0; i < 4; i++) {
    b.addBody({ name: `B${i}`, mass: 1 + r(), inertia: [0.03 + 0.01 * r(), 0.035, 0.05, 0.004 * r(), 0, 0.002], com: [0.1 * r(), -0.05, 0.08 * r()],
      position: [i * 0.3, 0.1 * r(), 0], orientation: [1, r() - 0.5, r() - 0.5, r() - 0.5], velocity: [r(), -r(), r()],
      angularVelocity: [10 * (r() - 0.5), 10 * (r() - 0.5), 10 * (r() - 0.5)], linearDamping: 0.5, angularDamping: 0.01 });
    b.addMarker({ name: `m${i}`, body: `B${i}`, location: [0.05, 0.02 * i, -0.03] });
  }
  b.addParticle({ name: 'p', mass: 0.2, position: [0.5, 0.5, 0.5] });
  b.addForce(new PathSpring('path', ['m0', 'm1', 'p', 'm2', 'm3'].map((n) => b.point(n)), new LinearMaterial(400, 5), 0.8));
  return b.build();
}

describe('non-symmetric step matrices', () => {
  for (const h of [0.001, 0.01, 0.05]) {
    it(`corrections, then S-preconditioned GMRES, match dense LU (h = ${h})`, () => {
      const gmres = vi.spyOn(Gmres.prototype, 'solve');
      const model = scene(3), ws = new Workspace(model), n = model.nSolve;
      const { q, u } = { q: model.initialQ, u: model.initialU };
      ws.mass(q);
      const f = ws.gather(new Float64Array(n), ws.fs.forces(q, u));
      ws.fs.jacobians(q, u);
      ws.factor(h, h * h);
      const Ad = cscToDense({ ...ws.fs.layout, values: ws.stepMatrix() });
      // asymmetry of the step matrix
      let skew = 0, big = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { skew = Math.max(skew, Math.abs(Ad[i * n + j]! - Ad[j * n + i]!)); big = Math.max(big, Math.abs(Ad[i * n + j]!)); }
      const rhs = f.map((x) => h * x);
      const x = new Float64Array(n);
      const rep = ws.solveWith(rhs, x);
      // spinning bodies: the skew part is too large for corrections alone, GMRES finishes
      expect(gmres).toHaveBeenCalledTimes(1);
      gmres.mockRestore();
      const lu = luDense(Ad, n);
      if (!lu) throw new Error('singular');
      const xd = luSolveDense(new Float64Array(n), lu, rhs);
      let err = 0, scale = 0;
      for (let i = 0; i < n; i++) { err = Math.max(err, Math.abs(x[i]! - xd[i]!)); scale = Math.max(scale, Math.abs(xd[i]!)); }
      // the symmetric part alone: one solve with (A + Aᵀ)/2
      const S = Ad.map((_, k) => 0.5 * (Ad[k]! + Ad[(k % n) * n + Math.floor(k / n)]!));
      const xs = luSolveDense(new Float64Array(n), luDense(S, n)!, rhs);
      let errSym = 0;
      for (let i = 0; i < n; i++) errSym = Math.max(errSym, Math.abs(xs[i]! - xd[i]!));
      console.log(`h = ${h}: ‖A−Aᵀ‖max/‖A‖max ${(skew / big).toExponential(2)}; corrections and GMRES: ${rep.iterations} iterations, residual ${rep.residual.toExponential(2)}, error vs LU ${(err / scale).toExponential(2)}; symmetric part alone: error ${(errSym / scale).toExponential(2)}`);
      expect(skew).toBeGreaterThan(1e-6 * big);
      expect(rep.converged).toBe(true);
      expect(err / scale).toBeLessThan(1e-12);
    });
  }

  // a symmetric factorization after a non-symmetric one must forget the skew entries: the
  // products of its refinement would otherwise add the last matrix's skew part
  it('solves a symmetric matrix factored after a non-symmetric one against the symmetric matrix', () => {
    const model = scene(3), ws = new Workspace(model), n = model.nSolve, q = model.initialQ, u = model.initialU;
    ws.mass(q);
    ws.fs.jacobians(q, u);
    ws.factor(0.05, 0.0025);
    expect(ws.solver.skew).toBeGreaterThan(0);
    ws.factor(0, 0);
    const rhs = Float64Array.from({ length: n }, (_, i) => Math.cos(1 + i)), x = new Float64Array(n);
    expect(ws.solveWith(rhs, x).converged).toBe(true);
    const Ad = cscToDense({ ...ws.fs.layout, values: ws.stepMatrix() }), xd = luSolveDense(new Float64Array(n), luDense(Ad, n)!, rhs);
    for (let i = 0; i < n; i++) expect(Math.abs(x[i]! - xd[i]!)).toBeLessThan(1e-12 * (1 + Math.abs(xd[i]!)));
  });

  it('solves the 100-link chain by corrections alone: its skew part is small (no GMRES)', () => {
    const sim = new Simulation(chainOfBodies(100, { integrator: 'implicit-euler', step: 1 / 240 }));
    sim.steps(100);
    const gmres = vi.spyOn(Gmres.prototype, 'solve'), solver = sim.ws.solver, solve = solver.solve.bind(solver);
    // every step solve sees a non-symmetric matrix (the gyroscopic terms), so takes the non-symmetric path
    let most = 0, symmetric = 0;
    vi.spyOn(solver, 'solve').mockImplementation((b, x, tol) => {
      if (solver.skew <= 1e-14 * solver.scale) symmetric++;
      const rep = solve(b, x, tol);
      most = Math.max(most, rep.iterations);
      // the solver's target: 1e-14, or the rounding floor 4ε√n of this 900-unknown system
      expect(rep.residual).toBeLessThanOrEqual(Math.max(GMRES_TOL, 4 * Number.EPSILON * Math.sqrt(b.length)));
      return rep;
    });
    sim.steps(100);
    expect(gmres).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(symmetric).toBe(0);
    expect(most).toBeLessThanOrEqual(CORRECTIONS);
    expect(sim.ws.unconverged).toBe(0);
  });

  it('the combined factorization touches every entry K and D can fill (jacobianEntries), and matches the assembled one', () => {
    // a chain of bodies on joints: constraint blocks, and the inertial forces' non-symmetric Jacobians
    const model = chainOfBodies(6, { integrator: 'implicit-euler', step: 0.01 });
    const ws = new Workspace(model), n = model.nSolve, h = 0.02;
    const q = model.initialQ, u = model.initialU.slice();
    for (let i = 0; i < u.length; i++) u[i] = Math.sin(3 * i);
    ws.mass(q);
    ws.fs.jacobians(q, u);
    ws.constraints(q, u, h, 'velocity');
    const inEntries = new Uint8Array(ws.fs.layout.nnz);
    for (const k of ws.fs.jacobianEntries) inEntries[k] = 1;
    // K and D hold those entries only, in their order (entry e at value index jacobianEntries[e])
    const at = ws.fs.jacobianIndex;
    expect(ws.fs.K.values.length).toBe(ws.fs.jacobianEntries.length);
    ws.fs.jacobianEntries.forEach((k, e) => expect(at[k]).toBe(e));
    for (let k = 0; k < inEntries.length; k++) expect(at[k]! >= 0).toBe(inEntries[k] === 1);
    let nonzero = 0;
    for (let e = 0; e < ws.fs.K.values.length; e++) if (ws.fs.K.values[e] !== 0 || ws.fs.D.values[e] !== 0) nonzero++;
    expect(nonzero).toBeGreaterThan(0);
    expect(ws.fs.jacobianEntries.length).toBeLessThan(ws.fs.layout.nnz);
    // the same entries are the 'head' of the component/constraint split (component rows of component columns)
    const head = new Uint8Array(ws.fs.layout.nnz), L = ws.fs.layout;
    for (let j = 0; j < n; j++) for (let p = L.colPtr[j]!; p < ws.fs.split[j]!; p++) head[p] = 1;
    expect(Array.from(head)).toEqual(Array.from(inEntries));
    // A = (M + G) − hD − h²K (M and G share one matrix) by hand, against stepMatrix; the values the
    // combined pass factored are A's symmetric part (to rounding: it forms P − (a₀D + a₁K)'s mean
    // in another order); then a solve against dense LU (which checks the skew entries it keeps)
    ws.factor(h, h * h);
    const A = ws.fs.layout.nnz, want = new Float64Array(A);
    for (let k = 0; k < A; k++) {
      const e = at[k]!;
      want[k] = ws.M.values[k]! - (e < 0 ? 0 : h * ws.fs.D.values[e]! + h * h * ws.fs.K.values[e]!);
    }
    expect(Array.from(ws.stepMatrix())).toEqual(Array.from(want));
    const tmap = cscTransposeMap({ ...ws.fs.layout, values: want }), S = ws.solver.factoredValues;
    const big = want.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    let symErr = 0;
    for (let k = 0; k < A; k++) symErr = Math.max(symErr, Math.abs(S[k]! - 0.5 * (want[k]! + want[tmap[k]!]!)));
    expect(symErr).toBeLessThanOrEqual(4 * Number.EPSILON * big);
    expect(ws.solver.skew).toBeGreaterThan(0);
    const N = model.nKkt, Ad = cscToDense({ ...ws.fs.layout, values: ws.stepMatrix() });
    const rhs = Float64Array.from({ length: N }, (_, i) => Math.cos(i));
    const x = new Float64Array(N);
    expect(ws.solveWith(rhs, x).converged).toBe(true);
    const xd = luSolveDense(new Float64Array(N), luDense(Ad, N)!, rhs);
    let err = 0, scale = 0;
    for (let i = 0; i < N; i++) { err = Math.max(err, Math.abs(x[i]! - xd[i]!)); scale = Math.max(scale, Math.abs(xd[i]!)); }
    expect(err / scale).toBeLessThan(1e-11);
    expect(n).toBeLessThan(N);
  });

  it('flags small constraint pivots against their median, and skips the median when none is small', () => {
    const model = chainOfBodies(3, { integrator: 'implicit-euler', step: 0.01 });
    const ws = new Workspace(model), n = model.nSolve, m = model.nRows, s = ws.solver, L = ws.fs.layout;
    ws.mass(model.initialQ);
    ws.constraints(model.initialQ, model.initialU, 0.01, 'velocity');
    expect(s.factor(L, ws.M.values.slice(), n)).toBeNull();
    const small: number[] = [], scratch = new Float64Array(m);
    // a well-posed chain: no small pivot, no median computed
    expect(s.smallPivots(n, 1e-9, small, scratch)).toBe(-1);
    expect(small).toEqual([]);
    // a tolerance above the spread of the pivots: those below tol × median are flagged, and the median returned
    const mags = Array.from({ length: n + m }, (_, k) => k).filter((k) => s.analysis!.perm[k]! >= n).map((k) => Math.abs(ws.solver['numeric']!.D[k]!)).sort((a, b) => a - b);
    const median = mags[m >> 1]!, tol = 1.0000001 * mags[0]! / median;
    expect(mags[m - 1]! / mags[0]!).toBeGreaterThan(1 + 1e-6);
    expect(s.smallPivots(n, tol, small, scratch)).toBe(median);
    expect(small.length).toBeGreaterThan(0);
    expect(small.length).toBe(mags.filter((d) => d <= tol * median).length);
  });

  // regression (review): after a failed factorization, the pivots after the failure are an earlier
  // matrix's, and a tiny one among them named a constraint redundant that was not
  it('counts only the pivots computed before a failed pivot as small', () => {
    const model = chainOfBodies(3, { integrator: 'implicit-euler', step: 0.01 });
    const ws = new Workspace(model), n = model.nSolve, m = model.nRows, s = ws.solver, L = ws.fs.layout;
    const { q, u } = { q: model.initialQ, u: model.initialU };
    ws.mass(q);
    ws.constraints(q, u, 0.01, 'velocity');
    const good = ws.M.values.slice();
    expect(s.factor(L, good, n)).toBeNull();
    // a NaN on the diagonal of the first unknown AMD eliminates: the factorization stops there
    const first = s.analysis!.perm[0]!, bad = good.slice();
    for (let k = L.colPtr[first]!; k < L.colPtr[first + 1]!; k++) if (L.rowIdx[k] === first) bad[k] = NaN;
    s.factor(L, bad, n);
    expect(s.failedAt).toBe(first);
    const small: number[] = [];
    // every constraint pivot of the good matrix is large; with tol = 1e300 all computed ones would be "small"
    s.smallPivots(n, 1e300, small, new Float64Array(m));
    expect(small).toEqual([]);
  });
});

describe('the symbolic analysis across steps', () => {
  it('one AMD ordering and symbolic factorization serve every step of a constrained run, under every integrator', () => {
    for (const integrator of ['symplectic-euler', 'implicit-euler', 'trapezoidal', 'bridson-marino', 'rk4'] as const) {
      const sim = new Simulation(chainOfBodies(10, { integrator }));
      sim.step();
      const first = sim.ws.solver.analysis;
      expect(first).not.toBeNull();
      const analyses = new Set([first]);
      for (let s = 0; s < 20; s++) { sim.step(); analyses.add(sim.ws.solver.analysis); }
      expect(analyses.size).toBe(1);
    }
  });
});
