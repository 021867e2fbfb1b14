/**
 * The public ModelBuilder: the model file's options in code, checked by the same schemas, with
 * the same one-line errors; and the model it builds equals the one the file gives.
 */
import { describe, it, expect } from 'vitest';
import { ModelBuilder, parseModel, Simulation, ModelError } from '../../src/index.js';

const bar = { name: 'bar', shape: { type: 'box' as const, size: [1, 0.05, 0.05] as [number, number, number] }, density: 1000, position: [0.5, 0, 0] as [number, number, number] };
const pivot = { type: 'hinge' as const, name: 'pivot', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0] as [number, number, number], axis: [0, 1, 0] as [number, number, number] };

/** the message of the error `f` throws, checked to be a one-line ModelError */
function modelError(f: () => unknown): string {
  try { f(); } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    const m = (e as Error).message;
    expect(m).not.toContain('\n');
    return m;
  }
  throw new Error('no error thrown');
}

describe('ModelBuilder', () => {
  it('builds the model the same file builds, bit for bit after a second of simulation', () => {
    const built = new ModelBuilder({ step: 0.002, integrator: 'trapezoidal' }).addBody(bar).addJoint(pivot).build();
    const file = parseModel({ version: 1, step: 0.002, integrator: 'trapezoidal', bodies: [bar], joints: [pivot] });
    const a = new Simulation(built), b = new Simulation(file);
    a.run(1); b.run(1);
    expect(Array.from(a.state.q)).toEqual(Array.from(b.state.q));
    expect(a.energy()).toEqual(b.energy());
  });

  it('rejects a wrong option at the call that gave it, with the file\'s path and wording', () => {
    const b = new ModelBuilder().addBody(bar);
    // a body's inertia given as a number: the schema's message, at the entry's path
    const m = modelError(() => b.addBody({ name: 'b2', mass: 1, inertia: 2 as unknown as [number, number, number, number, number, number] }));
    expect(m).toBe('bodies[1].inertia: expected an array, got number 2');
    // the failed entry is not kept: the builder still builds
    expect(b.build().bodies.length).toBe(1);
  });

  it('rejects an unknown option instead of ignoring it (a setting, a joint field)', () => {
    expect(modelError(() => new ModelBuilder({ h: 0.5 } as never))).toBe('h: unknown field "h"');
    expect(modelError(() => new ModelBuilder().addBody(bar).addJoint({ ...pivot, anchor: [0, 0, 0] } as never)))
      .toBe('joints[0] (hinge "pivot").anchor: unknown field "anchor"');
    expect(modelError(() => new ModelBuilder({ integrator: 'verlet' as never }))).toContain('integrator: expected "symplectic-euler"');
  });

  it('checks references when it builds', () => {
    const b = new ModelBuilder().addJoint(pivot);
    expect(modelError(() => b.build())).toBe('joints[0] (hinge "pivot").bodyB: no body named "bar" (use a body name or "world")');
  });

  it('rejects values that are not JSON data instead of copying them into plain objects', () => {
    expect(modelError(() => new ModelBuilder().addBody({ ...bar, position: new Float64Array([0.5, 0, 0]) as never })))
      .toMatch(/^bodies\[0\]\.position: /);
    expect(modelError(() => new ModelBuilder().addParticle({ name: 'p', mass: 1, position: [0, 0, 0], velocity: new Map() as never })))
      .toMatch(/^particles\[0\]\.velocity: /);
    // a class instance is not copied into a plain object that would pass
    class Sphere { readonly type = 'sphere'; readonly radius = 0.1; }
    expect(modelError(() => new ModelBuilder().addBody({ name: 'b', density: 1, shape: new Sphere() as never }).build()))
      .toMatch(/^bodies\[0\]\.shape: /);
  });

  it('keeps its own copy of the entries it was given', () => {
    const position: [number, number, number] = [0.5, 0, 0];
    const b = new ModelBuilder().addBody({ ...bar, position });
    position[0] = 99;
    expect(b.build().initialQ[0]).toBe(0.5);
    expect((b.toJSON().bodies as { position: number[] }[])[0]!.position).toEqual([0.5, 0, 0]);
  });
});

describe('ModelBuilder: contact entries', () => {
  const ball = { name: 'ball', shape: { type: 'sphere' as const, radius: 0.1, restitution: 0.5 }, mass: 1, position: [0, 0, 1] as [number, number, number] };

  it('builds the model the file builds: world shapes, contact settings, limits and motors', () => {
    const limited = { ...pivot, limits: { rz: [-0.5, null] as [number, null] }, motors: { rz: { velocity: 1, maxForce: 3 } } };
    const built = new ModelBuilder({ contact: { solver: 'pgs' } })
      .addBody(bar).addBody(ball).addJoint(limited)
      .addWorldShape({ type: 'plane', normal: [0, 1, 1], friction: 0.9 })
      .addWorldShape({ type: 'box', size: [1, 1, 1], position: [3, 0, 0] })
      .setContact({ solver: 'pivoting', margin: 0.02 })
      .build();
    const file = parseModel({
      version: 1, contact: { solver: 'pivoting', margin: 0.02 }, bodies: [bar, ball], joints: [limited],
      world: { shapes: [{ type: 'plane', normal: [0, 1, 1], friction: 0.9 }, { type: 'box', size: [1, 1, 1], position: [3, 0, 0] }] },
    });
    expect(built.contact).toEqual(file.contact);
    expect(built.contact).toMatchObject({ solver: 'pivoting', margin: 0.02 });
    expect(built.shapes).toEqual(file.shapes);
    expect(built.shapes.map((s) => s.name)).toEqual(['world.shapes[0]', 'world.shapes[1]', 'body:bar', 'body:ball']);
    expect(built.limits).toEqual(file.limits);
    expect(built.limits[0]).toMatchObject({ joint: 'pivot', coordinateName: 'rz', lower: -0.5, upper: Infinity });
    expect(built.motors).toEqual(file.motors);
    expect(built.motors[0]).toMatchObject({ joint: 'pivot', mode: 'velocity', target: 1, maxForce: 3 });
  });

  it('rejects a bad world shape or contact entry at the call, with the file\'s path and wording, and keeps what it had', () => {
    const b = new ModelBuilder().addBody(ball).addWorldShape({ type: 'plane' });
    expect(modelError(() => b.addWorldShape({ type: 'plane', friction: -1 }))).toBe('world.shapes[1].friction: must be non-negative (got -1)');
    expect(modelError(() => b.addWorldShape({ type: 'sphere', radius: 1, normal: [0, 0, 1] } as never))).toBe('world.shapes[1].normal: unknown field "normal"');
    expect(modelError(() => b.setContact({ solver: 'dantzig' as never }))).toBe('contact.solver: expected "auto", "pivoting", "lemke" or "pgs", got "dantzig"');
    b.setContact({ solver: 'pgs' });
    expect(modelError(() => b.setContact({ erp: 3 }))).toBe('contact.erp: must be <= 1 (got 3)');
    const m = b.build();
    expect([m.shapes.length, m.contact.solver]).toEqual([2, 'pgs']);
    expect((b.toJSON().world as { shapes: unknown[] }).shapes).toEqual([{ type: 'plane' }]);
    // a document without world shapes has no `world`
    expect(new ModelBuilder().toJSON()).not.toHaveProperty('world');
  });

  it('checks limits, motors and the whole model when it builds', () => {
    const b = new ModelBuilder().addBody(bar).addJoint({ ...pivot, limits: { rz: [0.5, 0.2] } });
    expect(modelError(() => b.build())).toBe('joints[0] (hinge "pivot").limits.rz: lower 0.5 > upper 0.2');
    expect(modelError(() => new ModelBuilder().addBody(bar).addJoint({ ...pivot, motors: { rz: { velocity: 1 } } as never })))
      .toBe('joints[0] (hinge "pivot").motors.rz.maxForce: missing required field');
    const rk4 = new ModelBuilder({ integrator: 'rk4' }).addBody(bar).addJoint({ ...pivot, motors: { rz: { velocity: 1, maxForce: 1 } } });
    expect(modelError(() => rk4.build())).toMatch(/^integrator: rk4 cannot take limits or motors/);
    const lemke = new ModelBuilder().addBody(bar).addJoint({ ...pivot, motors: { rz: { velocity: 1, maxForce: 1 } } }).setContact({ solver: 'lemke' });
    expect(modelError(() => lemke.build())).toBe('contact.solver: lemke takes contacts only; limits and motors need "pivoting" or "pgs"');
  });
});
