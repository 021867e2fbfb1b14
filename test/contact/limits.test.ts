/**
 * Joint limits and motors: a hinge pendulum falling onto its limit never passes it by more than
 * 1e-6 rad under `pivoting`; a velocity motor reaches its target and its torque never exceeds its
 * maximum; a position motor holds its angle against gravity while its torque suffices.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { withContacts } from '../helpers/contactModel.js';
import type { JointLimit, JointMotor } from '../../src/model/contactModel.js';
import type { Stepper } from '../../src/step/step.js';

const g = 9.81;

/** a 1 kg bar of 1 m, centre at x = 0.5, on a hinge at the origin about `axis` */
function pendulum(axis: [number, number, number], limits: JointLimit[], motors: JointMotor[], solver: 'pivoting' | 'pgs' = 'pivoting', step = 0.01) {
  return new Simulation(withContacts({
    version: 1, step, gravity: [0, 0, -g],
    bodies: [{ name: 'bar', mass: 1, inertia: [0.001, 1 / 12, 1 / 12, 0, 0, 0], com: [0.5, 0, 0] }],
    joints: [{ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis }],
  }, { contact: { solver }, limits, motors }));
}

const limit = (lower: number, upper: number, restitution = 0): JointLimit =>
  ({ constraint: 0, joint: 'h', coordinate: 0, coordinateName: 'rz', lower, upper, restitution, compliance: 0, damping: 0 });

describe('a hinge limit', () => {
  for (const solver of ['pivoting', 'pgs'] as const) {
    it(`${solver}: a pendulum falling onto its limit does not pass it (pivoting: by 1e-6 rad)`, () => {
      const lim = 0.4, sim = pendulum([0, 1, 0], [limit(-lim, lim)], [], solver), h = sim.joint('h');
      let worst = 0, pushed = 0;
      for (let i = 0; i < 300; i++) {
        sim.step();
        worst = Math.max(worst, Math.abs(h.coordinates[0]!) - lim);
        pushed = Math.max(pushed, Math.abs(h.limitForce('rz')));
      }
      expect(worst).toBeLessThan(solver === 'pivoting' ? 1e-6 : 1e-4);
      // at rest on the limit it holds the bar's weight: torque m g (0.5 cos 0.4)
      expect(Math.abs(Math.abs(h.limitForce('rz')) - g * 0.5 * Math.cos(lim))).toBeLessThan(1e-6);
      expect(pushed).toBeGreaterThan(0);
    });
  }
  it('a limit out of reach makes no row', () => {
    const sim = pendulum([0, 1, 0], [limit(-3, 3)], []);
    sim.step();
    expect(sim.contactSolve).toBeNull();
  });
});

describe('limits on a chain', () => {
  it('the velocities leaving each step respect the limit rows, after the joints\' projection', () => {
    // two links on gimbals, φ limited: the projection of the joints turns the links after the solve
    const sim = new Simulation(withContacts({
      version: 1, step: 1 / 240, gravity: [0, 0, -g],
      bodies: [0, 1].map((i) => ({ name: `l${i}`, mass: 0.1, inertia: [6.7e-6, 8.7e-5, 8.7e-5, 0, 0, 0], position: [0.05 + 0.1 * i, 0, 0] })),
      joints: [{ type: 'gimbal', name: 'pin', bodyA: 'world', bodyB: 'l0', position: [0, 0, 0] },
        { type: 'gimbal', name: 'j1', bodyA: 'l0', bodyB: 'l1', position: [0.1, 0, 0] }],
    }, { contact: { solver: 'pivoting' }, limits: [{ constraint: 0, joint: 'pin', coordinate: 1, coordinateName: 'phi', lower: -0.5236, upper: 0.5236, restitution: 0, compliance: 0, damping: 0 }] }));
    const st = (sim as unknown as { stepper: Stepper }).stepper, ws = sim.ws;
    let worst = 0, rowsSeen = 0;
    for (let i = 0; i < 120; i++) {
      sim.step();
      for (let r = 0; r < st.rows.count; r++, rowsSeen++) worst = Math.min(worst, st.rows.rowVelocity(r, sim.state.u, ws.uOffsets, ws.bodyFlags) + st.rows.b[r]!);
    }
    expect(rowsSeen).toBeGreaterThan(10);
    expect(worst).toBeGreaterThan(-1e-9);
  });
});

describe('a motor', () => {
  it('a velocity motor reaches its target, its torque never above the maximum', () => {
    // vertical axis: gravity has no torque; I_zz about the hinge = 1/12 + 0.25 = 1/3
    const motor: JointMotor = { constraint: 0, joint: 'h', coordinate: 0, coordinateName: 'rz', mode: 'velocity', target: 2, time: null, maxForce: 1 };
    const sim = pendulum([0, 0, 1], [], [motor]), h = sim.joint('h');
    let worst = 0;
    for (let i = 0; i < 100; i++) {
      sim.step();
      worst = Math.max(worst, Math.abs(h.motorForce('rz')));
    }
    expect(worst).toBeLessThanOrEqual(1 + 1e-12);
    // saturated at first: 2 rad/s at 3 rad/s² takes 0.67 s; then held at the target
    expect(Math.abs(h.rates[0]! - 2)).toBeLessThan(1e-9);
  });
  it('a saturated motor accelerates at maxForce / I', () => {
    const motor: JointMotor = { constraint: 0, joint: 'h', coordinate: 0, coordinateName: 'rz', mode: 'velocity', target: 100, time: null, maxForce: 1 };
    const sim = pendulum([0, 0, 1], [], [motor]);
    sim.step(50);
    expect(Math.abs(sim.joint('h').rates[0]! / (3 * 0.5) - 1)).toBeLessThan(1e-9);
  });
  it('a position motor holds its angle against gravity', () => {
    const motor: JointMotor = { constraint: 0, joint: 'h', coordinate: 0, coordinateName: 'rz', mode: 'position', target: 0.3, time: 0.1, maxForce: 20 };
    const sim = pendulum([0, 1, 0], [], [motor]), h = sim.joint('h');
    sim.run(3);
    expect(Math.abs(h.coordinates[0]! - 0.3)).toBeLessThan(1e-6);
    expect(Math.abs(Math.abs(h.motorForce('rz')) - g * 0.5 * Math.cos(0.3))).toBeLessThan(1e-6);
  });
});
