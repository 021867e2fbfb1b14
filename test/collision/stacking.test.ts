/**
 * Box contacts in the whole step (docs/theory.md §17): a box resting on a box keeps the same four
 * contact points (feature ids) step after step; a stack of ten boxes stands; a fast small sphere
 * meets a thin plate through the speculative margin instead of passing through it.
 */
import { describe, it, expect } from 'vitest';
import { parseModel } from '../../src/io/loader.js';
import { Simulation } from '../../src/simulation.js';

const g = 9.81;

/** n unit cubes of 1 kg stacked on a fixed ground box, each resting on the one below */
function stack(n: number, gap = 0): Simulation {
  const bodies = Array.from({ length: n }, (_, i) => ({
    name: `b${i}`, mass: 1, shape: { type: 'box', size: [1, 1, 1], friction: 0.5 },
    position: [0, 0, 0.5 + i * (1 + gap)],
  }));
  return new Simulation(parseModel({
    version: 1, step: 1 / 60, gravity: [0, 0, -g], bodies,
    world: { shapes: [{ type: 'box', size: [4, 4, 1], position: [0, 0, -0.5], friction: 0.5 }] },
  }));
}

/** the contact keys "featureA/featureB" between two named shapes */
function keys(sim: Simulation, a: string, b: string): string[] {
  return sim.contacts().filter((c) => c.shapeA === a && c.shapeB === b).map((c) => `${c.featureA}/${c.featureB}`);
}

describe('a box resting on a box', () => {
  it('keeps four contact points with the same feature ids for 1000 steps', () => {
    const sim = stack(1);
    sim.step();
    const first = keys(sim, 'world.shapes[0]', 'body:b0');
    expect(first).toHaveLength(4);
    for (let k = 0; k < 1000; k++) {
      sim.step();
      expect(keys(sim, 'world.shapes[0]', 'body:b0')).toEqual(first);
    }
    // and it stays where it was put, to 1e-6 m
    const p = sim.body('b0').position;
    expect(Math.hypot(p[0], p[1], p[2] - 0.5)).toBeLessThan(1e-6);
  });
});

describe('a stack of ten boxes', () => {
  it('stands for 10 s with the top box moving less than 1 mm', () => {
    const sim = stack(10, 0.001), top = sim.body('b9');
    sim.run(0.5);
    const p0 = [...top.position];
    sim.run(10);
    const p = top.position;
    expect(Math.hypot(p[0] - p0[0]!, p[1] - p0[1]!, p[2] - p0[2]!)).toBeLessThan(1e-3);
  });
});

describe('tunnelling', () => {
  it('a 1 cm sphere at 100 m/s does not cross a 5 cm plate at h = 1/60', () => {
    const r = 0.01, sim = new Simulation(parseModel({
      version: 1, step: 1 / 60, gravity: [0, 0, 0],
      bodies: [{ name: 'ball', density: 1000, shape: { type: 'sphere', radius: r, friction: 0 },
        position: [0.3, -0.2, 0.9], velocity: [0, 0, -100] }],
      world: { shapes: [{ type: 'box', size: [2, 2, 0.05], position: [0, 0, -0.025], friction: 0 }] },
    }));
    for (let k = 0; k < 60; k++) {
      sim.step();
      expect(sim.body('ball').position[2]).toBeGreaterThan(r - 1e-6);
    }
  });
});
