/**
 * The distance constraint (src/constraints/distance.ts, theory.md §9): on
 * particle–particle, marker–marker, marker–world, particle–world, particle–marker pairs and with
 * a non-dynamic side, at configurations off the constraint:
 *   - G against central differences of g along the engine's tangent space (`retract`);
 *   - κ = Ġu against central differences of ε ↦ Σ_k G_k(q ⊕ εu) u_k, and ġ = Gu;
 * plus g = 0 at set-up, a given length, finite rows when the points meet, and validation.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import type { Model } from '../../src/model/model.js';
import type { PointRef } from '../../src/model/points.js';
import { DistanceConstraint } from '../../src/constraints/distance.js';
import { ModelError } from '../../src/model/errors.js';
import { relErr, rng } from '../helpers/fd.js';
import { context, flow, perturb, scratchOf } from '../helpers/constraints.js';

const TOL = 1e-6;
const FD_EPS = 1e-3;

import { randomVec, randomQuat } from '../helpers/numeric.js';

type End = 'particle' | 'marker' | 'world' | 'static-particle' | 'static-marker';

/** two components (particles or bodies with markers) at random places, and a distance constraint between two points */
function scene(seed: number, e1: End, e2: End) {
  const r = rng(seed);
  const builder = new ModelAssembler();
  builder.settings.gravity = [0, 0, 0];
  const point = (e: End, k: number): PointRef => {
    const dynamic = !e.startsWith('static');
    if (e === 'world') return builder.worldPoint(randomVec(r, 2));
    if (e.endsWith('particle')) {
      builder.addParticle({ name: `p${k}`, mass: 1, position: randomVec(r, 2), dynamic });
      return builder.point(`p${k}`);
    }
    builder.addBody({ name: `b${k}`, mass: 1, inertia: [0.3, 0.4, 0.5, 0, 0, 0], com: randomVec(r, 0.2), position: randomVec(r, 2), orientation: randomQuat(r), dynamic });
    builder.addMarker({ name: `m${k}`, body: `b${k}`, location: randomVec(r, 0.7) });
    return builder.point(`m${k}`);
  };
  const p1 = point(e1, 1), p2 = point(e2, 2);
  const model = builder.build();
  const c = new DistanceConstraint('d', p1, p2, model.initialQ);
  // velocities of every component, non-dynamic ones included (as a driver would prescribe)
  const u = Float64Array.from({ length: model.nu }, () => 2 * r() - 1);
  return { model, c, r, u, p1, p2 };
}




/** the fourth-order central stencil (see joint.test.ts) */
function central(f: (eps: number) => number, eps = FD_EPS): number {
  return (-f(2 * eps) + 8 * f(eps) - 8 * f(-eps) + f(-2 * eps)) / (12 * eps);
}

const g = (c: DistanceConstraint, model: Model, q: Float64Array, u: Float64Array) => { const o = new Float64Array(1); c.violation(context(model, q, u), o, 0, scratchOf(c)); return o[0]!; };
const width = (model: Model, i: number) => (model.components[i]!.kind === 'body' ? 6 : 3);

/** Σ_k G_k u_k */
function gdot(c: DistanceConstraint, model: Model, q: Float64Array, u: Float64Array): number {
  const blocks = c.jacobian(context(model, q, u), scratchOf(c));
  let s = 0;
  c.components.forEach((i, b) => { for (let k = 0; k < width(model, i); k++) s += blocks[b]![k]! * u[model.components[i]!.uOffset + k]!; });
  return s;
}

function check(c: DistanceConstraint, model: Model, q: Float64Array, u: Float64Array) {
  const blocks = c.jacobian(context(model, q, u), scratchOf(c)).map((b) => b.slice());
  let eG = 0;
  c.components.forEach((i, b) => {
    const fd = Float64Array.from({ length: width(model, i) }, (_, k) => central((e) => g(c, model, perturb(model, q, i, k, e), u)));
    eG = Math.max(eG, relErr(blocks[b]!, fd));
  });
  const kappa = new Float64Array(1);
  c.bias(context(model, q, u), kappa, 0, scratchOf(c));
  const kfd = central((e) => gdot(c, model, flow(model, q, u, e), u));
  const gd = central((e) => g(c, model, flow(model, q, u, e), u));
  return { G: eG, kappa: Math.abs(kappa[0]! - kfd) / Math.max(Math.abs(kfd), 1e-9), gdot: Math.abs(gdot(c, model, q, u) - gd) / Math.max(Math.abs(gd), 1e-9) };
}

const CASES: [End, End][] = [
  ['particle', 'particle'], ['marker', 'marker'], ['marker', 'world'], ['world', 'marker'], ['particle', 'world'],
  ['particle', 'marker'], ['marker', 'static-marker'], ['static-particle', 'marker'], ['static-marker', 'particle'],
];
const worst = { G: 0, kappa: 0, gdot: 0 };

describe('distance constraint against central finite differences', () => {
  let seed = 2000;
  for (const [e1, e2] of CASES) {
    for (let trial = 0; trial < 2; trial++) {
      const s = seed++;
      it(`${e1}–${e2} (seed ${s})`, () => {
        const { model, c, r, u } = scene(s, e1, e2);
        expect(c.rows).toBe(1);
        expect(c.components.length).toBe((e1 === 'world' ? 0 : 1) + (e2 === 'world' ? 0 : 1));
        // satisfied at set-up
        expect(Math.abs(g(c, model, model.initialQ, u))).toBeLessThan(1e-14);
        // off the constraint
        const q = flow(model, model.initialQ, Float64Array.from({ length: model.nu }, () => 2 * r() - 1), 0.1);
        expect(Math.abs(g(c, model, q, u))).toBeGreaterThan(1e-4);
        const e = check(c, model, q, u);
        for (const k of ['G', 'kappa', 'gdot'] as const) worst[k] = Math.max(worst[k], e[k]);
        expect(e.G).toBeLessThan(TOL);
        expect(e.kappa).toBeLessThan(TOL);
        expect(e.gdot).toBeLessThan(TOL);
      });
    }
  }

  it('reports the worst errors', () => {
    console.log(`distance FD relative errors (worst): G ${worst.G.toExponential(2)}, κ ${worst.kappa.toExponential(2)}, ġ ${worst.gdot.toExponential(2)}`);
    expect(worst.G).toBeLessThan(TOL);
  });

  it('κ of two particles is |ṙ_⊥|²/|r| (the centripetal term of a pendulum)', () => {
    const builder = new ModelAssembler();
    builder.addParticle({ name: 'a', mass: 1, position: [0, 0, 0], dynamic: false });
    builder.addParticle({ name: 'b', mass: 1, position: [2, 0, 0], velocity: [0.5, 3, 0] });
    const model = builder.build();
    const c = new DistanceConstraint('d', builder.point('a'), builder.point('b'), model.initialQ);
    const k = new Float64Array(1);
    c.bias(context(model, model.initialQ, model.initialU), k, 0, scratchOf(c));
    expect(k[0]).toBeCloseTo(9 / 2, 14);
    expect(Array.from(c.jacobian(context(model, model.initialQ, model.initialU), scratchOf(c))[1]!)).toEqual([1, 0, 0]);
  });
});

describe('distance constraint set-up', () => {
  const builder = new ModelAssembler();
  builder.addParticle({ name: 'a', mass: 1, position: [0, 0, 0] });
  builder.addParticle({ name: 'b', mass: 1, position: [0, 0, 0] });
  builder.addBody({ name: 'B', mass: 1, inertia: [1, 1, 1, 0, 0, 0], position: [1, 0, 0] });
  builder.addMarker({ name: 'm1', body: 'B', location: [0, 1, 0] });
  builder.addMarker({ name: 'm2', body: 'B', location: [0, -1, 0] });
  const q0 = builder.initialQ();

  it('takes a given length, and g = |r| − L', () => {
    const c = new DistanceConstraint('d', builder.point('a'), builder.point('m1'), q0, { length: 1, compliance: 1e-4, damping: 0.01 });
    expect(c.length).toBe(1);
    expect(c.compliance[0]).toBe(1e-4);
    expect(c.damping[0]).toBe(0.01);
    const model = builder.build(), out = new Float64Array(1);
    c.violation(context(model, q0, model.initialU), out, 0, scratchOf(c));
    expect(out[0]).toBeCloseTo(Math.SQRT2 - 1, 15);
  });

  it('stays finite when the points meet during a simulation (the last direction is kept)', () => {
    const model = builder.build();
    const c = new DistanceConstraint('d', builder.point('a'), builder.worldPoint([0, 0, 1]), q0);
    const q = q0.slice();
    q[2] = 1;
    const ctx = context(model, q, Float64Array.from({ length: model.nu }, (_, i) => i));
    const out = new Float64Array(1);
    c.violation(ctx, out, 0, scratchOf(c));
    expect(out[0]).toBe(-1);
    expect(Array.from(c.jacobian(ctx, scratchOf(c))[0]!)).toEqual([-0, -0, -1]);
    c.bias(ctx, out, 0, scratchOf(c));
    expect(Number.isFinite(out[0])).toBe(true);
  });

  it.each([
    ['coincident points', () => new DistanceConstraint('d', builder.point('a'), builder.point('b'), q0)],
    ['two world points', () => new DistanceConstraint('d', builder.worldPoint([0, 0, 0]), builder.worldPoint([1, 0, 0]), q0)],
    ['two points of one body', () => new DistanceConstraint('d', builder.point('m1'), builder.point('m2'), q0)],
    ['a zero length', () => new DistanceConstraint('d', builder.point('a'), builder.point('m1'), q0, { length: 0 })],
    ['a negative compliance', () => new DistanceConstraint('d', builder.point('a'), builder.point('m1'), q0, { compliance: -1 })],
    ['a non-finite damping', () => new DistanceConstraint('d', builder.point('a'), builder.point('m1'), q0, { damping: NaN })],
  ])('rejects %s', (_, f) => {
    expect(f).toThrow(ModelError);
  });
});
