/**
 * The kinematic cache (src/model/kinematics.ts): recomputed, and `generation` advanced, only when
 * the positions change; the joints' frame caches are keyed on that generation.
 */
import { describe, it, expect } from 'vitest';
import { ModelBuilder } from '../../src/model/builder.js';
import { Kinematics } from '../../src/model/kinematics.js';

function model() {
  const b = new ModelBuilder();
  b.addBody({ name: 'A', mass: 1, inertia: [0.1, 0.2, 0.3, 0, 0, 0], com: [0.1, 0, 0], orientation: [1, 0.2, 0, 0] });
  b.addParticle({ name: 'p', mass: 1, position: [1, 2, 3] });
  return b.build();
}

describe('Kinematics', () => {
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
