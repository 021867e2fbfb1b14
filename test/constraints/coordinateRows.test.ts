/**
 * The coordinate rows of joints (src/constraints/coordinateRows.ts): for every preset with readable
 * coordinates and custom masks, on body–body, body–world and world–body sides, at random frames,
 * poses and velocities (fast-check, fixed seed), and for every coordinate k:
 *   (a) J_c u against the fourth-order central difference of c along q ⊕ εu (the engine's flow:
 *       x += εv, R ← exp(ε[ω]) R), angles unwrapped by 2π around c(q);
 *   (b) J_c u against the `joints` rate readout (ConstraintSystem.jointRates);
 *   (c) the value against the coordinate readout (ConstraintSystem.jointCoordinates), bit for bit;
 *   (d) the bias κ_c = J̇_c u against the central difference of J_c(q ⊕ εu)·u at fixed u;
 * plus the gimbal at and near cos φ = 0 (finite rows, the singular flag, agreement with the
 * readout's fallback), the degenerate angle and universal maps, the names, ranges and lookups.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ModelAssembler } from '../../src/model/assembler.js';
import type { Model, RigidBody, Vec3Tuple, QuatTuple } from '../../src/model/model.js';
import { Joint, GIMBAL_SINGULAR_TOL, type JointType, type JointMask } from '../../src/constraints/joint.js';
import { ConstraintSystem } from '../../src/assembly/constraintSystem.js';
import { ModelError } from '../../src/model/errors.js';
import { quatFromRotationVector, quatFromAxisAngle, quatMul } from '../../src/math/quat.js';
import {
  coordinateValue, coordinateRow, coordinateBias, coordinateIndex, coordinateRange, coordinateIsAngle,
  jointCoordinateNames,
} from '../../src/constraints/coordinateRows.js';
import { context, flow, scratchOf } from '../helpers/constraints.js';

const FD_EPS = 1e-3;
const FD_TOL = 1e-6;
const READOUT_TOL = 1e-13;
const RATE_FLOOR = 1e-6;
const FD_ABS_TOL = 1e-11;
type Side = 'body' | 'world';

/** the names each preset reports, in order (docs/constraints.md) */
const NAMES: Record<JointType, string[]> = {
  'ball': [], 'hinge': ['rz'], 'slider': ['tz'], 'cylindrical': ['tz', 'rz'], 'universal': ['rx', 'ry'],
  'gimbal': ['theta', 'phi', 'psi'], 'planar': ['tx', 'ty', 'rz'], 'point-on-plane': ['tx', 'ty'],
  'point-on-line': ['tz'], 'weld': [],
};
const T = true, F = false;
/** custom masks: free tx, tz and the angle about y; free rotations about x alone; all translations free */
const MASKS: [string, JointMask, string[]][] = [
  ['custom (free tx, tz, ry)', { linear: [F, T, F], angular: [T, F, T] }, ['tx', 'tz', 'ry']],
  ['custom (free rx)', { linear: [T, T, T], angular: [F, T, T] }, ['rx']],
  ['custom (free tx, ty, tz)', { linear: [F, F, F], angular: [T, T, T] }, ['tx', 'ty', 'tz']],
];
const SIDES: [Side, Side][] = [['body', 'body'], ['body', 'world'], ['world', 'body']];

/** one random sample: bodies' poses, joint frames, a turn applied after set-up, and u */
interface Sample {
  xA: Vec3Tuple; rA: Vec3Tuple; xB: Vec3Tuple; rB: Vec3Tuple;
  pAC: Vec3Tuple; rAC: Vec3Tuple; pBD: Vec3Tuple; rBD: Vec3Tuple;
  turn: number[]; u: number[];
}
const num = (s: number) => fc.double({ min: -s, max: s, noNaN: true, noDefaultInfinity: true });
const vec = (s: number) => fc.tuple(num(s), num(s), num(s));
const sample: fc.Arbitrary<Sample> = fc.record({
  xA: vec(1), rA: vec(3), xB: vec(1), rB: vec(3), pAC: vec(0.5), rAC: vec(3), pBD: vec(0.5), rBD: vec(3),
  turn: fc.array(num(2), { minLength: 12, maxLength: 12 }),
  u: fc.array(num(2), { minLength: 12, maxLength: 12 }),
});

/** the first sample of a seed (for the names and lookups) */
const firstSample = (seed: number): Sample => fc.sample(sample, { seed, numRuns: 1 })[0]!;

const quatOf = (r: Vec3Tuple): QuatTuple => {
  const q = quatFromRotationVector(new Float64Array(4), Float64Array.from(r));
  return [q[0]!, q[1]!, q[2]!, q[3]!];
};

/** a model of two bodies (or one and the world) with one joint `type` between them at the sample's frames */
function build(type: JointType | JointMask, [sa, sb]: [Side, Side], s: Sample) {
  const asm = new ModelAssembler();
  asm.settings.gravity = [0, 0, 0];
  const body = (name: string, x: Vec3Tuple, r: Vec3Tuple): RigidBody => asm.addBody({
    name, mass: 1, inertia: [0.3, 0.4, 0.5, 0, 0, 0], com: [0.1, -0.05, 0.02],
    position: x, orientation: quatOf(r),
  });
  const A = sa === 'body' ? body('A', s.xA, s.rA) : null, B = sb === 'body' ? body('B', s.xB, s.rB) : null;
  const joint = new Joint('j', A, B, s.pAC, quatOf(s.rAC), s.pBD, quatOf(s.rBD), { type }, asm.initialQ());
  asm.addConstraint(joint);
  const model = asm.build();
  return { model, joint, cs: new ConstraintSystem(model) };
}

/** J_c · u over both sides' six columns (a world side's columns must be zero) */
function rowTimesU(row: Float64Array, joint: Joint, u: Float64Array): number {
  let r = 0;
  for (const [side, b] of [[0, joint.bodyA], [6, joint.bodyB]] as const) {
    for (let i = 0; i < 6; i++) {
      if (b) r += row[side + i]! * u[b.uOffset + i]!;
      else expect(row[side + i]).toBe(0);
    }
  }
  return r;
}

const norm = (a: Float64Array) => Math.hypot(...a);

/**
 * d/dε f(ε) at 0, fourth-order central, with ε = FD_EPS/scale: a quantity that moves fast (scale =
 * |J_c| |u|, large where an angle map nears its singular set) gets a shorter step, so that the
 * truncation error (~(ε·scale)⁴) and the rounding error (~1e-16/ε) stay near 1e-13 of the scale
 */
function central(f: (eps: number) => number, scale: number): number {
  const eps = FD_EPS / Math.max(1, scale);
  return (-f(2 * eps) + 8 * f(eps) - 8 * f(-eps) + f(-2 * eps)) / (12 * eps);
}

/** d/dε c(q ⊕ εu) at 0, on the differences c(q ⊕ εu) − c(q) (angles unwrapped by 2π) */
function fdRate(model: Model, joint: Joint, k: number, q: Float64Array, u: Float64Array, scale: number) {
  const s = scratchOf(joint), c0 = coordinateValue(joint, context(model, q, u), s, k);
  return central((e) => {
    const d = coordinateValue(joint, context(model, flow(model, q, u, e), u), s, k) - c0;
    return coordinateIsAngle(joint, k) ? d - 2 * Math.PI * Math.round(d / (2 * Math.PI)) : d;
  }, scale);
}

/** J_c(q) · u */
function rowRate(model: Model, joint: Joint, k: number, q: Float64Array, u: Float64Array): number {
  const row = new Float64Array(12);
  coordinateRow(row, joint, context(model, q, u), scratchOf(joint), k);
  return rowTimesU(row, joint, u);
}

const worst = { fd: 0, fdAbs: 0, readout: 0, bias: 0, biasAbs: 0, samples: 0 };

/**
 * value against its finite difference fd, relative to fd or to the natural scale where it cancels;
 * below RATE_FLOOR (u → 0, which fast-check tries) absolutely, since the FD's rounding error is
 * absolute (about 1e-13). Records the worst under `key` (relative) and `key`Abs.
 */
function compare(value: number, fd: number, scale: number, key: 'fd' | 'bias', msg: string): void {
  const den = Math.max(Math.abs(fd), scale), err = Math.abs(value - fd);
  expect(Number.isFinite(value)).toBe(true);
  if (den >= RATE_FLOOR) {
    worst[key] = Math.max(worst[key], err / den);
    expect(err / den, msg).toBeLessThan(FD_TOL);
  } else {
    const abs = key === 'fd' ? 'fdAbs' : 'biasAbs';
    worst[abs] = Math.max(worst[abs], err);
    expect(err, msg).toBeLessThan(FD_ABS_TOL);
  }
}

/** (a): row·u against d/dε c(q ⊕ εu), on the scale |J_c| |u| */
function checkFd(model: Model, joint: Joint, k: number, q: Float64Array, u: Float64Array, row: Float64Array,
  rate: number): void {
  const scale = norm(row) * norm(u), fd = fdRate(model, joint, k, q, u, scale);
  compare(rate, fd, scale, 'fd', `${joint.coordinateNames[k]}: row·u ${rate}, FD ${fd}`);
}

/** (d): κ_c against d/dε J_c(q ⊕ εu)·u at fixed u, on the scale |J_c| |u|² */
function checkBias(model: Model, joint: Joint, k: number, q: Float64Array, u: Float64Array,
  row: Float64Array): void {
  const scale = norm(row) * norm(u);
  const fd = central((e) => rowRate(model, joint, k, flow(model, q, u, e), u), scale);
  const kappa = coordinateBias(joint, context(model, q, u), scratchOf(joint), k);
  compare(kappa, fd, scale * norm(u), 'bias', `${joint.coordinateNames[k]}: κ ${kappa}, FD ${fd}`);
}

/** (a) to (d) for every coordinate of one sample */
function checkSample(type: JointType | JointMask, sides: [Side, Side], smp: Sample): void {
  const { model, joint, cs } = build(type, sides, smp);
  // move B (or A) by a random turn after set-up, so that q_CD may have w < 0 (hinge angles past π)
  const q = flow(model, model.initialQ, Float64Array.from(smp.turn.slice(0, model.nu)), 1);
  const u = Float64Array.from(smp.u.slice(0, model.nu));
  const n = joint.coordinateNames.length, coords = new Float64Array(n), rates = new Float64Array(n);
  expect(cs.jointCoordinates(0, q, u, coords)).toBe(n);
  cs.jointRates(0, q, u, rates);
  const ctx = context(model, q, u), s = scratchOf(joint), row = new Float64Array(12);
  for (let k = 0; k < n; k++) {
    // (c) the readout's value, bit for bit
    expect(coordinateValue(joint, ctx, s, k)).toBe(coords[k]);
    // the row: finite, and no linear columns for an angle
    const singular = coordinateRow(row, joint, ctx, s, k);
    expect(row.every(Number.isFinite)).toBe(true);
    if (coordinateIsAngle(joint, k)) for (const i of [0, 1, 2, 6, 7, 8]) expect(row[i]).toBe(0);
    // (b) the rate readout, relative to the rate or its bound |J_c| |u|
    const rate = rowTimesU(row, joint, u), bound = norm(row) * norm(u);
    const eb = Math.abs(rate - rates[k]!) / Math.max(Math.abs(rates[k]!), bound, Number.MIN_VALUE);
    worst.readout = Math.max(worst.readout, eb);
    expect(eb).toBeLessThan(READOUT_TOL);
    // (a), (d) finite differences along the flow, where the map is smooth (off its singular set)
    if (singular) continue;
    checkFd(model, joint, k, q, u, row, rate);
    checkBias(model, joint, k, q, u, row);
  }
  worst.samples++;
}

const CASES: [string, JointType | JointMask, string[]][] = [
  ...(Object.keys(NAMES) as JointType[]).filter((t) => NAMES[t].length > 0)
    .map((t): [string, JointType, string[]] => [t, t, NAMES[t]]),
  ...MASKS,
];

describe('coordinate rows against FD and the joint readouts (random frames, poses, velocities)', () => {
  let seed = 42;
  for (const [label, type, names] of CASES) {
    for (const sides of SIDES) {
      const s = seed++;
      it(`${label}, ${sides.join('–')} (seed ${s})`, () => {
        expect(build(type, sides, firstSample(s)).joint.coordinateNames).toEqual(names);
        fc.assert(fc.property(sample, (smp) => checkSample(type, sides, smp)), { seed: s, numRuns: 25 });
      });
    }
  }

  it('reports the worst errors', () => {
    const e = (x: number) => x.toExponential(2);
    console.log(`coordinate rows over ${worst.samples} samples: row·u against central FD rel ${e(worst.fd)} `
      + `(abs ${e(worst.fdAbs)} under ${RATE_FLOOR}), against the rate readout rel ${e(worst.readout)}; `
      + `κ against FD of J_c u rel ${e(worst.bias)} (abs ${e(worst.biasAbs)})`);
    expect(worst.samples).toBeGreaterThan(0);
  });
});

/**
 * a world–body joint with frames C = D = identity, set up at the identity and then turned: q_CD is
 * body B's quaternion qT (w < 0 allowed), and u_B = (v, ω)
 */
function relativeScene(type: JointType, qT: Float64Array, omega: Vec3Tuple) {
  const asm = new ModelAssembler();
  asm.settings.gravity = [0, 0, 0];
  const B = asm.addBody({ name: 'B', mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
  const I: QuatTuple = [1, 0, 0, 0];
  const joint = new Joint('j', null, B, [0, 0, 0], I, [0, 0, 0], I, { type }, asm.initialQ());
  asm.addConstraint(joint);
  const model = asm.build(), q = model.initialQ.slice(), u = Float64Array.of(0.3, -0.2, 0.1, ...omega);
  q.set(qT, B.qOffset + 3);
  return { model, joint, cs: new ConstraintSystem(model), q, u };
}

const axisQuat = (k: number, angle: number) =>
  quatFromAxisAngle(new Float64Array(4), Float64Array.from([0, 1, 2].map((i) => (i === k ? 1 : 0))), angle);
const mulQ = (a: Float64Array, b: Float64Array) => quatMul(new Float64Array(4), a, b);
/** the quaternion of Rz(θ) Ry(φ) Rx(ψ) */
const rpyQuat = (th: number, ph: number, ps: number) =>
  mulQ(mulQ(axisQuat(2, th), axisQuat(1, ph)), axisQuat(0, ps));

/** each coordinate's row, flag, and row·u against the rate readout */
function rowsOf(scene: ReturnType<typeof relativeScene>, tol?: number) {
  const { model, joint, cs, q, u } = scene, n = joint.coordinateNames.length, rates = new Float64Array(n);
  cs.jointRates(0, q, u, rates);
  const ctx = context(model, q, u), s = scratchOf(joint);
  return Array.from({ length: n }, (_, k) => {
    const row = new Float64Array(12), singular = coordinateRow(row, joint, ctx, s, k, tol);
    return { row, singular, rate: rowTimesU(row, joint, u), readout: rates[k]! };
  });
}

describe('singular and degenerate coordinate maps: finite rows and the singular flag', () => {
  it('gimbal at and near cos φ = 0: finite rows, θ and ψ flagged below tol, φ never; the readout', () => {
    const omega: Vec3Tuple = [0.7, -1.1, 0.4];
    for (const sign of [1, -1]) for (const d of [0, 1e-12, 1e-9, 1e-8, 1e-7, 1e-5, 1e-3, 0.1]) {
      const sc = relativeScene('gimbal', rpyQuat(0.4, sign * (Math.PI / 2 - d), -0.9), omega);
      const phi = coordinateValue(sc.joint, context(sc.model, sc.q, sc.u), scratchOf(sc.joint), 1);
      const cosPhi = Math.abs(Math.cos(phi));
      for (const tol of [undefined, 1e-2]) {
        const rows = rowsOf(sc, tol), flagged = cosPhi < (tol ?? GIMBAL_SINGULAR_TOL);
        rows.forEach((r, k) => {
          expect(r.row.every(Number.isFinite)).toBe(true);
          expect(r.singular).toBe(k !== 1 && flagged);
          // the bias: finite; a flagged row is constant (θ: e_z, ψ: 0), and side A is the world (ω_A = 0)
          const kappa = coordinateBias(sc.joint, context(sc.model, sc.q, sc.u), scratchOf(sc.joint), k, tol);
          expect(Number.isFinite(kappa)).toBe(true);
          if (r.singular) expect(kappa).toBe(0);
          // flagged rows are the readout's bounded fallback; unflagged ones grow no faster than 1/cos φ
          expect(norm(r.row)).toBeLessThanOrEqual(r.singular ? 1 + 1e-15 : 2 / cosPhi);
          // the readout takes its fallback below GIMBAL_SINGULAR_TOL: compare where both take the same branch
          if ((cosPhi < GIMBAL_SINGULAR_TOL) === flagged) {
            expect(Math.abs(r.rate - r.readout)).toBeLessThanOrEqual(1e-15 * Math.max(1, norm(r.row)));
          }
        });
      }
    }
  });

  it('gimbal well away from it (cos φ = 0.05): A⁻¹ rows, exact against finite differences', () => {
    const sc = relativeScene('gimbal', rpyQuat(2.1, Math.acos(0.05), -2.8), [0.7, -1.1, 0.4]);
    rowsOf(sc).forEach((r, k) => {
      expect(r.singular).toBe(false);
      const fd = fdRate(sc.model, sc.joint, k, sc.q, sc.u, norm(r.row) * norm(sc.u));
      expect(Math.abs(r.rate - fd) / Math.abs(fd)).toBeLessThan(FD_TOL);
      checkBias(sc.model, sc.joint, k, sc.q, sc.u, r.row);
    });
  });

  it('a hinge half a turn off its lock (q_CD = (0, 1, 0, 0)): degenerate angle map, row 0, flagged', () => {
    const rows = rowsOf(relativeScene('hinge', axisQuat(0, Math.PI), [0.7, -1.1, 0.4]));
    expect(rows[0]!.singular).toBe(true);
    expect(Array.from(rows[0]!.row)).toEqual(new Array(12).fill(0));
    expect(rows[0]!.readout).toBe(0);
  });

  it('a universal joint turned a quarter about z: both atan2 pairs degenerate, rows 0, flagged', () => {
    const rows = rowsOf(relativeScene('universal', axisQuat(2, Math.PI / 2), [0.7, -1.1, 0.4]));
    for (const r of rows) {
      expect(r.singular).toBe(true);
      expect(r.row.every((x) => x === 0)).toBe(true);
      expect(r.readout).toBe(0);
    }
  });

  it('a hinge past a half turn (w < 0): the angle continues past π, its row is still the axis', () => {
    for (const angle of [2.5, 3.6, -3.6, 5.9]) {
      const sc = relativeScene('hinge', axisQuat(2, angle), [0, 0, 1.3]);
      const v = coordinateValue(sc.joint, context(sc.model, sc.q, sc.u), scratchOf(sc.joint), 0);
      expect(v).toBeCloseTo(angle, 12);
      const [r] = rowsOf(sc);
      // R_WC = I: the row is ω_B's z component, exactly e_z up to rounding
      const ez = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
      ez.forEach((x, i) => expect(Math.abs(r!.row[i]! - x)).toBeLessThan(1e-15));
    }
  });
});

describe('coordinate names, lookups and ranges', () => {
  const joint = (type: JointType | JointMask) => build(type, ['body', 'body'], firstSample(1)).joint;

  it('names per preset and mask, in the readout\'s order', () => {
    for (const t of Object.keys(NAMES) as JointType[]) {
      expect(jointCoordinateNames(joint(t))).toEqual(NAMES[t]);
    }
    for (const [, mask, names] of MASKS) expect(jointCoordinateNames(joint(mask))).toEqual(names);
  });

  it('coordinateIndex finds a name, rejects others with a ModelError naming the path and choices', () => {
    expect(coordinateIndex(joint('cylindrical'), 'rz', 'joints[0].limits')).toBe(1);
    expect(coordinateIndex(joint('gimbal'), 'psi', 'joints[0].limits')).toBe(2);
    const bad = () => coordinateIndex(joint('hinge'), 'angle', 'joints[3].limits');
    expect(bad).toThrow(/^joints\[3\]\.limits: .*"angle".*one of rz/);
    expect(() => coordinateIndex(joint('ball'), 'rz', 'p')).toThrow(ModelError);
    expect(() => coordinateIndex(joint('ball'), 'rz', 'p')).toThrow(/no readable coordinates/);
  });

  it('ranges and angle flags; a coordinate index out of range throws', () => {
    const pi = Math.PI;
    expect(coordinateRange(joint('hinge'), 0)).toEqual([-2 * pi, 2 * pi]);
    expect(coordinateRange(joint('cylindrical'), 0)).toEqual([-Infinity, Infinity]);
    expect(coordinateRange(joint('universal'), 1)).toEqual([-pi, pi]);
    const gimbal = [0, 1, 2].map((k) => coordinateRange(joint('gimbal'), k));
    expect(gimbal).toEqual([[-pi, pi], [-pi / 2, pi / 2], [-pi, pi]]);
    expect([0, 1, 2].map((k) => coordinateIsAngle(joint('planar'), k))).toEqual([false, false, true]);
    const { model, joint: j } = build('slider', ['body', 'body'], firstSample(1));
    const ctx = context(model, model.initialQ, model.initialU);
    expect(() => coordinateRow(new Float64Array(12), j, ctx, scratchOf(j), 1)).toThrow(RangeError);
    expect(() => coordinateValue(j, ctx, scratchOf(j), -1)).toThrow(RangeError);
    expect(() => coordinateRange(joint('weld'), 0)).toThrow(RangeError);
  });
});
