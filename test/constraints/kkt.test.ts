/**
 * KKT oracles (theory.md §6): the engine's assembled KKT system, solved by the sparse LDLᵀ,
 * equals the dense closed form λ = (GM⁻¹Gᵀ)⁻¹(g − GM⁻¹b), v = M⁻¹b + M⁻¹Gᵀλ of
 * [[M, −Gᵀ], [G, 0]] [v; λ] = [b; g]; the projection matrices satisfy P_v = P_fᵀ, both as dense
 * formulas and as the engine's own operators (its velocity projection against its KKT solves,
 * with joint rows); P_v v is tangent (G P_v v = 0); and the inverse KKT blocks match theory.md §6.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Workspace } from '../../src/step/workspace.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { Joint } from '../../src/constraints/joint.js';
import { Projection } from '../../src/step/stabilize.js';
import type { RigidBody } from '../../src/model/model.js';
import { cscToDense } from '../../src/math/sparse/csc.js';
import { luDense, luSolveDense, identityDense } from '../../src/math/dense.js';
import { rng, maxAbsDiff, maxAbs } from '../helpers/numeric.js';

/** dense inverse via LU */
function inverse(A: Float64Array, n: number): Float64Array {
  const lu = luDense(A, n)!, X = new Float64Array(n * n), e = new Float64Array(n), x = new Float64Array(n);
  for (let j = 0; j < n; j++) { e.fill(0); e[j] = 1; luSolveDense(x, lu, e); for (let i = 0; i < n; i++) X[i * n + j] = x[i]!; }
  return X;
}

function scene() {
  const b = new ModelAssembler();
  b.addBody({ name: 'A', mass: 1.3, inertia: [0.02, 0.03, 0.04, 0.001, 0, 0.002], com: [0.05, 0, 0.02], position: [0, 0, 0], orientation: [1, 0.2, -0.1, 0.3] });
  b.addBody({ name: 'B', mass: 0.9, inertia: [0.03, 0.03, 0.02, 0, 0, 0], position: [0.6, 0.1, 0] });
  b.addParticle({ name: 'p', mass: 0.4, position: [0.3, 0.5, 0.2] });
  b.addParticle({ name: 'p2', mass: 0.7, position: [-0.2, 0.4, 0.6] });
  b.addMarker({ name: 'a', body: 'A', location: [0.2, 0.1, 0] });
  b.addMarker({ name: 'b', body: 'B', location: [-0.2, 0, 0.1] });
  const q0 = b.initialQ();
  b.addConstraint(new DistanceConstraint('ab', b.point('a'), b.point('b'), q0));
  b.addConstraint(new DistanceConstraint('bp', b.point('b'), b.point('p'), q0));
  b.addConstraint(new DistanceConstraint('pw', b.point('p'), b.worldPoint([0.3, 0.9, 0.2]), q0));
  b.addConstraint(new DistanceConstraint('pp2', b.point('p'), b.point('p2'), q0));
  return b.build();
}

/** two off-centre bodies and a particle on a hinge, a ball joint to the world and a distance constraint (9 rows), velocity projection by M */
function jointScene() {
  const b = new ModelAssembler();
  b.settings.stabilization = { method: 'projection', velocityMetric: 'mass' };
  b.addBody({ name: 'A', mass: 1.3, inertia: [0.02, 0.03, 0.04, 0.001, 0, 0.002], com: [0.05, 0, 0.02], position: [0, 0, 0], orientation: [1, 0.2, -0.1, 0.3] });
  b.addBody({ name: 'B', mass: 0.9, inertia: [0.03, 0.03, 0.02, 0, 0, 0], position: [0.6, 0.1, 0] });
  b.addParticle({ name: 'p', mass: 0.4, position: [0.3, 0.5, 0.2] });
  b.addMarker({ name: 'b', body: 'B', location: [-0.2, 0, 0.1] });
  const q0 = b.initialQ(), body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
  b.addConstraint(Joint.atWorldFrame('w', null, body('A'), q0, [-0.1, 0, 0], [0.9, 0.1, 0.3, 0], { type: 'ball' }));
  b.addConstraint(Joint.atWorldAxis('h', body('A'), body('B'), q0, [0.3, 0.05, 0], [0.2, 1, 0.4], { type: 'hinge' }));
  b.addConstraint(new DistanceConstraint('bp', b.point('b'), b.point('p'), q0));
  return b.build();
}

describe('KKT oracles (theory.md §6)', () => {
  const model = scene(), ws = new Workspace(model), n = model.nSolve, m = model.nRows, N = n + m;
  const q = model.initialQ, u = model.initialU;
  ws.mass(q);
  ws.constraints(q, u, 0.01, 'velocity');
  ws.factor(0, 0);
  const K = cscToDense({ ...ws.fs.layout, values: ws.stepMatrix() });
  // dense M (n×n) and G (m×n) from the assembled matrix
  const M = new Float64Array(n * n), G = new Float64Array(m * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) M[i * n + j] = K[i * N + j]!;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) G[i * n + j] = K[(n + i) * N + j]!;
  const Mi = inverse(M, n);
  // S = G M⁻¹ Gᵀ
  const GT = new Float64Array(n * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) GT[j * m + i] = G[i * n + j]!;
  const mul = (A: Float64Array, B: Float64Array, r: number, k: number, c: number) => {
    const C = new Float64Array(r * c);
    for (let i = 0; i < r; i++) for (let t = 0; t < k; t++) { const a = A[i * k + t]!; if (a === 0) continue; for (let j = 0; j < c; j++) C[i * c + j] += a * B[t * c + j]!; }
    return C;
  };
  const MiGT = mul(Mi, GT, n, n, m), S = mul(G, MiGT, m, n, m), Si = inverse(S, m);

  it('the sparse KKT solution equals the closed form of theory.md §6', () => {
    const r = rng(5);
    const bv = Float64Array.from({ length: n }, () => r() - 0.5), gv = Float64Array.from({ length: m }, () => r() - 0.5);
    // closed form for [[M, −Gᵀ], [G, 0]] [v; λ] = [b; g]
    const Mib = mul(Mi, bv, n, n, 1), GMib = mul(G, Mib, m, n, 1);
    const lam = mul(Si, gv.map((x, i) => x - GMib[i]!), m, m, 1);
    const v = Mib.map((x, i) => x + mul(MiGT, lam, n, m, 1)[i]!);
    // the engine's form [[M, Gᵀ], [G, −R]] [v; μ] = [b; g], μ = −λ
    const rhs = new Float64Array(N); rhs.set(bv); rhs.set(gv, n);
    const x = new Float64Array(N);
    ws.solveWith(rhs, x);
    expect(maxAbsDiff(x.subarray(0, n), v)).toBeLessThan(1e-12 * (1 + maxAbs(v)));
    expect(maxAbsDiff(x.subarray(n).map((y) => -y), lam)).toBeLessThan(1e-12 * (1 + maxAbs(lam)));
  });

  // the dense identity alone holds for any symmetric M: here both sides are the engine's own
  // operators, on a model with joint rows too
  it('P_v = P_fᵀ between the engine\'s velocity projection and its KKT solves, with joints', () => {
    const jm = jointScene(), jws = new Workspace(jm), nn = jm.nSolve, mm = jm.nRows;
    expect(mm).toBe(9);
    const proj = new Projection(jws);
    // P_f b = M v for v from the engine's solve of [[M, Gᵀ], [G, −R]] [v; μ] = [b; 0]
    jws.mass(jm.initialQ);
    jws.cs.evaluate(jws.fs.bind(jm.initialQ, jm.initialU), jws.Gm, true, null, false);
    jws.cs.projectionRows(jws.Gm, jws.redundancy.R);
    jws.factor(0, 0);
    const Pf = new Float64Array(nn * nn), rhs = new Float64Array(nn + mm), x = new Float64Array(nn + mm), Mv = new Float64Array(nn + mm);
    for (let j = 0; j < nn; j++) {
      rhs.fill(0); rhs[j] = 1;
      jws.solveWith(rhs, x);
      jws.mulM(Mv, x);
      for (let i = 0; i < nn; i++) Pf[i * nn + j] = Mv[i]!;
    }
    // P_v e_j: the engine's velocity projection (velocityMetric "mass": P_v of theory.md §8) of a unit
    // velocity; with multipliers carried in, so that the default metric's curvature would act
    const Pv = new Float64Array(nn * nn), q = jm.initialQ.slice(), u = new Float64Array(jm.nu), us = new Float64Array(nn + mm), e = new Float64Array(nn + mm);
    const carried = new Float64Array(2 * mm).fill(1);
    for (let j = 0; j < nn; j++) {
      q.set(jm.initialQ); u.fill(0); e.fill(0); e[j] = 1;
      jws.scatterAdd(u, e, 1);
      proj.loadMultipliers(carried, mm);
      proj.run(q, u);
      jws.gather(us, u);
      for (let i = 0; i < nn; i++) Pv[i * nn + j] = us[i]!;
    }
    expect(proj.unconverged).toBe(0);
    // positions untouched (the joints hold at load), and P_v = P_fᵀ: tangent velocities, and the
    // forces that do no work on them
    expect(maxAbsDiff(q, jm.initialQ)).toBe(0);
    const PfT = new Float64Array(nn * nn);
    for (let i = 0; i < nn; i++) for (let j = 0; j < nn; j++) PfT[i * nn + j] = Pf[j * nn + i]!;
    expect(maxAbsDiff(Pv, PfT)).toBeLessThan(1e-11);
    // and not trivially: the projections remove something
    expect(maxAbsDiff(Pv, identityDense(nn))).toBeGreaterThan(0.1);
  });

  it('P_v = P_fᵀ, G P_v = 0, and the inverse KKT blocks of theory.md §6', () => {
    // P_f = I − Gᵀ S⁻¹ G M⁻¹, P_v = I − M⁻¹ Gᵀ S⁻¹ G
    const GMi = mul(G, Mi, m, n, n);
    const Pf = identityDense(n).map((x, k) => x - mul(GT, mul(Si, GMi, m, m, n), n, m, n)[k]!);
    const Pv = identityDense(n).map((x, k) => x - mul(MiGT, mul(Si, G, m, m, n), n, m, n)[k]!);
    const PfT = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) PfT[i * n + j] = Pf[j * n + i]!;
    expect(maxAbsDiff(Pv, PfT)).toBeLessThan(1e-12);
    expect(maxAbs(mul(G, Pv, m, n, n))).toBeLessThan(1e-12);
    // [[M, −Gᵀ],[G, 0]]⁻¹ top-left block = M⁻¹ P_f
    const KKT = new Float64Array(N * N);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) KKT[i * N + j] = M[i * n + j]!;
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) { KKT[(n + i) * N + j] = G[i * n + j]!; KKT[j * N + n + i] = -G[i * n + j]!; }
    const Ki = inverse(KKT, N);
    const TL = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) TL[i * n + j] = Ki[i * N + j]!;
    expect(maxAbsDiff(TL, mul(Mi, Pf, n, n, n))).toBeLessThan(1e-10);
    const BR = new Float64Array(m * m);
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) BR[i * m + j] = Ki[(n + i) * N + n + j]!;
    expect(maxAbsDiff(BR, Si)).toBeLessThan(1e-10 * (1 + maxAbs(Si)));
  });
});
