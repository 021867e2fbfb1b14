/**
 * The metric of the velocity projection (step/stabilize.ts, `velocityMetric`): with
 * 'mass' the projected velocity is P_v u of theory.md §8, u − M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹G u with M and G at the
 * final positions, checked against that dense formula; the default runs in the position
 * projection's metric (M plus the joints' curvature), which satisfies G u = 0 as well but is a
 * different projection wherever the curvature is not zero.
 */
import { describe, it, expect, vi } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { ModelAssembler } from '../../src/model/assembler.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { SupernodalLdlt } from '../../src/math/sparse/supernodal.js';
import { Projection } from '../../src/step/stabilize.js';
import { chainOfBodies } from '../../examples/scenes.js';
import { cscToDense } from '../../src/math/sparse/csc.js';
import { rng, maxAbsDiff, maxAbs } from '../helpers/numeric.js';
import { massWeightedCorrection } from '../helpers/projection.js';

/** P_v u = u − M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹G u, dense (M: n×n, G: m×n, row-major) */
function denseProjection(M: Float64Array, G: Float64Array, n: number, m: number, u: Float64Array): Float64Array {
  const Gu = Float64Array.from({ length: m }, (_, i) => { let s = 0; for (let k = 0; k < n; k++) s += G[i * n + k]! * u[k]!; return s; });
  const c = massWeightedCorrection(M, G, n, m)(Gu);
  return u.map((v, k) => v - c[k]!);
}

describe('velocity projection metric', () => {
  // two identical 5-link chains but for the setting; positions on the joints after 40 steps
  const make = (velocityMetric: 'projection' | 'mass') => new Simulation(chainOfBodies(5, { integrator: 'implicit-euler', step: 1 / 120, stabilization: { method: 'projection', velocityMetric } }));
  const run = make('mass');
  run.steps(40);
  const q = run.state.q.slice(), n = run.model.nSolve, m = run.model.nRows;
  // dense M(q) and G(q) from the assembled projection matrix
  const ws = run.ws;
  ws.mass(q);
  ws.constraints(q, run.state.u, 0.01, 'velocity');
  ws.factor(0, 0);
  const K = cscToDense({ ...ws.fs.layout, values: ws.stepMatrix() }), N = n + m;
  const M = new Float64Array(n * n), G = new Float64Array(m * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) M[i * n + j] = K[i * N + j]!;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) G[i * n + j] = K[(n + i) * N + j]!;
  // a velocity that violates the joints (every body is dynamic: the solve layout is the velocity layout)
  const r = rng(11), u0 = Float64Array.from({ length: n }, () => r() - 0.5);
  const want = denseProjection(M, G, n, m, u0);
  // multipliers large enough that the curvature reaches its cap on every body
  const carried = new Float64Array(2 * m).fill(1);

  const project = (sim: Simulation): Float64Array => {
    const p = new Projection(sim.ws), qq = q.slice(), u = u0.slice();
    p.loadMultipliers(carried, m);
    p.run(qq, u);
    expect(Array.from(qq)).toEqual(Array.from(q));
    return u;
  };
  const Gdot = (u: Float64Array) => Float64Array.from({ length: m }, (_, i) => { let s = 0; for (let k = 0; k < n; k++) s += G[i * n + k]! * u[k]!; return s; });

  it("'mass' gives P_v of theory.md §8 exactly (dense closed form)", () => {
    const u = project(make('mass'));
    expect(maxAbsDiff(u, want)).toBeLessThan(1e-12 * maxAbs(u0));
    expect(maxAbs(Gdot(u))).toBeLessThan(1e-12);
  });

  it('the default also leaves G u = 0, in a metric that differs from M where the curvature acts', () => {
    const u = project(make('projection'));
    expect(maxAbs(Gdot(u))).toBeLessThan(1e-12);
    expect(maxAbsDiff(u, want)).toBeGreaterThan(1e-4 * maxAbs(u0));
  });

  it('needs no factorization of its own where the last one was made at the final positions without curvature', () => {
    // particles on distance constraints (no curvature), positions on the constraints: the
    // projection factors once at q, moves nothing, and that factorization is P_v's
    const rope = (velocityMetric: 'projection' | 'mass') => {
      const b = new ModelAssembler();
      b.settings.stabilization = { method: 'projection', velocityMetric };
      for (let i = 0; i < 6; i++) b.addParticle({ name: `p${i}`, mass: 0.1 + 0.05 * i, position: [0.2 * (i + 1), 0, 0] });
      const q0 = b.initialQ();
      b.addConstraint(new DistanceConstraint('d0', b.worldPoint([0, 0, 0]), b.point('p0'), q0));
      for (let i = 1; i < 6; i++) b.addConstraint(new DistanceConstraint(`d${i}`, b.point(`p${i - 1}`), b.point(`p${i}`), q0));
      return new Simulation(b.build(), { integrator: 'implicit-euler', step: 1 / 120 });
    };
    const r2 = rng(3), v0 = Float64Array.from({ length: 18 }, () => r2() - 0.5);
    const results = (['projection', 'mass'] as const).map((metric) => {
      const sim = rope(metric), p = new Projection(sim.ws), q = sim.state.q.slice(), u = v0.slice();
      const spy = vi.spyOn(SupernodalLdlt.prototype, 'factor');
      p.run(q, u);
      const calls = spy.mock.calls.length;
      spy.mockRestore();
      return { calls, u };
    });
    expect(results.map((r) => r.calls)).toEqual([1, 1]);
    expect(Array.from(results[1]!.u)).toEqual(Array.from(results[0]!.u));
    // and that is a projection: the rows' rates vanish
    const sim = rope('mass'), cs = sim.ws.cs;
    sim.ws.constraints(sim.state.q, results[1]!.u, 0.01, 'velocity');
    expect(cs.maxHardAbs(cs.Gu)).toBeLessThan(1e-13);
  });
});
