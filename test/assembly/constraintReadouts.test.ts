/**
 * The constraint readouts (src/assembly/constraintReadouts.ts) bring only the body caches of the
 * constraint they read up to date, by comparing those components' positions with the cached ones.
 * These tests write the simulation's state arrays in place, as a user may, and require every
 * readout afterwards to equal the one a new simulation gives at the same state: a readout that
 * trusted a counter bumped by the step (or compared nothing) would return the stale numbers.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { chainOfBodies } from '../../examples/scenes.js';
import type { Model } from '../../src/model/model.js';

// hinges about world y (the frame turns z onto y): the chain swings in the x-z plane
const hingeY: [number, number, number, number] = [Math.SQRT1_2, -Math.SQRT1_2, 0, 0];

function chain(): Model {
  return chainOfBodies(4, { joint: 'hinge', frame: hingeY });
}

type Readout = { coordinates: number[]; rates: number[]; force: number[]; torque: number[] };

function read(sim: Simulation, name: string): Readout {
  const j = sim.joint(name), w = j.reaction;
  return { coordinates: j.coordinates, rates: j.rates, force: w.force, torque: w.torque };
}

/** a new simulation of the model at sim's state and multipliers: its caches have never seen another state */
function reference(model: Model, sim: Simulation): Simulation {
  const ref = new Simulation(model);
  ref.state.q.set(sim.state.q);
  ref.state.u.set(sim.state.u);
  ref.ws.cs.lambda.set(sim.ws.cs.lambda);
  return ref;
}

/** turns link k about world y by angle a about its own origin and moves it by dx along x, in place */
function turnLink(model: Model, q: Float64Array, u: Float64Array, k: number, a: number, dx: number): void {
  const c = model.components[k]!, o = c.qOffset, v = c.uOffset;
  q[o] = q[o]! + dx;
  const w = q[o + 3]!, x = q[o + 4]!, y = q[o + 5]!, z = q[o + 6]!;
  const cw = Math.cos(a / 2), sy = Math.sin(a / 2);
  // (cos a/2, 0, sin a/2, 0) ⋆ q
  q[o + 3] = cw * w - sy * y; q[o + 4] = cw * x + sy * z;
  q[o + 5] = cw * y + sy * w; q[o + 6] = cw * z - sy * x;
  u[v + 4] = u[v + 4]! + 0.7;
}

const names = ['pin', 'j1', 'j2', 'j3'];

describe('constraint readouts after the state is written in place', () => {
  it('see a body moved by writing sim.state.q directly, on every joint of that body', () => {
    const model = chain(), sim = new Simulation(model);
    sim.step(5);
    const before = names.map((n) => read(sim, n));
    // link2 (joints j2 and j3) turned and moved in the state's own arrays
    turnLink(model, sim.state.q, sim.state.u, 2, 0.3, 0.01);
    const after = names.map((n) => read(sim, n));
    const ref = reference(model, sim), want = names.map((n) => read(ref, n));
    expect(after).toEqual(want);
    // the written body's joints changed, the others did not
    for (const i of [2, 3]) {
      expect(after[i]!.coordinates[0]).not.toBe(before[i]!.coordinates[0]);
      expect(after[i]!.rates[0]).not.toBe(before[i]!.rates[0]);
      expect(after[i]!.torque).not.toEqual(before[i]!.torque);
    }
    for (const i of [0, 1]) expect(after[i]).toEqual(before[i]);
  });

  it('see each write, whichever joint is read first and however often', () => {
    const model = chain(), sim = new Simulation(model);
    sim.step(3);
    for (let k = 0; k < 4; k++) {
      // read a joint that does not touch link k, write link k, read again in another order
      names.forEach((n) => read(sim, n));
      turnLink(model, sim.state.q, sim.state.u, k, 0.1 * (k + 1), -0.002 * k);
      const order = k % 2 === 0 ? [...names].reverse() : names;
      const got = new Map(order.map((n) => [n, read(sim, n)]));
      const ref = reference(model, sim);
      for (const n of names) expect(got.get(n), `${n} after writing link${k}`).toEqual(read(ref, n));
    }
  });

  it('see a restored checkpoint', () => {
    const model = chain(), sim = new Simulation(model);
    sim.step(4);
    const cp = sim.checkpoint(), at = names.map((n) => read(sim, n));
    sim.step(20);
    names.forEach((n) => read(sim, n));
    sim.restore(cp);
    // λ belongs to the step after the checkpoint until the next step: compare positions and rates only
    const back = names.map((n) => read(sim, n));
    back.forEach((r, i) => {
      expect(r.coordinates).toEqual(at[i]!.coordinates);
      expect(r.rates).toEqual(at[i]!.rates);
    });
  });

  it('leave the step unchanged: readouts between a write and the next step change no bit of it', () => {
    const model = chain(), a = new Simulation(model), b = new Simulation(model);
    a.step(5); b.step(5);
    for (const s of [a, b]) turnLink(model, s.state.q, s.state.u, 1, 0.05, 0.001);
    // a reads one joint (so its caches hold link1's new pose, link3's old) and steps; b just steps
    read(a, 'j1');
    a.step(3); b.step(3);
    expect(Array.from(a.state.q)).toEqual(Array.from(b.state.q));
    expect(Array.from(a.state.u)).toEqual(Array.from(b.state.u));
  });
});
