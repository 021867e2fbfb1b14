/**
 * The generic joint (src/constraints/joint.ts, jointRows.ts): for every preset and a custom mask,
 * on body–body, body–world, world–body and non-dynamic sides, at configurations moved along the
 * free axes and then off the constraint a little:
 *   - G against central differences of g along the engine's tangent space (`retract`);
 *   - κ = Ġu against central differences of ε ↦ Σ_k G_k(q ⊕ εu) u_k;
 *   - coordinate rates against central differences of the coordinates along q ⊕ εu;
 * plus the row counts, g = 0 after `atWorldFrame`, coordinates read back under prescribed
 * relative motions (hinge angle past a half turn, slider travel, planar, universal, RPY against
 * mat3ToRpy), the frame of the RPY rates, the gimbal singularity, and validation.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import type { Model, RigidBody, Vec3Tuple, QuatTuple } from '../../src/model/model.js';
import { Joint, JOINT_PRESETS, GIMBAL_SINGULAR_TOL, type JointType, type JointMask } from '../../src/constraints/joint.js';
import { ModelError } from '../../src/model/errors.js';
import { quatMul, quatConj, quatFromAxisAngle, quatToMat3, quatRotate } from '../../src/math/quat.js';
import { mulAtB3 } from '../../src/math/mat3.js';
import { mat3ToRpy, rpyToMat3, omegaToRpyRate } from '../../src/math/rpy.js';
import { pose, poseCompose, poseInverse, type Pose } from '../../src/math/transform.js';
import { relErr, rng } from '../helpers/fd.js';
import { context, flow, perturb, scratchOf } from '../helpers/constraints.js';
import { randomVec, randomQuat } from '../helpers/numeric.js';

const TOL = 1e-6;
const FD_EPS = 1e-3;
type Side = 'body' | 'world' | 'static';

const axisQuat = (k: number, angle: number) => quatFromAxisAngle(new Float64Array(4), Float64Array.from([0, 1, 2].map((i) => (i === k ? 1 : 0))), angle);

/** bodies A and B at random poses (a side may be the world or non-dynamic) and a joint at a random world frame */
function scene(seed: number, type: JointType | JointMask, a: Side, b: Side, extra: { compliance?: number | number[] } = {}) {
  const r = rng(seed);
  const builder = new ModelAssembler();
  builder.settings.gravity = [0, 0, 0];
  const body: Record<string, RigidBody> = {};
  for (const [name, side] of [['A', a], ['B', b]] as const) {
    body[name] = builder.addBody({
      name, mass: 1 + r(), inertia: [0.3, 0.4, 0.5, 0, 0, 0], com: randomVec(r, 0.2),
      position: randomVec(r), orientation: randomQuat(r), dynamic: side !== 'static',
    });
  }
  const model = builder.build();
  const A = a === 'world' ? null : body.A!, B = b === 'world' ? null : body.B!;
  const joint = Joint.atWorldFrame('j', A, B, model.initialQ, randomVec(r), randomQuat(r), { type, ...extra });
  // velocities of every component, non-dynamic ones included (as a driver would prescribe)
  const u = Float64Array.from({ length: model.nu }, () => 2 * r() - 1);
  return { model, joint, A, B, r, u };
}




function violation(j: Joint, model: Model, q: Float64Array, u: Float64Array): Float64Array {
  const g = new Float64Array(j.rows);
  j.violation(context(model, q, u), g, 0, scratchOf(j));
  return g;
}

/** Σ_k G_k u_k at q */
function gdot(j: Joint, model: Model, q: Float64Array, u: Float64Array): Float64Array {
  const blocks = j.jacobian(context(model, q, u), scratchOf(j)), out = new Float64Array(j.rows);
  j.components.forEach((c, b) => {
    const G = blocks[b]!, o = model.components[c]!.uOffset;
    for (let i = 0; i < j.rows; i++) for (let k = 0; k < 6; k++) out[i] = out[i]! + G[6 * i + k]! * u[o + k]!;
  });
  return out;
}

/** max over rows of |a_i − b_i| / max(|b_i|, floor): each row relative to its own size */
function rowErr(a: Float64Array, b: Float64Array, rows: number, floor = 1e-9): number {
  const w = a.length / rows;
  let e = 0;
  for (let i = 0; i < rows; i++) e = Math.max(e, relErr(a.subarray(w * i, w * i + w), b.subarray(w * i, w * i + w), floor));
  return e;
}

/**
 * d/dε f(ε) at 0 by the fourth-order central stencil (−f(2ε) + 8f(ε) − 8f(−ε) + f(−2ε))/(12ε):
 * with ε = 1e-3 its truncation (~ε⁴) and rounding (~1e-16/ε) errors are both ~1e-13, so every
 * row, small ones included, is checked to its own relative size.
 */
function central(f: (eps: number) => Float64Array, eps = FD_EPS): Float64Array {
  const p1 = f(eps), m1 = f(-eps), p2 = f(2 * eps), m2 = f(-2 * eps);
  return p1.map((v, i) => (-p2[i]! + 8 * v - 8 * m1[i]! + m2[i]!) / (12 * eps));
}

/** relative errors of G (against FD of g along retract), κ (against FD of Gu along q ⊕ εu), ġ = Gu and the coordinate rates */
function check(j: Joint, model: Model, q: Float64Array, u: Float64Array) {
  // G, block by block: column k from g along the k-th tangent direction of the component
  const blocks = j.jacobian(context(model, q, u), scratchOf(j)).map((b) => b.slice());
  let eG = 0;
  j.components.forEach((c, b) => {
    const fd = new Float64Array(6 * j.rows);
    for (let k = 0; k < 6; k++) {
      const col = central((e) => violation(j, model, perturb(model, q, c, k, e), u));
      for (let i = 0; i < j.rows; i++) fd[6 * i + k] = col[i]!;
    }
    eG = Math.max(eG, rowErr(blocks[b]!, fd, j.rows));
  });
  // κ = d/dε Σ G(q ⊕ εu) u (u held fixed)
  const kappa = new Float64Array(j.rows);
  j.bias(context(model, q, u), kappa, 0, scratchOf(j));
  const kfd = central((e) => gdot(j, model, flow(model, q, u, e), u));
  // ġ = G u against d/dε g(q ⊕ εu)
  const gdFd = central((e) => violation(j, model, flow(model, q, u, e), u));
  // coordinate rates against d/dε of the coordinates along q ⊕ εu
  const n = j.coordinateNames.length, rates = new Float64Array(n);
  j.coordinateRates(context(model, q, u), rates, 0, scratchOf(j));
  const rfd = central((e) => { const c = new Float64Array(n); j.coordinates(context(model, flow(model, q, u, e), u), c, 0, scratchOf(j)); return c; });
  return { G: eG, kappa: rowErr(kappa, kfd, j.rows), gdot: rowErr(gdot(j, model, q, u), gdFd, j.rows), rates: n ? rowErr(rates, rfd, n) : 0, g: violation(j, model, q, u) };
}

/** the pose of frame C (or D) in world at q */
function worldFrame(model: Model, q: Float64Array, b: RigidBody | null, f: Pose): Pose {
  if (!b) return pose(f.p, f.q);
  const X = pose(q.subarray(b.qOffset, b.qOffset + 3), q.subarray(b.qOffset + 3, b.qOffset + 7));
  return poseCompose(pose(), X, f);
}

/** positions with X_CD = T (moves B, or A when B is the world) */
function setRelative(model: Model, q0: Float64Array, j: Joint, T: Pose): Float64Array {
  const q = q0.slice(), A = j.bodyA, B = j.bodyB;
  const put = (b: RigidBody, X: Pose) => { q.set(X.p, b.qOffset); q.set(X.q, b.qOffset + 3); };
  if (B) {
    // X_WB = X_WC T X_BD⁻¹
    const XWD = poseCompose(pose(), worldFrame(model, q, A, j.frameA), T);
    put(B, poseCompose(pose(), XWD, poseInverse(pose(), j.frameB)));
  } else {
    // X_WA = X_WD T⁻¹ X_AC⁻¹
    const XWC = poseCompose(pose(), pose(j.frameB.p, j.frameB.q), poseInverse(pose(), T));
    put(A!, poseCompose(pose(), XWC, poseInverse(pose(), j.frameA)));
  }
  return q;
}

/** a random relative pose along the free axes of a preset (and the coordinates it should read) */
function freeMotion(type: JointType, r: () => number): { T: Pose; coords: number[] } {
  const P = JOINT_PRESETS[type], t = [0, 1, 2].map((k) => (P.linear[k] ? 0 : 0.8 * (2 * r() - 1)));
  const coords = [0, 1, 2].filter((k) => !P.linear[k]).map((k) => t[k]!);
  let q: Float64Array;
  if (type === 'gimbal') {
    const a = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1].map((x) => 2.5 * x);
    a[1] = 1.2 * (2 * r() - 1);
    q = quatMul(new Float64Array(4), quatMul(new Float64Array(4), axisQuat(2, a[0]!), axisQuat(1, a[1]!)), axisQuat(0, a[2]!));
    coords.push(...a);
  } else if (type === 'universal') {
    const a = 1.3 * (2 * r() - 1), b = 1.3 * (2 * r() - 1);
    q = quatMul(new Float64Array(4), axisQuat(0, a), axisQuat(1, b));
    coords.push(a, b);
  } else if (!P.angular.some((x) => x)) {
    q = Float64Array.from(randomQuat(r));
  } else if (!P.angular[2]) {
    const a = 3.5 * (2 * r() - 1);
    q = axisQuat(2, a);
    coords.push(a);
  } else q = Float64Array.of(1, 0, 0, 0);
  return { T: pose(t, q), coords };
}

const TYPES = Object.keys(JOINT_PRESETS) as JointType[];
const ROWS: Record<JointType, number> = { 'ball': 3, 'hinge': 5, 'slider': 5, 'cylindrical': 4, 'universal': 4, 'gimbal': 3, 'planar': 3, 'point-on-plane': 1, 'point-on-line': 2, 'weld': 6 };
const SIDES: [string, Side, Side][] = [['body–body', 'body', 'body'], ['body–world', 'body', 'world'], ['world–body', 'world', 'body'], ['body–static', 'body', 'static'], ['static–body', 'static', 'body']];
const worst = { G: 0, kappa: 0, gdot: 0, rates: 0 };

describe('joint Jacobians and biases against central finite differences', () => {
  let seed = 1000;
  for (const type of TYPES) {
    for (const [label, a, b] of SIDES) {
      const s = seed++;
      it(`${type}, ${label} (seed ${s})`, () => {
        const { model, joint, r, u } = scene(s, type, a, b);
        expect(joint.rows).toBe(ROWS[type]);
        expect(joint.components.length).toBe((a === 'world' ? 0 : 1) + (b === 'world' ? 0 : 1));
        // satisfied at load time
        expect(Math.max(...violation(joint, model, model.initialQ, u).map(Math.abs))).toBeLessThan(1e-12);
        // along the free axes: still satisfied, coordinates read back
        const { T, coords } = freeMotion(type, r);
        const qf = setRelative(model, model.initialQ, joint, T);
        expect(Math.max(...violation(joint, model, qf, u).map(Math.abs))).toBeLessThan(1e-12);
        const c = new Float64Array(joint.coordinateNames.length);
        joint.coordinates(context(model, qf, u), c, 0, scratchOf(joint));
        expect(Array.from(c).map((x, i) => Math.abs(x - coords[i]!)).reduce((m, x) => Math.max(m, x), 0)).toBeLessThan(1e-12);
        // then off the constraint a little
        const q = flow(model, qf, Float64Array.from({ length: model.nu }, () => 2 * r() - 1), 0.02);
        const e = check(joint, model, q, u);
        expect(Math.max(...e.g.map(Math.abs))).toBeGreaterThan(1e-4);
        for (const k of ['G', 'kappa', 'gdot', 'rates'] as const) worst[k] = Math.max(worst[k], e[k]);
        expect(e.G).toBeLessThan(TOL);
        expect(e.kappa).toBeLessThan(TOL);
        expect(e.gdot).toBeLessThan(TOL);
        expect(e.rates).toBeLessThan(TOL);
        // jacobianInto (the constraint stage's form) writes the blocks of `jacobian`, bit for bit, at the offsets given
        const ctx = context(model, q, u), blocks = joint.jacobian(ctx, scratchOf(joint)).map((x) => Array.from(x)), len = 6 * joint.rows;
        const out = new Float64Array(5 + 2 * len + 3).fill(NaN);
        joint.jacobianInto(ctx, out, 5, 5 + len + 3, scratchOf(joint));
        expect(blocks.length).toBe(joint.components.length);
        blocks.forEach((blk, k) => expect(Array.from(out.subarray(k === 0 ? 5 : 8 + len, (k === 0 ? 5 : 8 + len) + len))).toEqual(blk));
        expect(out.filter((x) => !Number.isNaN(x)).length).toBe(blocks.length * len);
      });
    }
  }

  it('a custom mask (lock ty, rx, rz: free tx, tz and about y), and large rotation errors of lock rows', () => {
    const mask: JointMask = { linear: [false, true, false], angular: [true, false, true] };
    const { model, joint, r, u } = scene(77, mask, 'body', 'body');
    expect(joint.rows).toBe(3);
    expect(joint.coordinateNames).toEqual(['tx', 'tz', 'ry']);
    for (const size of [0.02, 1.0, 2.5]) {
      const q = flow(model, model.initialQ, Float64Array.from({ length: model.nu }, () => 2 * r() - 1), size);
      const e = check(joint, model, q, u);
      expect(e.G).toBeLessThan(TOL);
      expect(e.kappa).toBeLessThan(TOL);
      expect(e.rates).toBeLessThan(TOL);
    }
  });

  it('a weld far from its lock (rotation error past a half turn): G, κ still exact', () => {
    const { model, joint, u } = scene(78, 'weld', 'body', 'world');
    const q = setRelative(model, model.initialQ, joint, pose([0.1, 0.2, 0.3], quatFromAxisAngle(new Float64Array(4), Float64Array.of(1, 2, 3), 3.6)));
    const e = check(joint, model, q, u);
    expect(e.G).toBeLessThan(TOL);
    expect(e.kappa).toBeLessThan(TOL);
  });

  it('compliance and damping from a scalar or per row', () => {
    const { joint } = scene(5, 'hinge', 'body', 'body', { compliance: [1, 2, 3, 4, 5] });
    expect(Array.from(joint.compliance)).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(joint.damping)).toEqual([0, 0, 0, 0, 0]);
    expect(Array.from(scene(5, 'ball', 'body', 'body', { compliance: 1e-6 }).joint.compliance)).toEqual([1e-6, 1e-6, 1e-6]);
    expect(joint.rowNames).toEqual(['tx', 'ty', 'tz', 'rx', 'ry']);
  });

  it('reports the worst errors', () => {
    console.log(`joint FD relative errors (worst over all types and sides): G ${worst.G.toExponential(2)}, κ ${worst.kappa.toExponential(2)}, ġ ${worst.gdot.toExponential(2)}, rates ${worst.rates.toExponential(2)}`);
    expect(worst.G).toBeLessThan(TOL);
  });
});

describe('joint coordinates under prescribed motions', () => {
  it('hinge angle: 2 atan2(q_z, q_w), continuous through a half turn', () => {
    const { model, joint, u } = scene(11, 'hinge', 'body', 'body');
    expect(joint.coordinateNames).toEqual(['rz']);
    const c = new Float64Array(1);
    for (const angle of [0, 0.3, -1.2, 2.9, Math.PI, 3.6, -3.6, 6.0]) {
      joint.coordinates(context(model, setRelative(model, model.initialQ, joint, pose([0, 0, 0], axisQuat(2, angle))), u), c, 0, scratchOf(joint));
      expect(c[0]).toBeCloseTo(angle, 12);
    }
  });

  it('slider and cylindrical travel along z of C; planar reads (tx, ty, rz)', () => {
    for (const type of ['slider', 'cylindrical', 'planar'] as const) {
      const { model, joint, u } = scene(12, type, 'world', 'body');
      const c = new Float64Array(joint.coordinateNames.length);
      for (const [x, y, z, a] of [[0.4, -0.2, 0.7, 0.5], [-1.5, 0.3, -2.0, -2.2]] as const) {
        const T = type === 'planar' ? pose([x, y, 0], axisQuat(2, a)) : type === 'slider' ? pose([0, 0, z]) : pose([0, 0, z], axisQuat(2, a));
        joint.coordinates(context(model, setRelative(model, model.initialQ, joint, T), u), c, 0, scratchOf(joint));
        const want = type === 'planar' ? [x, y, a] : type === 'slider' ? [z] : [z, a];
        want.forEach((w, i) => expect(c[i]).toBeCloseTo(w, 12));
      }
    }
  });

  it('universal: R_CD = Rx(rx) Ry(ry)', () => {
    const { model, joint, u } = scene(13, 'universal', 'body', 'body');
    expect(joint.coordinateNames).toEqual(['rx', 'ry']);
    const c = new Float64Array(2);
    joint.coordinates(context(model, setRelative(model, model.initialQ, joint, pose([0, 0, 0], quatMul(new Float64Array(4), axisQuat(0, 0.7), axisQuat(1, -1.1)))), u), c, 0, scratchOf(joint));
    expect(c[0]).toBeCloseTo(0.7, 12);
    expect(c[1]).toBeCloseTo(-1.1, 12);
  });

  /** R_CD and Ω = R_WCᵀ(ω_B − ω_A) computed independently from the quaternions */
  function relative(model: Model, joint: Joint, q: Float64Array, u: Float64Array) {
    const qa = joint.bodyA ? q.slice(joint.bodyA.qOffset + 3, joint.bodyA.qOffset + 7) : Float64Array.of(1, 0, 0, 0);
    const qb = joint.bodyB ? q.slice(joint.bodyB.qOffset + 3, joint.bodyB.qOffset + 7) : Float64Array.of(1, 0, 0, 0);
    const qC = quatMul(new Float64Array(4), qa, joint.frameA.q), qD = quatMul(new Float64Array(4), qb, joint.frameB.q);
    const R = quatToMat3(new Float64Array(9), quatMul(new Float64Array(4), quatConj(new Float64Array(4), qC), qD));
    const w = (b: RigidBody | null) => (b ? u.slice(b.uOffset + 3, b.uOffset + 6) : new Float64Array(3));
    const wa = w(joint.bodyA), wb = w(joint.bodyB), dw = wb.map((x, i) => x - wa[i]!);
    return { R, omegaC: quatRotate(new Float64Array(3), quatConj(new Float64Array(4), qC), dw), omegaW: dw };
  }

  it('gimbal: RPY of R_CD equal mat3ToRpy; rates are A⁻¹(θ, φ) of the relative ω in C axes, not world', () => {
    const { model, joint, r, u } = scene(14, 'gimbal', 'body', 'body');
    expect(joint.coordinateNames).toEqual(['theta', 'phi', 'psi']);
    for (let trial = 0; trial < 5; trial++) {
      const q = flow(model, model.initialQ, Float64Array.from({ length: model.nu }, () => 2 * r() - 1), 1.0);
      const c = new Float64Array(3), rates = new Float64Array(3);
      joint.coordinates(context(model, q, u), c, 0, scratchOf(joint));
      const { R, omegaC, omegaW } = relative(model, joint, q, u);
      const want = mat3ToRpy(R);
      want.forEach((x, i) => expect(Math.abs(c[i]! - x)).toBeLessThan(1e-12));
      expect(joint.isSingular(context(model, q, u), scratchOf(joint))).toBe(false);
      // rates: A⁻¹ Ω_C (and not A⁻¹ of the world-axis relative ω)
      joint.coordinateRates(context(model, q, u), rates, 0, scratchOf(joint));
      const M = new Float64Array(9);
      omegaToRpyRate(M, c[0]!, c[1]!);
      const apply = (w: Float64Array) => [0, 1, 2].map((i) => M[3 * i]! * w[0]! + M[3 * i + 1]! * w[1]! + M[3 * i + 2]! * w[2]!);
      apply(omegaC).forEach((x, i) => expect(Math.abs(rates[i]! - x)).toBeLessThan(1e-10));
      expect(relErr(Float64Array.from(apply(omegaW)), rates)).toBeGreaterThan(1e-3);
    }
  });

  it('gimbal at φ = ±π/2: isSingular, finite rates (Ω_z, −sθ Ω_x + cθ Ω_y, 0)', () => {
    const { model, joint, u } = scene(15, 'gimbal', 'body', 'body');
    for (const phi of [Math.PI / 2, -Math.PI / 2]) {
      const R = rpyToMat3(new Float64Array(9), 0.4, phi, -0.9);
      // the quaternion of Rz Ry Rx
      const qT = quatMul(new Float64Array(4), quatMul(new Float64Array(4), axisQuat(2, 0.4), axisQuat(1, phi)), axisQuat(0, -0.9));
      expect(quatToMat3(new Float64Array(9), qT).every((x, i) => Math.abs(x - R[i]!) < 1e-15)).toBe(true);
      const q = setRelative(model, model.initialQ, joint, pose([0, 0, 0], qT));
      const ctx = context(model, q, u);
      expect(joint.isSingular(ctx, scratchOf(joint))).toBe(true);
      const c = new Float64Array(3), rates = new Float64Array(3);
      joint.coordinates(ctx, c, 0, scratchOf(joint));
      joint.coordinateRates(ctx, rates, 0, scratchOf(joint));
      expect(rates.every(Number.isFinite)).toBe(true);
      expect(Math.abs(c[1]!)).toBeCloseTo(Math.PI / 2, 7);
      const { omegaC } = relative(model, joint, q, u);
      expect(rates[0]).toBeCloseTo(omegaC[2]!, 10);
      expect(rates[1]).toBeCloseTo(-Math.sin(c[0]!) * omegaC[0]! + Math.cos(c[0]!) * omegaC[1]!, 10);
      expect(rates[2]).toBe(0);
    }
    // near it (cos φ = 0.05) the rates are regular and exact
    const qn = setRelative(model, model.initialQ, joint, pose([0, 0, 0], quatMul(new Float64Array(4), quatMul(new Float64Array(4), axisQuat(2, 0.4), axisQuat(1, Math.acos(0.05))), axisQuat(0, -0.9))));
    expect(joint.isSingular(context(model, qn, u), scratchOf(joint))).toBe(false);
    expect(check(joint, model, qn, u).rates).toBeLessThan(TOL);
    expect(GIMBAL_SINGULAR_TOL).toBeGreaterThan(Math.sqrt(2 * 2 ** -53));
  });

  // regression (review): the joint computed φ with asin(−R₂₀), a copy of mat3ToRpy that had
  // kept the old formula; 1e-8 rad from φ = π/2 it took the singular branch (ψ = 0, θ 0.7 rad off)
  it('gimbal angles stay on the regular branch down to 1e-8 rad from φ = ±π/2', () => {
    const { model, joint, u } = scene(16, 'gimbal', 'body', 'body');
    for (const d of [1e-3, 1e-5, 1e-7, 1e-8]) for (const sign of [1, -1]) {
      const phi = sign * (Math.PI / 2 - d);
      const qT = quatMul(new Float64Array(4), quatMul(new Float64Array(4), axisQuat(2, 0.4), axisQuat(1, phi)), axisQuat(0, -0.9));
      const q = setRelative(model, model.initialQ, joint, pose([0, 0, 0], qT));
      const c = new Float64Array(3);
      joint.coordinates(context(model, q, u), c, 0, scratchOf(joint));
      // θ and ψ are conditioned like 1/cos φ: rounding of R_CD moves them by about ε/d
      expect(Math.abs(c[0]! - 0.4)).toBeLessThan(1e-14 / d);
      expect(Math.abs(c[1]! - phi)).toBeLessThan(1e-12);
      expect(Math.abs(c[2]! + 0.9)).toBeLessThan(1e-14 / d);
    }
  });

  it('the anchor is frame C in world', () => {
    const { model, joint, u } = scene(16, 'hinge', 'body', 'body');
    const q = flow(model, model.initialQ, u, 0.3);
    const x = joint.anchor(context(model, q, u), new Float64Array(3), scratchOf(joint));
    const want = worldFrame(model, q, joint.bodyA, joint.frameA).p;
    x.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 14));
  });

  it('atWorldAxis puts the z axis of C along the axis, in world', () => {
    const builder = new ModelAssembler();
    const B = builder.addBody({ name: 'B', mass: 1, inertia: [1, 1, 1, 0, 0, 0], position: [1, 2, 3], orientation: [0.9, 0.1, -0.3, 0.2] });
    const model = builder.build();
    for (const axis of [[1, 2, -2], [0, 0, -3], [0, 0, 1]] as Vec3Tuple[]) {
      const j = Joint.atWorldAxis('h', null, B, model.initialQ, [0, 1, 0], axis, { type: 'hinge' });
      const z = quatRotate(new Float64Array(3), j.frameA.q, Float64Array.of(0, 0, 1)), n = Math.hypot(...axis);
      z.forEach((v, i) => expect(v).toBeCloseTo(axis[i]! / n, 14));
      expect(Math.max(...violation(j, model, model.initialQ, model.initialU).map(Math.abs))).toBeLessThan(1e-14);
    }
  });
});

describe('joint validation', () => {
  const builder = new ModelAssembler();
  const A = builder.addBody({ name: 'A', mass: 1, inertia: [1, 1, 1, 0, 0, 0] });
  const B = builder.addBody({ name: 'B', mass: 1, inertia: [1, 1, 1, 0, 0, 0], position: [1, 0, 0] });
  const q0 = builder.initialQ();
  const at = (a: RigidBody | null, b: RigidBody | null, spec: object, orientation: QuatTuple = [1, 0, 0, 0], position: Vec3Tuple = [0, 0, 0]) =>
    () => Joint.atWorldFrame('j', a, b, q0, position, orientation, { type: 'hinge', ...spec });
  it.each([
    ['both sides world', at(null, null, {})],
    ['the same body', at(A, A, {})],
    ['a zero orientation', at(A, B, {}, [0, 0, 0, 0])],
    ['a non-finite orientation', at(A, B, {}, [1, NaN, 0, 0])],
    ['a non-finite position', at(A, B, {}, [1, 0, 0, 0], [0, Infinity, 0])],
    ['a negative compliance', at(A, B, { compliance: -1 })],
    ['a negative damping per row', at(A, B, { damping: [0, 0, -1, 0, 0] })],
    ['a per-row array of the wrong length', at(A, B, { compliance: [0, 0] })],
    ['an unknown type', at(A, B, { type: 'hinged' })],
    ['a mask that locks nothing', at(A, B, { type: { linear: [false, false, false], angular: [false, false, false] } })],
    ['a malformed mask', at(A, B, { type: { linear: [true, true], angular: [false, false, false] } })],
    ['a zero axis', () => Joint.atWorldAxis('j', A, B, q0, [0, 0, 0], [0, 0, 0], { type: 'hinge' })],
    ['a non-finite axis', () => Joint.atWorldAxis('j', A, B, q0, [0, 0, 0], [NaN, 0, 1], { type: 'hinge' })],
  ])('rejects %s', (_, f) => {
    expect(f).toThrow(ModelError);
  });

  it('the constructor picks the sign of q_CD with w ≥ 0 at set-up', () => {
    // frame D given with the opposite quaternion sign: the rotational rows still read 0
    const j = new Joint('w', A, B, [0.5, 0, 0], [1, 0, 0, 0], [-0.5, 0, 0], [-1, 0, 0, 0], { type: 'weld' }, q0);
    expect(j.frameB.q[0]).toBe(1);
    const g = violation(j, builder.build(), q0, new Float64Array(12));
    expect(Math.max(...g.map(Math.abs))).toBe(0);
  });
});

describe('relative rotation helper (test scaffolding)', () => {
  it('setRelative gives R_CD = T', () => {
    const { model, joint } = scene(3, 'ball', 'body', 'body');
    const qT = Float64Array.from(randomQuat(rng(9)));
    const q = setRelative(model, model.initialQ, joint, pose([0, 0, 0], qT));
    const ctx = context(model, q, new Float64Array(model.nu));
    const RC = quatToMat3(new Float64Array(9), quatMul(new Float64Array(4), q.slice(joint.bodyA!.qOffset + 3, joint.bodyA!.qOffset + 7), joint.frameA.q));
    const RD = quatToMat3(new Float64Array(9), quatMul(new Float64Array(4), q.slice(joint.bodyB!.qOffset + 3, joint.bodyB!.qOffset + 7), joint.frameB.q));
    const R = mulAtB3(new Float64Array(9), RC, RD), want = quatToMat3(new Float64Array(9), qT);
    R.forEach((x, i) => expect(x).toBeCloseTo(want[i]!, 13));
    expect(ctx.kin.R.length).toBe(9 * model.components.length);
  });
});
