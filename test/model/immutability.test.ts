/**
 * The model is immutable after it is built: every force's and constraint's scratch, their pattern
 * slots and the readouts live in each simulation's workspace. Two simulations of one model,
 * stepped alternately and read between steps, give bit-identical results to each stepped alone;
 * a deep-frozen model steps exactly as an unfrozen one and its typed arrays are unchanged by the
 * run (scratch put back on a force or constraint fails here); readouts of two simulations are
 * their own.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Model } from '../../src/model/model.js';
import type { RigidBody } from '../../src/model/model.js';
import { Simulation } from '../../src/simulation.js';
import { Joint, JOINT_PRESETS, type JointType, type JointMask } from '../../src/constraints/joint.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { PathSpring, AxialSpring } from '../../src/forces/pathSpring.js';
import { FrameSpring } from '../../src/forces/frameSpring.js';
import { LinearMaterial } from '../../src/forces/materials.js';
import type { IntegratorName } from '../../src/integrators/names.js';

const CUSTOM: JointMask = { linear: [true, true, false], angular: [false, true, true] };

/**
 * Every joint type (each preset and a custom mask) holding a body of its own, to the world or to
 * another body (among them a weld between two bodies); a compliant hinge and a ball given as a
 * stiffness; two distance constraints (a particle under a body marker, a particle under a world
 * point); an axial spring, a via-point spring with a passive segment and a frame spring; damping
 * on bodies and particles; gravity and the inertial forces. Every body moves and every joint
 * coordinate changes (the slider's body only translates).
 */
function everything(geometricStiffness = false): Model {
  const b = new ModelAssembler();
  b.settings.geometricStiffness = geometricStiffness;
  const types: (JointType | JointMask)[] = [...(Object.keys(JOINT_PRESETS) as JointType[]), CUSTOM];
  // the parent of each joint's body: −1 for the world
  const parent = types.map((t, i) => (t === 'weld' || i % 4 === 3 ? i - 1 : -1));
  types.forEach((_, i) => {
    const s = Math.sin(i + 1), c = Math.cos(i + 1);
    b.addBody({ name: `b${i}`, mass: 1 + 0.1 * i, inertia: [0.02, 0.03, 0.04, 0.001, 0, 0.002], com: [0.05, 0.02 * s, -0.03],
      position: [0.4 * i, 0.1 * s, -0.2 * c], orientation: [1, 0.1 * s, 0.2 * c, 0.05 * i], angularVelocity: [0.3 * c, -0.2, 0.5 * s],
      velocity: [0.1 * s, 0.2, 0], linearDamping: i % 2 === 0 ? 0.1 : 0, angularDamping: i % 3 === 0 ? 0.01 : 0 });
  });
  b.addParticle({ name: 'p0', mass: 0.2, position: [0.1, 0.3, -0.5], damping: 0.05 });
  b.addParticle({ name: 'p1', mass: 0.3, position: [0.9, -0.4, -0.6], velocity: [0.2, 0, 0.1] });
  b.addMarker({ name: 'm0', body: 'b0', location: [0.1, 0.3, 0] });
  b.addMarker({ name: 'm1', body: 'b1', location: [0, 0.05, 0.1] });
  const q0 = b.initialQ(), body = (i: number) => (i < 0 ? null : (b.componentAt(b.componentIndex(`b${i}`)!) as RigidBody));
  types.forEach((type, i) => {
    const s = Math.sin(2 * i + 1), c = Math.cos(2 * i + 1);
    // a tilted joint frame at a corner of the body: gravity drives every free axis
    const soft = type === 'hinge' ? { compliance: 1e-3, damping: 1e-3 } : type === 'ball' ? { stiffness: 2e4, dampingRatio: 0.2 } : {};
    const at: [number, number, number] = [0.4 * i - 0.05, 0.1 * Math.sin(i + 1) + 0.03, -0.2 * Math.cos(i + 1) + 0.04];
    b.addConstraint(Joint.atWorldFrame(`j${i}`, body(parent[i]!), body(i), q0, at, [1, 0.3 * s, 0.2 * c, 0.1], { type, ...soft }));
  });
  b.addConstraint(new DistanceConstraint('d0', b.point('m0'), b.point('p0'), q0));
  b.addConstraint(new DistanceConstraint('d1', b.worldPoint([0.9, -0.4, 0]), b.point('p1'), q0, { compliance: 1e-3 }));
  b.addForce(new AxialSpring('s0', b.point('p0'), b.point('p1'), new LinearMaterial(40, 0.3), 0.5));
  const via = [b.point('m1'), b.bodyPoint('b2', [0, 0.1, 0]), b.point('p1')];
  b.addForce(new PathSpring('path', via, new LinearMaterial(60, 0.2), 0.6, [true, false]));
  b.addFrameSpring('fs', 'b3', 'b4', [1.4, 0, -0.1], [1, 0, 0, 0],
    { translationalStiffness: 300, rotationalStiffness: 5, translationalDamping: 1, rotationalDamping: 0.05 });
  return b.build();
}

/** the model's spring and frame-spring indices among its forces */
function springIndices(model: Model): { springs: number[]; frames: number[] } {
  const springs: number[] = [], frames: number[] = [];
  model.forces.forEach((f, i) => { if (f instanceof PathSpring) springs.push(i); if (f instanceof FrameSpring) frames.push(i); });
  return { springs, frames };
}

/** every readout of a simulation at its state, as one list of numbers */
function readAll(sim: Simulation): number[] {
  const { q, u } = sim.state, cs = sim.ws.cs, fs = sim.ws.fs, model = sim.model, out: number[] = [];
  const buf = new Float64Array(6), force = new Float64Array(3), torque = new Float64Array(3);
  for (let ci = 0; ci < model.constraints.length; ci++) {
    const n = cs.jointCoordinates(ci, q, u, buf);
    out.push(...buf.subarray(0, n));
    cs.jointRates(ci, q, u, buf);
    out.push(...buf.subarray(0, n), cs.isSingular(ci, q, u) ? 1 : 0);
    out.push(...cs.reaction(ci, q, u, cs.lambda, buf));
  }
  const { springs, frames } = springIndices(model);
  for (const i of springs) {
    const r = fs.createSpringReadout(i)!;
    expect(fs.springReadout(i, q, u, r)).toBe(true);
    out.push(r.length, r.rate, r.tension, ...r.segments);
  }
  for (const i of frames) {
    expect(fs.frameSpringReadout(i, q, u, { force, torque })).toBe(true);
    out.push(...force, ...torque);
  }
  out.push(sim.energy().total);
  return out;
}

const bits = (a: ArrayLike<number>) => Array.from(a);

describe('two simulations of one model', () => {
  const cases: [IntegratorName, boolean][] = [['implicit-euler', false], ['implicit-euler', true], ['trapezoidal', true],
    ['bridson-marino', false], ['rk4', false], ['symplectic-euler', false]];
  for (const [integrator, gs] of cases) {
    it(`stepped alternately and read between steps, each is bit-identical to a run alone (${integrator}${gs ? ', geometric stiffness' : ''})`, () => {
      const model = everything(gs), h = 0.004, other: IntegratorName = integrator === 'rk4' ? 'implicit-euler' : 'rk4';
      const alone = new Simulation(model, { integrator, step: h });
      const aloneOther = new Simulation(model, { integrator: other, step: 0.5 * h });
      const readAlone: number[][] = [];
      for (let i = 0; i < 60; i++) { alone.step(); aloneOther.step(); if (i % 20 === 19) readAlone.push(readAll(alone)); }
      // a and b alternate, and each reads everything after every step
      const a = new Simulation(model, { integrator, step: h }), b = new Simulation(model, { integrator: other, step: 0.5 * h });
      const readA: number[][] = [];
      for (let i = 0; i < 60; i++) {
        a.step();
        const ra = readAll(a);
        b.step();
        readAll(b);
        if (i % 20 === 19) readA.push(ra);
      }
      expect(bits(a.state.q)).toEqual(bits(alone.state.q));
      expect(bits(a.state.u)).toEqual(bits(alone.state.u));
      expect(bits(a.ws.cs.lambda)).toEqual(bits(alone.ws.cs.lambda));
      expect(bits(b.state.q)).toEqual(bits(aloneOther.state.q));
      expect(readA).toEqual(readAlone);
      // the scene moves: the two runs are apart, every body has moved
      expect(bits(a.state.q)).not.toEqual(bits(b.state.q));
      const pose = (q: Float64Array, o: number) => bits(q.subarray(o, o + 7));
      for (const c of model.bodies) expect(pose(a.state.q, c.qOffset)).not.toEqual(pose(model.initialQ, c.qOffset));
    });
  }

  it('a second model over the same components, forces and constraints steps beside the first exactly as alone', () => {
    const a = everything(true);
    const b = new Model({ components: [...a.components], markers: [...a.markers], forces: [...a.forces], settings: a.settings,
      nq: a.nq, nu: a.nu, q0: a.initialQ, u0: a.initialU, constraints: [...a.constraints] });
    const alone = new Simulation(a, { step: 0.004 });
    alone.steps(40);
    const s1 = new Simulation(a, { step: 0.004 }), s2 = new Simulation(b, { step: 0.004, integrator: 'trapezoidal' });
    for (let i = 0; i < 40; i++) { s2.step(); s1.step(); }
    expect(bits(s1.state.q)).toEqual(bits(alone.state.q));
    expect(bits(s1.state.u)).toEqual(bits(alone.state.u));
  });
});

describe('readouts belong to the simulation', () => {
  it('two simulations at different states read their own numbers, whichever read last', () => {
    const model = everything();
    const a = new Simulation(model, { step: 0.004 }), b = new Simulation(model, { step: 0.004 });
    a.steps(30);
    b.steps(10);
    const ra = readAll(a), rb = readAll(b), ra2 = readAll(a);
    expect(ra2).toEqual(ra);
    expect(ra.length).toBe(rb.length);
    // every spring's length and tension, every frame spring's wrench and every joint's
    // coordinates differ between the two
    const fs = a.ws.fs, { springs, frames } = springIndices(model);
    for (const i of springs) {
      const x = fs.createSpringReadout(i)!, y = b.ws.fs.createSpringReadout(i)!;
      a.ws.fs.springReadout(i, a.state.q, a.state.u, x);
      b.ws.fs.springReadout(i, b.state.q, b.state.u, y);
      expect(x.length).not.toBe(y.length);
      expect(x.tension).not.toBe(y.tension);
      expect(x.segments.length).toBe((model.forces[i] as PathSpring).n);
    }
    for (const i of frames) {
      const x = { force: new Float64Array(3), torque: new Float64Array(3) }, y = { force: new Float64Array(3), torque: new Float64Array(3) };
      a.ws.fs.frameSpringReadout(i, a.state.q, a.state.u, x);
      b.ws.fs.frameSpringReadout(i, b.state.q, b.state.u, y);
      expect(bits(x.force)).not.toEqual(bits(y.force));
    }
    const ca = new Float64Array(6), cb = new Float64Array(6);
    model.constraints.forEach((_, ci) => {
      const n = a.ws.cs.jointCoordinates(ci, a.state.q, a.state.u, ca);
      b.ws.cs.jointCoordinates(ci, b.state.q, b.state.u, cb);
      if (n > 0) expect(bits(ca.subarray(0, n))).not.toEqual(bits(cb.subarray(0, n)));
    });
  });

  it('a readout of a force that is not of its kind is false and leaves out as it was', () => {
    const model = everything(), sim = new Simulation(model), { springs, frames } = springIndices(model);
    const r = { length: -1, rate: -1, tension: -1, segments: new Float64Array(2).fill(-1) };
    const w = { force: new Float64Array(3).fill(-1), torque: new Float64Array(3).fill(-1) };
    expect(sim.ws.fs.springReadout(frames[0]!, sim.state.q, sim.state.u, r)).toBe(false);
    expect(sim.ws.fs.frameSpringReadout(springs[0]!, sim.state.q, sim.state.u, w)).toBe(false);
    expect(sim.ws.fs.createSpringReadout(frames[0]!)).toBeNull();
    expect([r.length, r.rate, r.tension, ...r.segments, ...w.force, ...w.torque].every((x) => x === -1)).toBe(true);
    // a distance constraint has no coordinates
    const d = model.constraints.findIndex((c) => c instanceof DistanceConstraint), c = new Float64Array(3).fill(-1);
    expect(sim.ws.cs.jointCoordinates(d, sim.state.q, sim.state.u, c)).toBe(0);
    expect(sim.ws.cs.jointRates(d, sim.state.q, sim.state.u, c)).toBe(0);
    expect(bits(c)).toEqual([-1, -1, -1]);
  });
});

/** freezes every object and array reachable from `root` (typed arrays cannot be frozen: returned instead) */
function deepFreeze(root: unknown): ArrayBufferView[] {
  const seen = new Set<unknown>(), typed: ArrayBufferView[] = [];
  const visit = (x: unknown): void => {
    if (x === null || (typeof x !== 'object' && typeof x !== 'function') || seen.has(x)) return;
    seen.add(x);
    if (ArrayBuffer.isView(x)) { typed.push(x); return; }
    for (const key of Reflect.ownKeys(x as object)) {
      const d = Object.getOwnPropertyDescriptor(x, key);
      if (d && 'value' in d) visit(d.value);
    }
    Object.freeze(x);
  };
  visit(root);
  return typed;
}

describe('a frozen model', () => {
  for (const integrator of ['implicit-euler', 'trapezoidal', 'rk4'] as IntegratorName[]) {
    it(`steps bit for bit as an unfrozen one, and no typed array of it changes (${integrator})`, () => {
      const frozen = everything(integrator !== 'rk4'), plain = everything(integrator !== 'rk4');
      const typed = deepFreeze(frozen);
      expect(Object.isFrozen(frozen.forces[0])).toBe(true);
      expect(Object.isFrozen(frozen.constraints[0])).toBe(true);
      expect(Object.isFrozen(frozen.components[0])).toBe(true);
      // the frames, compliances, inertias, points…: what a run must never write
      expect(typed.length).toBeGreaterThan(50);
      const before = typed.map((t) => new Uint8Array(t.buffer, t.byteOffset, t.byteLength).slice());
      const a = new Simulation(frozen, { integrator, step: 0.004 }), b = new Simulation(plain, { integrator, step: 0.004 });
      const c = new Simulation(frozen, { integrator, step: 0.004 });
      for (let i = 0; i < 40; i++) {
        a.step(); c.step(); b.step();
        expect(readAll(a)).toEqual(readAll(b));
      }
      expect(bits(a.state.q)).toEqual(bits(b.state.q));
      expect(bits(c.state.q)).toEqual(bits(b.state.q));
      typed.forEach((t, k) => expect(new Uint8Array(t.buffer, t.byteOffset, t.byteLength)).toEqual(before[k]));
    });
  }
});
