/**
 * Stabilization methods (selectable per model) and joint coordinate singularities:
 * - Baumgarte (theory.md §8): a pendulum's length error decays as a critically damped g̈ + αġ + βg = 0;
 * - SPOOK (theory.md §8): the drift stays bounded and small without any projection;
 * - projection (the default): the drift stays at rounding level;
 * - a gimbal joint driven through pitch 90° reports the singularity once and stays finite.
 */
import { describe, it, expect } from 'vitest';
import { PROJECTION_TOL } from '../../src/step/stabilize.js';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Simulation } from '../../src/simulation.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { Joint } from '../../src/constraints/joint.js';
import type { Stabilization, RigidBody } from '../../src/model/model.js';
import { chainOfBodies } from '../../examples/scenes.js';

function pendulum(st: Stabilization, start = 1.0) {
  const b = new ModelAssembler();
  b.settings.stabilization = st;
  b.addParticle({ name: 'bob', mass: 1, position: [start, 0, 0] });
  b.addConstraint(new DistanceConstraint('rod', b.worldPoint([0, 0, 0]), b.point('bob'), b.initialQ(), { length: 1 }));
  return new Simulation(b.build(), { integrator: 'implicit-euler', step: 1e-3 });
}

const lengthError = (s: Simulation) => Math.hypot(s.state.q[0]!, s.state.q[1]!, s.state.q[2]!) - 1;

describe('stabilization methods', () => {
  it('Baumgarte: an initial length error decays like the critically damped error equation', () => {
    // α = 2/τ, β = 1/τ² with τ = 0.05 s: g(t) = g₀ (1 + t/τ) e^{−t/τ}
    const sim = pendulum({ method: 'baumgarte', alpha: 40, beta: 400 }, 1.01);
    sim.steps(200);
    const t = 0.2, tau = 0.05, expected = 0.01 * (1 + t / tau) * Math.exp(-t / tau);
    console.log(`Baumgarte: length error after 0.2 s ${lengthError(sim).toExponential(3)}, continuous-time ${expected.toExponential(3)}`);
    // 4.5% off: the step's first-order error (hα = 0.04) and the distance constraint's own
    // nonlinearity at a 1% stretch; a factor-2 error in α or β moves it by more than 30%
    expect(Math.abs(lengthError(sim) - expected)).toBeLessThan(0.1 * expected);
  });

  it('Baumgarte: the residual drift band is first order in h', () => {
    // the discrete scheme leaves an O(h) band of error while the pendulum swings
    const band = (h: number) => {
      const b = new ModelAssembler();
      b.settings.stabilization = { method: 'baumgarte', alpha: 40, beta: 400 };
      b.addParticle({ name: 'bob', mass: 1, position: [1, 0, 0] });
      b.addConstraint(new DistanceConstraint('rod', b.worldPoint([0, 0, 0]), b.point('bob'), b.initialQ(), { length: 1 }));
      const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: h });
      let worst = 0;
      sim.steps(Math.round(2 / h), (s) => { worst = Math.max(worst, Math.abs(lengthError(s))); });
      return worst;
    };
    const b1 = band(2e-3), b2 = band(1e-3), b3 = band(5e-4);
    console.log(`Baumgarte drift band: ${b1.toExponential(2)} (h = 2 ms), ${b2.toExponential(2)} (1 ms), ${b3.toExponential(2)} (0.5 ms)`);
    expect(b2 / b1).toBeLessThan(0.6);
    expect(b3 / b2).toBeLessThan(0.6);
    expect(b2).toBeLessThan(2e-3);
  });

  // regression: the u⁺ form used the Δu form's coefficient 4d/(1+4d) and the error rang
  it('SPOOK: an initial length error decays monotonically over a few relaxation times', () => {
    const sim = pendulum({ method: 'spook', relaxation: 4 }, 1.01);
    const errs: number[] = [];
    sim.steps(40, (s) => { errs.push(lengthError(s)); });
    for (let i = 1; i < errs.length; i++) expect(Math.abs(errs[i]!)).toBeLessThanOrEqual(Math.abs(errs[i - 1]!) + 1e-12);
    expect(errs.every((e) => e > -1e-9)).toBe(true);
    expect(Math.abs(errs[39]!)).toBeLessThan(1e-2 * 0.01);
  });

  for (const integrator of ['rk4', 'trapezoidal', 'bridson-marino'] as const) {
    it(`SPOOK and Baumgarte keep the drift bounded under ${integrator}`, () => {
      for (const st of [{ method: 'spook' } as const, { method: 'baumgarte' } as const]) {
        const b = new ModelAssembler();
        b.settings.stabilization = st;
        b.addParticle({ name: 'bob', mass: 1, position: [1, 0, 0] });
        b.addConstraint(new DistanceConstraint('rod', b.worldPoint([0, 0, 0]), b.point('bob'), b.initialQ(), { length: 1 }));
        const sim = new Simulation(b.build(), { integrator, step: 5e-3 });
        let worst = 0;
        sim.steps(4000, (s) => { worst = Math.max(worst, Math.abs(lengthError(s))); });
        expect(worst).toBeLessThan(1e-2);
      }
    });
  }

  it('SPOOK: drift stays bounded without projection', () => {
    const sim = pendulum({ method: 'spook', relaxation: 4 });
    let worst = 0;
    sim.steps(3000, (s) => { worst = Math.max(worst, Math.abs(lengthError(s))); });
    console.log(`SPOOK: max length error over 3 s ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-4);
  });

  it('projection (default): drift at rounding level', () => {
    const sim = pendulum({ method: 'projection' });
    let worst = 0;
    sim.steps(3000, (s) => { worst = Math.max(worst, Math.abs(lengthError(s))); });
    expect(worst).toBeLessThan(1e-12);
  });
});

// regression: under SPOOK the compliant rows took SPOOK's first-order form under the trapezoidal
// rule too; an 8-link chain with every other joint soft (2000 N/m and N·m/rad) gained 1e11 J
// and diverged within 300 steps at h = 1/240
describe('SPOOK with compliant rows under the trapezoidal rule', () => {
  it('keeps the chain bounded: its compliant rows are trapezoidal springs', () => {
    for (const type of ['ball', 'hinge'] as const) {
      const frame: [number, number, number, number] = [Math.cos(0.3), Math.sin(0.3) * 0.6, Math.sin(0.3) * 0.8, 0];
      const soft = (i: number) => (i % 2 ? { stiffness: 2000, dampingRatio: 0.3 } : undefined);
      const sim = new Simulation(chainOfBodies(8, { joint: type, frame, soft, stabilization: { method: 'spook' }, integrator: 'trapezoidal', step: 1 / 240 }));
      const E0 = sim.energy().total;
      sim.steps(300);
      expect(sim.diagnostics.inertiaWarnings).toBe(0);
      // released from rest: the chain falls and the soft rows dissipate, so the energy goes down
      expect(sim.energy().total).toBeLessThan(E0);
      expect(sim.diagnostics.worstViolation.value).toBeLessThan(1e-2);
    }
  });
});

describe('projection', () => {
  // regression: the velocity projection used G from before the position correction
  it('leaves G(q⁺) u⁺ = 0 to rounding on a 5-link chain at a large step', () => {
    const b = new ModelAssembler();
    for (let i = 0; i < 5; i++) b.addParticle({ name: `p${i}`, mass: 0.1, position: [(i + 1) * 0.2, 0, 0] });
    const q0 = b.initialQ();
    b.addConstraint(new DistanceConstraint('c0', b.worldPoint([0, 0, 0]), b.point('p0'), q0));
    for (let i = 1; i < 5; i++) b.addConstraint(new DistanceConstraint(`c${i}`, b.point(`p${i - 1}`), b.point(`p${i}`), q0));
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 0.01 });
    let worst = 0;
    sim.steps(200, (s) => {
      s.ws.cs.evaluate(s.ws.fs.bind(s.state.q, s.state.u), s.ws.Gm);
      for (const x of s.ws.cs.Gu) worst = Math.max(worst, Math.abs(x));
    });
    expect(worst).toBeLessThan(1e-12);
    expect(sim.diagnostics.projectionUnconverged).toBe(0);
  });
});

describe('projection at large steps', () => {
  // regression: full Newton steps overshot far from the manifold; at h = 1/120 the trapezoidal
  // 100-link chain diverged at step 532 (Bridson-Marino tore to 0.5 m), and at h = 1/60 implicit
  // Euler gained 1 700 J while its joints came metres apart
  // Near step 524 (the second whip) the integrators themselves can blow up at this step, their
  // energy rising while the joints still hold to 1e-12 (docs/constraints.md): the trapezoidal
  // rule in every run with link 50 moved by k·1e-13 m (k = 0 … 6, steps 524-530), Bridson-Marino
  // in none of those but at steps 531-559 when other links are moved by 1e-13 to 3e-13 m. The
  // 560-step version of this test passed on one lucky rounding; it now stops at 500 steps, after
  // the first whip crack, where every such run holds.
  for (const [integrator, steps] of [['trapezoidal', 500], ['bridson-marino', 500]] as const) {
    it(`keeps a whipping 100-link chain at h = 1/120 on its joints (${integrator}, ${steps} steps)`, () => {
      const sim = new Simulation(chainOfBodies(100, { integrator, step: 1 / 120 }));
      let worst = 0;
      sim.steps(steps, (s) => { worst = Math.max(worst, s.ws.cs.maxHardViolation()); });
      expect(worst).toBeLessThanOrEqual(1e-10);
      expect(sim.diagnostics.projectionUnconverged).toBe(0);
    });
  }

  // At h = 1/20 the whip of the falling chain is beyond what the step and the projection can
  // hold, and moving one coordinate by k·1e-13 m changes how far it tears (docs/constraints.md,
  // large steps): every start k = 0 … 7 tears, by 7.8e-4 m to 2.5 m. Neither the energy nor the
  // joints are bounded there; what holds is that the failure is reported, whatever the rounding.
  // k = 1 and 3 are the cases (1.5e-2 and 7.8e-4 m). At h = 1/30 the eight starts tore until the
  // links' spin was kept (test/integrators/linkSpin.test.ts); now they hold.
  it('reports the projections it cannot converge where the step is too large to stay on the joints (implicit Euler, h = 1/20)', () => {
    for (const k of [1, 3]) {
      const sim = new Simulation(chainOfBodies(100, { integrator: 'implicit-euler', step: 1 / 20 }));
      sim.state.q[7 * 50 + 1] = sim.state.q[7 * 50 + 1]! + k * 1e-13;
      sim.steps(150);
      expect(sim.diagnostics.projectionUnconverged).toBeGreaterThan(0);
      expect(sim.diagnostics.worstViolation.value).toBeGreaterThan(PROJECTION_TOL);
      expect(sim.state.q.every(Number.isFinite)).toBe(true);
      // and warned about, once, with what helps
      const w = sim.warnings.filter((x) => x.includes('position projection stopped above its tolerance'));
      expect(w).toHaveLength(1);
      expect(w[0]).toMatch(/^step \d+: .*max \|g\| \d\.\de[-+]\d+ m or rad.*smaller step.*geometricStiffness/);
    }
  });
});

describe('worst joint separation over the run (diagnostics)', () => {
  // regression: the CLI reported the violation at the end only, so a chain that came apart
  // mid-run under Baumgarte (metres on the 100-link whip, long before it diverged) and a SPOOK chain
  // that separated by 16 cm and closed again both looked healthy at the end
  it('is the largest end-of-step |g| of a hard row, with its step and constraint, under every method', () => {
    for (const method of ['baumgarte', 'spook', 'projection'] as const) {
      const sim = pendulum({ method }, 1.01);
      let worst = 0, at = -1;
      sim.steps(50, (s) => { const e = Math.abs(lengthError(s)); if (e > worst) { worst = e; at = s.state.step; } });
      const w = sim.diagnostics.worstViolation;
      // the distance row's g is |p − x| − L, the same number as the independent length error up to rounding
      expect(Math.abs(w.value - worst)).toBeLessThan(1e-15);
      expect(w.constraint).toBe('rod');
      if (method === 'projection') expect(w.value).toBeLessThan(1e-12);
      else { expect(w.step).toBe(at); expect(w.value).toBeGreaterThan(1e-3); }
    }
  });

  it('keeps the mid-run maximum after the violation has decayed (SPOOK)', () => {
    const sim = pendulum({ method: 'spook', relaxation: 4 }, 1.01);
    sim.steps(200);
    const w = sim.diagnostics.worstViolation;
    // the 1 cm start error has decayed into SPOOK's drift band (about 1e-5 m while it swings)
    expect(Math.abs(lengthError(sim))).toBeLessThan(1e-2 * w.value);
    expect(w.step).toBe(1);
    expect(w.value).toBeGreaterThan(1e-3);
  });

  it('starts empty', () => {
    expect(pendulum({ method: 'spook' }).diagnostics.worstViolation).toEqual({ value: 0, step: -1, constraint: null });
  });

  it('largestViolation gives the violation of the current state, with its constraint, and none without hard rows', () => {
    const sim = pendulum({ method: 'spook' }, 1.01);
    expect(sim.largestViolation()).toEqual({ value: Math.abs(lengthError(sim)), constraint: 'rod' });
    sim.steps(20);
    const v = sim.largestViolation()!;
    expect(Math.abs(v.value - Math.abs(lengthError(sim)))).toBeLessThan(1e-15);
    // the constraint stage's own g is not touched by it
    const g = sim.ws.cs.g.slice();
    sim.largestViolation();
    expect(Array.from(sim.ws.cs.g)).toEqual(Array.from(g));
    // a compliant rod has no hard row
    const b = new ModelAssembler();
    b.addParticle({ name: 'bob', mass: 1, position: [1, 0, 0] });
    b.addConstraint(new DistanceConstraint('spring', b.worldPoint([0, 0, 0]), b.point('bob'), b.initialQ(), { length: 1, compliance: 1e-3 }));
    expect(new Simulation(b.build()).largestViolation()).toBeNull();
  });
});

describe('coordinate singularities', () => {
  it('a gimbal driven through pitch 90° warns once and stays finite', () => {
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    // spin about world y = the gimbal's pitch axis: φ sweeps through π/2
    b.addBody({ name: 'ball', mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], angularVelocity: [0, 2, 0] });
    const q0 = b.initialQ();
    b.addConstraint(Joint.atWorldFrame('gimbal', null, b.componentAt(0) as RigidBody, q0, [0, 0, 0], [1, 0, 0, 0], { type: 'gimbal' }));
    const sim = new Simulation(b.build(), { integrator: 'trapezoidal', step: 1e-3 });
    sim.steps(2000);
    console.log(`gimbal: ${sim.warnings.join(' | ')}`);
    expect(sim.state.q.every(Number.isFinite) && sim.state.u.every(Number.isFinite)).toBe(true);
    expect(sim.warnings.filter((w) => w.includes('"gimbal"'))).toHaveLength(1);
    expect(sim.warnings[0]).toMatch(/coordinate singularity/);
  });
});
