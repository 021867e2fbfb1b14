/**
 * Small oscillations of axial springs against their analytic frequencies (within 0.5%):
 * two free particles (reduced mass), and a rigid body bouncing on a spring attached at a marker
 * over its centre of mass. Periods are measured from zero crossings under the trapezoidal rule.
 * (The frame-spring frequencies are in test/forces/frameSpring.test.ts.)
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Simulation } from '../../src/simulation.js';
import { AxialSpring } from '../../src/forces/pathSpring.js';
import { LinearMaterial } from '../../src/forces/materials.js';
import { period } from '../helpers/sim.js';


describe('axial spring small oscillations', () => {
  it('two particles: ω = √(k (m₁ + m₂)/(m₁ m₂))', () => {
    const k = 200, m1 = 0.3, m2 = 0.7, r = 0.5;
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    b.addParticle({ name: 'a', mass: m1, position: [0, 0, 0] });
    b.addParticle({ name: 'b', mass: m2, position: [r + 0.01, 0, 0] });
    b.addForce(new AxialSpring('s', b.point('a'), b.point('b'), new LinearMaterial(k), r));
    const sim = new Simulation(b.build(), { integrator: 'trapezoidal', step: 1e-3 });
    const T = period(sim, (s) => s.state.q[3]! - s.state.q[0]! - r, 5000);
    const Tex = 2 * Math.PI / Math.sqrt((k * (m1 + m2)) / (m1 * m2));
    console.log(`two-particle spring: period ${T.toFixed(6)} s, analytic ${Tex.toFixed(6)} s, rel. error ${(Math.abs(T - Tex) / Tex).toExponential(2)}`);
    expect(Math.abs(T - Tex) / Tex).toBeLessThan(0.005);
  });

  it('a body on a spring at a marker over its centre of mass: ω = √(k/m)', () => {
    const k = 400, m = 1.5, r = 0.4;
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, -9.81];
    // frame origin offset from the centre of mass; the marker sits on the vertical through it
    b.addBody({ name: 'B', mass: m, inertia: [0.01, 0.02, 0.015, 0, 0, 0], com: [0.05, 0, 0], position: [-0.05, 0, -r - (m * 9.81) / k - 0.005] });
    b.addMarker({ name: 'top', body: 'B', location: [0.05, 0, 0] });
    b.addForce(new AxialSpring('s', b.worldPoint([0, 0, 0]), b.point('top'), new LinearMaterial(k), r));
    const sim = new Simulation(b.build(), { integrator: 'trapezoidal', step: 1e-3 });
    const zEq = -r - (m * 9.81) / k;
    const T = period(sim, (s) => s.state.q[2]! - zEq, 4000);
    const Tex = 2 * Math.PI / Math.sqrt(k / m);
    console.log(`body on a spring: period ${T.toFixed(6)} s, analytic ${Tex.toFixed(6)} s, rel. error ${(Math.abs(T - Tex) / Tex).toExponential(2)}`);
    expect(Math.abs(T - Tex) / Tex).toBeLessThan(0.005);
  });
});
