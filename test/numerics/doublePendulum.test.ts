/**
 * Double pendulums against references integrated in minimal coordinates inside the test (RK4
 * at h = 1e-5) over 2 s:
 * - two point masses on distance constraints;
 * - two uniform rods (rigid bodies) on hinges with parallel axes, released horizontal.
 * The engine works in maximal coordinates with the KKT step and post-step projection.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Simulation } from '../../src/simulation.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { Joint } from '../../src/constraints/joint.js';
import type { RigidBody } from '../../src/model/model.js';
import type { IntegratorName } from '../../src/integrators/names.js';

const g = 9.81;

/**
 * Minimal-coordinate double pendulum: M(θ) θ̈ = r(θ, θ̇) with
 *   M11 = a, M22 = b, M12 = c cos(θ1 − θ2),
 *   r1 = −c sin(θ1 − θ2) θ̇2² − d1 g sin θ1,   r2 = c sin(θ1 − θ2) θ̇1² − d2 g sin θ2
 * (angles from the downward vertical). Integrated by RK4 at step h over T; returns θ1, θ2 at T.
 */
function reference(a: number, b: number, c: number, d1: number, d2: number, th: [number, number], T: number, h = 1e-5): [number, number] {
  const f = (y: number[]): number[] => {
    const [t1, t2, w1, w2] = y as [number, number, number, number];
    const cs = c * Math.cos(t1 - t2), sn = c * Math.sin(t1 - t2);
    const r1 = -sn * w2 * w2 - d1 * g * Math.sin(t1), r2 = sn * w1 * w1 - d2 * g * Math.sin(t2);
    const det = a * b - cs * cs;
    return [w1, w2, (b * r1 - cs * r2) / det, (a * r2 - cs * r1) / det];
  };
  let y = [th[0], th[1], 0, 0];
  const n = Math.round(T / h);
  for (let i = 0; i < n; i++) {
    const k1 = f(y), k2 = f(y.map((v, j) => v + 0.5 * h * k1[j]!)), k3 = f(y.map((v, j) => v + 0.5 * h * k2[j]!)), k4 = f(y.map((v, j) => v + h * k3[j]!));
    y = y.map((v, j) => v + (h / 6) * (k1[j]! + 2 * k2[j]! + 2 * k3[j]! + k4[j]!));
  }
  return [y[0]!, y[1]!];
}

describe('double pendulum of point masses on distance constraints', () => {
  const m1 = 1, m2 = 0.6, l1 = 1, l2 = 0.7, th: [number, number] = [Math.PI / 2, Math.PI / 3];
  const [r1, r2] = reference((m1 + m2) * l1 * l1, m2 * l2 * l2, m2 * l1 * l2, (m1 + m2) * l1, m2 * l2, th, 2);
  const expected = [l1 * Math.sin(r1) + l2 * Math.sin(r2), -l1 * Math.cos(r1) - l2 * Math.cos(r2)];
  const cases: [IntegratorName, number, number][] = [['rk4', 1e-3, 1e-8], ['trapezoidal', 1e-4, 1e-5], ['bridson-marino', 1e-4, 1e-5]];
  for (const [integrator, h, tol] of cases) {
    it(`${integrator} at h = ${h} follows the minimal-coordinate reference over 2 s`, () => {
      const b = new ModelAssembler();
      b.settings.gravity = [0, 0, -g];
      const x1 = [l1 * Math.sin(th[0]), 0, -l1 * Math.cos(th[0])] as [number, number, number];
      b.addParticle({ name: 'm1', mass: m1, position: x1 });
      b.addParticle({ name: 'm2', mass: m2, position: [x1[0] + l2 * Math.sin(th[1]), 0, x1[2] - l2 * Math.cos(th[1])] });
      const q0 = b.initialQ();
      b.addConstraint(new DistanceConstraint('rod1', b.worldPoint([0, 0, 0]), b.point('m1'), q0));
      b.addConstraint(new DistanceConstraint('rod2', b.point('m1'), b.point('m2'), q0));
      const sim = new Simulation(b.build(), { integrator, step: h });
      sim.steps(Math.round(2 / h));
      const err = Math.hypot(sim.state.q[3]! - expected[0]!, sim.state.q[5]! - expected[1]!);
      console.log(`double pendulum (particles) ${integrator} h = ${h}: tip position error ${err.toExponential(2)} m`);
      expect(err).toBeLessThan(tol);
    });
  }
});

describe('double pendulum of rods on hinges', () => {
  const m1 = 1.2, m2 = 0.8, L1 = 0.8, L2 = 0.6, w = 0.03;
  const I1 = (m1 * (L1 * L1 + w * w)) / 12, I2 = (m2 * (L2 * L2 + w * w)) / 12;
  const th: [number, number] = [Math.PI / 2, Math.PI / 2];
  // T = ½ m1 |ċ1|² + ½ I1 θ̇1² + ½ m2 |ċ2|² + ½ I2 θ̇2², c1 at L1/2, c2 at L1 + L2/2
  const [r1, r2] = reference(m1 * L1 * L1 / 4 + I1 + m2 * L1 * L1, m2 * L2 * L2 / 4 + I2, m2 * L1 * L2 / 2, m1 * L1 / 2 + m2 * L1, m2 * L2 / 2, th, 2);
  const tip = [L1 * Math.sin(r1) + L2 * Math.sin(r2), -L1 * Math.cos(r1) - L2 * Math.cos(r2)];
  const cases: [IntegratorName, number, number][] = [['rk4', 1e-3, 1e-8], ['trapezoidal', 1e-4, 1e-5]];
  for (const [integrator, h, tol] of cases) {
    it(`${integrator} at h = ${h} follows the minimal-coordinate reference over 2 s`, () => {
      const b = new ModelAssembler();
      b.settings.gravity = [0, 0, -g];
      // rods along body z, top end at local z = +L/2; at θ the rod points (sin θ, 0, −cos θ) from its top
      const rod = (name: string, m: number, L: number, top: [number, number, number], t: number) => {
        const dir = [Math.sin(t), 0, -Math.cos(t)];
        b.addBody({ name, mass: m, inertia: [(m * (L * L + w * w)) / 12, (m * (L * L + w * w)) / 12, (m * w * w) / 6, 0, 0, 0],
          position: [top[0] + (L / 2) * dir[0]!, 0, top[2] + (L / 2) * dir[2]!], orientation: [Math.cos(-t / 2), 0, Math.sin(-t / 2), 0] });
        return [top[0] + L * dir[0]!, 0, top[2] + L * dir[2]!] as [number, number, number];
      };
      const elbow = rod('rod1', m1, L1, [0, 0, 0], th[0]);
      rod('rod2', m2, L2, elbow, th[1]);
      const q0 = b.initialQ();
      const body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
      b.addConstraint(Joint.atWorldAxis('shoulder', null, body('rod1'), q0, [0, 0, 0], [0, 1, 0], { type: 'hinge' }));
      b.addConstraint(Joint.atWorldAxis('elbow', body('rod1'), body('rod2'), q0, elbow, [0, 1, 0], { type: 'hinge' }));
      const sim = new Simulation(b.build(), { integrator, step: h });
      sim.steps(Math.round(2 / h));
      // tip of rod 2: its centre plus (L2/2) along −(body z)
      const q = sim.state.q, o = 7;
      const qw = q[o + 3]!, qx = q[o + 4]!, qy = q[o + 5]!, qz = q[o + 6]!;
      const zx = 2 * (qx * qz + qw * qy), zz = 1 - 2 * (qx * qx + qy * qy);
      const err = Math.hypot(q[o]! - (L2 / 2) * zx - tip[0]!, q[o + 2]! - (L2 / 2) * zz - tip[1]!);
      console.log(`double pendulum (rods on hinges) ${integrator} h = ${h}: tip position error ${err.toExponential(2)} m, y drift ${Math.abs(q[o + 1]!).toExponential(1)}`);
      expect(err).toBeLessThan(tol);
      expect(Math.abs(q[o + 1]!)).toBeLessThan(1e-10);
    });
  }
});
