/**
 * Tests of the unit-quaternion kernels (src/math/quat.ts) against the math of docs/theory.md §3.
 *
 * - q = (cos(θ/2), sin(θ/2) u); the product
 *   q p = (q_s p_s − q_v·p_v, q_s p_v + p_s q_v + q_v × p_v); rotation of vectors ᵂv = q (0, ᴿv) q⁻¹;
 *   the rates q̇ = ½ (0, ω) q for world ω and q̇ = ½ q (0, ω) for body ω, with their explicit
 *   (θ, u) forms.
 * - ė = ½ ω ⋆ e, its matrix form (world ω: E = [−e_v, e_s I + ê_v]; body ω: Ē = [−e_v, e_s I − ê_v]),
 *   the exact update e(h) = exp(hω/2) e with the exponential written out, never "add and normalise".
 * - exp(hω/2) rotates by h|ω| (not (h/2)|ω|), and |ω| → 0 is guarded
 *   (sin(h|ω|/2)/|ω| → h/2). Both rate forms agree; q(0,v)q⁻¹ agrees with Rodrigues;
 *   finite differences give Ṙ = [ω]R for world ω and Ṙ = R[ω] for body ω.
 *
 * The references here are written from the formulas with plain number arithmetic, independent of the
 * module (and of src/math/vec3.ts / mat3.ts). Random inputs come from a seeded mulberry32 generator
 * or from fast-check with a fixed seed, so every run is identical.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  quat, quatMul, quatConj, quatNorm, quatNormalize, quatRotate, quatToMat3, quatFromMat3, quatFromAxisAngle,
  quatToRotationVector, quatFromRotationVector, quatExpHalf, quatIntegrateWorld, quatDerivWorld, quatDerivBody,
  loadQuat, type Quat,
} from '../../src/math/quat.js';
import { rng, maxAbsDiff, matMul3 as matMul } from '../helpers/numeric.js';

// ---------------------------------------------------------------------------------------------
// independent reference arithmetic (plain arrays, no module code)

type V3 = [number, number, number];
type Q4 = [number, number, number, number];
type M3 = number[]; // row-major 3×3


function gauss(r: () => number): number {
  const u = 1 - r(), v = r();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function randVec(r: () => number, scale = 1): V3 {
  return [scale * (2 * r() - 1), scale * (2 * r() - 1), scale * (2 * r() - 1)];
}

function randUnitVec(r: () => number): V3 {
  const v: V3 = [gauss(r), gauss(r), gauss(r)];
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/** uniformly distributed unit quaternion (normalised 4-D Gaussian) */
function randUnitQuat(r: () => number): Q4 {
  const q: Q4 = [gauss(r), gauss(r), gauss(r), gauss(r)];
  const n = Math.hypot(...q);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V3 =>
  [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];

/** the product of theory.md §3: (q_s p_s − q_v·p_v, q_s p_v + p_s q_v + q_v × p_v) */
function refMul(q: ArrayLike<number>, p: ArrayLike<number>): Q4 {
  const qv = [q[1]!, q[2]!, q[3]!], pv = [p[1]!, p[2]!, p[3]!];
  const c = cross(qv, pv);
  const qs = q[0]!, ps = p[0]!;
  return [qs * ps - dot(qv, pv), qs * pv[0]! + ps * qv[0]! + c[0], qs * pv[1]! + ps * qv[1]! + c[1], qs * pv[2]! + ps * qv[2]! + c[2]];
}

function refInv(q: ArrayLike<number>): Q4 {
  const n2 = q[0]! ** 2 + q[1]! ** 2 + q[2]! ** 2 + q[3]! ** 2;
  return [q[0]! / n2, -q[1]! / n2, -q[2]! / n2, -q[3]! / n2];
}

/** q (0, v) q⁻¹ by two products of refMul */
function refRotate(q: ArrayLike<number>, v: ArrayLike<number>): Q4 {
  return refMul(refMul(q, [0, v[0]!, v[1]!, v[2]!]), refInv(q));
}

/** exp((t/2)ω) of theory.md §3 written directly (t|ω| not tiny) */
function refExpHalf(w: ArrayLike<number>, t: number): Q4 {
  const n = Math.hypot(w[0]!, w[1]!, w[2]!);
  const s = Math.sin(0.5 * t * n) / n;
  return [Math.cos(0.5 * t * n), s * w[0]!, s * w[1]!, s * w[2]!];
}

/** Rodrigues: R = I + sinθ [u] + (1 − cosθ) [u]², for a unit axis u */
function rodrigues(u: V3, th: number): M3 {
  const [x, y, z] = u, s = Math.sin(th), c1 = 1 - Math.cos(th);
  const K = [0, -z, y, z, 0, -x, -y, x, 0];
  const K2 = matMul(K, K);
  return K.map((k, i) => (i % 4 === 0 ? 1 : 0) + s * k + c1 * K2[i]!);
}


function matVec(a: ArrayLike<number>, v: ArrayLike<number>): V3 {
  return [0, 1, 2].map((i) => a[3 * i]! * v[0]! + a[3 * i + 1]! * v[1]! + a[3 * i + 2]! * v[2]!) as V3;
}

function transpose(a: ArrayLike<number>): M3 {
  return [a[0]!, a[3]!, a[6]!, a[1]!, a[4]!, a[7]!, a[2]!, a[5]!, a[8]!];
}

function skewRef(w: ArrayLike<number>): M3 {
  return [0, -w[2]!, w[1]!, w[2]!, 0, -w[0]!, -w[1]!, w[0]!, 0];
}


/** distance between quaternions modulo sign (q and −q are the same rotation) */
function distPm(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dp = 0, dm = 0;
  for (let i = 0; i < 4; i++) { dp = Math.max(dp, Math.abs(a[i]! - b[i]!)); dm = Math.max(dm, Math.abs(a[i]! + b[i]!)); }
  return Math.min(dp, dm);
}

const Q = (q: ArrayLike<number>): Quat => Float64Array.from(q);
const V = (v: ArrayLike<number>): Float64Array => Float64Array.from(v);

/** rotation angle in [0, π] of a unit quaternion (stable for small and large angles) */
function rotationAngle(q: ArrayLike<number>): number {
  return 2 * Math.atan2(Math.hypot(q[1]!, q[2]!, q[3]!), Math.abs(q[0]!));
}

// ---------------------------------------------------------------------------------------------

describe('quaternion product (theory.md §3)', () => {
  it('quatMul equals (q_s p_s − q_v·p_v, q_s p_v + p_s q_v + q_v × p_v), also for non-unit factors', () => {
    const r = rng(1);
    const out = quat();
    for (let k = 0; k < 500; k++) {
      const q: Q4 = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
      const p: Q4 = [3 * r() - 1.5, 3 * r() - 1.5, 3 * r() - 1.5, 3 * r() - 1.5];
      quatMul(out, Q(q), Q(p));
      expect(maxAbsDiff(out, refMul(q, p))).toBeLessThanOrEqual(1e-15);
    }
  });

  it('Hamilton units: i² = j² = k² = ijk = −1, ij = k, jk = i, ki = j, ji = −k', () => {
    const one = Q([1, 0, 0, 0]), i = Q([0, 1, 0, 0]), j = Q([0, 0, 1, 0]), k = Q([0, 0, 0, 1]);
    const o = quat();
    for (const u of [i, j, k]) expect(Array.from(quatMul(o, u, u))).toEqual([-1, 0, 0, 0]);
    expect(Array.from(quatMul(o, i, j))).toEqual([0, 0, 0, 1]);
    expect(Array.from(quatMul(o, j, k))).toEqual([0, 1, 0, 0]);
    expect(Array.from(quatMul(o, k, i))).toEqual([0, 0, 1, 0]);
    expect(Array.from(quatMul(o, j, i))).toEqual([0, 0, 0, -1]);
    expect(Array.from(quatMul(o, quatMul(quat(), i, j), k))).toEqual([-1, 0, 0, 0]);
    const q = Q([0.3, -0.2, 0.9, 0.1]);
    expect(Array.from(quatMul(o, one, q))).toEqual(Array.from(q));
    expect(Array.from(quatMul(o, q, one))).toEqual(Array.from(q));
  });

  it('is associative: (q p) r = q (p r) (fast-check, seeded)', () => {
    const comp = fc.double({ min: -2, max: 2, noNaN: true });
    const q4 = fc.tuple(comp, comp, comp, comp);
    fc.assert(fc.property(q4, q4, q4, (a, b, c) => {
      const l = quatMul(quat(), quatMul(quat(), Q(a), Q(b)), Q(c));
      const rr = quatMul(quat(), Q(a), quatMul(quat(), Q(b), Q(c)));
      // |terms| ≤ 8 · 2³ per component: a few ulps of that scale
      expect(maxAbsDiff(l, rr)).toBeLessThanOrEqual(1e-13);
    }), { seed: 20240611, numRuns: 500 });
  });

  it('is not commutative, and q q* = (|q|², 0); |q p| = |q| |p|', () => {
    const r = rng(2);
    for (let k = 0; k < 100; k++) {
      const q: Q4 = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
      const p: Q4 = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
      const qp = quatMul(quat(), Q(q), Q(p)), pq = quatMul(quat(), Q(p), Q(q));
      // qp − pq = (0, 2 q_v × p_v)
      const c = cross(q.slice(1), p.slice(1));
      expect(maxAbsDiff([qp[0]! - pq[0]!, qp[1]! - pq[1]!, qp[2]! - pq[2]!, qp[3]! - pq[3]!], [0, 2 * c[0], 2 * c[1], 2 * c[2]])).toBeLessThanOrEqual(1e-15);
      const qq = quatMul(quat(), Q(q), quatConj(quat(), Q(q)));
      expect(maxAbsDiff(qq, [q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2, 0, 0, 0])).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(quatNorm(qp) - quatNorm(Q(q)) * quatNorm(Q(p)))).toBeLessThanOrEqual(1e-15);
    }
  });

  it('quatMul allows out to alias either factor; normalise, conj, loadQuat, quatNorm with offset', () => {
    const r = rng(3);
    for (let k = 0; k < 50; k++) {
      const a = randUnitQuat(r), b = randUnitQuat(r);
      const ref = refMul(a, b);
      const A = Q(a), B = Q(b);
      expect(maxAbsDiff(quatMul(A, A, B), ref)).toBeLessThanOrEqual(1e-15);
      const A2 = Q(a);
      expect(maxAbsDiff(quatMul(B, A2, B), ref)).toBeLessThanOrEqual(1e-15);
      const S = Q(a);
      expect(maxAbsDiff(quatMul(S, S, S), refMul(a, a))).toBeLessThanOrEqual(1e-15);
    }
    const n = quatNormalize(quat(), Q([2, 0, -3, 6]));
    expect(maxAbsDiff(n, [2 / 7, 0, -3 / 7, 6 / 7])).toBeLessThanOrEqual(1e-16);
    expect(Array.from(quatConj(quat(), Q([1, 2, 3, 4])))).toEqual([1, -2, -3, -4]);
    const arr = Float64Array.from([9, 9, 1, 2, 2, 4, 9]);
    expect(quatNorm(arr, 2)).toBe(5);
    expect(Array.from(loadQuat(quat(), arr, 2))).toEqual([1, 2, 2, 4]);
    expect(Array.from(quat())).toEqual([1, 0, 0, 0]);
  });
});

describe('rotation of vectors: quatRotate, quatToMat3 and q (0, v) q⁻¹ (theory.md §3)', () => {
  it('quatRotate(q, v) = quatToMat3(q) v = vector part of q (0, v) q⁻¹, scalar part 0', () => {
    const r = rng(4);
    const R = new Float64Array(9), out = new Float64Array(3);
    for (let k = 0; k < 500; k++) {
      const q = randUnitQuat(r), v = randVec(r, 3);
      quatRotate(out, Q(q), V(v));
      quatToMat3(R, q);
      const viaMat = matVec(R, v);
      const viaProd = refRotate(q, v);
      expect(Math.abs(viaProd[0])).toBeLessThanOrEqual(1e-15);
      // |v| ≤ 3√3: a few ulps of that scale
      expect(maxAbsDiff(out, viaMat)).toBeLessThanOrEqual(1e-14);
      expect(maxAbsDiff(out, viaProd.slice(1))).toBeLessThanOrEqual(1e-14);
      // length is preserved
      expect(Math.abs(Math.hypot(...out) - Math.hypot(...v))).toBeLessThanOrEqual(1e-14);
    }
  });

  it('quatToMat3 is a proper rotation (RᵀR = I, det R = 1) and agrees with Rodrigues for q = (cos θ/2, sin θ/2 u)', () => {
    const r = rng(5);
    const R = new Float64Array(9), q = quat();
    for (let k = 0; k < 300; k++) {
      const u = randUnitVec(r), th = (2 * r() - 1) * 2 * Math.PI;
      q[0] = Math.cos(th / 2); q[1] = Math.sin(th / 2) * u[0]; q[2] = Math.sin(th / 2) * u[1]; q[3] = Math.sin(th / 2) * u[2];
      quatToMat3(R, q);
      expect(maxAbsDiff(R, rodrigues(u, th))).toBeLessThanOrEqual(4e-15);
      expect(maxAbsDiff(matMul(transpose(R), R), [1, 0, 0, 0, 1, 0, 0, 0, 1])).toBeLessThanOrEqual(4e-15);
      const det = R[0]! * (R[4]! * R[8]! - R[5]! * R[7]!) - R[1]! * (R[3]! * R[8]! - R[5]! * R[6]!) + R[2]! * (R[3]! * R[7]! - R[4]! * R[6]!);
      expect(Math.abs(det - 1)).toBeLessThanOrEqual(4e-15);
    }
  });

  it('quatRotate allows out = v; quatToMat3 reads at an offset; composition R(qp) = R(q) R(p)', () => {
    const r = rng(6);
    for (let k = 0; k < 50; k++) {
      const q = randUnitQuat(r), p = randUnitQuat(r), v = randVec(r);
      const w = V(v);
      quatRotate(w, Q(q), w);
      expect(maxAbsDiff(w, refRotate(q, v).slice(1))).toBeLessThanOrEqual(4e-15);
      const arr = Float64Array.from([7, 7, 7, ...q]);
      expect(maxAbsDiff(quatToMat3(new Float64Array(9), arr, 3), quatToMat3(new Float64Array(9), q))).toBe(0);
      const Rqp = quatToMat3(new Float64Array(9), refMul(q, p));
      const RqRp = matMul(quatToMat3(new Float64Array(9), q), quatToMat3(new Float64Array(9), p));
      expect(maxAbsDiff(Rqp, RqRp)).toBeLessThanOrEqual(4e-15);
    }
  });
});

describe('quatFromMat3 (Shepperd)', () => {
  /** which Shepperd branch a rotation matrix selects: the largest of (tr, R00, R11, R22) */
  function branchOf(R: ArrayLike<number>): number {
    const d = [R[0]! + R[4]! + R[8]!, R[0]!, R[4]!, R[8]!];
    let b = 0;
    for (let i = 1; i < 4; i++) if (d[i]! > d[b]!) b = i;
    return b;
  }

  it('quatFromMat3(quatToMat3(q)) = ±q with w ≥ 0, over all four branches, including near-180° rotations', () => {
    const r = rng(7);
    const counts = [0, 0, 0, 0];
    const R = new Float64Array(9), out = quat();
    const cases: Q4[] = [];
    for (let k = 0; k < 400; k++) cases.push(randUnitQuat(r));
    // near-180° rotations: tiny scalar part, each vector component dominant in turn
    for (let k = 0; k < 300; k++) {
      const eps = [0, 1e-12, 1e-9, 1e-6, 1e-3][k % 5]! * r();
      const u = randUnitVec(r);
      const q: Q4 = [eps, u[0], u[1], u[2]];
      const n = Math.hypot(...q);
      cases.push([q[0] / n, q[1] / n, q[2] / n, q[3] / n]);
    }
    for (const axis of [1, 2, 3]) for (const sgn of [1, -1]) for (const eps of [0, 1e-15, 1e-8]) {
      const q: Q4 = [eps, 0, 0, 0];
      q[axis] = sgn;
      q[1 + (axis % 3)] = 1e-3; // tilt off the coordinate axis a little
      const n = Math.hypot(...q);
      cases.push([q[0] / n, q[1] / n, q[2] / n, q[3] / n]);
      const e: Q4 = [eps, 0, 0, 0];
      e[axis] = sgn;
      cases.push(e); // exact half-turn about a coordinate axis (eps = 0)
    }
    cases.push([1, 0, 0, 0], [-1, 0, 0, 0]);
    for (const q of cases) {
      quatToMat3(R, q);
      counts[branchOf(R)]!++;
      quatFromMat3(out, R);
      expect(out[0]).toBeGreaterThanOrEqual(0);
      expect(Math.abs(quatNorm(out) - 1)).toBeLessThanOrEqual(2e-15);
      expect(distPm(out, q)).toBeLessThanOrEqual(2e-15);
      // and the recovered quaternion reproduces R
      expect(maxAbsDiff(quatToMat3(new Float64Array(9), out), R)).toBeLessThanOrEqual(3e-15);
    }
    for (const c of counts) expect(c).toBeGreaterThanOrEqual(30);
  });

  it('exact half-turns about x, y, z and the diagonal give ±(0, u)', () => {
    const out = quat();
    expect(distPm(quatFromMat3(out, V([1, 0, 0, 0, -1, 0, 0, 0, -1])), [0, 1, 0, 0])).toBe(0);
    expect(distPm(quatFromMat3(out, V([-1, 0, 0, 0, 1, 0, 0, 0, -1])), [0, 0, 1, 0])).toBe(0);
    expect(distPm(quatFromMat3(out, V([-1, 0, 0, 0, -1, 0, 0, 0, 1])), [0, 0, 0, 1])).toBe(0);
    const s = Math.SQRT1_2;
    const R = rodrigues([s, s, 0], Math.PI);
    expect(distPm(quatFromMat3(out, V(R)), [0, s, s, 0])).toBeLessThanOrEqual(2e-16);
  });
});

describe('axis-angle and rotation vectors (theory.md §3, log/exp maps)', () => {
  it('quatFromAxisAngle gives (cos θ/2, sin θ/2 u) for any axis length, and its rotation is Rodrigues(u, θ)', () => {
    const r = rng(8);
    const q = quat();
    for (let k = 0; k < 300; k++) {
      const u = randUnitVec(r), th = (2 * r() - 1) * 3 * Math.PI, len = 0.01 + 10 * r();
      quatFromAxisAngle(q, V([len * u[0], len * u[1], len * u[2]]), th);
      const c = Math.cos(th / 2), s = Math.sin(th / 2);
      expect(maxAbsDiff(q, [c, s * u[0], s * u[1], s * u[2]])).toBeLessThanOrEqual(4.5e-16);
      expect(Math.abs(quatNorm(q) - 1)).toBeLessThanOrEqual(4.5e-16);
      expect(maxAbsDiff(quatToMat3(new Float64Array(9), q), rodrigues(u, th))).toBeLessThanOrEqual(4e-15);
    }
  });

  it('axis-angle round trip: quatToRotationVector(quatFromAxisAngle(u, θ)) = θu for θ ∈ (−π, π), wrapped by 2π beyond', () => {
    const r = rng(9);
    const q = quat(), rv = new Float64Array(3);
    for (let k = 0; k < 400; k++) {
      const u = randUnitVec(r);
      const th = (2 * r() - 1) * (Math.PI - 1e-9);
      quatFromAxisAngle(q, V(u), th);
      quatToRotationVector(rv, q);
      expect(maxAbsDiff(rv, [th * u[0], th * u[1], th * u[2]])).toBeLessThanOrEqual(4e-15);
      // beyond π the shortest rotation is returned: θ − 2π sign(θ)
      const big = Math.sign(th) * (2 * Math.PI - Math.abs(th));
      quatFromAxisAngle(q, V(u), -big);
      quatToRotationVector(rv, q);
      expect(maxAbsDiff(rv, [th * u[0], th * u[1], th * u[2]])).toBeLessThanOrEqual(1e-14);
      expect(Math.hypot(...rv)).toBeLessThanOrEqual(Math.PI);
    }
  });

  it('quatFromRotationVector / quatToRotationVector round trip: tiny (1e-9 … 1e-4), moderate, and near-π angles', () => {
    const r = rng(10);
    const q = quat(), rv = new Float64Array(3);
    const mags = [1e-300, 1e-20, 1e-12, 1e-9, 1e-7, 1e-5, 2e-4 * (1 - 1e-12), 2e-4, 2e-4 * (1 + 1e-12), 1e-3, 0.1, 1, 2, 3,
      Math.PI - 1e-4, Math.PI - 1e-7, Math.PI - 1e-9, Math.PI - 1e-12];
    for (const m of mags) for (let k = 0; k < 20; k++) {
      const u = randUnitVec(r);
      const th: V3 = [m * u[0], m * u[1], m * u[2]];
      quatFromRotationVector(q, V(th));
      // exp of the rotation vector is (cos |θ|/2, sin(|θ|/2) θ/|θ|): compare to the formula directly
      expect(maxAbsDiff(q, [Math.cos(m / 2), Math.sin(m / 2) * u[0], Math.sin(m / 2) * u[1], Math.sin(m / 2) * u[2]])).toBeLessThanOrEqual(4.5e-16);
      quatToRotationVector(rv, q);
      const err = maxAbsDiff(rv, th);
      if (m < 1) expect(err).toBeLessThanOrEqual(1e-15 * m); // relative accuracy for small angles
      else expect(err).toBeLessThanOrEqual(4e-15);
      // −q is the same rotation: same rotation vector
      const neg = Q([-q[0]!, -q[1]!, -q[2]!, -q[3]!]);
      expect(maxAbsDiff(quatToRotationVector(new Float64Array(3), neg), rv)).toBe(0);
    }
    // zero
    quatFromRotationVector(q, V([0, 0, 0]));
    expect(Array.from(q)).toEqual([1, 0, 0, 0]);
    expect(Array.from(quatToRotationVector(rv, q))).toEqual([0, 0, 0]);
  });
});

describe('quaternion rates and their matrix form (theory.md §3)', () => {
  it('world form ½(0,ω)q and body form ½q(0,ω) agree when ω_body = Rᵀ ω_world, and match the explicit (θ, u) formulas', () => {
    const r = rng(11);
    const dw = quat(), db = quat(), R = new Float64Array(9);
    for (let k = 0; k < 300; k++) {
      const u = randUnitVec(r), th = (2 * r() - 1) * 2 * Math.PI, ww = randVec(r, 5);
      const c = Math.cos(th / 2), s = Math.sin(th / 2);
      const q: Q4 = [c, s * u[0], s * u[1], s * u[2]];
      quatToMat3(R, q);
      const wb = matVec(transpose(R), ww);
      quatDerivWorld(dw, Q(q), V(ww));
      quatDerivBody(db, Q(q), V(wb));
      expect(maxAbsDiff(dw, db)).toBeLessThanOrEqual(1e-14);
      // explicit forms in the angle θ and the axis u
      const wxu = cross(ww, u), bxu = cross(wb, u);
      const worldRef = [-s * dot(ww, u), c * ww[0] + s * wxu[0], c * ww[1] + s * wxu[1], c * ww[2] + s * wxu[2]].map((x) => 0.5 * x);
      const bodyRef = [-s * dot(wb, u), c * wb[0] - s * bxu[0], c * wb[1] - s * bxu[1], c * wb[2] - s * bxu[2]].map((x) => 0.5 * x);
      expect(maxAbsDiff(dw, worldRef)).toBeLessThanOrEqual(1e-14);
      expect(maxAbsDiff(db, bodyRef)).toBeLessThanOrEqual(1e-14);
      // as quaternion products
      const wq = refMul([0, ...ww], q).map((x) => 0.5 * x), qw = refMul(q, [0, ...wb]).map((x) => 0.5 * x);
      expect(maxAbsDiff(dw, wq)).toBeLessThanOrEqual(1e-14);
      expect(maxAbsDiff(db, qw)).toBeLessThanOrEqual(1e-14);
    }
  });

  it('matrix form (theory.md §3): ½Eᵀω with E = [−e_v, e_s I + ê_v] is the world rate, ½Ēᵀω with Ē = [−e_v, e_s I − ê_v] the body rate', () => {
    const r = rng(12);
    for (let k = 0; k < 100; k++) {
      const e = randUnitQuat(r), w = randVec(r, 4);
      const ev = [e[1], e[2], e[3]], hat = skewRef(ev);
      // E, 𝒢 are 3×4 (rows), columns (−e_v | e_s I ± ê_v); ½ Eᵀ ω is 4-vector
      const apply = (sgn: number): number[] => {
        const out = [0, 0, 0, 0];
        for (let i = 0; i < 3; i++) {
          const row = [-ev[i]!, ...[0, 1, 2].map((j) => (i === j ? e[0] : 0) + sgn * hat[3 * i + j]!)];
          for (let c = 0; c < 4; c++) out[c]! += 0.5 * row[c]! * w[i]!;
        }
        return out;
      };
      expect(maxAbsDiff(quatDerivWorld(quat(), Q(e), V(w)), apply(+1))).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(quatDerivBody(quat(), Q(e), V(w)), apply(-1))).toBeLessThanOrEqual(1e-15);
      // the printed 𝒢 with world ω is not the world rate (the erratum is real)
      expect(maxAbsDiff(quatDerivWorld(quat(), Q(e), V(w)), apply(-1))).toBeGreaterThan(1e-3);
    }
  });

  it('central finite differences of q(t) = exp(tω/2) q and q(t) = q exp(tω/2) give the world and body rates', () => {
    const r = rng(13);
    const h = 1e-5;
    for (let k = 0; k < 200; k++) {
      const q = randUnitQuat(r), w = randVec(r, 3);
      const fdW = refMul(refExpHalf(w, h), q).map((x, i) => (x - refMul(refExpHalf(w, -h), q)[i]!) / (2 * h));
      const fdB = refMul(q, refExpHalf(w, h)).map((x, i) => (x - refMul(q, refExpHalf(w, -h))[i]!) / (2 * h));
      expect(maxAbsDiff(quatDerivWorld(quat(), Q(q), V(w)), fdW)).toBeLessThanOrEqual(1e-9);
      expect(maxAbsDiff(quatDerivBody(quat(), Q(q), V(w)), fdB)).toBeLessThanOrEqual(1e-9);
    }
  });

  it('finite differences of R(t) = R(exp(tω/2) q) give Ṙ = [ω]R (world ω); of R(q exp(tω/2)) give Ṙ = R[ω] (body ω)', () => {
    const r = rng(14);
    const h = 1e-5;
    const Rp = new Float64Array(9), Rm = new Float64Array(9), R0 = new Float64Array(9);
    for (let k = 0; k < 200; k++) {
      const q = randUnitQuat(r), w = randVec(r, 3);
      quatToMat3(R0, q);
      quatToMat3(Rp, refMul(refExpHalf(w, h), q));
      quatToMat3(Rm, refMul(refExpHalf(w, -h), q));
      const fd = Array.from(Rp, (x, i) => (x - Rm[i]!) / (2 * h));
      // central differences: truncation ≈ h²|ω|³/6 ≤ 3e-9 for |ω| ≤ 3√3
      expect(maxAbsDiff(fd, matMul(skewRef(w), R0))).toBeLessThanOrEqual(1e-8);
      quatToMat3(Rp, refMul(q, refExpHalf(w, h)));
      quatToMat3(Rm, refMul(q, refExpHalf(w, -h)));
      const fdb = Array.from(Rp, (x, i) => (x - Rm[i]!) / (2 * h));
      expect(maxAbsDiff(fdb, matMul(R0, skewRef(w)))).toBeLessThanOrEqual(1e-8);
      // and the module's rate maps to the same Ṙ through the chain rule ∂R/∂q · q̇
      const dq = quatDerivWorld(quat(), Q(q), V(w));
      const Rq = quatToMat3(new Float64Array(9), q.map((x, i) => x + h * dq[i]!));
      const Rq2 = quatToMat3(new Float64Array(9), q.map((x, i) => x - h * dq[i]!));
      expect(maxAbsDiff(Array.from(Rq, (x, i) => (x - Rq2[i]!) / (2 * h)), matMul(skewRef(w), R0))).toBeLessThanOrEqual(1e-8);
    }
  });
});

describe('exponential-map update quatIntegrateWorld (theory.md §3)', () => {
  it('equals exp(hω/2) ⋆ q with exp written out, and equals quatFromAxisAngle(ω/|ω|, h|ω|) ⋆ q', () => {
    const r = rng(15);
    const tmp = quat(), aa = quat();
    for (let k = 0; k < 300; k++) {
      const q = randUnitQuat(r), w = randVec(r, 10), h = 0.3 * r();
      const buf = Float64Array.from([5, ...q, 5]);
      quatIntegrateWorld(buf, 1, w[0], w[1], w[2], h, tmp);
      expect(buf[0]).toBe(5);
      expect(buf[5]).toBe(5);
      const got = buf.subarray(1, 5);
      expect(maxAbsDiff(got, refMul(refExpHalf(w, h), q))).toBeLessThanOrEqual(1e-15);
      const n = Math.hypot(...w);
      quatFromAxisAngle(aa, V(w), h * n);
      expect(maxAbsDiff(got, refMul(aa, q))).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(quatExpHalf(quat(), w[0], w[1], w[2], h), refExpHalf(w, h))).toBeLessThanOrEqual(4.5e-16);
    }
  });

  it('rotates by exactly h|ω| about ω (not (h/2)|ω|): relative quaternion and a vector ⟂ ω', () => {
    const r = rng(16);
    const tmp = quat();
    for (let k = 0; k < 300; k++) {
      const q = randUnitQuat(r), w = randVec(r, 10), h = 0.3 * r();
      const n = Math.hypot(...w);
      if (h * n >= Math.PI) continue;
      const q1 = Q(q);
      quatIntegrateWorld(q1, 0, w[0], w[1], w[2], h, tmp);
      const d = refMul(q1, refInv(q)); // the world increment
      expect(Math.abs(rotationAngle(d) - h * n)).toBeLessThanOrEqual(4e-15);
      const axisDot = dot(d.slice(1), w) / (Math.hypot(d[1], d[2], d[3]) * n);
      if (h * n > 1e-6) expect(axisDot).toBeGreaterThan(1 - 1e-14);
      // a world vector ⟂ ω rotates by h|ω| in the positive sense about ω
      const p = cross(w, randUnitVec(r));
      const p1 = matVec(matMul(quatToMat3(new Float64Array(9), q1), transpose(quatToMat3(new Float64Array(9), q))), p);
      const ang = Math.atan2(dot(cross(p, p1), w) / n, dot(p, p1));
      expect(Math.abs(ang - h * n)).toBeLessThanOrEqual(1e-14);
    }
  });

  it('keeps |q| = 1 to 1e-15 over 10^5 random steps', () => {
    const r = rng(17);
    const q = Q(randUnitQuat(r)), tmp = quat();
    let maxDev = 0;
    for (let k = 0; k < 100_000; k++) {
      const scale = [1e-8, 0.1, 10, 100][k % 4]!;
      quatIntegrateWorld(q, 0, scale * (2 * r() - 1), scale * (2 * r() - 1), scale * (2 * r() - 1), 0.02 * r(), tmp);
      maxDev = Math.max(maxDev, Math.abs(quatNorm(q) - 1));
    }
    expect(maxDev).toBeLessThanOrEqual(1e-15);
  });

  it('ω = 0 leaves q unchanged; tiny and underflowing ω give q + (h/2)(0,ω)q without NaN', () => {
    const r = rng(18);
    const tmp = quat();
    for (let k = 0; k < 50; k++) {
      const q = randUnitQuat(r);
      const a = Q(q);
      quatIntegrateWorld(a, 0, 0, 0, 0, 0.1, tmp);
      expect(maxAbsDiff(a, q)).toBeLessThanOrEqual(2.3e-16);
      for (const m of [1e-12, 1e-100, 1e-200, 1e-310]) {
        const w = randUnitVec(r).map((x) => m * x) as V3, h = 0.05;
        const b = Q(q);
        quatIntegrateWorld(b, 0, w[0], w[1], w[2], h, tmp);
        const expected = q.map((x, i) => x + 0.5 * h * refMul([0, ...w], q)[i]!);
        for (const x of b) expect(Number.isFinite(x)).toBe(true);
        expect(maxAbsDiff(b, expected)).toBeLessThanOrEqual(2.3e-16);
        // the increment itself (well below ulp(1) of q) is right to relative 1e-15
        const e = quatExpHalf(quat(), w[0], w[1], w[2], h);
        expect(e[0]).toBe(1);
        for (let i = 1; i < 4; i++) expect(Math.abs(e[i]! - 0.5 * h * w[i - 1]!)).toBeLessThanOrEqual(1e-15 * Math.abs(0.5 * h * w[i - 1]!));
      }
    }
  });

  it('series branch (h|ω|/2 < 1e-4) is continuous with the sin branch: both sides of the switch agree to 1e-15', () => {
    const r = rng(19);
    // with h = 1 and ω along a unit axis scaled exactly, a = h|ω|/2 straddles 1e-4
    const onSwitch = 2e-4; // a = 1e-4 exactly: sin branch
    const below = onSwitch * (1 - 2 ** -52);
    const u = randUnitVec(r);
    const e1 = quat(), e2 = quat();
    quatExpHalf(e1, below, 0, 0, 1);
    quatExpHalf(e2, onSwitch, 0, 0, 1);
    // sin(a)/|ω| on both sides, as a ratio to its value h/2·sinc(a)
    const s1 = e1[1]! / below, s2 = e2[1]! / onSwitch;
    expect(Math.abs(s1 - s2)).toBeLessThanOrEqual(1e-15 * 0.5);
    expect(Math.abs(e1[0]! - e2[0]!)).toBeLessThanOrEqual(1e-15);
    // sweep across the switch, any direction and step: s(a) = sin(a)/|ω| to relative 1e-15
    for (let k = -200; k <= 200; k++) {
      const h = 0.5 + r();
      const a = 1e-4 * (1 + k * 1e-3);
      const n = (2 * a) / h;
      const w = u.map((x) => n * x) as V3;
      const e = quatExpHalf(quat(), w[0], w[1], w[2], h);
      const nn = Math.hypot(...w), aa = 0.5 * h * nn;
      const sRef = Math.sin(aa) / nn;
      for (let i = 1; i < 4; i++) expect(Math.abs(e[i]! / w[i - 1]! - sRef)).toBeLessThanOrEqual(1e-15 * sRef);
      expect(Math.abs(e[0]! - Math.cos(aa))).toBeLessThanOrEqual(1e-16);
    }
    // the whole update is continuous across the switch too
    const q = randUnitQuat(r);
    const qa = Q(q), qb = Q(q), tmp = quat();
    quatIntegrateWorld(qa, 0, below, 0, 0, 1, tmp);
    quatIntegrateWorld(qb, 0, onSwitch, 0, 0, 1, tmp);
    expect(maxAbsDiff(qa, qb)).toBeLessThanOrEqual(1e-15);
  });

  it('matches a high-accuracy RK4 integration of q̇ = ½(0,ω)q for constant ω to 1e-12 (one step and many steps)', () => {
    const r = rng(20);
    const tmp = quat();
    const rk4 = (q0: Q4, w: V3, T: number, n: number): Q4 => {
      let q = q0.slice() as Q4;
      const f = (x: Q4): Q4 => refMul([0, ...w], x).map((y) => 0.5 * y) as Q4;
      const dt = T / n;
      for (let s = 0; s < n; s++) {
        const k1 = f(q);
        const k2 = f(q.map((x, i) => x + 0.5 * dt * k1[i]!) as Q4);
        const k3 = f(q.map((x, i) => x + 0.5 * dt * k2[i]!) as Q4);
        const k4 = f(q.map((x, i) => x + dt * k3[i]!) as Q4);
        q = q.map((x, i) => x + (dt / 6) * (k1[i]! + 2 * k2[i]! + 2 * k3[i]! + k4[i]!)) as Q4;
      }
      return q;
    };
    for (let k = 0; k < 10; k++) {
      const q0 = randUnitQuat(r), w = randVec(r, 4), T = 0.5 + r();
      const ref = rk4(q0, w, T, 4000);
      const one = Q(q0);
      quatIntegrateWorld(one, 0, w[0], w[1], w[2], T, tmp);
      expect(maxAbsDiff(one, ref)).toBeLessThanOrEqual(1e-12);
      const many = Q(q0);
      for (let s = 0; s < 37; s++) quatIntegrateWorld(many, 0, w[0], w[1], w[2], T / 37, tmp);
      expect(maxAbsDiff(many, ref)).toBeLessThanOrEqual(1e-12);
    }
  });
});
