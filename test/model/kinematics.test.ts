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
});
