/**
 * The stiff cloth (examples/scenes.ts): implicit Euler at h = 10 ms stays finite and loses
 * energy monotonically, while symplectic Euler at the same step diverges, and that divergence
 * is reported as a DivergenceError naming the step and a component.
 */
import { describe, it, expect } from 'vitest';
import { clothModel } from '../../examples/scenes.js';
import { Simulation } from '../../src/simulation.js';
import { DivergenceError } from '../../src/model/errors.js';

describe('stiff cloth at h = 10 ms', () => {
  it('implicit Euler: finite, energy non-increasing at every step over 3 s', () => {
    const sim = new Simulation(clothModel({ n: 12, stiffness: 5000 }), { integrator: 'implicit-euler', step: 0.01 });
    let E = sim.energy().total;
    const E0 = E;
    let maxRise = 0;
    sim.steps(300, (s) => {
      const e = s.energy().total;
      maxRise = Math.max(maxRise, e - E);
      E = e;
    });
    console.log(`cloth IE: E0 ${E0.toFixed(4)} J, E(3 s) ${E.toFixed(4)} J, largest per-step rise ${maxRise.toExponential(2)} J, diagnostics ${JSON.stringify(sim.diagnostics)}`);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
    expect(maxRise).toBeLessThanOrEqual(0);
    expect(E).toBeLessThan(E0);
    // the cloth has fallen and hangs below the pinned edge
    let zmin = 0;
    for (let i = 2; i < sim.state.q.length; i += 3) zmin = Math.min(zmin, sim.state.q[i]!);
    expect(zmin).toBeLessThan(-0.5);
  });

  // regression: the refinement once discarded the non-finite correction and froze the state at 1e156
  it('symplectic Euler at the same step diverges and says where (no frozen non-finite solve)', () => {
    const sim = new Simulation(clothModel({ n: 12, stiffness: 5000 }), { integrator: 'symplectic-euler', step: 0.01 });
    let err: unknown = null;
    try { sim.steps(300); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DivergenceError);
    const d = err as DivergenceError;
    console.log(`cloth SE: ${d.message}`);
    expect(d.step).toBeGreaterThan(0);
    expect(d.message).toMatch(/diverged at step \d+ .*particle "p\d+_\d+"/);
    // the simulation keeps the last good state
    expect(sim.state.step).toBe(d.step - 1);
    expect(sim.state.q.every(Number.isFinite) && sim.state.u.every(Number.isFinite)).toBe(true);
  });
});
