/**
 * Compliance (theory.md §7): a compliant distance constraint with α = 1/k behaves like the
 * equivalent spring of stiffness k (same small-oscillation frequency within 0.5%), with damping
 * β giving the spring damping α⁻¹β; as α → 0 it becomes the hard constraint.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Simulation } from '../../src/simulation.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { Joint } from '../../src/constraints/joint.js';
import { AxialSpring } from '../../src/forces/pathSpring.js';
import { LinearMaterial } from '../../src/forces/materials.js';
import type { RigidBody } from '../../src/model/model.js';
import type { IntegratorName } from '../../src/integrators/names.js';
import { period } from '../helpers/sim.js';

function oscillator(integrator: IntegratorName, h: number, alpha: number, beta = 0) {
  const b = new ModelAssembler();
  b.settings.gravity = [0, 0, 0];
  b.addParticle({ name: 'p', mass: 0.5, position: [1.01, 0, 0] });
  b.addConstraint(new DistanceConstraint('c', b.worldPoint([0, 0, 0]), b.point('p'), b.initialQ(), { length: 1, compliance: alpha, damping: beta }));
  return new Simulation(b.build(), { integrator, step: h });
}


describe('compliant distance constraint', () => {
  const k = 400, m = 0.5, Tex = 2 * Math.PI / Math.sqrt(k / m);
  for (const integrator of ['implicit-euler', 'trapezoidal', 'rk4', 'bridson-marino', 'symplectic-euler'] as IntegratorName[]) {
    it(`α = 1/k oscillates like a spring of stiffness k (${integrator})`, () => {
      const sim = oscillator(integrator, 1e-4, 1 / k);
      const T = period(sim, (s) => s.state.q[0]! - 1, 8000);
      console.log(`compliant distance (${integrator}): period ${T.toFixed(6)} s, spring ${Tex.toFixed(6)} s, rel. error ${((T - Tex) / Tex).toExponential(2)}`);
      expect(Math.abs(T - Tex) / Tex).toBeLessThan(0.005);
    });
  }

  // the behavioural tests above would pass with many row forms: here the rows themselves
  it('its row is that of theory.md §7: R = γα/h², target −γg/h with γ = (1/2 + β/h)⁻¹; the trapezoidal rule\'s γ₂ = (1/4 + β/(2h))⁻¹', () => {
    const alpha = 1 / k, beta = 3e-3, h = 0.01;
    // stretched by 1 cm, moving outward at 0.2 m/s
    const b = new ModelAssembler();
    b.addParticle({ name: 'p', mass: 0.5, position: [1.01, 0, 0], velocity: [0.2, 0, 0] });
    b.addConstraint(new DistanceConstraint('c', b.worldPoint([0, 0, 0]), b.point('p'), b.initialQ(), { length: 1, compliance: alpha, damping: beta }));
    const model = b.build(), q = model.initialQ, u = model.initialU;
    // first-order schemes: G at q_k, q⁺ = q + h u⁺
    const ws = new Simulation(model, { integrator: 'implicit-euler', step: h }).ws;
    ws.constraints(q, u, h, 'velocity');
    const g = ws.cs.g[0]!, gamma = 1 / (0.5 + beta / h);
    expect(g).toBeCloseTo(0.01, 14);
    expect(ws.cs.R[0]).toBeCloseTo((gamma * alpha) / (h * h), 12);
    expect(ws.cs.target[0]).toBeCloseTo((-gamma * g) / h, 12);
    // the trapezoidal rule: G at the midpoint, target −γ₂ g_k/h − G u
    const wt = new Simulation(model, { integrator: 'trapezoidal', step: h }).ws;
    wt.constraintsAtMidpoint(q, u, h, 'second');
    const g2 = 1 / (0.25 + beta / (2 * h));
    expect(wt.cs.R[0]).toBeCloseTo((g2 * alpha) / (h * h), 12);
    expect(wt.cs.target[0]).toBeCloseTo((-g2 * 0.01) / h - wt.cs.Gu[0]!, 12);
  });

  it('damping β decays the oscillation like a spring damper α⁻¹β', () => {
    // d = β/α = 2 N·s/m: amplitude decays as exp(−d t / (2m))
    const beta = 2 / k, sim = oscillator('rk4', 1e-4, 1 / k, beta);
    sim.steps(10000);
    // envelope after 1 s from the energy: E ∝ exp(−d t / m)
    const x = sim.state.q[0]! - 1, v = sim.state.u[0]!;
    const E = 0.5 * k * x * x + 0.5 * m * v * v, E0 = 0.5 * k * 0.01 * 0.01;
    const expected = Math.exp((-2 / m) * 1);
    console.log(`compliant damping: E(1 s)/E0 ${(E / E0).toFixed(5)}, expected ${expected.toFixed(5)}`);
    expect(Math.abs(E / E0 - expected) / expected).toBeLessThan(0.02);
  });

  it('under load the stretch is α·m·g, so α → 0 is the hard constraint', () => {
    for (const alpha of [1e-4, 1e-6, 1e-9, 1e-12]) {
      const b = new ModelAssembler();
      b.addParticle({ name: 'p', mass: 2, position: [0, 0, -1] });
      b.addConstraint(new DistanceConstraint('c', b.worldPoint([0, 0, 0]), b.point('p'), b.initialQ(), { length: 1, compliance: alpha, damping: 0.02 }));
      const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 1e-3 });
      sim.steps(2000);
      const stretch = -sim.state.q[2]! - 1, expected = alpha * 2 * 9.81;
      expect(Math.abs(stretch - expected)).toBeLessThan(1e-3 * expected + 1e-13);
      expect(Math.abs(Math.abs(sim.ws.cs.lambda[0]!) - 2 * 9.81)).toBeLessThan(1e-6);
    }
  });

  it('given as a stiffness and a damping ratio: frequency √(k/m) and the logarithmic decrement of ζ', () => {
    const k = 400, m = 0.5, zeta = 0.1;
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    b.addParticle({ name: 'p', mass: m, position: [1.01, 0, 0] });
    b.addConstraint(new DistanceConstraint('c', b.worldPoint([0, 0, 0]), b.point('p'), b.initialQ(), { length: 1, stiffness: k, dampingRatio: zeta }));
    const sim = new Simulation(b.build(), { integrator: 'rk4', step: 1e-4 });
    expect(sim.model.constraints[0]!.compliance[0]).toBeCloseTo(1 / k, 15);
    // successive positive peaks of the stretch
    const peaks: number[] = [];
    let a = 0.01, b1 = 0.01;
    sim.steps(20000, (s) => { const x = s.state.q[0]! - 1; if (b1 > a && b1 > x && b1 > 0) peaks.push(b1); a = b1; b1 = x; });
    const ratio = peaks[1]! / peaks[0]!, expected = Math.exp((-2 * Math.PI * zeta) / Math.sqrt(1 - zeta * zeta));
    console.log(`stiffness/damping ratio: peak ratio ${ratio.toFixed(5)}, expected ${expected.toFixed(5)}`);
    expect(Math.abs(ratio - expected) / expected).toBeLessThan(1e-3);
  });

  // regression (review): the conversion ran in each Simulation's constraint stage and wrote into
  // the model, which read compliance 0 until a simulation was made ("immutable after build")
  it('a stiffness is turned into compliance and damping when the model is built, not by a simulation', () => {
    const b = new ModelAssembler();
    b.addParticle({ name: 'p', mass: 0.5, position: [1, 0, 0] });
    b.addConstraint(new DistanceConstraint('c', b.worldPoint([0, 0, 0]), b.point('p'), b.initialQ(), { length: 1, stiffness: 400, dampingRatio: 0.1 }));
    const model = b.build(), c = model.constraints[0]!;
    const before = [c.compliance[0], c.damping[0]];
    expect(before[0]).toBe(1 / 400);
    // β = 2ζ √(m/k) for a particle on a distance row
    expect(before[1]).toBeCloseTo(2 * 0.1 * Math.sqrt(0.5 / 400), 15);
    new Simulation(model);
    expect([c.compliance[0], c.damping[0]]).toEqual(before);
  });

  it('a joint given as a stiffness: a soft hinge bends under load by the torque over its stiffness', () => {
    // a massless-looking arm on a weld whose rotational rows have stiffness 50 N·m/rad
    const b = new ModelAssembler();
    b.addBody({ name: 'arm', mass: 1, inertia: [1e-3, 1e-3, 1e-3, 0, 0, 0], position: [0.2, 0, 0] });
    const arm = b.componentAt(0) as RigidBody;
    b.addConstraint(Joint.atWorldFrame('weld', null, arm, b.initialQ(), [0, 0, 0], [1, 0, 0, 0], { type: 'weld', stiffness: [1e9, 1e9, 1e9, 50, 50, 50], dampingRatio: 1 }));
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 1e-3 });
    sim.steps(3000);
    // torque m g r = 1·9.81·0.2 about y; small-angle deflection τ/k
    const q = sim.state.q, angle = 2 * Math.asin(q[5]!), expected = (9.81 * 0.2) / 50;
    console.log(`soft weld: deflection ${angle.toFixed(6)} rad, τ/k ${expected.toFixed(6)} rad`);
    expect(Math.abs(angle - expected) / expected).toBeLessThan(0.02);
  });

  // regression: at the midpoint, the trapezoidal rule and Bridson-Marino lost 33% and 55% of a
  // compliant oscillator's energy in 1 s where the equivalent spring lost none
  for (const integrator of ['trapezoidal', 'bridson-marino', 'rk4'] as const) {
    it(`an undamped compliant row keeps its energy like the equivalent spring (${integrator})`, () => {
      const energy = (spring: boolean, h: number) => {
        const b = new ModelAssembler();
        b.settings.gravity = [0, 0, 0];
        b.addParticle({ name: 'p', mass: 0.5, position: [1.01, 0, 0] });
        if (spring) b.addForce(new AxialSpring('s', b.worldPoint([0, 0, 0]), b.point('p'), new LinearMaterial(400), 1));
        else b.addConstraint(new DistanceConstraint('c', b.worldPoint([0, 0, 0]), b.point('p'), b.initialQ(), { length: 1, compliance: 1 / 400 }));
        const sim = new Simulation(b.build(), { integrator, step: h });
        sim.steps(Math.round(1 / h));
        const x = sim.state.q[0]! - 1, v = sim.state.u[0]!;
        return (0.5 * 400 * x * x + 0.5 * 0.5 * v * v) / (0.5 * 400 * 1e-4);
      };
      for (const h of [1e-3, 5e-3]) expect(Math.abs(energy(false, h) - energy(true, h))).toBeLessThan(1e-4);
    });
  }

  it('RK4 reports the force of compliant rows: a mass hanging on a compliant rod, |λ| = m g', () => {
    const b = new ModelAssembler();
    b.addParticle({ name: 'p', mass: 2, position: [0, 0, -1] });
    b.addConstraint(new DistanceConstraint('c', b.worldPoint([0, 0, 0]), b.point('p'), b.initialQ(), { length: 1, compliance: 1e-6, damping: 0.01 }));
    const sim = new Simulation(b.build(), { integrator: 'rk4', step: 1e-4 });
    sim.steps(20000);
    expect(Math.abs(Math.abs(sim.ws.cs.lambda[0]!) - 2 * 9.81)).toBeLessThan(1e-6);
  });
});
