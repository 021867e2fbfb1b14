/**
 * The velocities a position correction carries (step/velocityTransport.ts): turned with
 * their bodies, a body keeps its angular velocity in its own axes and its centre of mass keeps
 * its world velocity, so its kinetic energy is unchanged; the largest turn is returned.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ModelAssembler } from '../../src/model/assembler.js';
import { VelocityTransport } from '../../src/step/velocityTransport.js';
import { quatFromRotationVector, quatMul, quatToMat3 } from '../../src/math/quat.js';

/** two bodies, the second with its centre of mass off its origin */
function model() {
  const b = new ModelAssembler();
  b.addBody({ name: 'a', mass: 1, inertia: [0.1, 0.2, 0.3, 0, 0, 0], position: [0, 0, 0] });
  b.addBody({ name: 'b', mass: 2, inertia: [0.3, 0.2, 0.4, 0, 0, 0], com: [0.3, -0.2, 0.5], position: [1, 0, 0] });
  return b.build();
}

const R = (q: Float64Array, o: number) => quatToMat3(new Float64Array(9), q.subarray(o, o + 4));
const mulT = (A: Float64Array, v: number[]) => [0, 1, 2].map((i) => A[i]! * v[0]! + A[3 + i]! * v[1]! + A[6 + i]! * v[2]!);
const mul = (A: Float64Array, v: number[]) => [0, 1, 2].map((i) => A[3 * i]! * v[0]! + A[3 * i + 1]! * v[1]! + A[3 * i + 2]! * v[2]!);
const cross = (a: number[], b: number[]) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
const small = fc.double({ min: -0.5, max: 0.5, noNaN: true });
const vec = fc.tuple(small, small, small);

describe('velocity transport', () => {
  it('keeps each body\'s angular velocity in its axes and its centre of mass\'s world velocity', () => {
    const m = model(), t = new VelocityTransport(m);
    fc.assert(fc.property(vec, vec, vec, vec, fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 12, maxLength: 12 }),
      (r0a, r0b, da, db, vel) => {
        const q0 = m.initialQ.slice(), q = q0.slice(), u = Float64Array.from(vel), u0 = u.slice();
        // orientations R₀, turned by δ
        const turns = [da, db], starts = [r0a, r0b];
        let largest = 0;
        for (let k = 0; k < 2; k++) {
          const e0 = quatFromRotationVector(new Float64Array(4), Float64Array.from(starts[k]!).map((x) => 4 * x));
          const d = quatFromRotationVector(new Float64Array(4), Float64Array.from(turns[k]!));
          q0.set(e0, 7 * k + 3);
          q.set(quatMul(new Float64Array(4), d, e0), 7 * k + 3);
          largest = Math.max(largest, Math.hypot(...turns[k]!));
        }
        expect(Math.abs(t.carry(q0, q, u) - largest)).toBeLessThan(1e-12);
        for (let k = 0; k < 2; k++) {
          const R0 = R(q0, 7 * k + 3), R1 = R(q, 7 * k + 3), w0 = [...u0.subarray(6 * k + 3, 6 * k + 6)], w1 = [...u.subarray(6 * k + 3, 6 * k + 6)];
          // in body axes: R₀ᵀ ω₀ = Rᵀ ω
          const b0 = mulT(R0, w0), b1 = mulT(R1, w1);
          for (let i = 0; i < 3; i++) expect(Math.abs(b1[i]! - b0[i]!)).toBeLessThan(1e-13);
          // the centre of mass: v₀ + ω₀ × R₀ c_B = v + ω × R c_B
          const body = m.components[k]!, cB = body.kind === 'body' ? [...body.com] : [0, 0, 0];
          const v0 = [...u0.subarray(6 * k, 6 * k + 3)], v1 = [...u.subarray(6 * k, 6 * k + 3)];
          const c0 = cross(w0, mul(R0, cB)), c1 = cross(w1, mul(R1, cB));
          for (let i = 0; i < 3; i++) expect(Math.abs(v1[i]! + c1[i]! - v0[i]! - c0[i]!)).toBeLessThan(1e-13);
        }
      }), { seed: 42, numRuns: 200 });
  });

  it('leaves the velocities of unturned bodies, and of bodies turned about their ω, bit for bit', () => {
    const m = model(), t = new VelocityTransport(m);
    const q0 = m.initialQ.slice(), u = Float64Array.of(1, 2, 3, 0, 0.5, 0, 4, 5, 6, 0.1, -0.2, 0.3), u0 = u.slice();
    const q = q0.slice();
    // body a turned about y, the axis of its ω
    q.set(quatFromRotationVector(new Float64Array(4), Float64Array.of(0, 0.3, 0)), 3);
    expect(t.carry(q0, q, u)).toBeCloseTo(0.3, 14);
    expect(Array.from(u)).toEqual(Array.from(u0));
  });
});
