/**
 * The `joints` and `stabilization` sections of the model file: every joint type loads with the
 * row count and coordinates of docs/model-format.md and holds exactly at load (g ≈ 0), default
 * names and lengths, stabilization settings reach ModelSettings, and every kind of bad joint gives
 * one ModelError line naming the JSON path.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseModel } from '../../src/io/loader.js';
import { Kinematics } from '../../src/model/kinematics.js';
import { Simulation } from '../../src/simulation.js';
import { Joint } from '../../src/constraints/joint.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import type { ConstraintContext } from '../../src/constraints/constraint.js';
import type { Model } from '../../src/model/model.js';
import { scratchOf } from '../helpers/constraints.js';
import { load, errorOf, text } from '../helpers/modelFile.js';

/** the one-line message of the ModelError that loading raises */
const errorFor = (fields: Record<string, unknown>): string => errorOf(text(fields)).message;

const box = (name: string, position: number[], extra: Record<string, unknown> = {}) =>
  ({ name, shape: { type: 'box', size: [0.2, 0.1, 0.05] }, mass: 1, position, ...extra });

/** g(q0) of every constraint */
function initialViolation(m: Model): Float64Array {
  const kin = new Kinematics(m);
  kin.update(m.initialQ);
  const ctx: ConstraintContext = { model: m, q: m.initialQ, u: m.initialU, kin };
  const g = new Float64Array(m.nRows);
  m.constraints.forEach((c, i) => c.violation(ctx, g, m.rowStart[i]!, scratchOf(c)));
  return g;
}

// the table of docs/model-format.md: rows removed and the free coordinates of each type
const TABLE: [string, number, string[]][] = [
  ['ball', 3, []], ['hinge', 5, ['rz']], ['slider', 5, ['tz']], ['cylindrical', 4, ['tz', 'rz']], ['universal', 4, ['rx', 'ry']],
  ['gimbal', 3, ['theta', 'phi', 'psi']], ['planar', 3, ['tx', 'ty', 'rz']], ['point-on-plane', 1, ['tx', 'ty']],
  ['point-on-line', 2, ['tz']], ['weld', 6, []],
];

describe('valid joints', () => {
  it('builds every joint type with its row count and coordinates, satisfied at load', () => {
    const c = Math.SQRT1_2;
    // one body per joint type, each rotated and off the origin; even ones hang from the world, odd ones from the previous body
    const bodies = TABLE.map(([type], i) => box(`b-${type}`, [0.3 * i, 0.1 * i, -0.2 * i], { orientation: i % 2 ? [c, c, 0, 0] : [c, 0, 0, c] }));
    const joints = TABLE.map(([type], i) => ({
      type, name: `j-${type}`, bodyA: i % 2 ? `b-${TABLE[i - 1]![0]}` : 'world', bodyB: `b-${type}`,
      ...(i % 3 === 0 ? { position: [0.3 * i + 0.05, 0.1 * i, -0.2 * i + 0.02], axis: [1, 2, -0.5] }
        : { frame: { position: [0.3 * i - 0.05, 0.1 * i, -0.2 * i], ...(i % 3 === 1 ? { orientation: [0.9, 0.1, -0.3, 0.2] } : {}) } }),
    }));
    const m = load({
      bodies,
      particles: [{ name: 'p', mass: 0.5, position: [0, 0, -1] }],
      markers: [{ name: 'tip', body: 'b-weld', location: [0.1, 0, 0] }],
      joints: [...joints, { type: 'distance', name: 'rope', points: ['tip', 'p'] }],
    });
    expect(m.constraints.map((k) => k.name)).toEqual([...TABLE.map(([t]) => `j-${t}`), 'rope']);
    TABLE.forEach(([type, rows, coords], i) => {
      const j = m.constraints[i]!;
      expect(j).toBeInstanceOf(Joint);
      expect([type, j.rows]).toEqual([type, rows]);
      expect([type, (j as Joint).coordinateNames]).toEqual([type, coords]);
      expect((j as Joint).type).toBe(type);
    });
    expect(m.constraints[10]).toBeInstanceOf(DistanceConstraint);
    expect(m.constraints[10]!.rows).toBe(1);
    expect(m.nRows).toBe(TABLE.reduce((s, [, r]) => s + r, 0) + 1);
    // every row holds at the initial configuration
    for (const g of initialViolation(m)) expect(Math.abs(g)).toBeLessThan(1e-12);
    // and the model simulates with the joints held
    const sim = new Simulation(m);
    sim.steps(20);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
  });

  it('names joints "<type>#<index>" by default and takes the initial distance as the default length', () => {
    const m = load({
      particles: [{ name: 'a', mass: 1, position: [0, 0, -2] }],
      bodies: [box('B', [0, 0, -1])],
      joints: [
        { type: 'hinge', bodyA: 'world', bodyB: 'B', position: [0, 0, -0.9], axis: [0, 1, 0] },
        { type: 'distance', points: [['world', [0, 3, -2]], 'a'] },
        { type: 'distance', points: [['world', [0, 0, 0]], 'a'], length: 2.5, compliance: 1e-3, damping: 0.01 },
      ],
    });
    expect(m.constraints.map((c) => c.name)).toEqual(['hinge#0', 'distance#1', 'distance#2']);
    const [, d1, d2] = m.constraints as [Joint, DistanceConstraint, DistanceConstraint];
    expect(d1.length).toBeCloseTo(3, 12);
    expect(d2.length).toBe(2.5);
    expect([d2.compliance[0], d2.damping[0]]).toEqual([1e-3, 0.01]);
  });

  it('takes per-row compliance and damping, as one value (for the compliant rows) or one per row', () => {
    const m = load({
      bodies: [box('B', [0, 0, -1])],
      joints: [{ type: 'universal', bodyA: 'world', bodyB: 'B', frame: { position: [0, 0, 0] }, compliance: [0, 0, 0, 1e-4], damping: 0.02 }],
    });
    const j = m.constraints[0]!;
    expect(Array.from(j.compliance)).toEqual([0, 0, 0, 1e-4]);
    // one value is the compliant rows' damping: the hard rows keep 0 (under SPOOK it would be their relaxation)
    expect(Array.from(j.damping)).toEqual([0, 0, 0, 0.02]);
  });

  it('places a hinge by position and axis: the frame z axis along the axis, the angle about it', () => {
    const m = load({ bodies: [box('B', [0.5, 0, 0])], joints: [{ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'B', position: [0, 0, 0], axis: [0, 2, 0] }] });
    const sim = new Simulation(m);
    sim.steps(30);
    const out = new Float64Array(1);
    sim.ws.cs.jointCoordinates(0, sim.state.q, sim.state.u, out);
    // the bar falls about +y: a rotation that takes +x toward −z is positive about +y
    expect(out[0]).toBeGreaterThan(0.05);
    expect(Math.abs(sim.state.q[1]!)).toBeLessThan(1e-9);   // no motion along the axis
  });

  it('takes one frame per body (frameA, frameB): the same joint as the world frame where they meet', () => {
    const c = Math.SQRT1_2;
    const bodies = [box('A', [0, 0, 0], { orientation: [c, 0, 0, c] }), box('B', [0.4, 0, -0.1])];
    // the world frame at (0.2, 0, 0), turned by 90° about x: in A (turned 90° about z) and in B
    const world = { type: 'hinge', name: 'h', bodyA: 'A', bodyB: 'B', frame: { position: [0.2, 0, 0], orientation: [c, c, 0, 0] } };
    const perBody = { type: 'hinge', name: 'h', bodyA: 'A', bodyB: 'B', frameA: { position: [0, -0.2, 0], orientation: [0.5, 0.5, -0.5, -0.5] }, frameB: { position: [-0.2, 0, 0.1], orientation: [c, c, 0, 0] } };
    const m1 = load({ bodies, joints: [world] }), m2 = load({ bodies, joints: [perBody] });
    expect(Math.max(...Array.from(initialViolation(m2), Math.abs))).toBeLessThan(1e-15);
    const s1 = new Simulation(m1), s2 = new Simulation(m2);
    s1.steps(100); s2.steps(100);
    for (let i = 0; i < m1.nq; i++) expect(s2.state.q[i]).toBeCloseTo(s1.state.q[i]!, 12);
    expect(s2.warnings).toEqual([]);
  });

  it('per-body frames that do not meet at load: a warning, and the projection assembles the joint in the first step', () => {
    const m = load({ bodies: [box('B', [0.5, 0, 0])], joints: [{ type: 'ball', name: 'pin', bodyA: 'world', bodyB: 'B', frameA: { position: [0, 0, 0] }, frameB: { position: [-0.45, 0, 0] } }] });
    const sim = new Simulation(m);
    expect(sim.warnings).toEqual(['t = 0: constraint "pin" is violated by 5.00e-2 (m or rad) in the initial state: the first step\'s projection moves the bodies onto it']);
    sim.step();
    expect(sim.largestViolation()!.value).toBeLessThan(1e-12);
  });

  it('loads the joints example of docs/model-format.md', () => {
    const md = readFileSync(new URL('../../docs/model-format.md', import.meta.url), 'utf8');
    const example = /## Joints[\s\S]*?```json\n([\s\S]*?)\n```/.exec(md)![1]!;
    const m = parseModel(example, { source: 'model-format.md' });
    expect(m.constraints.map((c) => c.rows)).toEqual([5, 3, 1]);
    expect(m.settings.stabilization).toEqual({ method: 'baumgarte', alpha: 20 });
  });
});

describe('stabilization', () => {
  it('defaults to projection and reaches ModelSettings unchanged', () => {
    expect(load({}).settings.stabilization).toEqual({ method: 'projection' });
    expect(load({ stabilization: {} }).settings.stabilization).toEqual({ method: 'projection' });
    const cases = [
      { method: 'projection' },
      { method: 'baumgarte' },
      { method: 'baumgarte', alpha: 20, beta: 100 },
      { method: 'spook', relaxation: 3 },
      { method: 'spook', relaxation: 5, compliance: 1e-8 },
      { method: 'projection', velocityMetric: 'mass' },
      { method: 'projection', velocityMetric: 'projection' },
      { method: 'projection', positionMetric: 'mass' },
      { method: 'projection', positionMetric: 'mass', velocityMetric: 'mass' },
    ];
    for (const s of cases) expect(load({ stabilization: s }).settings.stabilization).toEqual(s);
  });

  it('rejects parameters of another method, unknown methods and bad values', () => {
    expect(errorFor({ stabilization: { method: 'spook', alpha: 10 } })).toBe('stabilization.alpha: applies to method "baumgarte", not "spook"');
    expect(errorFor({ stabilization: { relaxation: 4 } })).toBe('stabilization.relaxation: applies to method "spook", not "projection"');
    expect(errorFor({ stabilization: { method: 'baumgarte', compliance: 1 } })).toBe('stabilization.compliance: applies to method "spook", not "baumgarte"');
    expect(errorFor({ stabilization: { method: 'spook', velocityMetric: 'mass' } })).toBe('stabilization.velocityMetric: applies to method "projection", not "spook"');
    expect(errorFor({ stabilization: { velocityMetric: 'kinetic' } })).toMatch(/^stabilization\.velocityMetric: /);
    expect(errorFor({ stabilization: { method: 'baumgarte', positionMetric: 'mass' } })).toBe('stabilization.positionMetric: applies to method "projection", not "baumgarte"');
    expect(errorFor({ stabilization: { positionMetric: 'kinetic' } })).toMatch(/^stabilization\.positionMetric: /);
    expect(errorFor({ stabilization: { method: 'lagrange' } })).toBe('stabilization.method: expected "projection", "baumgarte" or "spook", got "lagrange"');
    expect(errorFor({ stabilization: { method: 'spook', relaxation: 0 } })).toBe('stabilization.relaxation: must be positive (got 0)');
    expect(errorFor({ stabilization: { method: 'baumgarte', beta: -1 } })).toBe('stabilization.beta: must be non-negative (got -1)');
    expect(errorFor({ stabilization: { method: 'spook', damping: 1 } })).toBe('stabilization.damping: unknown field "damping"');
  });
});

describe('invalid joints: one line naming the path and the problem', () => {
  const B = [box('B', [0, 0, -1]), box('C', [0, 0, -2])];
  const hinge = (extra: Record<string, unknown>) => ({ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'B', position: [0, 0, -0.9], axis: [0, 1, 0], ...extra });

  it('a body that does not exist', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ bodyB: 'ghost' })] })).toBe('joints[0] (hinge "h").bodyB: no body named "ghost" (use a body name or "world")');
    expect(errorFor({ bodies: B, joints: [hinge({ bodyA: 'Wrold' })] })).toBe('joints[0] (hinge "h").bodyA: no body named "Wrold" (use a body name or "world")');
    expect(errorFor({ particles: [{ name: 'p', mass: 1, position: [0, 0, 0] }], joints: [hinge({ bodyB: 'p' })] }))
      .toBe('joints[0] (hinge "h").bodyB: "p" is a particle; joints attach to bodies or "world" (use a distance joint for particles)');
  });

  it('a zero-length or non-finite axis', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ axis: [0, 0, 0] })] })).toBe('joints[0] (hinge "h").axis: axis [0,0,0] has zero length');
    expect(errorFor({ bodies: B, joints: [hinge({ axis: [0, 'INF', 0] })] })).toMatch(/^joints\[0\] \(hinge "h"\)\.axis\[1\]: must be a finite number/);
  });

  it('a joint from a body to itself, and both sides world', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ bodyA: 'B' })] })).toBe('joints[0] (hinge "h").bodyB: bodyA and bodyB are the same body "B"');
    expect(errorFor({ bodies: B, joints: [{ type: 'ball', bodyA: 'world', bodyB: 'world', frame: { position: [0, 0, 0] } }] }))
      .toBe('joints[0] (ball).bodyB: bodyA and bodyB are both "world"');
    expect(errorFor({ bodies: [box('F', [0, 0, 0], { dynamic: false })], joints: [hinge({ bodyB: 'F' })] })).toBe('joints[0] (hinge "h"): joins no dynamic body (both sides are fixed)');
  });

  it('a compliance or damping array of the wrong length', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ compliance: [0, 0, 1e-6] })] })).toBe('joints[0] (hinge "h").compliance: a hinge joint has 5 rows: give one value or 5, got 3');
    expect(errorFor({ bodies: B, joints: [{ type: 'point-on-plane', bodyA: 'world', bodyB: 'B', frame: { position: [0, 0, -1] }, damping: [1, 1] }] }))
      .toBe('joints[0] (point-on-plane).damping: a point-on-plane joint has 1 row: give one value or 1, got 2');
    expect(errorFor({ bodies: B, joints: [hinge({ compliance: [] })] })).toBe('joints[0] (hinge "h").compliance: expected at least 1 item, got 0');
  });

  it('a negative compliance or damping', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ compliance: -1 })] })).toBe('joints[0] (hinge "h").compliance: must be non-negative (got -1)');
    expect(errorFor({ bodies: B, joints: [hinge({ compliance: [0, -1e-6, 0, 0, 0] })] })).toBe('joints[0] (hinge "h").compliance[1]: must be non-negative (got -0.000001)');
    expect(errorFor({ bodies: B, joints: [hinge({ damping: -0.5 })] })).toBe('joints[0] (hinge "h").damping: must be non-negative (got -0.5)');
    expect(errorFor({ bodies: B, joints: [hinge({ compliance: 'soft' })] }))
      .toBe('joints[0] (hinge "h").compliance: expected a number, or an array with one number per row, got the string "soft"');
  });

  // a hinge's damping without compliance was accepted and ignored: users meant joint friction
  it('damping on hard rows, which projection, Baumgarte and RK4 under SPOOK would ignore (SPOOK otherwise takes it as the relaxation)', () => {
    const only = 'damping acts on compliant rows only (compliance > 0, or stiffness with dampingRatio)';
    const friction = ' (viscous friction in the joint\'s free motion is the damping of a frame spring)';
    expect(errorFor({ bodies: B, joints: [hinge({ damping: 0.5 })] }))
      .toBe(`joints[0] (hinge "h").damping: ${only}; all its rows are hard, and under stabilization "projection" the damping would be ignored${friction}`);
    expect(errorFor({ bodies: B, stabilization: { method: 'baumgarte' }, joints: [hinge({ compliance: [0, 0, 0, 0, 1e-3], damping: [0, 0, 0.1, 0, 0.1] })] }))
      .toBe(`joints[0] (hinge "h").damping[2]: ${only}; this row is hard, and under stabilization "baumgarte" the damping would be ignored${friction}`);
    expect(errorFor({ integrator: 'rk4', bodies: B, stabilization: { method: 'spook' }, joints: [hinge({ damping: 0.5 })] }))
      .toBe(`joints[0] (hinge "h").damping: ${only}; all its rows are hard, and under stabilization "spook" with rk4 the damping would be ignored${friction}`);
    expect(errorFor({ particles: [{ name: 'p', mass: 1, position: [0, 0, -1] }], joints: [{ type: 'distance', name: 'd', points: ['p', ['world', [0, 0, 0]]], damping: 0.1 }] }))
      .toBe(`joints[0] (distance "d").damping: ${only}; the row is hard, and under stabilization "projection" the damping would be ignored`);
    // accepted: damping on the compliant rows, one value for a joint with some (its hard rows keep 0), and under SPOOK
    expect(load({ bodies: B, joints: [hinge({ compliance: [0, 0, 0, 0, 1e-3], damping: [0, 0, 0, 0, 0.1] })] }).constraints).toHaveLength(1);
    const oneValue = load({ bodies: B, stabilization: { method: 'spook' }, joints: [hinge({ compliance: [0, 0, 0, 0, 1e-3], damping: 0.1 })] }).constraints[0]!;
    expect(Array.from(oneValue.damping)).toEqual([0, 0, 0, 0, 0.1]);
    expect(Array.from(load({ bodies: B, stabilization: { method: 'spook' }, joints: [hinge({ damping: 0.5 })] }).constraints[0]!.damping)).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
  });

  // regression (review): a joint's stiffness of 0 was accepted and silently made a hard row
  it('a stiffness of zero', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ stiffness: 0 })] })).toBe('joints[0] (hinge "h").stiffness: must be positive (got 0)');
  });

  it('a distance joint whose points coincide', () => {
    const ps = [{ name: 'a', mass: 1, position: [0, 0, -1] }, { name: 'b', mass: 1, position: [0, 0, -1] }];
    expect(errorFor({ particles: ps, joints: [{ type: 'distance', name: 'd', points: ['a', 'b'] }] }))
      .toMatch(/^joints\[0\] \(distance "d"\)\.points: the points "a" and "b" coincide at set-up/);
    expect(errorFor({ particles: ps, joints: [{ type: 'distance', name: 'd', points: ['a', ['world', [0, 0, -1]]] }] }))
      .toMatch(/^joints\[0\] \(distance "d"\)\.points: the points "a" and "world@\[0, 0, -1\]" coincide at set-up/);
    expect(errorFor({ particles: ps, joints: [{ type: 'distance', name: 'd', points: ['a', 'a'] }] })).toBe('joints[0] (distance "d").points[1]: same point as points[0]');
    expect(errorFor({ particles: ps, joints: [{ type: 'distance', points: [['world', [0, 0, 0]], ['world', [1, 0, 0]]] }] }))
      .toBe('joints[0] (distance).points: both points are world points');
    expect(errorFor({ particles: ps, joints: [{ type: 'distance', points: ['a', 'ghost'] }] })).toBe('joints[0] (distance).points[1]: no particle or marker named "ghost"');
    expect(errorFor({ particles: ps, joints: [{ type: 'distance', points: ['a', ['world', [0, 0, 0]]], length: 0 }] })).toBe('joints[0] (distance).length: must be positive (got 0)');
    expect(errorFor({ bodies: B, markers: [{ name: 'm1', body: 'B', location: [0, 0, 0] }, { name: 'm2', body: 'B', location: [1, 0, 0] }],
      joints: [{ type: 'distance', points: ['m1', 'm2'] }] })).toBe('joints[0] (distance).points: both points are on "B": their distance cannot change');
    expect(errorFor({ particles: ps, joints: [{ type: 'distance', points: ['a', 'b'], bodyA: 'world' }] })).toBe('joints[0] (distance).bodyA: unknown field "bodyA"');
  });

  it('an unknown joint type', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ type: 'hing' })] }))
      .toMatch(/^joints\[0\] \("h"\)\.type: unknown type "hing"; expected "ball", "hinge", .*"weld" or "distance"$/);
    expect(errorFor({ bodies: B, joints: [{ bodyA: 'world', bodyB: 'B' }] })).toMatch(/^joints\[0\]\.type: missing required field; expected "ball"/);
  });

  it('the frame: missing, given twice, or an orientation and an axis', () => {
    expect(errorFor({ bodies: B, joints: [hinge({ position: undefined, axis: undefined })] })).toBe('joints[0] (hinge "h").frame: missing required field (give frame, position with axis, or frameA and frameB)');
    expect(errorFor({ bodies: B, joints: [hinge({ frame: { position: [0, 0, 0] } })] })).toBe('joints[0] (hinge "h").position: give either frame or position (with axis), not both');
    expect(errorFor({ bodies: B, joints: [hinge({ position: undefined, frame: { position: [0, 0, 0], orientation: [1, 0, 0, 0] } })] }))
      .toBe('joints[0] (hinge "h").axis: give either frame.orientation or axis, not both');
    expect(errorFor({ bodies: B, joints: [hinge({ position: undefined, axis: undefined, frame: { position: [0, 0, 0], orientation: [0, 0, 0, 0] } })] }))
      .toBe('joints[0] (hinge "h").frame.orientation: quaternion [0,0,0,0] is zero or not finite');
    expect(errorFor({ bodies: B, joints: [hinge({ frame: { position: [0, 0, 0], axis: [0, 0, 1] }, position: undefined })] }))
      .toBe('joints[0] (hinge "h").frame.axis: unknown field "axis"');
  });

  it('per-body frames: both or neither, and not with a world frame', () => {
    const h = (extra: Record<string, unknown>) => hinge({ position: undefined, axis: undefined, ...extra });
    expect(errorFor({ bodies: B, joints: [h({ frameA: { position: [0, 0, 0] } })] })).toBe('joints[0] (hinge "h").frameB: missing required field (frameA and frameB come together)');
    expect(errorFor({ bodies: B, joints: [h({ frameB: { position: [0, 0, 0] } })] })).toBe('joints[0] (hinge "h").frameA: missing required field (frameA and frameB come together)');
    expect(errorFor({ bodies: B, joints: [hinge({ frameA: {}, frameB: {} })] })).toBe('joints[0] (hinge "h").position: give either frameA and frameB (one frame in each body) or a frame in world, not both');
    expect(errorFor({ bodies: B, joints: [h({ frame: { position: [0, 0, 0] }, frameA: {}, frameB: {} })] })).toBe('joints[0] (hinge "h").frame: give either frameA and frameB (one frame in each body) or a frame in world, not both');
    expect(errorFor({ bodies: B, joints: [h({ frameA: { orientation: [0, 0, 0, 0] }, frameB: {} })] })).toBe('joints[0] (hinge "h").frameA.orientation: quaternion [0,0,0,0] is zero or not finite');
  });

  it('duplicate joint names', () => {
    expect(errorFor({ bodies: B, joints: [hinge({}), hinge({ bodyA: 'B', bodyB: 'C', position: [0, 0, -1.5] })] })).toBe('joints[1] (hinge "h").name: duplicate joint name "h"');
    expect(errorFor({ bodies: B, joints: [hinge({ name: 'a b' })] })).toMatch(/^joints\[0\] \(hinge "a b"\)\.name: invalid name "a b"/);
  });
});
