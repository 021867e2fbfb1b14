/**
 * Rigid transforms and spatial vectors (src/math/transform.ts): composition and inversion of
 * poses against rotation matrices, twist and wrench re-expression against direct rigid-body
 * kinematics, and invariance of the power t·w under shifts and changes of frame.
 */
import { describe, it, expect } from 'vitest';
import { pose, poseCompose, poseInverse, poseRelative, poseTransformPoint, twistShift, wrenchShift, twistToParent, wrenchToParent, power } from '../../src/math/transform.js';
import { quatToMat3 } from '../../src/math/quat.js';
import { rng, maxAbsDiff } from '../helpers/numeric.js';

function randomPose(r: () => number) {
  const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5], n = Math.hypot(...q);
  return pose([r() - 0.5, r() - 0.5, r() - 0.5], q.map((x) => x / n));
}
const vec = (r: () => number, n = 3) => Float64Array.from({ length: n }, () => 2 * r() - 1);
const cross = (a: ArrayLike<number>, b: ArrayLike<number>) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];

describe('poses', () => {
  const r = rng(42);
  for (let trial = 0; trial < 20; trial++) {
    it(`compose, inverse, relative and points agree with matrices (trial ${trial})`, () => {
      const ab = randomPose(r), bc = randomPose(r), x = vec(r);
      const ac = poseCompose(pose(), ab, bc);
      // X_AC x = X_AB (X_BC x)
      const direct = poseTransformPoint(new Float64Array(3), ac, x);
      const twoStep = poseTransformPoint(new Float64Array(3), ab, poseTransformPoint(new Float64Array(3), bc, x));
      expect(maxAbsDiff(direct, twoStep)).toBeLessThan(1e-14);
      // R_AC = R_AB R_BC
      const Rab = quatToMat3(new Float64Array(9), ab.q), Rbc = quatToMat3(new Float64Array(9), bc.q), Rac = quatToMat3(new Float64Array(9), ac.q);
      const prod = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => Rab[3 * i]! * Rbc[j]! + Rab[3 * i + 1]! * Rbc[3 + j]! + Rab[3 * i + 2]! * Rbc[6 + j]!));
      expect(maxAbsDiff(Rac, prod)).toBeLessThan(1e-14);
      // X X⁻¹ = identity
      const id = poseCompose(pose(), ab, poseInverse(pose(), ab));
      expect(maxAbsDiff(id.p, [0, 0, 0])).toBeLessThan(1e-14);
      expect(Math.abs(Math.abs(id.q[0]!) - 1)).toBeLessThan(1e-14);
      // X_BC from X_AB and X_AC
      const rel = poseRelative(pose(), ab, ac, pose());
      expect(maxAbsDiff(rel.p, bc.p)).toBeLessThan(1e-14);
      expect(Math.abs(Math.abs(rel.q[0]! * bc.q[0]! + rel.q[1]! * bc.q[1]! + rel.q[2]! * bc.q[2]! + rel.q[3]! * bc.q[3]!) - 1)).toBeLessThan(1e-14);
    });
  }
});

describe('twists and wrenches', () => {
  const r = rng(7);
  it('a shifted twist is the velocity of the new point; the power is invariant', () => {
    for (let k = 0; k < 50; k++) {
      const t = vec(r, 6), w = vec(r, 6), d = vec(r);
      const ts = twistShift(new Float64Array(6), t, d);
      const vq = [0, 1, 2].map((i) => t[i]! + cross(t.subarray(3), d)[i]!);
      expect(maxAbsDiff(ts.subarray(0, 3), vq)).toBeLessThan(1e-15);
      const ws = wrenchShift(new Float64Array(6), w, d);
      expect(Math.abs(power(ts, ws) - power(t, w))).toBeLessThan(1e-14);
    }
  });

  it('re-expression in the parent frame matches rigid-body kinematics and preserves power', () => {
    for (let k = 0; k < 50; k++) {
      const ab = randomPose(r), t = vec(r, 6), w = vec(r, 6), tmp = new Float64Array(3);
      const tA = twistToParent(new Float64Array(6), ab, t, tmp), wA = wrenchToParent(new Float64Array(6), ab, w, tmp);
      // the velocity of A's origin, a point fixed to B: v_B(at B origin) + ω × (p_A − p_B), all in A
      const R = quatToMat3(new Float64Array(9), ab.q);
      const rot = (v: ArrayLike<number>) => [0, 1, 2].map((i) => R[3 * i]! * v[0]! + R[3 * i + 1]! * v[1]! + R[3 * i + 2]! * v[2]!);
      const om = rot(t.subarray(3)), vB = rot(t.subarray(0, 3));
      const vA = [0, 1, 2].map((i) => vB[i]! + cross(om, [-ab.p[0]!, -ab.p[1]!, -ab.p[2]!])[i]!);
      expect(maxAbsDiff(tA, [...vA, ...om])).toBeLessThan(1e-14);
      expect(Math.abs(power(tA, wA) - power(t, w))).toBeLessThan(1e-14);
    }
  });
});
