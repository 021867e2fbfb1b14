/**
 * The public Simulation: handles by name, loads, warnings as events, runs with progress, and
 * checkpoints that carry the loads. Values are checked against mechanics, not just read.
 */
import { describe, it, expect } from 'vitest';
import { ModelBuilder, Simulation, ModelError, type SimulationWarning } from '../../src/index.js';

const pendulum = () => new ModelBuilder({ gravity: [0, 0, -9.81], step: 0.001, integrator: 'trapezoidal' })
  .addBody({ name: 'bar', shape: { type: 'box', size: [1, 0.05, 0.05] }, density: 1000, position: [0.5, 0, 0] })
  .addJoint({ type: 'hinge', name: 'pivot', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0] })
  .build();

describe('Simulation handles', () => {
  it('reads a body and its hinge consistently: the angle, the rate and the tip speed', () => {
    const sim = new Simulation(pendulum());
    sim.run(0.3);
    const bar = sim.body('bar'), pivot = sim.joint('pivot');
    expect(pivot.coordinateNames).toEqual(['rz']);
    const [angle] = pivot.coordinates, [rate] = pivot.rates;
    // the bar's centre (its frame origin) stays 0.5 m from the pivot; its tip, 1 m out, is
    // lowered by sin(angle) as the bar turns about y
    expect(Math.hypot(...bar.position)).toBeCloseTo(0.5, 9);
    const tip = bar.worldPoint([0.5, 0, 0]);
    expect(Math.hypot(...tip)).toBeCloseTo(1, 9);
    expect(Math.abs(tip[2])).toBeCloseTo(Math.abs(Math.sin(angle!)), 9);
    // the tip moves at |rate| × 1 m, and |ω| is |rate|
    expect(Math.hypot(...bar.pointVelocity(tip))).toBeCloseTo(Math.abs(rate!), 9);
    expect(Math.hypot(...bar.angularVelocity)).toBeCloseTo(Math.abs(rate!), 9);
  });

  it('gives the hinge reaction that balances gravity on a bar at rest', () => {
    const model = new ModelBuilder({ gravity: [0, 0, -9.81], step: 0.01 })
      .addBody({ name: 'bar', shape: { type: 'box', size: [0.05, 0.05, 1] }, density: 1000, position: [0, 0, -0.5] })
      .addJoint({ type: 'hinge', name: 'pivot', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0] })
      .build();
    const sim = new Simulation(model);
    sim.step(10);
    const m = sim.body('bar').mass, { force, torque } = sim.joint('pivot').reaction;
    // on side A (the world): the bar hangs on it, pulling down with m g
    expect(force[2]).toBeCloseTo(-m * 9.81, 6);
    expect(Math.hypot(force[0], force[1], ...torque)).toBeLessThan(1e-6);
  });

  it('applies a held force at a point: a free body gains the momentum and the angular momentum', () => {
    const model = new ModelBuilder({ gravity: [0, 0, 0], step: 0.01, integrator: 'symplectic-euler' })
      .addBody({ name: 'ball', shape: { type: 'sphere', radius: 0.1 }, density: 1000 }).build();
    const sim = new Simulation(model), ball = sim.body('ball');
    ball.applyForce([0, 2, 0], [0.1, 0, 0]);
    sim.step(50);
    const m = ball.mass, I = 0.4 * m * 0.01;
    // Δp = F t; the lever [0.1, 0, 0] × [0, 2, 0] = [0, 0, 0.2] N·m gives Δ(Iω) = τ t
    expect(ball.velocity[1] * m).toBeCloseTo(2 * 0.5, 10);
    expect(ball.angularVelocity[2] * I).toBeCloseTo(0.2 * 0.5, 10);
    // held until cleared
    expect(ball.load.force).toEqual([0, 2, 0]);
    ball.clearLoads();
    const v = ball.velocity[1];
    sim.step(10);
    expect(ball.velocity[1]).toBe(v);
  });

  it('applies a torque to a particle-free model and rejects loads on a fixed body', () => {
    const model = new ModelBuilder({ gravity: [0, 0, 0] })
      .addBody({ name: 'wheel', shape: { type: 'cylinder', radius: 0.2, length: 0.05 }, density: 500 })
      .addBody({ name: 'ground', shape: { type: 'box', size: [1, 1, 1] }, mass: 1, dynamic: false, position: [0, 0, -5] }).build();
    const sim = new Simulation(model);
    sim.body('wheel').applyTorque([0, 0, 1]);
    sim.run(1);
    const m = sim.body('wheel').mass, Izz = 0.5 * m * 0.04;
    expect(sim.body('wheel').angularVelocity[2]).toBeCloseTo(1 / Izz, 8);
    expect(() => sim.body('ground').applyForce([1, 0, 0])).toThrow('body "ground".applyForce: body "ground" is not dynamic');
    expect(() => sim.body('wheel').applyForce([1, Number.NaN, 0])).toThrow('body "wheel".applyForce(f): expected three finite numbers [x, y, z], got [1, NaN, 0]');
  });

  it('names what is missing when a name is wrong', () => {
    const sim = new Simulation(pendulum());
    expect(() => sim.body('arm')).toThrow(ModelError);
    expect(() => sim.body('arm')).toThrow('body("arm"): no body named "arm" (bodies: "bar")');
    expect(() => sim.joint('knee')).toThrow('joint("knee"): no joint named "knee" (joints: "pivot")');
    expect(() => sim.force('s')).toThrow('force("s"): no force named "s" (the model has no force)');
  });

  it('reads a via-point spring\'s length, segments, rate and tension', () => {
    const model = new ModelBuilder({ gravity: [0, 0, 0], step: 0.001 })
      .addParticle({ name: 'a', mass: 1, position: [0, 0, 0], dynamic: false })
      .addParticle({ name: 'v', mass: 1, position: [1, 1, 0], dynamic: false })
      .addParticle({ name: 'b', mass: 1, position: [2, 0, 0], velocity: [1, 0, 0] })
      .addForce({ type: 'multipoint-spring', name: 'm', points: ['a', 'v', 'b'], stiffness: 100, damping: 2, restLength: 2 })
      .build();
    const spring = new Simulation(model).force('m');
    const l = Math.SQRT2, rate = Math.SQRT1_2; // the second segment lengthens at v·u = 1/√2
    expect(spring.segments).toEqual([l, l].map((x) => expect.closeTo(x, 14)));
    expect(spring.length).toBeCloseTo(2 * l, 14);
    expect(spring.rate).toBeCloseTo(rate, 14);
    expect(spring.tension).toBeCloseTo(100 * (2 * l - 2) + 2 * rate, 12);
  });
});

describe('Simulation runs', () => {
  it('steps n at a time and runs for a duration, with progress that can stop it', () => {
    const sim = new Simulation(pendulum());
    sim.step(5);
    expect(sim.stepCount).toBe(5);
    const seen: number[] = [];
    const r = sim.run(0.1, { onProgress: (p) => { seen.push(p.step); return p.step < 50; } });
    expect(r).toEqual({ steps: 50, stopped: true });
    expect(seen[seen.length - 1]).toBe(50);
    expect(sim.time).toBeCloseTo(0.055, 12);
    expect(() => sim.run(1e308)).toThrow('run(duration) / step: 1e+308 s / 0.001 s = Infinity steps, more than the cap of 1e8 (raise it with options.maxSteps)');
    expect(() => sim.run(1e6)).toThrow('= 1e9 steps, more than the cap of 1e8');
    expect(sim.run(0.002, { maxSteps: 2 }).steps).toBe(2);
    expect(() => sim.step(-1)).toThrow(ModelError);
  });

  it('rejects unknown and wrong options instead of ignoring them', () => {
    expect(() => new Simulation(pendulum(), { h: 0.5 } as never)).toThrow('options.h: unknown field "h"');
    expect(() => new Simulation(pendulum(), { integrator: 'euler' as never })).toThrow(/^options\.integrator: /);
    expect(() => new Simulation(pendulum(), { step: 0 })).toThrow(/^options\.step: /);
  });

  it('restores a checkpoint bit for bit, loads included', () => {
    const sim = new Simulation(pendulum());
    sim.body('bar').applyTorque([0, 0.5, 0]);
    sim.step(20);
    const cp = sim.checkpoint();
    sim.step(30);
    const q = Array.from(sim.state.q);
    sim.clearLoads();
    sim.restore(cp);
    sim.step(30);
    expect(Array.from(sim.state.q)).toEqual(q);
  });

  it('keeps two simulations of one model apart: state, loads and readouts', () => {
    const model = pendulum();
    const a = new Simulation(model), b = new Simulation(model);
    a.body('bar').applyTorque([0, 1, 0]);
    a.step(100); b.step(100);
    expect(b.body('bar').load.torque).toEqual([0, 0, 0]);
    expect(a.joint('pivot').coordinates[0]).not.toBe(b.joint('pivot').coordinates[0]);
    const alone = new Simulation(model);
    alone.step(100);
    expect(b.joint('pivot').coordinates).toEqual(alone.joint('pivot').coordinates);
  });

  it('raises warnings as events with their kind, and keeps the list', () => {
    // a hinge given one frame per body that do not meet: an initial violation, then a redundant pair
    const model = new ModelBuilder({ gravity: [0, 0, -9.81] })
      .addBody({ name: 'bar', shape: { type: 'box', size: [1, 0.05, 0.05] }, density: 1000, position: [0.5, 0, 0] })
      .addJoint({ type: 'hinge', name: 'h1', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0] })
      .addJoint({ type: 'hinge', name: 'h2', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0] })
      .build();
    const sim = new Simulation(model), heard: SimulationWarning[] = [];
    sim.on('warning', (w) => heard.push(w));
    sim.step(3);
    expect(heard.map((w) => w.kind)).toContain('redundancy');
    expect(sim.warnings).toEqual(sim.warningLog.map((w) => w.message));
    expect(heard[0]!.step).toBeGreaterThanOrEqual(0);
  });
});

describe('Simulation API details', () => {
  it('sets a body\'s pose and velocities through its handle, and the energy watch takes the new state', () => {
    const sim = new Simulation(pendulum());
    sim.step(10);
    const bar = sim.body('bar');
    // a kick of 20 rad/s about the hinge axis: a large energy change, not an instability
    bar.setAngularVelocity([0, 20, 0]).setVelocity([0, 0, -10]);
    sim.step(100);
    expect(sim.warningLog.filter((w) => w.kind === 'instability')).toEqual([]);
    bar.setPosition([0.5, 0, 0]).setOrientation([2, 0, 0, 0]);
    expect(bar.orientation).toEqual([1, 0, 0, 0]);
    expect(() => bar.setOrientation([0, 0, 0, 0])).toThrow('body "bar".setOrientation(q): expected a non-zero quaternion');
  });

  it('runs for the model\'s duration by default, and checks run options', () => {
    const model = new ModelBuilder({ step: 0.01, duration: 0.05 })
      .addParticle({ name: 'p', mass: 1, position: [0, 0, 0] }).build();
    const sim = new Simulation(model);
    expect(sim.run()).toEqual({ steps: 5, stopped: false });
    expect(() => sim.run(1, { onprogress: () => undefined } as never)).toThrow('run(options).onprogress: unknown field "onprogress"');
    expect(() => sim.run(1, { onProgress: 5 } as never)).toThrow(/^run\(options\)\.onProgress: /);
    expect(() => new Simulation(pendulum()).run()).toThrow('run(duration): give a duration in seconds: the model has none');
  });

  it('lists names, and rejects what is not a Model', () => {
    const model = new ModelBuilder({ gravity: [0, 0, 0] })
      .addParticle({ name: 'a', mass: 1, position: [0, 0, 0], dynamic: false })
      .addParticle({ name: 'b', mass: 1, position: [1, 0, 0] })
      .addForce({ type: 'axial-spring', name: 's', points: ['a', 'b'], stiffness: 10, restLength: 0.5 })
      .addJoint({ type: 'distance', name: 'd', points: ['a', 'b'] })
      .build();
    expect(model.forceNames).toEqual(['s']);
    expect(model.jointNames).toEqual(['d']);
    const sim = new Simulation(model, { step: 0.002 });
    expect(sim.timestep).toBe(0.002);
    expect(sim.force('s').readout()).toEqual({ length: 1, rate: 0, tension: 5, segments: [1] });
    expect(() => sim.particle('a').setVelocity([1, 0, 0])).toThrow('particle "a".setVelocity(v): a non-dynamic component stays where it is');
    expect(() => sim.particle('a').applyForce([1, 0, 0])).toThrow('particle "a".applyForce: particle "a" is not dynamic');
    expect(sim.particle('b').setPosition([2, 0, 0]).applyForce([0, 0, 3]).position).toEqual([2, 0, 0]);
    expect(sim.particle('b').load).toEqual([0, 0, 3]);
    expect(() => new Simulation({ version: 1 } as never)).toThrow('new Simulation(model): expected a Model');
    expect(() => sim.step(1.5)).toThrow('step(n): n must be a whole number ≥ 0 (got 1.5)');
    expect(() => sim.steps(-3)).toThrow('steps(n): n must be a whole number ≥ 0 (got -3)');
  });
});
