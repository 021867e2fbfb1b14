/**
 * Constrained dynamics against analytic solutions:
 * - a 90° pendulum on a distance constraint: period against the exact elliptic-integral period
 *   T = 4√(L/g) K(sin(θ₀/2)) under the trapezoidal rule at h = 1 ms (≤ 1e-4 relative), and the
 *   other integrators' errors recorded;
 * - a hanging mass: λ = m g (magnitude; the force on the mass points up);
 * - a conical pendulum: tension m g / cos θ and the analytic angular rate.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Simulation } from '../../src/simulation.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import type { IntegratorName } from '../../src/integrators/names.js';

/** complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean */
function ellipticK(k: number): number {
  let a = 1, b = Math.sqrt(1 - k * k);
  for (let i = 0; i < 40; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
  return Math.PI / (2 * a);
}

function pendulum(integrator: IntegratorName, h: number, L = 1) {
  const b = new ModelAssembler();
  b.addParticle({ name: 'bob', mass: 1, position: [L, 0, 0] });
  b.addConstraint(new DistanceConstraint('rod', b.worldPoint([0, 0, 0]), b.point('bob'), b.initialQ()));
  return new Simulation(b.build(), { integrator, step: h });
}

describe('pendulum on a distance constraint', () => {
  const L = 1, g = 9.81, Tex = 4 * Math.sqrt(L / g) * ellipticK(Math.sin(Math.PI / 4));
  const cases: [IntegratorName, number][] = [['trapezoidal', 1e-4], ['bridson-marino', 1e-4], ['rk4', 1e-8], ['implicit-euler', 1e-2], ['symplectic-euler', 1e-2]];
  for (const [name, tol] of cases) {
    it(`90° amplitude: ${name} at h = 1 ms matches the elliptic-integral period`, () => {
      const sim = pendulum(name, 1e-3, L);
      // downward crossings of x = 0, once per period
      const cr: number[] = [];
      let px = sim.state.q[0]!, pt = 0;
      sim.steps(8000, (s) => {
        const x = s.state.q[0]!;
        if (px > 0 && x <= 0) cr.push(pt + (s.state.t - pt) * (px / (px - x)));
        px = x; pt = s.state.t;
      });
      const T = (cr[cr.length - 1]! - cr[0]!) / (cr.length - 1);
      const len = Math.hypot(sim.state.q[0]!, sim.state.q[1]!, sim.state.q[2]!);
      console.log(`pendulum ${name}: period ${T.toFixed(9)} s, exact ${Tex.toFixed(9)} s, rel. error ${((T - Tex) / Tex).toExponential(2)}, length error ${(len - L).toExponential(1)}`);
      expect(Math.abs(T - Tex) / Tex).toBeLessThan(tol);
      expect(Math.abs(len - L)).toBeLessThan(1e-12);
    });
  }

  it('a hanging mass: |λ| = m g and the rod pulls it up', () => {
    const b = new ModelAssembler();
    b.addParticle({ name: 'bob', mass: 2.5, position: [0, 0, -0.7] });
    b.addConstraint(new DistanceConstraint('rod', b.worldPoint([0, 0, 0]), b.point('bob'), b.initialQ()));
    for (const integrator of ['implicit-euler', 'trapezoidal', 'rk4', 'symplectic-euler', 'bridson-marino'] as IntegratorName[]) {
      const sim = new Simulation(b.build(), { integrator, step: 0.01 });
      sim.steps(10);
      const lam = sim.ws.cs.lambda[0]!;
      // force on the bob: λ n with n from the anchor to the bob (downward)
      expect(Math.abs(Math.abs(lam) - 2.5 * 9.81) / (2.5 * 9.81)).toBeLessThan(1e-9);
      expect(lam).toBeLessThan(0);
      expect(Math.abs(sim.state.q[2]! + 0.7)).toBeLessThan(1e-12);
    }
  });

  // tension tolerances: RK4 to rounding, the second-order schemes to h², the first-order ones to h
  // (under those the step's rows G(q_k)u⁺ = 0 leave the centripetal third of the tension to the
  // velocity projection, whose impulses were not counted: implicit Euler reported 32% too little)
  const conical: [IntegratorName, number, number][] = [['rk4', 1e-6, 1e-9], ['trapezoidal', 1e-5, 1e-5], ['bridson-marino', 1e-5, 1e-5], ['implicit-euler', 3e-3, 1e-3], ['symplectic-euler', 3e-3, 1e-3]];
  for (const [integrator, tolT, tolW] of conical) {
    it(`a conical pendulum under ${integrator}: tension m g / cos θ, rate √(g/(L cos θ))`, () => {
      const L = 1.2, th = 0.6, m = 0.8, g = 9.81;
      const r = L * Math.sin(th), z = -L * Math.cos(th), w = Math.sqrt(g / (L * Math.cos(th)));
      const b = new ModelAssembler();
      b.addParticle({ name: 'bob', mass: m, position: [r, 0, z], velocity: [0, w * r, 0] });
      b.addConstraint(new DistanceConstraint('rod', b.worldPoint([0, 0, 0]), b.point('bob'), b.initialQ()));
      const sim = new Simulation(b.build(), { integrator, step: 1e-3 });
      const Tex = (m * g) / Math.cos(th);
      let worstT = 0, maxDz = 0, phi = 0, prev = 0;
      sim.steps(3000, (s) => {
        worstT = Math.max(worstT, Math.abs(Math.abs(s.ws.cs.lambda[0]!) - Tex) / Tex);
        maxDz = Math.max(maxDz, Math.abs(s.state.q[2]! - z));
        // the azimuth, unwrapped
        const a = Math.atan2(s.state.q[1]!, s.state.q[0]!);
        phi += a - prev + (a - prev < -Math.PI ? 2 * Math.PI : 0);
        prev = a;
      });
      const rate = phi / 3;
      console.log(`conical pendulum, ${integrator}: tension off by ${worstT.toExponential(2)} of ${Tex.toFixed(6)} N at worst, rate off by ${(Math.abs(rate - w) / w).toExponential(2)}, height drift ${maxDz.toExponential(1)} m`);
      expect(worstT).toBeLessThan(tolT);
      expect(Math.abs(rate - w) / w).toBeLessThan(tolW);
      if (integrator === 'rk4') expect(maxDz).toBeLessThan(1e-6);
    });
  }
});
