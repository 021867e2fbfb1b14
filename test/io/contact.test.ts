/**
 * The contact part of the model file (docs/model-format.md, Contact): the `contact` settings, world
 * shapes, the collision shapes of bodies and particles with their materials, joint limits and
 * motors reach the Model as the format says (defaults, order, poses, bounds), and every bad input
 * gives one ModelError line naming the JSON path.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseModel } from '../../src/io/loader.js';
import { rotationFromZ } from '../../src/io/contact.js';
import { modelJsonSchema } from '../../src/io/jsonSchema.js';
import { DEFAULT_CONTACT } from '../../src/model/contactModel.js';
import { quatRotate } from '../../src/math/quat.js';
import { load, errorOf, text } from '../helpers/modelFile.js';
import { checkMutations } from './mutations.js';

/** the one-line message of the ModelError that loading raises */
const errorFor = (fields: Record<string, unknown>): string => errorOf(text(fields)).message;

type Vec3 = [number, number, number];
const ball = (name: string, extra: Record<string, unknown> = {}) =>
  ({ name, shape: { type: 'sphere', radius: 0.1 }, mass: 1, ...extra });
const floor = { world: { shapes: [{ type: 'plane' }] } };
/** a bar on a hinge about world y, with the extra fields on the joint */
const hinged = (extra: Record<string, unknown>) => ({
  bodies: [{ name: 'bar', mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0.5, 0, 0] }],
  joints: [{ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0], ...extra }],
});
/** the world direction of the +z axis of a frame with orientation q */
const zAxis = (q: readonly number[]): number[] =>
  Array.from(quatRotate(new Float64Array(3), Float64Array.from(q), Float64Array.of(0, 0, 1)));

describe('contact settings', () => {
  it('default to DEFAULT_CONTACT, and a model without contact entries has no shapes, limits or motors', () => {
    const m = load({ bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }] });
    expect(m.contact).toEqual(DEFAULT_CONTACT);
    expect([m.shapes.length, m.limits.length, m.motors.length]).toEqual([0, 0, 0]);
    expect(load({ contact: {} }).contact).toEqual(DEFAULT_CONTACT);
  });

  it('take every field, the solver-specific ones under their solver or auto', () => {
    const pgs = { solver: 'pgs', margin: 0.02, erp: 0.5, restitutionThreshold: 0.1, friction: 'box', iterations: 30, tolerance: 1e-8 };
    expect(load({ contact: pgs }).contact).toEqual({ ...pgs, directions: DEFAULT_CONTACT.directions });
    expect(load({ contact: { solver: 'lemke', directions: 16 } }).contact.directions).toBe(16);
    expect(load({ contact: { directions: 4, iterations: 7 } }).contact).toMatchObject({ solver: 'auto', directions: 4, iterations: 7 });
  });

  it('carry their defaults in the JSON Schema', () => {
    const s = modelJsonSchema() as { $defs: { Contact: { properties: Record<string, { default?: unknown }> } } };
    const p = s.$defs.Contact.properties;
    expect([p.solver!.default, p.margin!.default, p.erp!.default, p.restitutionThreshold!.default])
      .toEqual([DEFAULT_CONTACT.solver, DEFAULT_CONTACT.margin, DEFAULT_CONTACT.erp, DEFAULT_CONTACT.restitutionThreshold]);
  });
});

describe('shapes', () => {
  it('world shapes first, then the components\' in component order (particles, then bodies)', () => {
    const m = load({
      world: { shapes: [{ type: 'plane' }, { type: 'box', size: [1, 1, 1], position: [0, 0, -2] }] },
      bodies: [ball('a'), { name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }, ball('c')],
      particles: [{ name: 'p', mass: 1, position: [0, 0, 1], radius: 0.05 }, { name: 'q', mass: 1, position: [0, 0, 2] }],
    });
    expect(m.shapes.map((s) => [s.name, s.component])).toEqual([
      ['world.shapes[0]', -1], ['world.shapes[1]', -1], ['particle:p', 0], ['body:a', 2], ['body:c', 4],
    ]);
    expect(m.components.map((c) => c.name)).toEqual(['p', 'q', 'a', 'b', 'c']);
  });

  it('a body\'s shape sits on its centre of mass with the body\'s axes, its sizes halved where the file gives full ones', () => {
    const com: Vec3 = [0.1, -0.2, 0.3];
    const shapes: [Record<string, unknown>, string, number[]][] = [
      [{ type: 'sphere', radius: 0.5 }, 'sphere', [0.5]],
      [{ type: 'capsule', radius: 0.5, length: 2 }, 'capsule', [0.5, 1]],
      [{ type: 'box', size: [1, 2, 3] }, 'box', [0.5, 1, 1.5]],
      [{ type: 'cylinder', radius: 0.5, length: 3 }, 'cylinder', [0.5, 1.5]],
      [{ type: 'ellipsoid', radii: [1, 2, 3] }, 'ellipsoid', [1, 2, 3]],
    ];
    const m = load({ bodies: shapes.map(([shape], i) => ({ name: `b${i}`, shape, mass: 1, com, orientation: [0, 1, 0, 0] })) });
    m.shapes.forEach((s, i) => {
      expect(s).toEqual({
        name: `body:b${i}`, kind: shapes[i]![1], component: i, params: shapes[i]![2], position: com,
        orientation: [1, 0, 0, 0], material: { friction: 0.5, restitution: 0, compliance: 0, damping: 0 }, collide: true,
      });
    });
  });

  it('materials reach the entries; defaults friction 0.5, restitution 0, compliance 0, damping 0, collide true', () => {
    const mat = { friction: 0.9, restitution: 0.4, compliance: 1e-6, damping: 0.01, collide: false };
    const m = load({
      world: { shapes: [{ type: 'sphere', radius: 1, ...mat }] },
      particles: [{ name: 'p', mass: 1, position: [0, 0, 3], radius: 0.1, friction: 0.2, contactDamping: 0.03, compliance: 1e-5 }],
      bodies: [{ ...ball('b'), shape: { type: 'sphere', radius: 0.1, restitution: 1 } }],
    });
    const { collide, ...surface } = mat;
    expect([m.shapes[0]!.material, m.shapes[0]!.collide]).toEqual([surface, collide]);
    expect([m.shapes[1]!.material, m.shapes[1]!.collide])
      .toEqual([{ friction: 0.2, restitution: 0, compliance: 1e-5, damping: 0.03 }, true]);
    expect(m.shapes[1]!.params).toEqual([0.1]);
    expect(m.shapes[2]!.material).toEqual({ friction: 0.5, restitution: 1, compliance: 0, damping: 0 });
  });

  it('leave a body\'s mass and inertia as the shape alone gives them', () => {
    const shape = { type: 'capsule', radius: 0.1, length: 0.4 };
    const bare = load({ bodies: [{ name: 'b', shape, density: 900 }] }).bodies[0]!;
    const surface = { friction: 2, restitution: 0.5, compliance: 1e-3, damping: 0.1, collide: false };
    const dressed = load({ bodies: [{ name: 'b', shape: { ...shape, ...surface }, density: 900 }] }).bodies[0]!;
    expect([dressed.mass, ...dressed.inertia]).toEqual([bare.mass, ...bare.inertia]);
  });

  it('a world shape takes its position and normalised orientation', () => {
    const s = load({ world: { shapes: [{ type: 'box', size: [2, 2, 2], position: [1, 2, 3], orientation: [2, 0, 0, 0] }] } }).shapes[0]!;
    expect([s.position, s.orientation, s.params]).toEqual([[1, 2, 3], [1, 0, 0, 0], [1, 1, 1]]);
  });

  it('a plane from its normal has its +z along the normal (an incline), at any length and direction', () => {
    const s = load({ world: { shapes: [{ type: 'plane', normal: [0, -3, 4], position: [0, 0, 1] }] } }).shapes[0]!;
    expect(s.kind).toBe('plane');
    expect(s.params).toEqual([]);
    zAxis(s.orientation).forEach((v, k) => expect(v).toBeCloseTo([0, -0.6, 0.8][k]!, 15));
    expect(load({ world: { shapes: [{ type: 'plane', normal: [0, 0, -2] }] } }).shapes[0]!.orientation).toEqual([0, 1, 0, 0]);
    expect(load({ world: { shapes: [{ type: 'plane', normal: [0, 0, 5] }] } }).shapes[0]!.orientation).toEqual([1, 0, 0, 0]);
    // the shortest rotation: unit, no twist about z (q_z = 0), and exact to rounding even next to −z
    const component = fc.double({ min: -1e3, max: 1e3, noNaN: true });
    fc.assert(fc.property(fc.tuple(component, component, component), fc.integer({ min: -300, max: 300 }), (v, e) => {
      const n = v.map((x) => x * 2 ** e);
      const m = Math.max(...n.map(Math.abs));
      fc.pre(m > 0 && Number.isFinite(m));
      const q = rotationFromZ(n)!, l = Math.hypot(...n.map((x) => x / m));
      expect(Math.hypot(...q)).toBeCloseTo(1, 14);
      expect(q[3]).toBe(0);
      zAxis(q).forEach((x, k) => expect(Math.abs(x - n[k]! / m / l)).toBeLessThan(1e-14));
    }), { seed: 42, numRuns: 300 });
    const nearDown = rotationFromZ([1e-9, 0, -1])!;
    zAxis(nearDown).forEach((x, k) => expect(Math.abs(x - [1e-9, 0, -1][k]!)).toBeLessThan(1e-16));
  });
});

describe('limits and motors', () => {
  it('limits: null bounds are ±Infinity; the object form carries restitution, compliance and damping', () => {
    const cyl = load({
      bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }],
      joints: [
        { type: 'hinge', bodyA: 'world', bodyB: 'b', position: [0, 0, 0], axis: [0, 0, 1], limits: { rz: [null, 0.5] } },
        {
          type: 'cylindrical', name: 'c', bodyA: 'world', bodyB: 'b', position: [0, 0, 0],
          limits: { rz: [-1, null], tz: { range: [-0.1, 0.2], restitution: 0.3, compliance: 1e-4, damping: 0.01 } },
        },
      ],
    });
    const hard = { restitution: 0, compliance: 0, damping: 0 };
    expect(cyl.limits).toEqual([
      { constraint: 0, joint: 'hinge#0', coordinate: 0, coordinateName: 'rz', lower: -Infinity, upper: 0.5, ...hard },
      // in the joint's coordinate order (tz, rz), whatever the file's key order
      {
        constraint: 1, joint: 'c', coordinate: 0, coordinateName: 'tz', lower: -0.1, upper: 0.2,
        restitution: 0.3, compliance: 1e-4, damping: 0.01,
      },
      { constraint: 1, joint: 'c', coordinate: 1, coordinateName: 'rz', lower: -1, upper: Infinity, ...hard },
    ]);
    // equal bounds hold the coordinate; a hinge angle may be limited past a half turn
    expect(load(hinged({ limits: { rz: [4, 4] } })).limits[0]).toMatchObject({ lower: 4, upper: 4 });
  });

  it('motors: a velocity target, or a position target with an optional time constant', () => {
    const m = load({
      bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }, { name: 'c', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }],
      joints: [
        {
          type: 'gimbal', name: 'g', bodyA: 'world', bodyB: 'b', position: [0, 0, 0],
          motors: { psi: { position: 0.2, time: 0.1, maxForce: 5 }, theta: { velocity: -1, maxForce: 2 } },
        },
        {
          type: 'slider', name: 's', bodyA: 'b', bodyB: 'c', position: [0, 0, 0],
          motors: { tz: { position: 3, maxForce: 100 } },
        },
      ],
    });
    const g = { constraint: 0, joint: 'g' };
    expect(m.motors).toEqual([
      { ...g, coordinate: 0, coordinateName: 'theta', mode: 'velocity', target: -1, time: null, maxForce: 2 },
      { ...g, coordinate: 2, coordinateName: 'psi', mode: 'position', target: 0.2, time: 0.1, maxForce: 5 },
      { constraint: 1, joint: 's', coordinate: 0, coordinateName: 'tz', mode: 'position', target: 3, time: null, maxForce: 100 },
    ]);
  });

  it('rk4 loads a model with shapes (its contacts fail the step where they touch: test/contact/checkpoint.test.ts)', () => {
    const quiet = ball('a', { shape: { type: 'sphere', radius: 0.1, collide: false } });
    expect(load({ integrator: 'rk4', ...floor, bodies: [quiet] }).shapes.length).toBe(2);
    expect(load({ integrator: 'rk4', bodies: [ball('a')] }).shapes.length).toBe(1);
    expect(load({ integrator: 'rk4', bodies: [ball('a', { dynamic: false })], ...floor }).shapes.length).toBe(2);
    expect(load({ integrator: 'rk4', bodies: [ball('a'), ball('b', { position: [1, 0, 0], dynamic: false })] }).shapes.length).toBe(2);
  });
});

describe('bad contact input: one line naming the path', () => {
  it('materials out of range', () => {
    expect(errorFor({ bodies: [ball('b', { shape: { type: 'sphere', radius: 0.1, friction: -0.1 } })] }))
      .toBe('bodies[0].shape.friction: must be non-negative (got -0.1)');
    expect(errorFor({ world: { shapes: [{ type: 'plane', restitution: 1.5 }] } }))
      .toBe('world.shapes[0].restitution: must be <= 1 (got 1.5)');
    expect(errorFor({ particles: [{ name: 'p', mass: 1, position: [0, 0, 0], radius: 0.1, restitution: -1 }] }))
      .toBe('particles[0].restitution: must be non-negative (got -1)');
    expect(errorFor({ world: { shapes: [{ type: 'plane', compliance: -1e-3 }] } }))
      .toBe('world.shapes[0].compliance: must be non-negative (got -0.001)');
  });

  it('the contact settings', () => {
    expect(errorFor({ contact: { solver: 'dantzig' } }))
      .toBe('contact.solver: expected "auto", "pivoting", "lemke" or "pgs", got "dantzig"');
    expect(errorFor({ contact: { erp: 2 } })).toBe('contact.erp: must be <= 1 (got 2)');
    expect(errorFor({ contact: { margin: -0.01 } })).toBe('contact.margin: must be non-negative (got -0.01)');
    expect(errorFor({ contact: { directions: 2 } })).toBe('contact.directions: must be >= 3 (got 2)');
    expect(errorFor({ contact: { iterations: 1.5 } })).toBe('contact.iterations: must be an integer (got 1.5)');
    expect(errorFor({ contact: { tolerance: 0 } })).toBe('contact.tolerance: must be positive (got 0)');
    expect(errorFor({ contact: { friction: 'cone' } })).toBe('contact.friction: expected "box" or "coulomb", got "cone"');
    // a solver's own field under another solver
    expect(errorFor({ contact: { solver: 'pivoting', iterations: 10 } }))
      .toBe('contact.iterations: applies to solver "pgs" (or "auto"), not "pivoting"');
    expect(errorFor({ contact: { solver: 'pgs', directions: 16 } }))
      .toBe('contact.directions: applies to solver "lemke" (or "auto"), not "pgs"');
  });

  it('planes: a zero normal, normal with orientation, a plane on a body, a normal on a solid', () => {
    expect(errorFor({ world: { shapes: [{ type: 'plane', normal: [0, 0, 0] }] } })).toBe('world.shapes[0].normal: must not be zero');
    expect(errorFor({ world: { shapes: [{ type: 'plane', normal: [0, 0, 1], orientation: [1, 0, 0, 0] }] } }))
      .toBe('world.shapes[0].normal: give either normal or orientation, not both');
    expect(errorFor({ bodies: [{ name: 'b', shape: { type: 'plane' }, mass: 1 }] }))
      .toBe('bodies[0].shape.type: unknown type "plane"; expected "box", "sphere", "cylinder", "capsule", "ellipsoid", "hull", "mesh" or "heightfield"'
        + ' (a plane is a world shape: give it in world.shapes)');
    expect(errorFor({ world: { shapes: [{ type: 'sphere', radius: 1, normal: [0, 0, 1] }] } }))
      .toBe('world.shapes[0].normal: unknown field "normal"');
    expect(errorFor({ world: { shapes: [{ type: 'plane', orientation: [0, 0, 0, 0] }] } }))
      .toBe('world.shapes[0].orientation: quaternion [0,0,0,0] is zero or not finite');
  });

  it('a particle\'s surface without a radius, and a radius that is not positive', () => {
    expect(errorFor({ particles: [{ name: 'p', mass: 1, position: [0, 0, 0], friction: 0.3 }] }))
      .toBe('particles[0].friction: a particle collides only with a radius (give radius)');
    expect(errorFor({ particles: [{ name: 'p', mass: 1, position: [0, 0, 0], radius: 0 }] }))
      .toBe('particles[0].radius: must be positive (got 0)');
  });

  it('limits: lower > upper, no bound, an angle out of its range, damping on a hard limit, a bad form', () => {
    const at = 'joints[0] (hinge "h").limits.rz';
    expect(errorFor(hinged({ limits: { rz: [0.5, 0.2] } }))).toBe(`${at}: lower 0.5 > upper 0.2`);
    expect(errorFor(hinged({ limits: { rz: { range: [0.5, 0.2] } } }))).toBe(`${at}.range: lower 0.5 > upper 0.2`);
    expect(errorFor(hinged({ limits: { rz: [null, null] } })))
      .toBe(`${at}: both bounds are null (give at least one, or leave the coordinate out)`);
    expect(errorFor(hinged({ limits: { rz: [-30, 30] } })))
      .toBe(`${at}: lower -30 is outside the values of rz, (−2π, 2π) rad (angles are in radians)`);
    expect(errorFor(hinged({ limits: { rz: { range: [0, 1], damping: 0.1 } } })))
      .toBe(`${at}.damping: acts on a compliant limit only (give compliance > 0); this limit is hard`);
    expect(errorFor(hinged({ limits: { rz: { range: [0, 1], restitution: 2 } } }))).toBe(`${at}.restitution: must be <= 1 (got 2)`);
    expect(errorFor(hinged({ limits: { rz: 0.5 } })))
      .toBe(`${at}: expected [lower, upper] or {"range": [lower, upper], …}, got number 0.5`);
    expect(errorFor(hinged({ limits: { rz: [0, '1'] } }))).toBe(`${at}[1]: expected a number, got the string "1"`);
  });

  it('a universal or gimbal angle is limited inside (−π, π), gimbal phi inside (−π/2, π/2)', () => {
    const body = { name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0] };
    const joint = (type: string, limits: Record<string, unknown>) =>
      ({ bodies: [body], joints: [{ type, bodyA: 'world', bodyB: 'b', position: [0, 0, 0], limits }] });
    expect(errorFor(joint('universal', { ry: [-1, 3.2] })))
      .toBe('joints[0] (universal).limits.ry: upper 3.2 is outside the values of ry, (−π, π) rad (angles are in radians)');
    expect(errorFor(joint('gimbal', { phi: [-1.6, 0] })))
      .toBe('joints[0] (gimbal).limits.phi: lower -1.6 is outside the values of phi, (−π/2, π/2) rad (angles are in radians)');
    // translations are not bounded
    expect(load(joint('planar', { tx: [-1e6, 1e6] })).limits[0]).toMatchObject({ lower: -1e6, upper: 1e6 });
  });

  it('an unknown coordinate, on any joint type, and limits on a distance constraint', () => {
    expect(errorFor(hinged({ limits: { angle: [0, 1] } })))
      .toBe('joints[0] (hinge "h").limits.angle: joint "h" (hinge) has no coordinate "angle" (one of rz)');
    expect(errorFor(hinged({ motors: { tz: { velocity: 1, maxForce: 1 } } })))
      .toBe('joints[0] (hinge "h").motors.tz: joint "h" (hinge) has no coordinate "tz" (one of rz)');
    const weld = { type: 'weld', bodyA: 'world', bodyB: 'b', position: [0, 0, 0], limits: { rz: [0, 1] } };
    expect(errorFor({ bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }], joints: [weld] }))
      .toBe('joints[0] (weld).limits.rz: joint "weld#0" (weld) has no coordinate "rz" (none: it has no readable coordinates)');
    // a key JSON.parse keeps and zod's records drop
    expect(errorOf('{"version": 1, "bodies": [{"name": "b", "mass": 1, "inertia": [1, 1, 1, 0, 0, 0]}], "joints": [{"type": "hinge",'
      + ' "bodyA": "world", "bodyB": "b", "position": [0, 0, 0], "limits": {"__proto__": [0, 1]}}]}').message)
      .toBe('joints[0] (hinge).limits.__proto__: joint "hinge#0" (hinge) has no coordinate "__proto__" (one of rz)');
    expect(errorFor({
      particles: [{ name: 'p', mass: 1, position: [0, 0, -1] }],
      joints: [{ type: 'distance', points: [['world', [0, 0, 0]], 'p'], limits: { length: [0, 1] } }],
    })).toBe('joints[0] (distance).limits: unknown field "limits"');
  });

  it('motors: no maxForce, both targets, no target, time on a velocity motor, maxForce not positive', () => {
    const at = 'joints[0] (hinge "h").motors.rz';
    expect(errorFor(hinged({ motors: { rz: { velocity: 1 } } }))).toBe(`${at}.maxForce: missing required field`);
    expect(errorFor(hinged({ motors: { rz: { velocity: 1, position: 0, maxForce: 1 } } })))
      .toBe(`${at}.position: give either velocity or position, not both`);
    expect(errorFor(hinged({ motors: { rz: { maxForce: 1 } } }))).toBe(`${at}: missing a target: give velocity or position`);
    expect(errorFor(hinged({ motors: { rz: { velocity: 1, time: 0.1, maxForce: 1 } } })))
      .toBe(`${at}.time: applies to a position motor only`);
    expect(errorFor(hinged({ motors: { rz: { velocity: 1, maxForce: 0 } } }))).toBe(`${at}.maxForce: must be positive (got 0)`);
    expect(errorFor(hinged({ motors: { rz: { position: 7, maxForce: 1 } } })))
      .toBe(`${at}.position: position 7 is outside the values of rz, (−2π, 2π) rad (angles are in radians)`);
  });

  it('rk4 with limits or motors; lemke with limits or motors', () => {
    const rk4 = 'integrator: rk4 cannot take limits or motors'
      + ' (use implicit-euler, trapezoidal, symplectic-euler or bridson-marino)';
    expect(errorFor({ integrator: 'rk4', ...hinged({ limits: { rz: [0, 1] } }) })).toBe(rk4);
    expect(errorFor({ integrator: 'rk4', ...hinged({ motors: { rz: { velocity: 1, maxForce: 1 } } }) })).toBe(rk4);
    const lemke = 'contact.solver: lemke takes contacts only; limits and motors need "pivoting" or "pgs"';
    expect(errorFor({ contact: { solver: 'lemke' }, ...hinged({ limits: { rz: [0, 1] } }) })).toBe(lemke);
    expect(errorFor({ contact: { solver: 'lemke' }, ...hinged({ motors: { rz: { velocity: 1, maxForce: 1 } } }) })).toBe(lemke);
    // lemke with contacts alone is fine
    expect(load({ contact: { solver: 'lemke' }, ...floor, bodies: [ball('a')] }).contact.solver).toBe('lemke');
  });

  it('with a source, the message starts with it', () => {
    expect(errorOf(text({ world: { shapes: [{ type: 'plane', normal: [0, 0, 0] }] } }), 'scene.json').message)
      .toBe('scene.json: world.shapes[0].normal: must not be zero');
  });
});

/** the JSON example of the Contact section of docs/model-format.md */
function contactExample(): string {
  const md = readFileSync(new URL('../../docs/model-format.md', import.meta.url), 'utf8');
  const blocks = [...md.slice(md.indexOf('\n## Contact')).matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
  // the section's whole model file (its other blocks are fragments)
  return blocks.find((b) => b.includes('"version"'))!;
}

describe('docs/model-format.md', () => {
  it('loads the example of the Contact section, with the shapes, limits and motors it describes', () => {
    const m = parseModel(contactExample(), { source: 'model-format.md' });
    expect(m.shapes.map((s) => s.name)).toEqual(['world.shapes[0]', 'world.shapes[1]', 'particle:bead', 'body:box', 'body:arm']);
    expect(m.contact.solver).toBe('pivoting');
    expect(m.limits.map((l) => [l.coordinateName, l.lower, l.upper])).toEqual([['rz', -0.5, Infinity]]);
    expect(m.motors.map((l) => [l.coordinateName, l.mode, l.target])).toEqual([['rz', 'velocity', 1]]);
  });
});

describe('mutations of the contact example', () => {
  it('load, or give one ModelError line: never another exception', () => {
    const values = fc.constantFrom<unknown>(-1, 0, 0.5, 2, 1e308, -1e-300, null, 'x', 'plane', 'rz', [], {}, [0, 0, 0], [null, null],
      [1, 0], { range: [0, 1] }, { velocity: 1 }, { position: 9, maxForce: 1 }, true, 'lemke', 'rk4');
    checkMutations(contactExample(), values);
  });
});
