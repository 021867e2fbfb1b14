/**
 * Divergence reporting: a non-finite force, stiffness or state stops the step with a
 * DivergenceError naming the step and the component, and the simulation keeps the last good state.
 */
import { describe, it, expect } from 'vitest';
import { ModelBuilder } from '../src/model/builder.js';
import { Simulation } from '../src/simulation.js';
import { AxialSpring } from '../src/forces/pathSpring.js';
import { LinearMaterial, type AxialMaterial } from '../src/forces/materials.js';
import { DivergenceError } from '../src/model/errors.js';

/** a linear material whose stiffness turns NaN beyond a length */
class BrokenMaterial implements AxialMaterial {
  readonly kind = 'broken';
  evaluate(out: Float64Array, l: number, ldot: number, r: number): void {
    out[0] = 50 * (l - r); out[1] = l > 0.55 ? NaN : 50; out[2] = 0;
    void ldot;
  }
  energy(l: number, r: number): number { return 25 * (l - r) ** 2; }
}

function model(material: AxialMaterial) {
  const b = new ModelBuilder();
  b.addParticle({ name: 'anchor', mass: 1, position: [0, 0, 0], dynamic: false });
  b.addParticle({ name: 'bob', mass: 1, position: [0.5, 0, 0] });
  b.addForce(new AxialSpring('s', b.point('anchor'), b.point('bob'), material, 0.5));
  return b.build();
}

describe('divergence reporting', () => {
  // regression: a failed LDLᵀ pivot escaped as a plain Error without step or component
  it('a non-finite stiffness names the step and the component, and keeps the last good state', () => {
    const sim = new Simulation(model(new BrokenMaterial()), { integrator: 'implicit-euler', step: 0.01 });
    let err: unknown = null, good: Float64Array | null = null;
    try {
      for (let i = 0; i < 1000; i++) { good = sim.state.q.slice(); sim.step(); }
    } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DivergenceError);
    const d = err as DivergenceError;
    expect(d.component).toBe('particle "bob"');
    expect(d.message).toMatch(/^diverged at step \d+ .*particle "bob": its stiffness or damping became non-finite/);
    expect(d.step).toBe(sim.state.step + 1);
    expect(Array.from(sim.state.q)).toEqual(Array.from(good!));
  });

  // regression (review): Bridson-Marino never uses K, but the step matrix was formed with 0·K,
  // and 0·NaN = NaN stopped it on a stiffness it does not need
  it('Bridson-Marino and symplectic Euler run past a non-finite stiffness they do not use', () => {
    for (const integrator of ['bridson-marino', 'symplectic-euler'] as const) {
      const sim = new Simulation(model(new BrokenMaterial()), { integrator, step: 0.01 });
      sim.steps(1000);
      expect(sim.state.q.every(Number.isFinite)).toBe(true);
    }
  });

  it('a healthy model runs without diagnostics', () => {
    const sim = new Simulation(model(new LinearMaterial(50, 0.1)), { integrator: 'implicit-euler', step: 0.01 });
    sim.steps(100);
    expect(sim.diagnostics).toEqual({ maxResidual: sim.diagnostics.maxResidual, unconverged: 0, inertiaWarnings: 0, lastInertia: null, projectionUnconverged: 0, geometricFallbacks: 0,
      worstViolation: { value: 0, step: -1, constraint: null } });
    expect(sim.diagnostics.maxResidual).toBeLessThan(1e-13);
  });
});
