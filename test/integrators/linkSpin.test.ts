/**
 * The spin of thin links about their long axes (forces/inertial.ts frozenAxes, constraints/
 * geometricStiffness.ts leverCurvature, step/velocityTransport.ts and METRIC_TURN in
 * step/stabilize.ts; docs/constraints.md). A ball joint on a link's axis cannot turn the
 * link about that axis, and with equal transverse moments the spin is a constant of the motion:
 * a chain released from rest keeps it at zero. Parts of the step drove it up instead: implicit
 * Euler multiplied it by 1 − (hω_t)²(I_t − I_s)/I_s per step (ω_t the link's transverse turn rate,
 * I_s ≪ I_t its moments), the projection metric's curvature coupled it to the turns the joints
 * see, the position projection turned the links' axes under a fixed ω, and the velocity
 * projection ran on a metric turned by that correction. The 300-link chain at h = 1/60 tore from
 * perturbed starts, a link near the pin spinning at 1e3-1e4 rad/s first.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { ModelAssembler } from '../../src/model/assembler.js';
import { chainOfBodies } from '../../examples/scenes.js';

/** ω·(R e_x) for body i: the spin about its long axis */
function spin(sim: Simulation, i: number): number {
  const q = sim.state.q, u = sim.state.u, o = 7 * i, v = 6 * i + 3;
  const w = q[o + 3]!, x = q[o + 4]!, y = q[o + 5]!, z = q[o + 6]!;
  const ax = [w * w + x * x - y * y - z * z, 2 * (x * y + w * z), 2 * (x * z - w * y)];
  return u[v]! * ax[0]! + u[v + 1]! * ax[1]! + u[v + 2]! * ax[2]!;
}

/** a free link of the chains (0.1 × 0.02 × 0.02 m, 0.1 kg: moments 6.7e-6 and 8.7e-5 kg·m²) */
function freeRod(turn: number, s0: number): Simulation {
  const b = new ModelAssembler();
  b.settings.gravity = [0, 0, 0];
  b.settings.integrator = 'implicit-euler';
  b.settings.step = 1 / 60;
  const len = 0.1, w = 0.02, m = 0.1, It = (m / 12) * (len * len + w * w);
  b.addBody({ name: 'rod', mass: m, inertia: [(m / 12) * 2 * w * w, It, It, 0, 0, 0], position: [0, 0, 0],
    angularVelocity: [s0, turn, 0] });
  return new Simulation(b.build());
}

describe('spin of a thin link about its long axis', () => {
  // before: ×0.92 per step at 5 rad/s, ×(−2.63) at 33 rad/s (spin 1e-3 rad/s → 1.7e1 in 10 steps)
  it('is kept by implicit Euler on a free rod turning about a transverse axis (h = 1/60)', () => {
    for (const turn of [5, 33, 100]) {
      const sim = freeRod(turn, 1e-3);
      for (let k = 0; k < 30; k++) {
        sim.step();
        expect(Math.abs(spin(sim, 0) - 1e-3)).toBeLessThan(1e-14);
      }
    }
  });

  // before: the 300-link chain at h = 1/60 held from k = 0 (planar) and tore from k = 2 and 5
  // (energy +35 kJ at step 128 and 7.9e-7 m at step 177; 1.8e-2 m at step 127). With any one of
  // the four mends left out it fails here: J not frozen, spin 2 300 rad/s; the old curvature, 170;
  // velocities not carried, 13; no factorization at q⁺ after large turns, 290; neither of the last
  // two, an unconverged projection. Now 15 starts (link 50, 150 or 250 moved) hold for 300 steps
  // to 1e-12 m, the links spinning at 0.08 rad/s at most
  it('lets a 300-link chain at h = 1/60 hold its joints from perturbed starts, its links not spinning', () => {
    for (const k of [0, 2, 5]) {
      const sim = new Simulation(chainOfBodies(300, { integrator: 'implicit-euler', step: 1 / 60 }));
      sim.state.q[7 * 50 + 1] = sim.state.q[7 * 50 + 1]! + k * 1e-13;
      const E0 = sim.energy().total;
      let rise = -Infinity, fastestSpin = 0;
      sim.steps(200, (s) => {
        rise = Math.max(rise, s.energy().total - E0);
        for (let i = 0; i < 300; i++) fastestSpin = Math.max(fastestSpin, Math.abs(spin(s, i)));
      });
      expect(sim.diagnostics.projectionUnconverged).toBe(0);
      expect(sim.diagnostics.worstViolation.value).toBeLessThanOrEqual(1e-12);
      // the chain falls: the step and the projection only take energy away
      expect(rise).toBeLessThan(0);
      expect(fastestSpin).toBeLessThan(1);
    }
  }, 60_000);
});
