/**
 * Divergence reporting: a non-finite force, stiffness or state stops the step with a
 * DivergenceError naming the step and the component, and the simulation keeps the last good state.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../src/model/assembler.js';
import { Simulation, FAST_TURN } from '../src/simulation.js';
import { chainOfBodies } from '../examples/scenes.js';
import { AxialSpring } from '../src/forces/pathSpring.js';
import { LinearMaterial, type AxialMaterial } from '../src/forces/materials.js';
import { DivergenceError, NonFiniteError } from '../src/model/errors.js';
import { Projection } from '../src/step/stabilize.js';
import { Joint } from '../src/constraints/joint.js';
import type { RigidBody } from '../src/model/model.js';

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
  const b = new ModelAssembler();
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

  // a failed step must not keep its constraint forces or the projection's multipliers, which the
  // next step reads (the geometric stiffness, the projection's curvature)
  it('a failed step leaves λ and the projection\'s multipliers as the last good step left them', () => {
    const sim = universalChain('implicit-euler', 1 / 240), twin = universalChain('implicit-euler', 1 / 240);
    sim.steps(20);
    const cp = sim.checkpoint(), lambda = sim.ws.cs.lambda.slice();
    // a step that fails after its projection has run
    const run = Projection.prototype.run;
    Projection.prototype.run = function (this: Projection, ...args: Parameters<Projection['run']>) { run.apply(this, args); throw new NonFiniteError('body "l3"', 'injected'); };
    try { expect(() => sim.step()).toThrow(DivergenceError); } finally { Projection.prototype.run = run; }
    expect(Array.from(sim.ws.cs.lambda)).toEqual(Array.from(lambda));
    // and the next steps are those of a run restored from the last good step
    twin.restore(cp);
    sim.steps(20); twin.steps(20);
    expect(Array.from(sim.state.q)).toEqual(Array.from(twin.state.q));
  });

  it('a healthy model runs without diagnostics', () => {
    const sim = new Simulation(model(new LinearMaterial(50, 0.1)), { integrator: 'implicit-euler', step: 0.01 });
    sim.steps(100);
    expect(sim.diagnostics).toEqual({ maxResidual: sim.diagnostics.maxResidual, unconverged: 0, inertiaWarnings: 0, lastInertia: null, projectionUnconverged: 0, geometricFallbacks: 0,
      worstViolation: { value: 0, step: -1, constraint: null }, fastestTurn: { value: 0, step: -1, body: null } });
    expect(sim.diagnostics.maxResidual).toBeLessThan(1e-13);
  });
});

/** a 12-link chain of thin rods (0.1 × 0.02 × 0.02 m, 0.1 kg) on universal joints with tilted frames, released from rest (bench/robustness.ts) */
function universalChain(integrator: 'trapezoidal' | 'implicit-euler', h: number) {
  const frame: [number, number, number, number] = [Math.cos(0.3), Math.sin(0.3) * 0.6, Math.sin(0.3) * 0.8, 0];
  return new Simulation(chainOfBodies(12, { joint: 'universal', frame, integrator, step: h }));
}

describe('the fastest turn of a body in one step (h|ω|)', () => {
  it('is h|ω| of the fastest body over the end-of-step states, with its name and step', () => {
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    b.addBody({ name: 'slow', mass: 1, inertia: [0.01, 0.02, 0.03, 0, 0, 0], position: [0, 0, 0], angularVelocity: [0, 0, 2] });
    // a torque-free spin about a principal axis keeps |ω| = 50 rad/s
    b.addBody({ name: 'fast', mass: 1, inertia: [0.01, 0.02, 0.03, 0, 0, 0], position: [1, 0, 0], angularVelocity: [50, 0, 0] });
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 0.01 });
    expect(sim.diagnostics.fastestTurn).toEqual({ value: 0, step: -1, body: null });
    sim.steps(5);
    const t = sim.diagnostics.fastestTurn;
    expect(t.body).toBe('fast');
    expect(t.value).toBeCloseTo(0.5, 12);
    expect(t.step).toBe(1);
    // below FAST_TURN, and implicit Euler never warns about it
    expect(sim.warnings).toEqual([]);
  });

  // found by bench/robustness.ts: the chain spins its links up about their long axes; under the
  // trapezoidal rule it diverges at h = 1/50 (step 32, after a fast turn at step 26), where the
  // error must say more than "could not be factored"
  it('the trapezoidal rule warns when a body turns more than FAST_TURN rad in a step, and a divergence after it says so', () => {
    const sim = universalChain('trapezoidal', 1 / 50);
    let err: unknown = null;
    try { sim.steps(200); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DivergenceError);
    const warned = sim.warnings.find((w) => w.includes('turns') && w.includes('the trapezoidal rule'));
    expect(warned).toBeDefined();
    const at = Number(/^step (\d+):/.exec(warned!)![1]);
    expect(at).toBeLessThan((err as DivergenceError).step);
    expect(sim.diagnostics.fastestTurn.value).toBeGreaterThan(FAST_TURN);
    // the divergence names the first turn past FAST_TURN, the one the warning named
    const first = /body "(link\d+)" turns (\d+\.\d{3}) rad/.exec(warned!)!;
    expect((err as DivergenceError).message).toContain(`(before it, body "${first[1]}" turned ${first[2]} rad in step ${at}: from then on the step did not resolve its rotation)`);
  });

  it('after a restore, a divergence names the first fast turn of the restored run; the warning stays one', () => {
    const sim = universalChain('trapezoidal', 1 / 50);
    // before the first fast turn (step 26), then past it, short of the divergence (step 32)
    sim.steps(20);
    const cp = sim.checkpoint();
    sim.steps(9);
    sim.restore(cp);
    let err: unknown = null;
    try { sim.steps(200); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DivergenceError);
    expect(sim.warnings.filter((w) => w.includes(' turns ')).length).toBe(1);
    // the replay is deterministic: the same first fast turn as without the restore
    const fresh = universalChain('trapezoidal', 1 / 50);
    try { fresh.steps(200); } catch { /* the same divergence */ }
    const first = / body "(link\d+)" turns (\d\.\d{3}) rad/.exec(fresh.warnings.find((w) => w.includes(' turns '))!)!, at = /^step (\d+):/.exec(fresh.warnings.find((w) => w.includes(' turns '))!)![1];
    expect((err as DivergenceError).message).toContain(`(before it, body "${first[1]}" turned ${first[2]} rad in step ${at}: from then on`);
  });

  it('implicit and symplectic Euler do not warn past FAST_TURN; the trapezoidal rule, Bridson-Marino and RK4 warn once', () => {
    // a free body spinning about a principal axis at 200 rad/s, h = 0.01 s: 2 rad per step
    const spinner = () => {
      const b = new ModelAssembler();
      b.settings.gravity = [0, 0, 0];
      b.addBody({ name: 'top', mass: 1, inertia: [0.01, 0.02, 0.03, 0, 0, 0], position: [0, 0, 0], angularVelocity: [0, 0, 200] });
      return b.build();
    };
    for (const integrator of ['implicit-euler', 'symplectic-euler', 'trapezoidal', 'bridson-marino', 'rk4'] as const) {
      const sim = new Simulation(spinner(), { integrator, step: 0.01 });
      sim.steps(10);
      expect(sim.diagnostics.fastestTurn.value).toBeGreaterThan(FAST_TURN);
      const warned = sim.warnings.filter((w) => w.includes('turns'));
      expect(warned.length).toBe(integrator === 'implicit-euler' || integrator === 'symplectic-euler' ? 0 : 1);
      if (warned.length) expect(warned[0]).toMatch(/^step 1: body "top" turns 2\.000 rad in one step \(\|ω\| = 200 rad\/s at h = 0\.0100 s\)/);
    }
  });
});

describe('damping on hard rows, in a model built in code', () => {
  // model files reject it at load (test/io/joints.test.ts); code-built models get a warning
  const hinge = (method: 'projection' | 'baumgarte' | 'spook', spec: { compliance?: number[]; damping?: number }, integrator: 'implicit-euler' | 'rk4' = 'implicit-euler') => {
    const b = new ModelAssembler();
    b.settings.stabilization = { method };
    b.addBody({ name: 'B', mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0.3, 0, 0] });
    const q0 = b.initialQ();
    b.addConstraint(Joint.atWorldAxis('h', null, b.componentAt(b.componentIndex('B')!) as RigidBody, q0, [0, 0, 0], [0, 1, 0], { type: 'hinge', ...spec }));
    return new Simulation(b.build(), { integrator });
  };
  it('warns once per constraint where the stabilization ignores it, and not where it acts', () => {
    expect(hinge('projection', { damping: 0.5 }).warnings).toEqual([
      'constraint "h": row 0 is hard and has damping 0.5, which stabilization "projection" ignores (damping acts on compliant rows; under "spook", except with rk4, it sets a hard row\'s relaxation)',
    ]);
    expect(hinge('baumgarte', { damping: 0.5 }).warnings).toHaveLength(1);
    expect(hinge('spook', { damping: 0.5 }).warnings).toEqual([]);
    expect(hinge('spook', { damping: 0.5 }, 'rk4').warnings[0]).toMatch(/^constraint "h": row 0 is hard and has damping 0\.5, which stabilization "spook" with rk4 ignores/);
    expect(hinge('projection', { compliance: [0, 0, 0, 0, 1e-3], damping: 0.5 }).warnings).toEqual([]);
    expect(hinge('projection', {}).warnings).toEqual([]);
  });
});
