/**
 * The force readouts a simulation's workspace answers (ForceSystem.springReadout and
 * frameSpringReadout): a via-point spring's length over its active segments, its rate (against a
 * central difference of the length along the motion), its tension and every segment's length; a
 * frame spring's wrench on body B about B's attachment frame origin, against the generalized
 * force the spring applies to B moved to that point.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import type { RigidBody } from '../../src/model/model.js';
import { PathSpring } from '../../src/forces/pathSpring.js';
import { FrameSpring } from '../../src/forces/frameSpring.js';
import { LinearMaterial } from '../../src/forces/materials.js';
import { Workspace } from '../../src/step/workspace.js';
import { quatToMat3 } from '../../src/math/quat.js';
import { flow } from '../helpers/constraints.js';
import { forceEval, rng } from '../helpers/fd.js';
import { randomVec, randomQuat } from '../helpers/numeric.js';

function scene(seed: number) {
  const r = rng(seed), b = new ModelAssembler();
  b.settings.gravity = [0, 0, 0];
  for (const name of ['A', 'B']) {
    b.addBody({ name, mass: 1 + r(), inertia: [0.3, 0.4, 0.5, 0.01, 0, 0], com: randomVec(r, 0.2), position: randomVec(r),
      orientation: randomQuat(r), velocity: randomVec(r), angularVelocity: randomVec(r, 2) });
  }
  b.addParticle({ name: 'p', mass: 0.5, position: randomVec(r, 2), velocity: randomVec(r) });
  b.addMarker({ name: 'mA', body: 'A', location: randomVec(r, 0.5) });
  // A's marker, via a point on B, to the particle; the middle segment passive
  const path = new PathSpring('path', [b.point('mA'), b.bodyPoint('B', [0.1, -0.2, 0.05]), b.worldPoint([0.5, 0.5, 0.5]), b.point('p')],
    new LinearMaterial(80, 1.5), 0.7, [true, false, true]);
  b.addForce(path);
  const A = b.componentAt(b.componentIndex('A')!) as RigidBody, B = b.componentAt(b.componentIndex('B')!) as RigidBody;
  const frame = new FrameSpring('fs', A, B, [0.1, 0.2, -0.1], [1, 0.2, 0, 0.1], [-0.2, 0.1, 0.3], [0.9, 0, 0.3, 0],
    { translationalStiffness: 300, rotationalStiffness: 7, translationalDamping: 2, rotationalDamping: 0.3 });
  b.addForce(frame);
  const model = b.build();
  return { model, path, frame, pathIndex: model.forces.indexOf(path), frameIndex: model.forces.indexOf(frame) };
}

describe('spring readouts', () => {
  for (const seed of [1, 2, 3]) {
    it(`length, rate, tension and segments of a via-point spring (seed ${seed})`, () => {
      const { model, pathIndex } = scene(seed), ws = new Workspace(model), q = model.initialQ, u = model.initialU;
      const r = ws.fs.createSpringReadout(pathIndex)!;
      expect(r.segments.length).toBe(3);
      expect(ws.fs.springReadout(pathIndex, q, u, r)).toBe(true);
      // the points, from the positions
      const pts = ['mA', 'B', 'w', 'p'].map(() => new Float64Array(3));
      const lengthAt = (qq: Float64Array): number[] => {
        const R = new Float64Array(9);
        const A = model.bodies[0]!, B = model.bodies[1]!, P = model.particles[0]!;
        const body = (c: typeof A, local: ArrayLike<number>, out: Float64Array) => {
          quatToMat3(R, qq, c.qOffset + 3);
          for (let i = 0; i < 3; i++) {
            out[i] = qq[c.qOffset + i]! + R[3 * i]! * local[0]! + R[3 * i + 1]! * local[1]! + R[3 * i + 2]! * local[2]!;
          }
        };
        body(A, model.markers[0]!.location, pts[0]!);
        body(B, [0.1, -0.2, 0.05], pts[1]!);
        pts[2]!.set([0.5, 0.5, 0.5]);
        pts[3]!.set(qq.subarray(P.qOffset, P.qOffset + 3));
        return [0, 1, 2].map((i) => Math.hypot(...[0, 1, 2].map((k) => pts[i + 1]![k]! - pts[i]![k]!)));
      };
      const seg = lengthAt(q);
      seg.forEach((l, i) => expect(r.segments[i]).toBeCloseTo(l, 13));
      expect(r.length).toBeCloseTo(seg[0]! + seg[2]!, 13);
      const eps = 1e-6, active = (qq: Float64Array) => { const s = lengthAt(qq); return s[0]! + s[2]!; };
      const rate = (active(flow(model, q, u, eps)) - active(flow(model, q, u, -eps))) / (2 * eps);
      expect(Math.abs(r.rate)).toBeGreaterThan(0.1);
      expect(r.rate).toBeCloseTo(rate, 7);
      expect(r.tension).toBeCloseTo(80 * (r.length - 0.7) + 1.5 * r.rate, 10);
    });
  }
});

describe('frame spring readouts', () => {
  for (const seed of [4, 5]) {
    it(`the wrench on B about its attachment frame origin is the spring's generalized force on B moved there (seed ${seed})`, () => {
      const { model, frame, frameIndex } = scene(seed), ws = new Workspace(model), q = model.initialQ, u = model.initialU;
      const out = { force: new Float64Array(3), torque: new Float64Array(3) };
      expect(ws.fs.frameSpringReadout(frameIndex, q, u, out)).toBe(true);
      // B's generalized force (force at its origin, torque about it) from this spring alone
      const B = model.bodies[1]!, f = forceEval(model, [frame]).f(q, u), o = model.blockStart[1]!;
      const fB = Array.from(f.subarray(o, o + 6));
      // r_2 = R_B p_2B: τ about the frame origin = τ_O − r_2 × F
      const R = quatToMat3(new Float64Array(9), q, B.qOffset + 3), p = [-0.2, 0.1, 0.3];
      const r2 = [0, 1, 2].map((i) => R[3 * i]! * p[0]! + R[3 * i + 1]! * p[1]! + R[3 * i + 2]! * p[2]!);
      const F = fB.slice(0, 3);
      const cross = [r2[1]! * F[2]! - r2[2]! * F[1]!, r2[2]! * F[0]! - r2[0]! * F[2]!, r2[0]! * F[1]! - r2[1]! * F[0]!];
      const tau = [0, 1, 2].map((k) => fB[3 + k]! - cross[k]!);
      expect(Math.hypot(...F)).toBeGreaterThan(1);
      for (let k = 0; k < 3; k++) {
        expect(out.force[k]).toBeCloseTo(F[k]!, 10);
        expect(out.torque[k]).toBeCloseTo(tau[k]!, 10);
      }
      // and it depends on where it is read: another state, another wrench
      const q2 = flow(model, q, u, 0.05), out2 = { force: new Float64Array(3), torque: new Float64Array(3) };
      ws.fs.frameSpringReadout(frameIndex, q2, u, out2);
      expect(Array.from(out2.force)).not.toEqual(Array.from(out.force));
    });
  }
});

describe('force readouts after the positions are written in place', () => {
  it('see a body of the spring moved in the same array, against a new workspace at that state', () => {
    const { model, pathIndex, frameIndex } = scene(6), ws = new Workspace(model);
    const q = model.initialQ.slice(), u = model.initialU.slice();
    const r = ws.fs.createSpringReadout(pathIndex)!, w = { force: new Float64Array(3), torque: new Float64Array(3) };
    const readAll = (space: Workspace) => {
      space.fs.springReadout(pathIndex, q, u, r);
      space.fs.frameSpringReadout(frameIndex, q, u, w);
      return [r.length, r.rate, r.tension, ...r.segments, ...w.force, ...w.torque];
    };
    const before = readAll(ws);
    // B (the via point's body, and the frame spring's body B) moved and turned in q itself, then
    // the particle at the path's end
    const B = model.bodies[1]!, P = model.particles[0]!;
    for (const [i, d] of [[0, 0.03], [1, -0.02], [3, 0.1], [4, -0.05]] as const) q[B.qOffset + i] = q[B.qOffset + i]! + d;
    const after = readAll(ws), want = readAll(new Workspace(model));
    expect(after).toEqual(want);
    expect(after[0]).not.toBe(before[0]);
    expect(after.slice(-6)).not.toEqual(before.slice(-6));
    q[P.qOffset + 2] = q[P.qOffset + 2]! + 0.2;
    expect(readAll(ws)).toEqual(readAll(new Workspace(model)));
  });
});
