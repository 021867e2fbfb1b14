/**
 * Redundant rows, regularized per row and re-examined at every factorization (src/step/redundancy.ts,
 * theory.md §6):
 * - only the rows of a dependency carry R: the out-of-plane rows of a four-bar's hinges, not their
 *   in-plane rows nor a pendulum hung from the loop; a doubled pin and a doubled last joint of a
 *   chain, not the joints between them;
 * - with R confined to the dependency the four-bar moves exactly as the same linkage without
 *   redundant rows (hinge, hinge, universal, ball) under every integrator (the mass metrics, whose
 *   projections do not depend on how the multipliers split along the dependency);
 * - a transient dependency (a particle held by two distance constraints, collinear at one
 *   configuration and not at another): R comes, stays while the rows stay dependent, and goes,
 *   after which the factorization equals one that never saw the dependency, bit for bit;
 * - no NaN: a box held on a plane at its four bottom corners (four rows on three degrees of
 *   freedom) carries m g / 4 at each corner, and an exactly duplicated distance constraint (a
 *   failed factorization) steps on, under every integrator;
 * - checkpoint and restore with regularized rows reproduce the run bit for bit.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseModel } from '../../src/io/loader.js';
import { Simulation } from '../../src/simulation.js';
import { Workspace } from '../../src/step/workspace.js';
import type { Model } from '../../src/model/model.js';
import type { IntegratorName } from '../../src/integrators/names.js';

const INTEGRATORS: IntegratorName[] = ['symplectic-euler', 'implicit-euler', 'trapezoidal', 'bridson-marino', 'rk4'];
type Json = Record<string, unknown> & { joints: Record<string, unknown>[]; bodies?: Record<string, unknown>[] };
const fourBarJson = (): Json => JSON.parse(readFileSync(join(import.meta.dirname ?? '.', '..', '..', 'examples', 'four-bar.json'), 'utf8')) as Json;

/** the rows of constraint `name` */
function rowsOf(model: Model, name: string): number[] {
  const ci = model.constraints.findIndex((c) => c.name === name);
  return Array.from({ length: model.rowStart[ci + 1]! - model.rowStart[ci]! }, (_, r) => model.rowStart[ci]! + r);
}

/** a chain of n rods (0.2 m) on hinges about y from the world, with extra hinges [name, at joint i] */
function hingeChain(n: number, doubled: [string, number][]): Model {
  const bodies = [], joints = [];
  for (let i = 0; i < n; i++) {
    bodies.push({ name: `r${i}`, shape: { type: 'box', size: [0.2, 0.02, 0.02] }, density: 1000, position: [0.2 * i + 0.1, 0, 0] });
    const hinge = (name: string) => ({ type: 'hinge', name, bodyA: i === 0 ? 'world' : `r${i - 1}`, bodyB: `r${i}`, position: [0.2 * i, 0, 0], axis: [0, 1, 0] });
    joints.push(hinge(i === 0 ? 'pin' : `j${i}`));
    for (const [name, at] of doubled) if (at === i) joints.push(hinge(name));
  }
  return parseModel({ version: 1, gravity: [0, 0, -9.81], bodies, joints });
}

/** a box (2 kg, 0.4 × 0.2 × 0.1 m) held on the plane z = 0 at its four bottom corners, sliding and turning, and a pendulum */
function boxOnPlane(): Model {
  const corners = [[0.2, 0.1], [-0.2, 0.1], [-0.2, -0.1], [0.2, -0.1]];
  return parseModel({
    version: 1, gravity: [0, 0, -9.81], step: 0.005,
    bodies: [
      { name: 'box', shape: { type: 'box', size: [0.4, 0.2, 0.1] }, mass: 2, position: [0, 0, 0.05], velocity: [0.3, 0.1, 0], angularVelocity: [0, 0, 1.5] },
      { name: 'bob', shape: { type: 'sphere', radius: 0.05 }, mass: 0.5, position: [1, 0, 0.5] },
    ],
    joints: [
      ...corners.map(([x, y], k) => ({ type: 'point-on-plane', name: `c${k}`, bodyA: 'world', bodyB: 'box', frame: { position: [x, y, 0] } })),
      { type: 'ball', name: 'pivot', bodyA: 'world', bodyB: 'bob', position: [1, 0, 1] },
    ],
  });
}

describe('redundant rows: R on the rows of the dependency only', () => {
  it('a four-bar: the hinges\' out-of-plane rows carry R, their in-plane rows and a pendulum hung from the loop none', () => {
    const json = fourBarJson();
    json.bodies!.push({ name: 'bob', mass: 0.3, inertia: [1e-3, 1e-3, 1e-3, 0, 0, 0], position: [0.19, 0, 0.05] });
    json.joints.push({ type: 'ball', name: 'P', bodyA: 'coupler', bodyB: 'bob', position: [0.19, 0, 0.19] });
    const sim = new Simulation(parseModel(json));
    sim.steps(100);
    const R = sim.ws.redundancy.R, model = sim.model;
    // hinge rows: translations along the frame's x and y (in the plane), z (along the axis, world y), rotations about x and y
    for (const name of ['A', 'B', 'C', 'D']) {
      const [tx, ty, tz, rx, ry] = rowsOf(model, name).map((i) => R[i]!);
      expect([tx, ty]).toEqual([0, 0]);
      for (const r of [tz, rx, ry]) expect(r).toBe(sim.ws.regularization);
    }
    expect(rowsOf(model, 'P').map((i) => R[i]!)).toEqual([0, 0, 0]);
    expect(sim.ws.regularization).toBeGreaterThan(0);
    expect(sim.warnings).toEqual([expect.stringMatching(/^step 1: redundant constraints "A", "B", "C", "D": regularized with R = /)]);
  });

  it('a chain with a doubled pin and a doubled last joint: R on those four joints, none on the eight between', () => {
    const sim = new Simulation(hingeChain(10, [['pin2', 0], ['dup', 9]]), { integrator: 'implicit-euler', step: 1 / 240 });
    sim.steps(50);
    const R = sim.ws.redundancy.R, reg = sim.ws.regularization;
    for (const name of ['pin', 'pin2', 'j9', 'dup']) expect(rowsOf(sim.model, name).map((i) => R[i]!)).toEqual([reg, reg, reg, reg, reg]);
    for (let k = 1; k < 9; k++) expect(rowsOf(sim.model, `j${k}`).map((i) => R[i]!)).toEqual([0, 0, 0, 0, 0]);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
  });

  // with the whole dependency regularized the in-plane rows are exact: the loop moves as the same
  // linkage without redundant rows. (All hard rows regularized, the difference was 2.6e-6 to
  // 9.6e-4 after 600 steps; the default metrics weight the projection by the curvature at its
  // multipliers, which the dependency leaves undetermined, and stay within 4e-4 of it.)
  for (const integrator of INTEGRATORS) {
    it(`a four-bar moves as the linkage without redundant rows (${integrator}, mass metrics)`, () => {
      const make = (redundant: boolean) => {
        const json = fourBarJson();
        json.stabilization = { method: 'projection', positionMetric: 'mass', velocityMetric: 'mass' };
        if (!redundant) {
          json.joints[2] = { type: 'universal', name: 'C', bodyA: 'coupler', bodyB: 'rocker', frame: { position: [0.333074, 0, 0.29244] } };
          json.joints[3] = { type: 'ball', name: 'D', bodyA: 'world', bodyB: 'rocker', position: [0.4, 0, 0] };
        }
        const sim = new Simulation(parseModel(json), { integrator });
        sim.steps(600);
        return sim;
      };
      const loop = make(true), ref = make(false);
      const d = Math.max(...[...loop.state.q].map((x, i) => Math.abs(x - ref.state.q[i]!)), ...[...loop.state.u].map((x, i) => Math.abs(x - ref.state.u[i]!)));
      console.log(`four-bar against the linkage without redundant rows (${integrator}): max |Δq|, |Δu| ${d.toExponential(2)}`);
      expect(ref.warnings).toEqual([]);
      expect(loop.warnings).toHaveLength(1);
      expect(d).toBeLessThan(1e-9);
    });
  }
});

describe('redundant rows: re-examined at every factorization', () => {
  /** a particle held by two distance constraints from (±1, 0, 0), and a hinge pendulum beside it */
  const model = parseModel({
    version: 1, gravity: [0, 0, -9.81],
    particles: [{ name: 'p', mass: 1, position: [0, 0, 0] }],
    bodies: [{ name: 'arm', shape: { type: 'box', size: [0.3, 0.02, 0.02] }, density: 1000, position: [3.15, 0, 0] }],
    joints: [
      { type: 'distance', name: 'left', points: [['world', [-1, 0, 0]], 'p'] },
      { type: 'distance', name: 'right', points: [['world', [1, 0, 0]], 'p'] },
      { type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'arm', position: [3, 0, 0], axis: [0, 1, 0] },
    ],
  });
  const h = 0.01, u = new Float64Array(model.nu);
  /** the step's KKT matrix of implicit Euler (no force Jacobians) at p = (x, 0, z), factored, and its solution for a fixed right-hand side */
  const factorAt = (ws: Workspace, x: number, z: number): Float64Array => {
    const q = model.initialQ.slice();
    q[0] = x; q[2] = z;
    ws.mass(q);
    ws.constraints(q, u, h, 'velocity');
    ws.factor(0, 0);
    const rhs = Float64Array.from({ length: model.nKkt }, (_, k) => Math.sin(k + 1)), sol = new Float64Array(model.nKkt);
    ws.solveWith(rhs, sol);
    return sol;
  };

  it('R comes with the dependency, stays while it lasts, and goes with it, on its rows only', () => {
    const ws = new Workspace(model), R = ws.redundancy.R, [left, right] = [rowsOf(model, 'left')[0]!, rowsOf(model, 'right')[0]!];
    const onlyPair = () => Array.from(R, (r, i) => (i === left || i === right ? r > 0 : r === 0)).every(Boolean);
    // collinear with both anchors: the rows are one direction
    const x0 = factorAt(ws, 0, 0), reg = ws.regularization;
    expect(reg).toBeGreaterThan(0);
    expect(R[left]).toBe(reg);
    expect(onlyPair()).toBe(true);
    expect([...ws.redundant]).toEqual(['left', 'right']);
    // still collinear elsewhere on the line: the same R, not found again
    factorAt(ws, 0.3, 0);
    expect(R[left]).toBe(reg);
    expect(onlyPair()).toBe(true);
    // below the line the rows are independent: R goes, and the factorization is the one of a
    // workspace that never saw the dependency, bit for bit
    const x1 = factorAt(ws, 0, -0.5), fresh = factorAt(new Workspace(model), 0, -0.5);
    expect(Array.from(R)).toEqual(new Array<number>(model.nRows).fill(0));
    expect(Array.from(x1)).toEqual(Array.from(fresh));
    // back on the line: found again, on the same rows
    const x2 = factorAt(ws, 0, 0);
    expect(onlyPair()).toBe(true);
    expect(Array.from(x2)).toEqual(Array.from(x0));
    for (const x of [x0, x1, x2]) expect(x.every(Number.isFinite)).toBe(true);
  });

  it('a dependency that is nearly gone keeps R until its pivot is 1e3 times the regularized one, then loses it', () => {
    const ws = new Workspace(model), R = ws.redundancy.R, left = rowsOf(model, 'left')[0]!;
    factorAt(ws, 0, 0);
    // the pair's last pivot (unit mass, y = (1, 1)) is 2R on the line and 2R + 4z² at a distance z
    // below it: it exceeds 1e3 × 2R from 4z² = 1998 R
    const reg = ws.regularization, z = (f: number) => Math.sqrt((f * 1998 * reg) / 4);
    factorAt(ws, 0, -z(0.5));
    expect(R[left]).toBe(reg);
    factorAt(ws, 0, -z(2));
    expect(R[left]).toBe(0);
    // and unregularized it is 4e3 R there, far above what finds redundancy: not found again
    factorAt(ws, 0, -z(2));
    expect(R[left]).toBe(0);
  });
});

describe('redundant rows: no NaN', () => {
  for (const integrator of INTEGRATORS) {
    it(`a box held on a plane at four corners carries m g / 4 at each, and only those rows carry R (${integrator})`, () => {
      const sim = new Simulation(boxOnPlane(), { integrator });
      sim.steps(200);
      const { q, u } = sim.state, R = sim.ws.redundancy.R, lam = sim.ws.cs.lambda;
      expect([...q, ...u, ...lam].every(Number.isFinite)).toBe(true);
      const corners = ['c0', 'c1', 'c2', 'c3'].map((c) => rowsOf(sim.model, c)[0]!);
      for (const i of corners) {
        expect(R[i]).toBe(sim.ws.regularization);
        expect(Math.abs(Math.abs(lam[i]!) - (2 * 9.81) / 4)).toBeLessThan(1e-6);
      }
      expect(rowsOf(sim.model, 'pivot').map((i) => R[i]!)).toEqual([0, 0, 0]);
      // it slides and turns on the plane, its height kept
      expect(Math.abs(q[2]! - 0.05)).toBeLessThan(1e-12);
      expect(sim.warnings).toEqual([expect.stringMatching(/^step 1: redundant constraints "c0", "c1", "c2", "c3": /)]);
    });

    it(`an exactly duplicated distance constraint steps on (${integrator})`, () => {
      const rope = (name: string) => ({ type: 'distance', name, points: [['world', [0, 0, 0]], 'p'] });
      const sim = new Simulation(parseModel({
        version: 1, gravity: [0, 0, -9.81], step: 0.005,
        particles: [{ name: 'p', mass: 1, position: [0.6, 0, -0.8] }, { name: 'o', mass: 1, position: [0, 0, -2] }],
        joints: [rope('a'), rope('b'), { type: 'distance', name: 'other', points: [['world', [0, 0, -1]], 'o'] }],
      }), { integrator });
      sim.steps(200);
      expect([...sim.state.q, ...sim.state.u, ...sim.ws.cs.lambda].every(Number.isFinite)).toBe(true);
      const R = sim.ws.redundancy.R, [a, b, other] = ['a', 'b', 'other'].map((c) => rowsOf(sim.model, c)[0]!);
      expect(R[a]! > 0 && R[b]! > 0 && R[other] === 0).toBe(true);
      // the rope holds its length
      expect(Math.abs(Math.hypot(sim.state.q[0]!, sim.state.q[1]!, sim.state.q[2]!) - 1)).toBeLessThan(1e-9);
    });
  }
});

describe('redundant rows: checkpoints', () => {
  for (const integrator of ['implicit-euler', 'trapezoidal', 'rk4'] as IntegratorName[]) {
    it(`restore reproduces a run with regularized rows bit for bit, in a new simulation too (${integrator})`, () => {
      const model = boxOnPlane(), sim = new Simulation(model, { integrator });
      sim.steps(20);
      const c = sim.checkpoint(), R0 = Array.from(sim.ws.redundancy.R);
      sim.steps(50);
      const end = (s: Simulation) => [...s.state.q, ...s.state.u, ...s.ws.cs.lambda, ...s.ws.redundancy.R];
      const ref = end(sim);
      sim.restore(c);
      expect(Array.from(sim.ws.redundancy.R)).toEqual(R0);
      sim.steps(50);
      expect(end(sim)).toEqual(ref);
      const fresh = new Simulation(model, { integrator });
      fresh.restore(c);
      fresh.steps(50);
      expect(end(fresh)).toEqual(ref);
      // the groups came along: nothing was found again
      expect(fresh.warnings).toEqual([]);
      // a bare state restarts without R, as a new simulation does
      fresh.restore(sim.state.checkpoint());
      expect(Array.from(fresh.ws.redundancy.R).every((r) => r === 0)).toBe(true);
    });
  }
});
