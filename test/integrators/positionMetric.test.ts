/**
 * The metric of the position projection (integrators/stabilize.ts, `positionMetric`): with
 * 'mass' every iteration is the mass-weighted step of 000 §0.6, δq = −M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹g, so from a
 * slightly violated state the projection moves the bodies by that step (to second order in the
 * violation), checked against the dense formula with M, G and g at that state; the default adds
 * the joints' curvature to M and moves them otherwise wherever the curvature acts.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { Projection } from '../../src/integrators/stabilize.js';
import { chainOfBodies } from '../../examples/scenes.js';
import { cscToDense } from '../../src/math/sparse/csc.js';
import { maxAbs } from '../helpers/numeric.js';
import { massWeightedCorrection } from '../helpers/projection.js';

describe('position projection metric', () => {
  const make = (positionMetric: 'projection' | 'mass') => new Simulation(chainOfBodies(5, { integrator: 'implicit-euler', step: 1 / 120, stabilization: { method: 'projection', positionMetric } }));
  // a state on the joints after 40 steps, then every link moved by about 1e-7 m: a small violation
  const run = make('mass');
  run.steps(40);
  const q = run.state.q.slice(), u = run.state.u.slice(), n = run.model.nSolve, m = run.model.nRows;
  for (let b = 0; b < 5; b++) for (let k = 0; k < 3; k++) q[7 * b + k] = q[7 * b + k]! + 1e-7 * Math.sin(3 * b + k + 1);
  // dense M, G and g at that state
  const ws = run.ws;
  ws.mass(q);
  ws.constraints(q, u, 0.01, 'velocity');
  ws.factor(0, 0);
  const K = cscToDense({ ...ws.fs.layout, values: ws.stepMatrix() }), N = n + m;
  const M = new Float64Array(n * n), G = new Float64Array(m * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) M[i * n + j] = K[i * N + j]!;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) G[i * n + j] = K[(n + i) * N + j]!;
  // δq = −M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹g
  const dq = massWeightedCorrection(M, G, n, m)(ws.cs.g.slice()).map((x) => -x);
  // the translations of the links (the solve layout: 6 per body, translation first)
  const want = Float64Array.from({ length: 15 }, (_, i) => dq[6 * Math.floor(i / 3) + (i % 3)]!);
  // multipliers large enough that the curvature reaches its cap on every body
  const carried = new Float64Array(2 * m).fill(1);

  const moved = (sim: Simulation): Float64Array => {
    const p = new Projection(sim.ws), qq = q.slice(), uu = u.slice();
    p.loadMultipliers(carried, m);
    p.run(qq, uu);
    expect(p.unconverged).toBe(0);
    return Float64Array.from({ length: 15 }, (_, i) => qq[7 * Math.floor(i / 3) + (i % 3)]! - q[7 * Math.floor(i / 3) + (i % 3)]!);
  };
  const diff = (a: Float64Array, b: Float64Array) => maxAbs(a.map((x, i) => x - b[i]!));

  it("'mass' moves the links by the mass-weighted step of §0.6 (dense closed form)", () => {
    expect(maxAbs(want)).toBeGreaterThan(1e-8);
    // second order in the 1e-7 violation: a few 1e-13 m on corrections of about 1e-7 m
    const d = diff(moved(make('mass')), want);
    console.log(`mass metric: ${d.toExponential(2)} m off the dense step of ${maxAbs(want).toExponential(2)} m`);
    expect(d).toBeLessThan(1e-5 * maxAbs(want));
  });

  it('the default, with the curvature, lands elsewhere on the manifold', () => {
    const d = diff(moved(make('projection')), want);
    console.log(`default metric: ${d.toExponential(2)} m off the dense step`);
    expect(d).toBeGreaterThan(1e-2 * maxAbs(want));
  });
});
