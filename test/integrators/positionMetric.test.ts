/**
 * The metric of the position projection (step/stabilize.ts, `positionMetric`): with
 * 'mass' every iteration is the mass-weighted step of theory.md §8, δq = −M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹g, so from a
 * slightly violated state the projection moves the bodies by that step (to second order in the
 * violation; translations and world rotation vectors), checked against the dense formula with M,
 * G and g at that state; the default adds the joints' curvature to M and moves them otherwise
 * wherever the curvature acts.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { Projection } from '../../src/step/stabilize.js';
import { chainOfBodies } from '../../examples/scenes.js';
import { cscToDense } from '../../src/math/sparse/csc.js';
import { maxAbs } from '../helpers/numeric.js';
import { quatMul, quatConj } from '../../src/math/quat.js';
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
  // per link: the translation, then the world rotation vector (the solve layout: 6 per body)
  const want = Float64Array.from(dq);
  // multipliers large enough that the curvature reaches its cap on every body
  const carried = new Float64Array(2 * m).fill(1);

  const moved = (sim: Simulation): Float64Array => {
    const p = new Projection(sim.ws), qq = q.slice(), uu = u.slice();
    p.loadMultipliers(carried, m);
    p.run(qq, uu);
    expect(p.unconverged).toBe(0);
    // translations, and δθ = 2 vec(q⁺ ⋆ q̄) (rotations turn as q ← exp(δθ) ⋆ q, δθ world)
    const out = new Float64Array(30), a = new Float64Array(4), c = new Float64Array(4), d = new Float64Array(4);
    for (let b = 0; b < 5; b++) {
      for (let k = 0; k < 3; k++) out[6 * b + k] = qq[7 * b + k]! - q[7 * b + k]!;
      a.set(qq.subarray(7 * b + 3, 7 * b + 7)); quatConj(c, q.subarray(7 * b + 3, 7 * b + 7)); quatMul(d, a, c);
      for (let k = 0; k < 3; k++) out[6 * b + 3 + k] = 2 * d[1 + k]!;
    }
    return out;
  };
  const part = (v: Float64Array, rot: boolean) => v.filter((_, i) => (i % 6 >= 3) === rot);
  const diff = (a: Float64Array, b: Float64Array) => maxAbs(a.map((x, i) => x - b[i]!));

  it("'mass' moves the links by the mass-weighted step of theory.md §8 (dense closed form)", () => {
    const got = moved(make('mass'));
    for (const rot of [false, true]) {
      const d = diff(part(got, rot), part(want, rot)), scale = maxAbs(part(want, rot));
      console.log(`mass metric, ${rot ? 'rotations' : 'translations'}: ${d.toExponential(2)} off the dense step of ${scale.toExponential(2)}`);
      expect(scale).toBeGreaterThan(1e-8);
      // second order in the 1e-7 violation
      expect(d).toBeLessThan(1e-5 * scale);
    }
  });

  it('the default, with the curvature, lands elsewhere on the manifold (most in the rotations it weighs)', () => {
    const got = moved(make('projection'));
    for (const rot of [false, true]) {
      const d = diff(part(got, rot), part(want, rot)), scale = maxAbs(part(want, rot));
      console.log(`default metric, ${rot ? 'rotations' : 'translations'}: ${d.toExponential(2)} off the dense step of ${scale.toExponential(2)}`);
      expect(d).toBeGreaterThan(1e-2 * scale);
    }
  });
});
