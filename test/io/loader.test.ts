/**
 * The JSON model loader: valid files build the right models (DOF, shape inertia, markers,
 * world points, every force type, rest-length defaults), every kind of bad input gives one
 * `ModelError` line naming the JSON path and the problem, and the committed JSON Schema
 * (docs/model.schema.json) is the one generated from the zod schema.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { parseModel, parseModelDocument } from '../../src/io/loader.js';
import { modelJsonSchema } from '../../src/io/jsonSchema.js';
import { ModelError } from '../../src/model/errors.js';
import { Simulation } from '../../src/simulation.js';
import { AxialSpring, PathSpring } from '../../src/forces/pathSpring.js';
import { FrameSpring } from '../../src/forces/frameSpring.js';
import { LinearMaterial, QuadraticStrainMaterial, ExponentialLigament } from '../../src/forces/materials.js';
import { shapePrincipalInertia } from '../../src/math/spatial.js';
import type { Model } from '../../src/model/model.js';

import { text, load, errorOf } from '../helpers/modelFile.js';

const errorFor = (fields: Record<string, unknown>): ModelError => errorOf(text(fields));

const particle = (name: string, position: unknown[] = [0, 0, 0], extra: Record<string, unknown> = {}) => ({ name, mass: 1, position, ...extra });
const body = (name: string, extra: Record<string, unknown> = {}) => ({ name, mass: 2, inertia: [0.1, 0.2, 0.3, 0, 0, 0], ...extra });
const forcesOf = <T>(m: Model, cls: abstract new (...args: never[]) => T): T[] => m.forces.filter((f): f is T & typeof f => f instanceof cls);

describe('valid models', () => {
  it('applies the defaults and counts degrees of freedom', () => {
    const m = load({ particles: [particle('a'), particle('anchor', [0, 0, 1], { dynamic: false })], bodies: [body('b')] });
    expect(m.settings).toEqual({ gravity: [0, 0, -9.81], integrator: 'implicit-euler', step: 0.01, stabilization: { method: 'projection' }, geometricStiffness: false });
    expect(m.components.map((c) => c.name)).toEqual(['a', 'anchor', 'b']);
    expect(m.dof).toBe(3 + 6);
    expect(Array.from(m.initialQ.slice(6, 13))).toEqual([0, 0, 0, 1, 0, 0, 0]);
    expect(parseModelDocument(text({})).duration).toBeUndefined();
  });

  it('reads settings, velocities and the duration', () => {
    const loaded = parseModelDocument(text({
      gravity: [0, -1, 0], integrator: 'rk4', step: 0.002, duration: 3,
      particles: [particle('a', [1, 2, 3], { velocity: [4, 5, 6], damping: 0.5 })],
      bodies: [body('b', { position: [1, 0, 0], orientation: [2, 0, 0, 0], velocity: [0, 1, 0], angularVelocity: [0, 0, 3], com: [0.1, 0, 0] })],
    }));
    const m = loaded.model;
    expect(m.settings).toEqual({ gravity: [0, -1, 0], integrator: 'rk4', step: 0.002, duration: 3, stabilization: { method: 'projection' }, geometricStiffness: false });
    expect(loaded.duration).toBe(3);
    expect(Array.from(m.initialQ)).toEqual([1, 2, 3, 1, 0, 0, 1, 0, 0, 0]);  // orientation normalised
    expect(Array.from(m.initialU)).toEqual([4, 5, 6, 0, 1, 0, 0, 0, 3]);
    const b = m.bodies[0]!;
    expect(Array.from(b.com)).toEqual([0.1, 0, 0]);
    expect(Array.from(b.inertia)).toEqual([0.1, 0, 0, 0, 0.2, 0, 0, 0, 0.3]);
  });

  it('derives mass and inertia from a shape with density, or scales it to a given mass', () => {
    const m = load({ bodies: [
      body('box', { mass: undefined, inertia: undefined, shape: { type: 'box', size: [1, 2, 3] }, density: 1000 }),
      body('ball', { inertia: undefined, shape: { type: 'sphere', radius: 0.5 }, mass: 3 }),
      body('rod', { mass: undefined, inertia: undefined, shape: { type: 'cylinder', radius: 0.1, length: 2 }, density: 10 }),
      body('pill', { inertia: undefined, shape: { type: 'capsule', radius: 0.1, length: 1 } }),
      body('egg', { inertia: undefined, shape: { type: 'ellipsoid', radii: [1, 2, 3] } }),
    ] });
    const [box, ball, rod, pill, egg] = m.bodies;
    expect(box!.mass).toBeCloseTo(6000, 9);
    expect(box!.inertia[0]).toBeCloseTo((6000 / 12) * (4 + 9), 6);
    expect(box!.inertia[8]).toBeCloseTo((6000 / 12) * (1 + 4), 6);
    expect(ball!.mass).toBe(3);
    expect(ball!.inertia[4]).toBeCloseTo(0.4 * 3 * 0.25, 12);
    expect(rod!.mass).toBeCloseTo(10 * Math.PI * 0.01 * 2, 12);
    expect(rod!.inertia[8]).toBeCloseTo(0.5 * rod!.mass * 0.01, 12);
    expect(pill!.inertia[0]).toBeCloseTo(shapePrincipalInertia({ type: 'capsule', radius: 0.1, length: 1 }, 2)[0], 12);
    expect(egg!.inertia[0]).toBeCloseTo((2 / 5) * (4 + 9), 12);
    expect(Array.from(egg!.inertia).filter((_, k) => k % 4 !== 0)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('attaches springs to markers and world points, with the initial length as the default rest length', () => {
    const c = Math.SQRT1_2;
    const m = load({
      particles: [particle('p', [3, 0, 0])],
      // body rotated 90° about z: the marker at body [1, 0, 0] sits at world [0, 1, 1]
      bodies: [body('b', { position: [0, 0, 1], orientation: [c, 0, 0, c] })],
      markers: [{ name: 'tip', body: 'b', location: [1, 0, 0] }],
      forces: [
        { type: 'axial-spring', name: 'to-world', points: ['tip', ['world', [0, 1, 3]]], stiffness: 10 },
        { type: 'axial-spring', name: 'given', points: ['p', 'tip'], stiffness: 10, damping: 1, restLength: 0.5 },
      ],
    });
    const [toWorld, given] = forcesOf(m, AxialSpring);
    expect(toWorld!.restLength).toBeCloseTo(2, 12);
    expect(toWorld!.points.map((p) => p.kind)).toEqual([2, 0]);
    expect(Array.from(toWorld!.points[0]!.local)).toEqual([1, 0, 0]);
    expect(Array.from(toWorld!.points[1]!.local)).toEqual([0, 1, 3]);
    expect(given!.restLength).toBe(0.5);
    expect(given!.material).toBeInstanceOf(LinearMaterial);
    expect((given!.material as LinearMaterial).damping).toBe(1);
  });

  it('builds every force type and material', () => {
    const m = load({
      particles: [particle('a', [1, 0, 0]), particle('b', [1, 1, 0])],
      bodies: [body('B', { position: [0, 0, -1] }), body('C', { position: [0, 0, -2] })],
      forces: [
        { type: 'axial-spring', points: [['world', [0, 0, 0]], 'a'], stiffness: 10, material: 'quadratic-strain' },
        { type: 'axial-spring', points: ['a', 'b'], stiffness: 10, material: { type: 'exponential-ligament', toeStrain: 0.05, toeShape: 20 } },
        { type: 'multipoint-spring', name: 'path', points: [['world', [0, 0, 0]], 'a', 'b'], stiffness: 5, material: { type: 'exponential-ligament' } },
        { type: 'multipoint-spring', name: 'half', points: [['world', [0, 0, 0]], 'a', 'b'], stiffness: 5, passive: [1] },
        { type: 'frame-spring', name: 'bush', bodyA: 'world', bodyB: 'B', frame: { position: [0, 0, -0.5] },
          translationalStiffness: 100, rotationalStiffness: 10, rotationalDamping: 0.1 },
        { type: 'frame-spring', bodyA: 'B', bodyB: 'C', frame: { position: [0, 0, -1.5], orientation: [0, 0, 0, 1] },
          translationalStiffness: 100, rotationalStiffness: 10 },
      ],
    });
    const springs = forcesOf(m, PathSpring);
    expect(springs.map((s) => s.name)).toEqual(['axial-spring#0', 'axial-spring#1', 'path', 'half']);
    expect(springs[0]).toBeInstanceOf(AxialSpring);
    expect(springs[0]!.material).toBeInstanceOf(QuadraticStrainMaterial);
    const lig = springs[1]!.material as ExponentialLigament;
    expect(lig).toBeInstanceOf(ExponentialLigament);
    expect([lig.toeStrain, lig.toeShape]).toEqual([0.05, 20]);
    expect((springs[2]!.material as ExponentialLigament).toeShape).toBe(30);
    // the multipoint rest length is the initial path length over the active segments
    expect(springs[2]!.restLength).toBeCloseTo(2, 12);
    expect(springs[3]!.restLength).toBeCloseTo(1, 12);
    const frames = forcesOf(m, FrameSpring);
    expect(frames.map((f) => f.name)).toEqual(['bush', 'frame-spring#5']);
    expect(frames[0]!.bodyA).toBeNull();
    expect(frames[0]!.bodyB).toBe(m.bodies[0]);
    expect(frames[1]!.bodyA).toBe(m.bodies[0]);
    // and the model simulates
    const sim = new Simulation(m);
    sim.steps(10);
    expect(sim.state.q.every(Number.isFinite)).toBe(true);
  });

  it('loads the example of docs/model-format.md', () => {
    const md = readFileSync(new URL('../../docs/model-format.md', import.meta.url), 'utf8');
    const example = /## Example\s+```json\n([\s\S]*?)\n```/.exec(md)![1]!;
    const m = parseModel(example, { source: 'model-format.md' });
    expect(m.dof).toBe(3 + 6);
    const [cord, cable] = forcesOf(m, PathSpring);
    expect(cord!.restLength).toBeCloseTo(1, 12);
    expect(cable!.restLength).toBeCloseTo(Math.hypot(0.4, 0.5), 12);
  });

  it('loads every example shipped in examples/', () => {
    const dir = new URL('../../examples/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toContain('default-demo.json');
    for (const f of files) expect(parseModel(readFileSync(new URL(f, dir), 'utf8'), { source: f }).dof).toBeGreaterThan(0);
  });
});

describe('invalid models: one line naming the path and the problem', () => {
  it('rejects text that is not JSON', () => {
    expect(errorOf('{"version": 1,\n  "particles": [}').message).toBe('(model): not valid JSON: line 2, column 17: unexpected "}"');
    expect(errorOf('').message).toMatch(/not valid JSON/);
    expect(errorOf('[1, 2]').message).toBe('(model): the model must be a JSON object, got an array of 2');
  });

  it('prefixes messages with the source', () => {
    expect(errorOf('{', 'model.json').message).toMatch(/^model\.json: not valid JSON/);
    expect(errorOf(text({ step: -1 }), 'model.json').message).toBe('model.json: step: must be positive (got -1)');
  });

  it('requires a supported version', () => {
    expect(errorOf('{}').message).toMatch(/^version: missing required field "version"/);
    expect(errorOf('{"version": 2}').message).toBe('version: unsupported version 2; this loader reads version 1');
    expect(errorOf('{"version": "1"}').message).toMatch(/^version: unsupported version "1"/);
  });

  it('reports a missing required field', () => {
    expect(errorFor({ particles: [{ name: 'a', position: [0, 0, 0] }] }).message).toBe('particles[0].mass: missing required field');
    expect(errorFor({ markers: [{ name: 'm', body: 'b' }] }).message).toMatch(/^markers\[0\]\.location: missing required field/);
    expect(errorFor({ forces: [{ type: 'axial-spring', points: [['world', [0, 0, 0]], ['world', [1, 0, 0]]] }] }).message)
      .toMatch(/^forces\[0\] \(axial-spring\)\.stiffness: missing required field/);
    expect(errorFor({ forces: [{ name: 'f', points: [] }] }).message).toMatch(/^forces\[0\] \("f"\)\.type: missing required field; expected "axial-spring"/);
  });

  it('reports an unknown field', () => {
    expect(errorFor({ bodies: [body('b', { intertia: [1, 1, 1, 0, 0, 0] })] }).message).toBe('bodies[0].intertia: unknown field "intertia"');
    expect(errorFor({ gravitation: [0, 0, 0] }).message).toBe('gravitation: unknown field "gravitation"');
    expect(errorFor({ forces: [{ type: 'frame-spring', name: 'k', bodyA: 'world', bodyB: 'b', frame: { position: [0, 0, 0], axis: [1, 0, 0] },
      translationalStiffness: 1, rotationalStiffness: 1 }] }).message).toBe('forces[0] (frame-spring "k").frame.axis: unknown field "axis"');
  });

  it('reports a wrong type', () => {
    expect(errorFor({ particles: [particle('a', [0, 0, 0], { mass: '1' })] }).message).toBe('particles[0].mass: expected a number, got the string "1"');
    expect(errorFor({ particles: [particle('a', [0, 0])] }).message).toBe('particles[0].position: expected at least 3 items, got 2');
    expect(errorFor({ bodies: [body('b', { dynamic: 'yes' })] }).message).toBe('bodies[0].dynamic: expected true or false, got the string "yes"');
    expect(errorFor({ integrator: 'euler' }).message).toMatch(/^integrator: expected "symplectic-euler", .* or "rk4", got "euler"$/);
    expect(errorFor({ forces: [{ type: 'spring' }] }).message).toMatch(/^forces\[0\]\.type: unknown type "spring"; expected "axial-spring", "multipoint-spring" or "frame-spring"$/);
    expect(errorFor({ forces: [{ type: 'axial-spring', name: 's', points: ['a', ['wrld', [0, 0, 0]]], stiffness: 1 }] }).message)
      .toBe('forces[0] (axial-spring "s").points[1][0]: expected "world", got "wrld"');
    expect(errorFor({ forces: [{ type: 'axial-spring', name: 's', points: ['a', 7], stiffness: 1 }] }).message)
      .toMatch(/^forces\[0\] \(axial-spring "s"\)\.points\[1\]: expected a particle or marker name, or \["world", \[x, y, z\]\], got number 7$/);
    expect(errorFor({ forces: [{ type: 'axial-spring', name: 's', points: ['a', 'b'], stiffness: 1, material: 'steel' }] }).message)
      .toMatch(/^forces\[0\] \(axial-spring "s"\)\.material: expected "linear", .*got the string "steel"$/);
    expect(errorFor({ forces: [{ type: 'multipoint-spring', points: ['a', 'b'], stiffness: 1, passive: [0.5] }] }).message)
      .toBe('forces[0] (multipoint-spring).passive[0]: must be an integer (got 0.5)');
    expect(errorFor({ particles: [particle('a b')] }).message).toMatch(/^particles\[0\]\.name: invalid name "a b": names use letters/);
  });

  it('rejects a non-positive mass', () => {
    expect(errorFor({ particles: [particle('a', [0, 0, 0], { mass: 0 })] }).message).toBe('particles[0].mass: must be positive (got 0)');
    expect(errorFor({ bodies: [body('b', { mass: -2 })] }).message).toBe('bodies[0].mass: must be positive (got -2)');
    expect(errorFor({ bodies: [body('b', { mass: undefined, inertia: undefined, shape: { type: 'sphere', radius: 1 }, density: 0 })] }).message)
      .toBe('bodies[0].density: must be positive (got 0)');
  });

  it('rejects an inertia that is not positive definite, and inconsistent mass data', () => {
    expect(errorFor({ bodies: [body('b', { inertia: [1, 1, 1, 2, 0, 0] })] }).message).toBe('bodies[0].inertia: inertia [1,1,1,2,0,0] is not positive definite');
    expect(errorFor({ bodies: [body('b', { inertia: [1, 1, -1, 0, 0, 0] })] }).message).toMatch(/^bodies\[0\]\.inertia: .*not positive definite$/);
    expect(errorFor({ bodies: [body('b', { shape: { type: 'sphere', radius: 1 } })] }).message).toBe('bodies[0].inertia: give either inertia or shape, not both');
    expect(errorFor({ bodies: [body('b', { inertia: undefined, density: 5, shape: { type: 'sphere', radius: 1 } })] }).message)
      .toBe('bodies[0].density: give either mass or density with a shape, not both');
    expect(errorFor({ bodies: [body('b', { mass: undefined, inertia: undefined, shape: { type: 'sphere', radius: 1 } })] }).message)
      .toBe('bodies[0].mass: missing: a body with a shape needs mass or density');
    expect(errorFor({ bodies: [body('b', { inertia: undefined })] }).message).toBe('bodies[0]: a body needs inertia (with mass), or shape or shapes (with density or mass)');
    expect(errorFor({ bodies: [body('b', { shape: undefined, inertia: undefined })].map((b) => ({ ...b, shape: { type: 'cone', radius: 1 } })) }).message)
      .toMatch(/^bodies\[0\]\.shape\.type: unknown type "cone"/);
    expect(errorFor({ bodies: [body('b', { inertia: undefined, shape: { type: 'box', size: [1, 0, 1] } })] }).message).toBe('bodies[0].shape.size[1]: must be positive (got 0)');
  });

  it('rejects a zero or non-finite quaternion', () => {
    expect(errorFor({ bodies: [body('b', { orientation: [0, 0, 0, 0] })] }).message).toBe('bodies[0].orientation: quaternion [0,0,0,0] is zero or not finite');
    expect(errorFor({ bodies: [body('b', { orientation: ['INF', 0, 0, 0] })] }).message).toMatch(/^bodies\[0\]\.orientation\[0\]: must be a finite number/);
    expect(errorFor({ bodies: [body('b')], forces: [{ type: 'frame-spring', name: 'k', bodyA: 'world', bodyB: 'b',
      frame: { position: [0, 0, 0], orientation: [0, 0, 0, 0] }, translationalStiffness: 1, rotationalStiffness: 1 }] }).message)
      .toBe('forces[0] (frame-spring "k").frame.orientation: quaternion [0,0,0,0] is zero or not finite');
  });

  it('rejects a reference to a component that does not exist', () => {
    const ps = [particle('a'), particle('b', [1, 0, 0])];
    expect(errorFor({ particles: ps, forces: [{ type: 'axial-spring', name: 's1', points: ['a', 'ghost'], stiffness: 1 }] }).message)
      .toBe('forces[0] (axial-spring "s1").points[1]: no particle or marker named "ghost"');
    expect(errorFor({ markers: [{ name: 'm', body: 'nobody', location: [0, 0, 0] }] }).message).toBe('markers[0].body: no body named "nobody"');
    expect(errorFor({ particles: ps, markers: [{ name: 'm', body: 'a', location: [0, 0, 0] }] }).message).toBe('markers[0].body: "a" is a particle, not a body');
    expect(errorFor({ bodies: [body('B')], forces: [{ type: 'axial-spring', points: ['B', ['world', [0, 0, 0]]], stiffness: 1 }] }).message)
      .toBe('forces[0] (axial-spring).points[0]: "B" is a body; attach forces to a marker on it');
    const frame = { frame: { position: [0, 0, 0] }, translationalStiffness: 1, rotationalStiffness: 1 };
    expect(errorFor({ bodies: [body('B')], forces: [{ type: 'frame-spring', bodyA: 'B', bodyB: 'C', ...frame }] }).message)
      .toBe('forces[0] (frame-spring).bodyB: no body named "C" (use a body name or "world")');
    expect(errorFor({ particles: ps, forces: [{ type: 'frame-spring', bodyA: 'a', bodyB: 'world', ...frame }] }).message)
      .toMatch(/^forces\[0\] \(frame-spring\)\.bodyA: "a" is a particle/);
    expect(errorFor({ forces: [{ type: 'frame-spring', bodyA: 'world', bodyB: 'world', ...frame }] }).message).toBe('forces[0] (frame-spring).bodyB: bodyA and bodyB are both "world"');
    expect(errorFor({ bodies: [body('B')], forces: [{ type: 'frame-spring', bodyA: 'B', bodyB: 'B', ...frame }] }).message)
      .toBe('forces[0] (frame-spring).bodyB: bodyA and bodyB are the same body "B"');
  });

  it('rejects duplicate names', () => {
    expect(errorFor({ particles: [particle('a'), particle('a')] }).message).toBe('particles[1].name: duplicate name "a"');
    expect(errorFor({ particles: [particle('x')], bodies: [body('x')] }).message).toBe('bodies[0].name: duplicate name "x"');
    expect(errorFor({ bodies: [body('b')], markers: [{ name: 'b', body: 'b', location: [0, 0, 0] }] }).message).toBe('markers[0].name: duplicate name "b"');
    expect(errorFor({ particles: [particle('world')] }).message).toBe('particles[0].name: the name "world" is reserved');
    const spring = { type: 'axial-spring', name: 's', points: [['world', [0, 0, 0]], 'a'], stiffness: 1 };
    expect(errorFor({ particles: [particle('a', [1, 0, 0])], forces: [spring, spring] }).message).toBe('forces[1] (axial-spring "s").name: duplicate force name "s"');
  });

  it('rejects numbers that overflow to Infinity, anywhere', () => {
    expect(errorFor({ gravity: [0, 0, 'INF'] }).message).toBe('gravity[2]: must be a finite number (this value overflows to Infinity)');
    expect(errorFor({ step: 'INF' }).message).toMatch(/^step: must be a finite number/);
    expect(errorFor({ particles: [particle('a', [0, 'INF', 0])] }).message).toMatch(/^particles\[0\]\.position\[1\]: must be a finite number/);
    expect(errorFor({ bodies: [body('b', { inertia: [1, 1, 1, 0, 0, 'INF'] })] }).message).toMatch(/^bodies\[0\]\.inertia\[5\]: must be a finite number/);
    expect(errorFor({ forces: [{ type: 'axial-spring', points: ['a', ['world', [0, 0, 'INF']]], stiffness: 1 }] }).message)
      .toMatch(/^forces\[0\] \(axial-spring\)\.points\[1\]\[1\]\[2\]: must be a finite number/);
    expect(errorFor({ forces: [{ type: 'axial-spring', points: ['a', 'b'], stiffness: 'INF' }] }).message).toMatch(/^forces\[0\] \(axial-spring\)\.stiffness: must be a finite number/);
  });

  it('checks spring paths and rest lengths', () => {
    const ps = [particle('a'), particle('b', [1, 0, 0])];
    expect(errorFor({ particles: ps, forces: [{ type: 'multipoint-spring', points: ['a', 'b'], stiffness: 1, passive: [1] }] }).message)
      .toBe('forces[0] (multipoint-spring).passive[0]: segment 1 does not exist (the path has 1 segment, 0 to 0)');
    expect(errorFor({ particles: ps, forces: [{ type: 'multipoint-spring', points: ['a', 'b'], stiffness: 1, passive: [0] }] }).message)
      .toBe('forces[0] (multipoint-spring).passive: every segment is passive; at least one must add length');
    expect(errorFor({ particles: ps, forces: [{ type: 'multipoint-spring', points: ['a'], stiffness: 1 }] }).message)
      .toBe('forces[0] (multipoint-spring).points: expected at least 2 items, got 1');
    expect(errorFor({ particles: ps, forces: [{ type: 'axial-spring', points: ['a', 'a'], stiffness: 1 }] }).message)
      .toBe('forces[0] (axial-spring).points[1]: same point as points[0]');
    expect(errorFor({ particles: [particle('a'), particle('b')], forces: [{ type: 'axial-spring', points: ['a', 'b'], stiffness: 1, material: 'quadratic-strain' }] }).message)
      .toBe('forces[0] (axial-spring).restLength: missing: the initial length is 0, and material quadratic-strain needs a positive restLength (its strain divides by it)');
    expect(errorFor({ particles: ps, forces: [{ type: 'axial-spring', points: ['a', 'b'], stiffness: -1 }] }).message)
      .toBe('forces[0] (axial-spring).stiffness: must be non-negative (got -1)');
  });

  it('counts the further problems on the same line', () => {
    const e = errorFor({ step: 0, particles: [{ name: 'a' }] });
    expect(e.message).toMatch(/^step: must be positive \(got 0\) \(and 2 more problems\)$/);
  });
});

describe('JSON Schema', () => {
  it('docs/model.schema.json is the schema generated from the zod schema', () => {
    const committed: unknown = JSON.parse(readFileSync(new URL('../../docs/model.schema.json', import.meta.url), 'utf8'));
    // regenerate with: npm run schema
    expect(committed).toEqual(modelJsonSchema());
  });

  it('describes the top-level fields with their defaults', () => {
    const s = modelJsonSchema() as { properties: Record<string, { default?: unknown }>; required: string[]; additionalProperties: boolean };
    expect(s.required).toEqual(['version']);
    expect(s.additionalProperties).toBe(false);
    expect(s.properties.integrator!.default).toBe('implicit-euler');
    expect(s.properties.step!.default).toBe(0.01);
    expect(s.properties.gravity!.default).toEqual([0, 0, -9.81]);
  });
});
