/**
 * Regressions from a fuzzing corpus of malformed models: each test is named after what broke,
 * and checks the one-line ModelError that replaces the crash, the silent acceptance or the
 * misleading message.
 */
import { describe, it, expect } from 'vitest';
import { parseModel } from '../../src/io/loader.js';
import { ModelError } from '../../src/model/errors.js';
import { text, errorOf } from '../helpers/modelFile.js';

/** the one-line ModelError message parseModel throws for this input (fails on any other outcome) */
function messageOf(input: string | object): string {
  try {
    parseModel(input);
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    expect(e.message).not.toMatch(/[\n\r\u2028\u2029]/);
    return e.message;
  }
  throw new Error('the model loaded without an error');
}

const nested = (depth: number, inner = ''): string => '['.repeat(depth) + inner + ']'.repeat(depth);
const body = (name: string, extra: Record<string, unknown> = {}) => ({ name, mass: 2, inertia: [0.1, 0.2, 0.3, 0, 0, 0], ...extra });
const shaped = (shape: Record<string, unknown>, extra: Record<string, unknown>) => ({ name: 'b', shape, ...extra });

describe('deep nesting: one line, never a stack overflow', () => {
  it('a syntax error inside 5000 nested arrays (the recursive scanner overflowed the stack)', () => {
    expect(messageOf(`{"version": 1, "gravity": ${'['.repeat(5000)}`)).toBe('(model): not valid JSON: line 1, column 5027: unexpected end of input');
    expect(messageOf(`{"version": 1, "gravity": ${nested(5000, '1,,')}}`)).toBe('(model): not valid JSON: line 1, column 5029: unexpected ","');
  });

  it('a syntax error inside 100 000 nested arrays and objects', () => {
    expect(messageOf('['.repeat(100_000))).toBe('(model): not valid JSON: line 1, column 100001: unexpected end of input');
    expect(messageOf(`${'{"a":'.repeat(100_000)}}`)).toBe('(model): not valid JSON: line 1, column 500001: unexpected "}"');
  });

  it('valid JSON nested 100 000 deep, as text and as an object, where the schema expects something else', () => {
    expect(messageOf(`{"version": 1, "description": ${nested(100_000)}}`)).toBe('description: expected a string, got an array of 1');
    expect(messageOf(`{"version": 1, "gravity": ${nested(100_000)}}`)).toBe('gravity: expected at least 3 items, got 1');
    const deep = JSON.parse(nested(100_000)) as unknown;
    expect(messageOf({ version: 1, bodies: [body('b', { position: deep })] })).toBe('bodies[0].position: expected at least 3 items, got 1');
    // inside a union (a point reference), and as the version
    expect(messageOf({ version: 1, forces: [{ type: 'axial-spring', points: [deep, 'b'], stiffness: 1 }] }))
      .toBe('forces[0] (axial-spring).points[0]: expected at least 2 items, got 1');
    expect(messageOf({ version: deep })).toBe('version: unsupported version [[[[…]]]]; this loader reads version 1');
  });
});

describe('text encoding', () => {
  it('a UTF-8 byte-order mark at the start was rejected with an invisible character in the message', () => {
    expect(parseModel(`\uFEFF${text({ step: 0.005 })}`).settings.step).toBe(0.005);
    // elsewhere it is not whitespace in JSON: named, not printed
    expect(messageOf('{"version": 1,\n \uFEFF"step": 1}')).toBe('(model): not valid JSON: line 2, column 2: unexpected U+FEFF (a byte-order mark), expected a property name in double quotes');
    expect(messageOf('{"version": 1,\u00A0"step": 1}')).toMatch(/column 15: unexpected U\+00A0 \(a no-break space\)/);
  });
});

describe('duplicate keys: rejected at both places, not the last one silently winning', () => {
  it('a key twice at the top', () => {
    expect(messageOf('{"version": 1,\n  "step": -1,\n  "step": 0.005}'))
      .toBe('step: key "step" given twice in one object, at line 2, column 3 and line 3, column 3 (give each field once)');
  });

  it('a key twice in a nested object, with the path and the force label', () => {
    const t = text({ particles: [{ name: 'a', mass: 1, position: [0, 0, 0] }, { name: 'b', mass: 1, position: [1, 0, 0] }],
      forces: [{ type: 'axial-spring', name: 's', points: ['a', 'b'], stiffness: 1 }] }).replace('"stiffness":1', '"stiffness":1,"stiffness":2');
    expect(messageOf(t)).toMatch(/^forces\[0\] \(axial-spring "s"\)\.stiffness: key "stiffness" given twice in one object, at line 1, column \d+ and line 1, column \d+/);
  });

  it('keys equal after their escapes, and in objects of more than 16 keys', () => {
    expect(messageOf('{"version": 1, "st\\u0065p": 1, "step": 2}')).toMatch(/^step: key "step" given twice/);
    const many = Array.from({ length: 40 }, (_, k) => `"k${k}": ${k}`).join(', ');
    expect(messageOf(`{"version": 1, "description": "x", "bodies": [{${many}, "k33": 0}]}`))
      .toMatch(/^bodies\[0\]\.k33: key "k33" given twice in one object, at line 1, column \d+ and line 1, column \d+/);
  });

  it('the same key in different objects is not a duplicate', () => {
    const m = parseModel(text({ particles: [{ name: 'a', mass: 1, position: [0, 0, 0] }, { name: 'b', mass: 1, position: [0, 0, 1] }],
      description: 'has "name": "a", "name": "a" inside a string \\" "name"' }));
    expect(m.components.map((c) => c.name)).toEqual(['a', 'b']);
  });
});

describe('numbers in messages: Infinity and NaN as numbers, not null', () => {
  it('values of a model given as an object', () => {
    expect(messageOf({ version: 1, bodies: [body('b', { inertia: [Infinity, 1.5e299, NaN, 0, 0, 0] })] }))
      .toBe('bodies[0].inertia[0]: must be a finite number (got Infinity) (and 1 more problem)');
    expect(messageOf({ version: 1, gravity: [0, 0, NaN] })).toBe('gravity[2]: must be a finite number (got NaN)');
    expect(messageOf({ version: Infinity })).toBe('version: unsupported version Infinity; this loader reads version 1');
    expect(messageOf({ version: 1, integrator: [Infinity, -Infinity, NaN] }))
      .toBe('integrator: expected "symplectic-euler", "implicit-euler", "trapezoidal", "bridson-marino" or "rk4", got [Infinity,-Infinity,NaN]');
  });

  it('an inertia computed from a shape that overflows', () => {
    expect(messageOf({ version: 1, bodies: [shaped({ type: 'box', size: [1e200, 1, 1e200] }, { mass: 1 })] }))
      .toBe('bodies[0].shape: the inertia of this box per kilogram is [Infinity,Infinity,Infinity] kg·m², not positive and finite (its sizes overflow or underflow)');
  });
});

describe('derived values are blamed on the field the file gave', () => {
  it('bodies: a shape whose volume or inertia is out of range names shape, then density or mass (it named inertia)', () => {
    expect(messageOf({ version: 1, bodies: [shaped({ type: 'sphere', radius: 1e200 }, { density: 1 })] }))
      .toBe('bodies[0].shape: the volume of this sphere is Infinity m³, not a positive finite number (its sizes overflow or underflow)');
    expect(messageOf({ version: 1, bodies: [shaped({ type: 'sphere', radius: 1e-170 }, { mass: 1 })] }))
      .toBe('bodies[0].shape: the inertia of this sphere per kilogram is [0,0,0] kg·m², not positive and finite (its sizes overflow or underflow)');
    expect(messageOf({ version: 1, bodies: [shaped({ type: 'box', size: [1e5, 1e5, 1e5] }, { density: 1e300 })] }))
      .toBe('bodies[0].density: density × volume = 1e+300 × 1000000000000000 = Infinity kg, not a positive finite mass');
    expect(messageOf({ version: 1, bodies: [shaped({ type: 'box', size: [1e-120, 1e-120, 1e-120] }, { density: 1 })] }))
      .toBe('bodies[0].shape: the volume of this box is 0 m³, not a positive finite number (its sizes overflow or underflow)');
    expect(messageOf({ version: 1, bodies: [shaped({ type: 'sphere', radius: 10 }, { mass: 1e308 })] }))
      .toBe('bodies[0].mass: the inertia of this sphere with mass 1e+308 kg is [Infinity,Infinity,Infinity] kg·m², not positive and finite');
    expect(messageOf({ version: 1, bodies: [shaped({ type: 'sphere', radius: 1e100 }, { density: 1 })] }))
      .toMatch(/^bodies\[0\]\.density: the inertia of this sphere with mass 4\.18879\d*e\+300 kg is \[Infinity,Infinity,Infinity\] kg·m², not positive and finite$/);
  });

  it('springs: a default rest length that overflows names points (it named restLength, outside the file\'s paths)', () => {
    const ps = [{ name: 'a', mass: 1, position: [-1e308, 0, 0] }, { name: 'b', mass: 1, position: [1e308, 0, 0] }];
    expect(messageOf({ version: 1, particles: ps, forces: [{ type: 'axial-spring', points: ['a', 'b'], stiffness: 1 }] }))
      .toBe('forces[0] (axial-spring).points: the initial length of the path is Infinity, not finite (the points are too far apart); give restLength');
  });

  it('springs: a ligament whose toe overflows e^(Bε_t) names toeShape', () => {
    const ps = [{ name: 'a', mass: 1, position: [0, 0, 0] }, { name: 'b', mass: 1, position: [1, 0, 0] }];
    expect(messageOf({ version: 1, particles: ps, forces: [{ type: 'axial-spring', points: ['a', 'b'], stiffness: 1,
      material: { type: 'exponential-ligament', toeShape: 1e4, toeStrain: 1 } }] }))
      .toBe('forces[0] (axial-spring).material.toeShape: toeShape × toeStrain = 10000 overflows e^(toeShape × toeStrain) (at most 709.8)');
  });

  it('frame springs: attachment frames too far from a body name frame.position (they named the force)', () => {
    expect(messageOf({ version: 1, bodies: [body('b', { position: [-1e308, 0, 0] })], forces: [{ type: 'frame-spring', bodyA: 'world', bodyB: 'b',
      frame: { position: [1e308, 0, 0] }, translationalStiffness: 1, rotationalStiffness: 1 }] }))
      .toBe('forces[0] (frame-spring).frame.position: is too far from the bodies: its offset in a body\'s coordinates is not finite');
  });

  it('joints: a frame too far from a body names the field given (it named frameB.position and printed null)', () => {
    const b = [body('b', { position: [-1e308, 0, 0] })];
    expect(messageOf({ version: 1, bodies: b, joints: [{ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'b', position: [1e308, 0, 0], axis: [0, 0, 1] }] }))
      .toBe('joints[0] (hinge "h").position: is too far from bodyB: the joint frame\'s position in bodyB\'s coordinates at load is not finite');
    expect(messageOf({ version: 1, bodies: b, joints: [{ type: 'ball', bodyA: 'world', bodyB: 'b', frame: { position: [1e308, 0, 0] } }] }))
      .toBe('joints[0] (ball).frame.position: is too far from bodyB: the joint frame\'s position in bodyB\'s coordinates at load is not finite');
  });

  it('joints: a stiffness whose compliance 1/k or damping overflows names stiffness or dampingRatio', () => {
    const b = [body('b')];
    const ball = (extra: Record<string, unknown>) => ({ version: 1, bodies: b, joints: [{ type: 'ball', bodyA: 'world', bodyB: 'b', position: [0, 0, 0], ...extra }] });
    expect(messageOf(ball({ stiffness: 1e-320 }))).toBe('joints[0] (ball).stiffness: 1e-320 gives the compliance 1/k = Infinity, not a finite number');
    expect(messageOf(ball({ stiffness: [1, 1, 1e-320] }))).toBe('joints[0] (ball).stiffness[2]: 1e-320 gives the compliance 1/k = Infinity, not a finite number');
    expect(messageOf(ball({ stiffness: 1e-300, dampingRatio: 1e300 })))
      .toBe('joints[0] (ball).dampingRatio: 1e+300 with stiffness 1e-300 gives the damping 2ζ√(m/k) = Infinity, not a finite number');
    const second = { version: 1, bodies: b, joints: [{ type: 'ball', name: 'a', bodyA: 'world', bodyB: 'b', position: [0, 0, 0], stiffness: 1 },
      { type: 'ball', bodyA: 'world', bodyB: 'b', position: [0, 0, 1], stiffness: 1e-320 }] };
    expect(messageOf(second)).toBe('joints[1] (ball).stiffness: 1e-320 gives the compliance 1/k = Infinity, not a finite number');
  });

  it('distance joints: points too far apart name points (the direction became NaN silently)', () => {
    const ps = [{ name: 'a', mass: 1, position: [-1e308, 0, 0] }, { name: 'b', mass: 1, position: [1e308, 0, 0] }];
    expect(messageOf({ version: 1, particles: ps, joints: [{ type: 'distance', points: ['a', 'b'] }] }))
      .toBe('joints[0] (distance).points: the points are Infinity m apart at load, not a finite distance');
  });

  it('directions whose length overflows are still directions: a quaternion, a hinge axis', () => {
    const m = parseModel({ version: 1, bodies: [body('b', { orientation: [1e308, 1e308, 0, 0] })],
      joints: [{ type: 'hinge', bodyA: 'world', bodyB: 'b', position: [0, 0, 0], axis: [1e308, 0, 1e308] }] });
    Array.from(m.initialQ.slice(3, 7)).forEach((v, k) => expect(v).toBeCloseTo([Math.SQRT1_2, Math.SQRT1_2, 0, 0][k]!, 15));
    const hinge = m.constraints[0]!;
    expect(hinge.rows).toBe(5);
    expect(messageOf({ version: 1, bodies: [body('b')], joints: [{ type: 'hinge', bodyA: 'world', bodyB: 'b', position: [0, 0, 0], axis: [0, 0, 0] }] }))
      .toBe('joints[0] (hinge).axis: axis [0,0,0] has zero length');
  });
});

describe('the step', () => {
  it('"step": 1e-300 ran for ever: a step below 1e-12 s is rejected with the reason', () => {
    expect(messageOf(text({ step: 1e-300 })))
      .toBe('step: must be >= 1e-12 (got 1e-300): below 1e-12 s a step is lost in the rounding of the time and coordinates (docs/model-format.md, Limits)');
    expect(messageOf(text({ step: 0 }))).toBe('step: must be positive (got 0)');
    expect(messageOf(text({ step: -1 }))).toBe('step: must be positive (got -1)');
    expect(parseModel(text({ step: 1e-12 })).settings.step).toBe(1e-12);
  });
});

describe('objects with values JSON cannot hold (parseModel(object), ModelBuilder)', () => {
  it('functions, symbols, bigints, class instances and cycles are named with their path', () => {
    expect(messageOf({ version: 1, step: () => 0.01 })).toBe('step: expected JSON data, got a function');
    expect(messageOf({ version: 1, description: Symbol('x') })).toBe('description: expected JSON data, got a symbol');
    expect(messageOf({ version: 1n })).toBe('version: expected JSON data, got the bigint 1n');
    expect(messageOf({ version: 1, bodies: [body('b', { shape: new Map(), inertia: undefined })] }))
      .toBe('bodies[0].shape: expected JSON data (plain objects and arrays), got a Map');
    expect(messageOf({ version: 1, gravity: new Float64Array([0, 0, -9.81]) })).toBe('gravity: expected JSON data (plain objects and arrays), got a Float64Array');
    expect(messageOf({ version: 1, particles: [{ name: 'p', mass: 1, position: [0, 0, 0], velocity: new Date(0) }] }))
      .toBe('particles[0].velocity: expected JSON data (plain objects and arrays), got a Date');
    const cyclic: Record<string, unknown> = { version: 1, bodies: [body('b')] };
    (cyclic.bodies as Record<string, unknown>[])[0]!.com = cyclic;
    expect(messageOf(cyclic)).toBe('bodies[0].com: expected JSON data, got a cycle (a reference back to the top of the model, which contains it)');
    expect(messageOf(new Map())).toBe('(model): the model must be a JSON object, got a Map');
    expect(messageOf(new TextEncoder().encode('{}'))).toBe('(model): the model must be a JSON object, got a Uint8Array (pass the file\'s text: decode the bytes with TextDecoder)');
  });

  it('undefined is a field left out; NaN, Infinity and undefined in arrays are named', () => {
    expect(parseModel({ version: 1, step: undefined, bodies: [body('b', { com: undefined })] }).settings.step).toBe(0.01);
    expect(messageOf({ version: 1, gravity: [0, undefined, 0] })).toBe('gravity[1]: expected a number, got undefined');
    expect(messageOf({ version: 1, step: NaN })).toBe('step: must be a finite number (got NaN)');
    expect(messageOf({ version: 1, step: Infinity })).toBe('step: must be a finite number (got Infinity)');
    // a shared (not cyclic) object is data, as JSON.stringify writes it twice
    const p = [0, 0, 1];
    expect(parseModel({ version: 1, particles: [{ name: 'a', mass: 1, position: p }, { name: 'b', mass: 1, position: p }] }).dof).toBe(6);
  });

  it('objects whose valueOf and toString are not functions (the length checks threw a TypeError)', () => {
    const hostile = '{"valueOf": 1, "toString": 1}';
    expect(messageOf(`{"version": 1, "forces": [{"type": "multipoint-spring", "points": {"length": ${hostile}}, "stiffness": 1}]}`))
      .toBe('forces[0] (multipoint-spring).points: expected an array, got an object');
    expect(messageOf(`{"version": 1, "forces": [{"type": "axial-spring", "points": [{"length": ${hostile}}, "b"], "stiffness": 1}]}`))
      .toBe('forces[0] (axial-spring).points[0]: expected a particle or marker name, or ["world", [x, y, z]], got an object');
    expect(messageOf({ version: 1, joints: [{ type: 'ball', bodyA: 'world', bodyB: 'b', position: [0, 0, 0], compliance: { length: Object.create(null) } }] }))
      .toBe('joints[0] (ball).compliance: expected a number, or an array with one number per row, got an object');
    // the checks still run on values of their type
    expect(messageOf(text({ markers: [{ name: 'm', body: '', location: [0, 0, 0] }] }))).toBe('markers[0].body: must not be empty');
  });

  it('names with line breaks and invisible characters print escaped, on one line', () => {
    expect(messageOf({ version: 1, markers: [{ name: 'm', body: 'x\ny\u2028', location: [0, 0, 0] }] }))
      .toBe('markers[0].body: no body named "x\\ny\\u2028"');
    expect(messageOf('{"version": 1, "a\\nb\\ufeff": 1}')).toBe('["a\\nb\\ufeff"]: unknown field "a\\nb\\ufeff"');
    expect(errorOf(text({ particles: [{ name: 'a\nb', mass: 1, position: [0, 0, 0] }] })).message)
      .toMatch(/^particles\[0\]\.name: invalid name "a\\nb": names use letters/);
  });
});
