/**
 * Closed loops, redundancy and constraint forces:
 * - a planar four-bar linkage on four parallel hinges (3 redundant rows in 3-D) closes, moves,
 *   stays finite, and the redundancy is regularized with a warning naming the joints of the
 *   dependency (all four hinges, not an independent joint);
 * - two identical hinges between the same bodies behave like one, with a warning;
 * - reaction wrenches: a body hanging at rest on a ball joint pulls the world down with m g.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Simulation } from '../../src/simulation.js';
import { Joint } from '../../src/constraints/joint.js';
import type { RigidBody } from '../../src/model/model.js';
import { scratchOf } from '../helpers/constraints.js';
import { chainOfBodies } from '../../examples/scenes.js';

const Y: [number, number, number] = [0, 1, 0];

function rodBetween(b: ModelAssembler, name: string, p: number[], q: number[]) {
  const L = Math.hypot(q[0]! - p[0]!, q[2]! - p[2]!), m = 0.5;
  b.addBody({ name, mass: m, inertia: [(m * L * L) / 12 + 1e-4, (m * L * L) / 12 + 1e-4, 2e-4, 0, 0, 0],
    position: [(p[0]! + q[0]!) / 2, 0, (p[2]! + q[2]!) / 2] });
}

function maxViolation(sim: Simulation): number {
  const g = new Float64Array(sim.model.nRows), ctx = sim.ws.fs.bind(sim.state.q, sim.state.u);
  sim.model.constraints.forEach((c, k) => c.violation(ctx, g, sim.model.rowStart[k]!, scratchOf(c)));
  return g.reduce((e, x) => Math.max(e, Math.abs(x)), 0);
}

describe('closed loops and redundant constraints', () => {
  /** the four-bar: crank, coupler and rocker on four parallel hinges, two of them to the world */
  function fourBar(geometricStiffness = false) {
    // tilted crank: with both grounded bars vertical the linkage would sit at an equilibrium
    const O1 = [0, 0, 0], A = [0.1, 0, 0.28], B = [0.6, 0, 0.5], O2 = [0.6, 0, 0];
    const b = new ModelAssembler();
    b.settings.geometricStiffness = geometricStiffness;
    rodBetween(b, 'crank', O1, A); rodBetween(b, 'coupler', A, B); rodBetween(b, 'rocker', O2, B);
    const q0 = b.initialQ(), body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
    b.addConstraint(Joint.atWorldAxis('O1', null, body('crank'), q0, [0, 0, 0], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('A', body('crank'), body('coupler'), q0, [0.1, 0, 0.28], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('B', body('coupler'), body('rocker'), q0, [0.6, 0, 0.5], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('O2', body('rocker'), null, q0, [0.6, 0, 0], Y, { type: 'hinge' }));
    return b.build();
  }

  it('a four-bar linkage closes, moves and stays finite; its redundant rows are reported', () => {
    const model = fourBar();
    expect(model.nRows).toBe(20);
    expect(model.nSolve).toBe(18);
    const sim = new Simulation(model, { integrator: 'implicit-euler', step: 1 / 240 });
    const crankAngle = () => { const q = sim.state.q; return 2 * Math.atan2(q[5]!, q[3]!); };
    const a0 = crankAngle();
    let worst = 0;
    sim.steps(480, (s) => { worst = Math.max(worst, maxViolation(s)); });
    console.log(`four-bar: crank turned ${(crankAngle() - a0).toFixed(3)} rad, max violation ${worst.toExponential(2)}, warnings: ${sim.warnings.join(' | ')}`);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
    expect(Math.abs(crankAngle() - a0)).toBeGreaterThan(0.1);
    expect(worst).toBeLessThan(1e-9);
    expect(sim.warnings.length).toBeGreaterThan(0);
    // the whole loop: every hinge takes part in its dependent rows
    expect(sim.warnings[0]).toMatch(/redundant constraints "O1", "A", "B", "O2": regularized/);
  });

  // the warning names the whole dependent set, not only the joint whose pivot vanished ("O1")
  it('the warning names the joints of the dependency and no other, even a joint on the loop\'s bodies', () => {
    const b = new ModelAssembler();
    rodBetween(b, 'crank', [0, 0, 0], [0.1, 0, 0.28]); rodBetween(b, 'coupler', [0.1, 0, 0.28], [0.6, 0, 0.5]); rodBetween(b, 'rocker', [0.6, 0, 0], [0.6, 0, 0.5]);
    b.addBody({ name: 'bob', mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0.35, 0, 0.1] });
    const q0 = b.initialQ(), body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
    // a pendulum hung from the coupler (coupled to the loop, not part of its dependency), then the loop
    b.addConstraint(Joint.atWorldFrame('P', body('coupler'), body('bob'), q0, [0.35, 0, 0.39], [1, 0, 0, 0], { type: 'ball' }));
    b.addConstraint(Joint.atWorldAxis('O1', null, body('crank'), q0, [0, 0, 0], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('A', body('crank'), body('coupler'), q0, [0.1, 0, 0.28], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('B', body('coupler'), body('rocker'), q0, [0.6, 0, 0.5], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('O2', body('rocker'), null, q0, [0.6, 0, 0], Y, { type: 'hinge' }));
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 1 / 240 });
    sim.steps(10);
    expect(sim.warnings).toEqual([expect.stringMatching(/^step 1: redundant constraints "O1", "A", "B", "O2": regularized with R = /)]);
  });

  /** a chain of n rods on hinges about y from the world; extra joints by name: [name, after joint index] */
  function hingeChain(n: number, doubled: [string, number][]) {
    const b = new ModelAssembler();
    for (let i = 0; i < n; i++) rodBetween(b, `r${i}`, [0.2 * i, 0, 0], [0.2 * (i + 1), 0, 0]);
    const q0 = b.initialQ(), body = (i: number) => (i < 0 ? null : b.componentAt(b.componentIndex(`r${i}`)!) as RigidBody);
    const hinge = (name: string, i: number) => b.addConstraint(Joint.atWorldAxis(name, body(i - 1), body(i), q0, [0.2 * i, 0, 0], Y, { type: 'hinge' }));
    for (let i = 0; i < n; i++) {
      hinge(i === 0 ? 'pin' : `j${i}`, i);
      for (const [name, at] of doubled) if (at === i) hinge(name, i);
    }
    return new Simulation(b.build(), { integrator: 'implicit-euler', step: 1 / 240 });
  }

  // the factorization fails at the first zero pivot and hides the ones after it: the second
  // doubled joint went unnamed
  it('two independent redundancies are both named, with all four joints', () => {
    const sim = hingeChain(10, [['pin2', 0], ['dup', 9]]);
    sim.steps(5);
    expect(sim.warnings).toEqual([expect.stringMatching(/^step 1: redundant constraints "pin", "pin2", "j9", "dup": regularized with R = /)]);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
  });

  it('a chain with every joint doubled names every joint', () => {
    const sim = hingeChain(6, Array.from({ length: 6 }, (_, i) => [`k${i}`, i] as [string, number]));
    sim.steps(2);
    const names = ['pin', 'k0', ...Array.from({ length: 5 }, (_, i) => [`j${i + 1}`, `k${i + 1}`]).flat()];
    expect(sim.warnings).toEqual([`step 1: redundant constraints ${names.map((x) => `"${x}"`).join(', ')}: regularized with R = ${sim.ws.regularization.toExponential(1)}`]);
  });

  // a compliant row with a tiny compliance has a tiny pivot too: it must not get an unrelated hard
  // joint named (its multipliers have no 1/R part to single out a dependency)
  it('a nearly rigid compliant pair names its own row only, not a hard joint next to it', () => {
    const b = new ModelAssembler();
    b.addBody({ name: 'arm', mass: 1, inertia: [0.03, 0.03, 0.002, 0, 0, 0], position: [0.25, 0, 0], orientation: [Math.SQRT1_2, 0, Math.SQRT1_2, 0] });
    b.addBody({ name: 'fore', mass: 1, inertia: [0.03, 0.03, 0.002, 0, 0, 0], position: [0.75, 0, 0], orientation: [Math.SQRT1_2, 0, Math.SQRT1_2, 0] });
    const q0 = b.initialQ(), body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
    b.addConstraint(Joint.atWorldAxis('h1', null, body('arm'), q0, [0, 0, 0], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('c1', body('arm'), body('fore'), q0, [0.5, 0, 0], Y, { type: 'hinge', compliance: 1e-18 }));
    b.addConstraint(Joint.atWorldAxis('c2', body('arm'), body('fore'), q0, [0.5, 0, 0], Y, { type: 'hinge', compliance: 1e-18 }));
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 1 / 240 });
    sim.steps(5);
    expect(sim.warnings.length).toBe(1);
    expect(sim.warnings[0]).not.toContain('"h1"');
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
  });

  // regression: with the geometric stiffness on, the redundant rows' first factorization (one
  // constraint pivot of the wrong sign) was taken for an indefinite velocity block, and the first
  // step was reported as taken without the geometric stiffness
  it('with the geometric stiffness on, redundant rows are regularized, not taken for an indefinite step matrix', () => {
    const sim = new Simulation(fourBar(true), { integrator: 'implicit-euler', step: 1 / 240 });
    sim.steps(20);
    expect(sim.diagnostics.geometricFallbacks).toBe(0);
    expect(sim.diagnostics.inertiaWarnings).toBe(0);
    expect(sim.warnings).toHaveLength(1);
    expect(sim.warnings[0]).toMatch(/redundant constraints/);
  });

  it('two identical hinges behave like one, with a warning', () => {
    const make = (twice: boolean) => {
      const b = new ModelAssembler();
      b.addBody({ name: 'arm', mass: 1, inertia: [0.03, 0.03, 0.002, 0, 0, 0], position: [0.25, 0, 0], orientation: [Math.SQRT1_2, 0, Math.SQRT1_2, 0] });
      const q0 = b.initialQ(), arm = b.componentAt(0) as RigidBody;
      b.addConstraint(Joint.atWorldAxis('h1', null, arm, q0, [0, 0, 0], Y, { type: 'hinge' }));
      if (twice) b.addConstraint(Joint.atWorldAxis('h2', null, arm, q0, [0, 0, 0], Y, { type: 'hinge' }));
      const sim = new Simulation(b.build(), { integrator: 'trapezoidal', step: 1e-3 });
      sim.steps(1000);
      return sim;
    };
    const one = make(false), two = make(true);
    const d = Math.max(...Array.from(one.state.q, (x, i) => Math.abs(x - two.state.q[i]!)));
    console.log(`redundant hinge: max position difference ${d.toExponential(2)}; ${two.warnings.join(' | ')}`);
    expect(two.state.q.every(Number.isFinite)).toBe(true);
    expect(d).toBeLessThan(1e-6);
    expect(one.warnings).toEqual([]);
    expect(two.warnings.join(' ')).toMatch(/redundant constraints "h1", "h2"/);
  });
});

describe('reaction wrenches', () => {
  it('a body hanging at rest on a ball joint pulls the world down with m g and no torque', () => {
    const m = 2.2, b = new ModelAssembler();
    b.addBody({ name: 'bob', mass: m, inertia: [0.02, 0.02, 0.01, 0, 0, 0], com: [0, 0, -0.1], position: [0, 0, -0.4] });
    const q0 = b.initialQ();
    b.addConstraint(Joint.atWorldFrame('pivot', null, b.componentAt(0) as RigidBody, q0, [0, 0, 0], [1, 0, 0, 0], { type: 'ball' }));
    for (const integrator of ['implicit-euler', 'trapezoidal', 'rk4'] as const) {
      const sim = new Simulation(b.build(), { integrator, step: 0.005 });
      sim.steps(20);
      const w = sim.ws.cs.reaction(0, sim.state.q, sim.state.u, sim.ws.cs.lambda, new Float64Array(6));
      // side A is the world: the body pulls it down with its weight, straight below the pivot
      expect(w[0]!).toBeCloseTo(0, 9); expect(w[1]!).toBeCloseTo(0, 9);
      expect(Math.abs(w[2]! + m * 9.81)).toBeLessThan(1e-8);
      for (let k = 3; k < 6; k++) expect(Math.abs(w[k]!)).toBeLessThan(1e-8);
    }
  });

  it('a welded arm: the world feels the weight and the moment m g L about the weld', () => {
    const m = 1.5, L = 0.4, b = new ModelAssembler();
    b.addBody({ name: 'arm', mass: m, inertia: [0.002, 0.02, 0.02, 0, 0, 0], position: [L, 0, 0] });
    b.addConstraint(Joint.atWorldFrame('weld', null, b.componentAt(0) as RigidBody, b.initialQ(), [0, 0, 0], [1, 0, 0, 0], { type: 'weld' }));
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 0.005 });
    sim.steps(20);
    const w = sim.ws.cs.reaction(0, sim.state.q, sim.state.u, sim.ws.cs.lambda, new Float64Array(6));
    // force −m g ẑ at x = L: about the anchor τ = (L x̂) × (−m g ẑ) = +m g L ŷ
    expect(Math.abs(w[2]! + m * 9.81)).toBeLessThan(1e-8);
    expect(Math.abs(w[4]! - m * 9.81 * L)).toBeLessThan(1e-8);
    for (const k of [0, 1, 3, 5]) expect(Math.abs(w[k]!)).toBeLessThan(1e-8);
  });

  it('after a redundancy is found its regularization stays put', () => {
    const b = new ModelAssembler();
    b.addBody({ name: 'arm', mass: 1, inertia: [0.03, 0.03, 0.002, 0, 0, 0], position: [0.25, 0, 0] });
    const q0 = b.initialQ(), arm = b.componentAt(0) as RigidBody;
    b.addConstraint(Joint.atWorldAxis('h1', null, arm, q0, [0, 0, 0], Y, { type: 'hinge' }));
    b.addConstraint(Joint.atWorldAxis('h2', null, arm, q0, [0, 0, 0], Y, { type: 'hinge' }));
    const sim = new Simulation(b.build(), { integrator: 'implicit-euler', step: 1e-3 });
    sim.steps(10);
    const R = sim.ws.regularization;
    expect(R).toBeGreaterThan(0);
    sim.steps(500);
    expect(sim.ws.regularization).toBe(R);
    expect(sim.warnings).toHaveLength(1);
  });

  // regression: under the first-order schemes the velocity projection's impulses (the turning of
  // the velocities, G(q_k)u⁺ = 0 leaving it to them) were not counted, and implicit Euler reported
  // 15–40% of the falling chain's joint forces, at every step size
  it('the joint forces of a falling chain converge to the reference, implicit Euler at first order', () => {
    // the reference: RK4 at h = 1/9600, λ kept at every step
    const ref = new Simulation(chainOfBodies(5, { integrator: 'rk4', step: 1 / 9600 })), history: number[][] = [];
    ref.steps(2400, (r) => history.push(Array.from(r.ws.cs.lambda)));
    const force = (integrator: 'implicit-euler' | 'trapezoidal', hinv: number) => {
      const sim = new Simulation(chainOfBodies(5, { integrator, step: 1 / hinv }));
      sim.steps(Math.round(0.25 * hinv));
      return Array.from(sim.ws.cs.lambda);
    };
    // λ is the average force over the step: against the reference at its middle, t − h/2
    const err = (f: number[], hinv: number) => {
      const r = history[Math.round(9600 * (0.25 - 0.5 / hinv)) - 1]!, norm = Math.max(...r.map(Math.abs));
      return Math.max(...f.map((x, i) => Math.abs(x - r[i]!))) / norm;
    };
    const ie1 = err(force('implicit-euler', 240), 240), ie2 = err(force('implicit-euler', 2400), 2400), tr = err(force('trapezoidal', 240), 240);
    console.log(`joint forces against RK4 (h = 1/9600) at the middle of the last step: implicit Euler ${ie1.toExponential(2)} (1/240), ${ie2.toExponential(2)} (1/2400); trapezoidal ${tr.toExponential(2)} (1/240)`);
    // first order: ten times smaller at a ten times smaller step
    expect(ie1 / ie2).toBeGreaterThan(5);
    expect(ie2).toBeLessThan(0.015);
    // the trapezoidal rule had 8.5e-3 before
    expect(tr).toBeLessThan(5e-3);
  });
});

describe('joint frame cache', () => {
  it('recomputes the frames after the kinematics are updated with a new q (same Kinematics object)', () => {
    const b = new ModelAssembler();
    b.addBody({ name: 'arm', mass: 1, inertia: [0.03, 0.03, 0.002, 0, 0, 0], position: [0.25, 0, 0] });
    const q0 = b.initialQ();
    const j = Joint.atWorldAxis('h', null, b.componentAt(0) as RigidBody, q0, [0, 0, 0], Y, { type: 'hinge' });
    b.addConstraint(j);
    const sim = new Simulation(b.build());
    const q = sim.state.q, u = sim.state.u, g = new Float64Array(5), g2 = new Float64Array(5);
    j.violation(sim.ws.fs.bind(q, u), g, 0, scratchOf(j));
    expect(Math.max(...g.map(Math.abs))).toBeLessThan(1e-15);
    // move the body: the same context object, refreshed through bind/update
    q[0] = q[0]! + 0.1;
    j.violation(sim.ws.fs.bind(q, u), g2, 0, scratchOf(j));
    expect(Math.abs(g2[0]! - 0.1)).toBeLessThan(1e-12);
  });

});
