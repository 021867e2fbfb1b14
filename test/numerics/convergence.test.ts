/**
 * Convergence order of the integrators (theory.md §5) on a linear oscillator: a particle of mass m
 * on a linear axial spring of stiffness k to a world point, moving along the spring axis, so
 * x(t) = x₀ cos(ωt) exactly, ω = √(k/m). The global error at t = 1 s is measured for halving
 * step sizes and the log-log slope fitted.
 *
 * Expected: symplectic and implicit Euler ≈ 1, trapezoidal and Bridson-Marino ≈ 2, RK4 ≈ 4.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Simulation } from '../../src/simulation.js';
import { AxialSpring } from '../../src/forces/pathSpring.js';
import { LinearMaterial } from '../../src/forces/materials.js';
import type { IntegratorName } from '../../src/integrators/names.js';

const k = 100, m = 1, rest = 1, amp = 0.1, w = Math.sqrt(k / m), T = 1;

function errorAt(integrator: IntegratorName, h: number): number {
  const b = new ModelAssembler();
  b.settings.gravity = [0, 0, 0];
  b.addParticle({ name: 'p', mass: m, position: [rest + amp, 0, 0] });
  b.addForce(new AxialSpring('s', b.worldPoint([0, 0, 0]), b.point('p'), new LinearMaterial(k), rest));
  const sim = new Simulation(b.build(), { integrator, step: h });
  sim.steps(Math.round(T / h));
  const x = sim.state.q[0]! - rest, v = sim.state.u[0]!;
  const t = sim.state.t;
  return Math.max(Math.abs(x - amp * Math.cos(w * t)), Math.abs(v + amp * w * Math.sin(w * t)) / w);
}

/** least-squares slope of log(err) against log(h) */
export function fitSlope(hs: number[], errs: number[]): number {
  const xs = hs.map(Math.log), ys = errs.map(Math.log);
  const mx = xs.reduce((a, b) => a + b) / xs.length, my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0, den = 0;
  for (let i = 0; i < xs.length; i++) { num += (xs[i]! - mx) * (ys[i]! - my); den += (xs[i]! - mx) ** 2; }
  return num / den;
}

describe('integrator convergence order on a linear oscillator', () => {
  const cases: [IntegratorName, number[], number, number][] = [
    // integrator, step sizes, expected slope, tolerance
    ['symplectic-euler', [1 / 400, 1 / 800, 1 / 1600, 1 / 3200], 1, 0.1],
    ['implicit-euler', [1 / 400, 1 / 800, 1 / 1600, 1 / 3200], 1, 0.1],
    ['trapezoidal', [1 / 50, 1 / 100, 1 / 200, 1 / 400], 2, 0.1],
    ['rk4', [1 / 25, 1 / 50, 1 / 100, 1 / 200], 4, 0.15],
    ['bridson-marino', [1 / 50, 1 / 100, 1 / 200, 1 / 400], 2, 0.1],
  ];
  for (const [name, hs, expected, tol] of cases) {
    it(`${name}: slope ≈ ${expected}`, () => {
      const errs = hs.map((h) => errorAt(name, h));
      const slope = fitSlope(hs, errs);
      console.log(`convergence ${name}: errors ${errs.map((e) => e.toExponential(2)).join(', ')}; slope ${slope.toFixed(3)}`);
      expect(Math.abs(slope - expected)).toBeLessThan(tol);
    });
  }
});
