/**
 * Never a silent blow-up: the explicit schemes' stability limit is estimated before a run, an
 * energy that grows beyond what the loads supply is warned of, one that grows a hundredfold past
 * the model's energy scale fails the step, and a symmetric step matrix that is not quasi-definite
 * fails it too. Each case names the step and the component.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { ModelBuilder, Simulation, parseModel, DivergenceError } from '../../src/index.js';
import { highestFrequency } from '../../src/report/stability.js';

const example = (f: string) => parseModel(readFileSync(new URL(`../../examples/${f}`, import.meta.url), 'utf8'));

/** a particle on a spring of stiffness k to a world point: ω = √(k/m) */
const oscillator = (k: number, m = 2, integrator: 'symplectic-euler' | 'rk4' | 'implicit-euler' = 'symplectic-euler', step = 0.01) =>
  new ModelBuilder({ gravity: [0, 0, 0], integrator, step })
    .addParticle({ name: 'p', mass: m, position: [1.1, 0, 0] })
    .addForce({ type: 'axial-spring', name: 's', points: [['world', [0, 0, 0]], 'p'], stiffness: k, restLength: 1 })
    .build();

describe('the explicit stability limit', () => {
  it('estimates ω_max = √(k/m) of an oscillator', () => {
    const sim = new Simulation(oscillator(800));
    const f = highestFrequency(sim.model, sim.ws, sim.state.q, sim.state.u);
    // the spring is stretched: its transverse stiffness F/l adds a second, lower frequency
    expect(f!.omega).toBeCloseTo(20, 9);
    expect(f!.component).toBe('particle "p"');
  });

  it('warns when h·ω_max passes 2 (symplectic Euler) or 2√2 (RK4), with the largest stable step', () => {
    // ω = 20 rad/s: h = 0.01 is within both limits, h = 0.12 past symplectic Euler's, 0.15 past RK4's
    expect(new Simulation(oscillator(800)).warnings).toEqual([]);
    const se = new Simulation(oscillator(800), { step: 0.12 });
    expect(se.warningLog.map((w) => w.kind)).toEqual(['stability-limit']);
    expect(se.warnings[0]).toContain('the largest stable step is about 0.10 s');
    expect(new Simulation(oscillator(800), { step: 0.12, integrator: 'rk4' }).warnings).toEqual([]);
    expect(new Simulation(oscillator(800), { step: 0.15, integrator: 'rk4' }).warningLog.map((w) => w.kind)).toEqual(['stability-limit']);
    // implicit schemes have no such limit
    expect(new Simulation(oscillator(800), { step: 1, integrator: 'implicit-euler' }).warnings).toEqual([]);
  });
});

describe('the energy watch', () => {
  it('fails the step when the energy passes 100 times the model\'s scale: the cloth at h = 1 s, symplectic Euler', () => {
    const sim = new Simulation(example('cloth.json'), { integrator: 'symplectic-euler', step: 1 });
    let error: unknown = null;
    try { sim.run(5); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(DivergenceError);
    expect((error as DivergenceError).message).toMatch(/^diverged at step 1 \(t = 1\.00000 s\): particle "p\d+_\d+": blew up: the energy grew from 6\.445e-20 J to 1\.174e\+6 J, 5\.06e\+4 times/);
    // the state is the last good one: finite, the initial one
    expect(sim.stepCount).toBe(0);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
  });

  it('warns when the energy grows past the scale: the arm at h = 1 s under implicit Euler', () => {
    const sim = new Simulation(example('arm.json'), { integrator: 'implicit-euler', step: 1 });
    sim.step(3);
    const w = sim.warningLog.filter((x) => x.kind === 'instability');
    expect(w).toHaveLength(1);
    expect(w[0]!.message).toMatch(/^step 1: instability: the energy grew from 0\.000 J to \d/);
    // at its own step the arm keeps its energy bounded: no warning
    const ok = new Simulation(example('arm.json'));
    ok.run(3);
    expect(ok.warnings).toEqual([]);
  });

  it('counts the work of external loads: a pushed body gains energy without a warning', () => {
    const model = new ModelBuilder({ gravity: [0, 0, 0], step: 0.01 })
      .addBody({ name: 'b', shape: { type: 'sphere', radius: 0.1 }, density: 1000 }).build();
    const sim = new Simulation(model);
    sim.body('b').applyForce([100, 0, 0]);
    sim.run(2);
    // ½ m v² with v = F t / m: far past the scale of a body at rest, all of it from the load
    expect(sim.energy().kinetic).toBeGreaterThan(1e3);
    expect(sim.warnings).toEqual([]);
  });
});

describe('the inertia check', () => {
  it('fails an implicit step whose symmetric step matrix is not positive definite, naming the particle', () => {
    // a spring compressed to half its rest length pushes with F = −1000 N: its transverse
    // stiffness |F|/l = 1000 N/m makes M − h²K indefinite at h = 0.1 s (h²|F|/l = 10 > m = 1)
    const model = new ModelBuilder({ gravity: [0, 0, 0], step: 0.1 })
      .addParticle({ name: 'p', mass: 1, position: [1, 0, 0] })
      .addForce({ type: 'axial-spring', name: 's', points: [['world', [0, 0, 0]], 'p'], stiffness: 1000, restLength: 2 })
      .build();
    const sim = new Simulation(model);
    expect(() => sim.step()).toThrow(/^diverged at step 1 \(t = 0\.100000 s\): particle "p": the step matrix is not positive definite at this component \(LDLᵀ inertia is \(1 positive, 2 negative\), expected \(3, 0\)/);
    expect(sim.stepCount).toBe(0);
    // at h = 0.01 s, h²|F|/l = 0.1: definite, and the step is taken
    new Simulation(model, { step: 0.01 }).step();
  });
});

describe('no false alarms', () => {
  it('Baumgarte closing an initial violation adds energy without an instability', () => {
    // a particle at rest 2 m out on a 1 m distance joint, no gravity: the stabilization pulls it in
    for (const method of ['baumgarte', 'spook'] as const) {
      const sim = new Simulation(parseModel({
        version: 1, gravity: [0, 0, 0], stabilization: { method },
        particles: [{ name: 'p', mass: 1, position: [2, 0, 0] }],
        joints: [{ type: 'distance', name: 'd', points: [['world', [0, 0, 0]], 'p'], length: 1 }],
      }));
      sim.run(2);
      expect(sim.warningLog.map((w) => w.kind)).toEqual(['initial-violation']);
    }
  });

  it('warns of a damper too fast for symplectic Euler (rate c/m past 2/h)', () => {
    const damped = (c: number) => new ModelBuilder({ gravity: [0, 0, 0], integrator: 'symplectic-euler', step: 0.01 })
      .addParticle({ name: 'p', mass: 1, position: [0, 0, 0], velocity: [1, 0, 0], damping: c }).build();
    expect(new Simulation(damped(100)).warnings).toEqual([]);
    const fast = new Simulation(damped(1000));
    expect(fast.warnings[0]).toMatch(/^t = 0: the step h = 0\.0100 s exceeds symplectic-euler's stability limit h·ω < 2\.00 on the model's most damped mode \(rate 1\.00e\+3 1\/s, mostly particle "p"\)/);
  });
});
