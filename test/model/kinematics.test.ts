/**
 * The kinematic cache (src/model/kinematics.ts): recomputed, and `generation` advanced, only when
 * the positions change; the joints' frame caches are keyed on that generation.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Kinematics } from '../../src/model/kinematics.js';

function model() {
  const b = new ModelAssembler();
  b.addBody({ name: 'A', mass: 1, inertia: [0.1, 0.2, 0.3, 0, 0, 0], com: [0.1, 0, 0], orientation: [1, 0.2, 0, 0] });
  b.addParticle({ name: 'p', mass: 1, position: [1, 2, 3] });
  return b.build();
}

describe('Kinematics', () => {
  it('gives J_W = R J_B Rᵀ, exactly symmetric, for principal-axis and general body inertias', () => {
    const b = new ModelAssembler();
    b.addBody({ name: 'P', mass: 1, inertia: [0.1, 0.25, 0.3, 0, 0, 0], orientation: [0.8, 0.3, -0.4, 0.2] });
    b.addBody({ name: 'G', mass: 1, inertia: [0.2, 0.3, 0.4, 0.02, -0.03, 0.01], orientation: [0.6, -0.2, 0.5, 0.3] });
    const m = b.build(), kin = new Kinematics(m);
    kin.update(m.initialQ);
    m.components.forEach((c, i) => {
      if (c.kind !== 'body') return;
      const R = kin.R.subarray(9 * i, 9 * i + 9), JW = kin.JW.subarray(9 * i, 9 * i + 9), J = c.inertia;
      // J_B from the builder's (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) as a row-major 3×3
      for (let r = 0; r < 3; r++) {
        for (let k = 0; k < 3; k++) {
          let want = 0;
          for (let a = 0; a < 3; a++) for (let d = 0; d < 3; d++) want += R[3 * r + a]! * J[3 * a + d]! * R[3 * k + d]!;
          // absolute, for these inertias (0.1-0.4 kg m²): measured errors up to 5.5e-17
          expect(Math.abs(JW[3 * r + k]! - want)).toBeLessThan(1e-16);
          expect(JW[3 * r + k]).toBe(JW[3 * k + r]);
        }
      }
    });
  });

  it('keeps its caches and generation for equal positions, in any array', () => {
    const m = model(), kin = new Kinematics(m), q = m.initialQ.slice();
    kin.update(q);
    const g0 = kin.generation, R0 = kin.R.slice();
    kin.update(q);
    kin.update(q.slice());
    expect(kin.generation).toBe(g0);
    expect(kin.R).toEqual(R0);
  });

  it('recomputes after any position changes, including a particle (joints on particles read the generation)', () => {
    const m = model(), kin = new Kinematics(m), q = m.initialQ.slice();
    kin.update(q);
    const g0 = kin.generation;
    // a particle coordinate
    q[7 + 1] = q[7 + 1]! + 1e-12;
    kin.update(q);
    expect(kin.generation).toBe(g0 + 1);
    // the body's orientation, changed in place in the same array
    const R0 = kin.R.slice(0, 9);
    q[3] = 0.9; q[4] = Math.sqrt(1 - 0.81);
    kin.update(q);
    expect(kin.generation).toBe(g0 + 2);
    expect(Array.from(kin.R.slice(0, 9))).not.toEqual(Array.from(R0));
    // a non-finite position is never taken as unchanged
    q[0] = NaN;
    kin.update(q);
    kin.update(q);
    expect(kin.generation).toBe(g0 + 4);
  });

  it('updateComponents compares and refreshes the listed components only, and a full update the rest', () => {
    const b = new ModelAssembler();
    b.addBody({ name: 'A', mass: 1, inertia: [0.1, 0.2, 0.3, 0, 0, 0], com: [0.1, 0, 0], orientation: [1, 0.2, 0, 0] });
    b.addBody({ name: 'B', mass: 1, inertia: [0.2, 0.3, 0.4, 0.02, 0, 0], com: [0, 0.1, 0],
      orientation: [0.9, 0, 0.3, 0.1] });
    b.addParticle({ name: 'p', mass: 1, position: [1, 2, 3] });
    const m = b.build(), kin = new Kinematics(m), q = m.initialQ.slice();
    const [A, B, P] = [0, 1, 2].map((i) => m.components[i]!);
    const fresh = (qq: Float64Array) => {
      const k = new Kinematics(m);
      k.update(qq);
      return { R: k.R.slice(), cW: k.cW.slice(), JW: k.JW.slice() };
    };
    const part = (a: Float64Array, c: typeof A, n: number) => Array.from(a.subarray(n * c.index, n * c.index + n));
    // before any update, it updates everything
    kin.updateComponents(q, [A.index]);
    expect(kin.R).toEqual(fresh(q).R);
    kin.JW;   // J_W current: a partial update keeps it current for its bodies
    const g0 = kin.generation;
    // B turned in place: reading A does not look at it, reading B does
    q[B.qOffset + 3] = 0.8; q[B.qOffset + 5] = 0.4;
    kin.updateComponents(q, [A.index]);
    expect(kin.generation).toBe(g0);
    kin.updateComponents(q, [A.index, B.index]);
    expect(kin.generation).toBe(g0 + 1);
    const want = fresh(q);
    for (const [got, exp, n] of [[kin.R, want.R, 9], [kin.cW, want.cW, 3], [kin.JW, want.JW, 9]] as const) {
      expect(part(got, B, n)).toEqual(part(exp, B, n));
    }
    // unchanged entries: no new generation however often it is asked, in any array
    kin.updateComponents(q.slice(), [B.index, A.index, B.index]);
    kin.update(q);
    expect(kin.generation).toBe(g0 + 1);
    // a particle's coordinate counts (constraints on particles key their caches on the generation)
    q[P.qOffset] = q[P.qOffset]! + 1e-12;
    kin.updateComponents(q, [P.index]);
    expect(kin.generation).toBe(g0 + 2);
    // a change outside the list is left to the next full update, which sees it
    q[A.qOffset + 1] = q[A.qOffset + 1]! + 0.5;
    q[A.qOffset + 3] = 0.7; q[A.qOffset + 4] = 0.7;
    kin.updateComponents(q, [B.index, P.index]);
    expect(kin.generation).toBe(g0 + 2);
    kin.update(q);
    expect(kin.generation).toBe(g0 + 3);
    const all = fresh(q);
    expect(kin.R).toEqual(all.R);
    expect(kin.cW).toEqual(all.cW);
    expect(kin.JW).toEqual(all.JW);
  });
});
