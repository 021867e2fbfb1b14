/**
 * Model validation in the builder (the loader maps these to JSON paths): physical inertia,
 * non-dynamic components at rest, finite inputs, non-negative damping, spring parameters.
 * Also two force edge cases: a damped ligament never pushes, and a zero-length spring with zero
 * rest length has the exact isotropic stiffness.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { ModelError } from '../../src/model/errors.js';
import { PathSpring, AxialSpring } from '../../src/forces/pathSpring.js';
import { LinearMaterial, QuadraticStrainMaterial, ExponentialLigament } from '../../src/forces/materials.js';
import { forceEval, checkJacobians } from '../helpers/fd.js';

function throwsAt(f: () => unknown, path: RegExp, what: RegExp): void {
  let err: unknown = null;
  try { f(); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(ModelError);
  expect((err as ModelError).path).toMatch(path);
  expect((err as ModelError).detail).toMatch(what);
}

describe('builder validation', () => {
  it('rejects principal moments that violate the triangle inequality', () => {
    throwsAt(() => new ModelAssembler().addBody({ name: 'b', mass: 1, inertia: [0.1, 0.1, 0.3, 0, 0, 0] }), /inertia$/, /triangle inequality/);
    // a thin rod (I₃ → 0, I₁ = I₂) is fine
    new ModelAssembler().addBody({ name: 'rod', mass: 1, inertia: [0.1, 0.1, 1e-6, 0, 0, 0] });
  });

  it('rejects a moving non-dynamic component', () => {
    throwsAt(() => new ModelAssembler().addParticle({ name: 'p', mass: 1, position: [0, 0, 0], velocity: [1, 0, 0], dynamic: false }), /velocity$/, /non-dynamic/);
    throwsAt(() => new ModelAssembler().addBody({ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0], angularVelocity: [0, 0, 1], dynamic: false }), /angularVelocity$/, /non-dynamic/);
  });

  it('rejects non-finite positions, centres of mass, marker locations and world points', () => {
    const b = new ModelAssembler();
    throwsAt(() => b.addParticle({ name: 'p', mass: 1, position: [0, NaN, 0] }), /position$/, /finite/);
    throwsAt(() => b.addBody({ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0], com: [Infinity, 0, 0] }), /com$/, /finite/);
    b.addBody({ name: 'ok', mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
    throwsAt(() => b.addMarker({ name: 'm', body: 'ok', location: [0, 0, NaN] }), /location$/, /finite/);
    throwsAt(() => b.worldPoint([0, -Infinity, 0]), /world point/, /finite/);
  });

  it('rejects negative damping and bad spring parameters', () => {
    const b = new ModelAssembler();
    throwsAt(() => b.addParticle({ name: 'p', mass: 1, position: [0, 0, 0], damping: -1 }), /damping$/, /non-negative/);
    throwsAt(() => new LinearMaterial(-5), /stiffness/, /non-negative/);
    throwsAt(() => new ExponentialLigament(5, 0, 0), /toeStrain/, /positive/);
    b.addParticle({ name: 'a', mass: 1, position: [0, 0, 0] });
    b.addParticle({ name: 'c', mass: 1, position: [1, 0, 0] });
    throwsAt(() => new AxialSpring('s', b.point('a'), b.point('c'), new QuadraticStrainMaterial(10), 0), /restLength$/, /positive rest length/);
    throwsAt(() => new PathSpring('s', [b.point('a')], new LinearMaterial(10), 1), /points$/, /two points/);
    throwsAt(() => new PathSpring('s', [b.point('a'), b.point('c')], new LinearMaterial(10), 1, [true, false]), /active$/, /2 flags for 1 segments/);
  });
});

describe('builder messages show the values as they are', () => {
  const messageOf = (f: () => unknown): string => {
    try { f(); } catch (e) { if (e instanceof ModelError) return e.message; throw e; }
    throw new Error('no error');
  };

  it('prints Infinity and NaN as numbers, not null (JSON.stringify printed [null,1.5e+299,null,…])', () => {
    expect(messageOf(() => new ModelAssembler().addBody({ name: 'b', mass: 1, inertia: [Infinity, 1.5e299, NaN, 0, 0, 0] })))
      .toBe('body "b".inertia: inertia [Infinity,1.5e+299,NaN,0,0,0] is not positive definite');
    expect(messageOf(() => new ModelAssembler().addParticle({ name: 'p', mass: 1, position: [0, -Infinity, NaN] })))
      .toBe('particle "p".position: must be finite (got [0,-Infinity,NaN])');
    expect(messageOf(() => new ModelAssembler().addParticle({ name: 'p', mass: NaN, position: [0, 0, 0] })))
      .toBe('particle "p".mass: mass must be positive and finite (got NaN)');
    expect(messageOf(() => new ModelAssembler().addBody({ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0], orientation: [NaN, 0, Infinity, 0] })))
      .toBe('body "b".orientation: quaternion [NaN,0,Infinity,0] is zero or not finite');
  });

  it('quotes names with their escapes, so that a message stays on one line', () => {
    const b = new ModelAssembler();
    b.addBody({ name: 'ok', mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
    expect(messageOf(() => b.addMarker({ name: 'm', body: 'a\nb"c', location: [0, 0, 0] }))).toBe('marker "m".body: no body named "a\\nb\\"c"');
    expect(messageOf(() => b.point('x\u2028y', 'points[0]'))).toBe('points[0]: no particle or marker named "x\\u2028y"');
  });

  it('normalizes a quaternion whose length overflows (its direction is defined)', () => {
    const b = new ModelAssembler();
    b.addBody({ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0], orientation: [1e308, 0, 0, -1e308] });
    const q = Array.from(b.initialQ().slice(3, 7));
    [Math.SQRT1_2, 0, 0, -Math.SQRT1_2].forEach((v, k) => expect(q[k]).toBeCloseTo(v, 15));
  });
});

describe('force edge cases', () => {
  it('a damped ligament shortening fast never pushes', () => {
    const m = new ExponentialLigament(100, 50);
    const out = new Float64Array(3);
    m.evaluate(out, 1.01, -5, 1);   // barely taut, shortening at 5 m/s
    expect(out[0]).toBe(0);
    expect(out[1]).toBe(0);
    expect(out[2]).toBe(0);
  });

  it('a zero-rest-length spring at zero length has the exact stiffness −k I', () => {
    const b = new ModelAssembler();
    b.settings.gravity = [0, 0, 0];
    b.addParticle({ name: 'a', mass: 1, position: [0.2, 0.3, 0.4] });
    b.addParticle({ name: 'c', mass: 1, position: [0.2, 0.3, 0.4] });
    const sp = new AxialSpring('s', b.point('a'), b.point('c'), new LinearMaterial(30), 0);
    b.addForce(sp);
    const model = b.build();
    const { K } = forceEval(model, [sp]).jacobians(model.initialQ, model.initialU);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) {
      const expected = i % 3 !== j % 3 ? 0 : (i < 3) === (j < 3) ? -30 : 30;
      expect(K[6 * i + j]).toBeCloseTo(expected, 12);
    }
    // and near zero length the finite-difference check holds
    const q = model.initialQ.slice();
    q[3] += 1e-3;
    const e = checkJacobians(model, q, model.initialU, [sp]);
    expect(e.K).toBeLessThan(1e-6);
  });
});
