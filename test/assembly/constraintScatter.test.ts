/**
 * ConstraintSystem.evaluate assembles G and Gᵀ into the KKT matrix: hard constraints by a
 * precomputed scatter over the kept Jacobian blocks, constraints with compliant rows block by
 * block (whole, or hard rows only under `hardOnly`). Checked entry by entry against the
 * constraints' own Jacobian blocks, with a non-dynamic side and a mixed hard/compliant joint.
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Joint } from '../../src/constraints/joint.js';
import type { RigidBody } from '../../src/model/model.js';
import { scratchOf } from '../helpers/constraints.js';
import { Workspace } from '../../src/step/workspace.js';

function model() {
  const b = new ModelAssembler();
  b.addBody({ name: 'A', mass: 1, inertia: [0.1, 0.2, 0.3, 0, 0, 0], position: [0, 0, 0], angularVelocity: [0.3, -0.2, 0.5] });
  b.addBody({ name: 'B', mass: 2, inertia: [0.2, 0.2, 0.3, 0, 0, 0], position: [1, 0, 0], orientation: [0.9, 0.1, 0.3, 0.2], velocity: [0, 1, 0] });
  b.addBody({ name: 'F', mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 1, 0], dynamic: false });
  const q0 = b.initialQ(), body = (n: string) => b.componentAt(b.componentIndex(n)!) as RigidBody;
  b.addConstraint(Joint.atWorldFrame('hard', body('A'), body('B'), q0, [0.5, 0.1, 0], [1, 0, 0, 0], { type: 'hinge' }));
  b.addConstraint(Joint.atWorldFrame('mixed', body('F'), body('B'), q0, [0.5, 0.5, 0.2], [0.8, 0.6, 0, 0], { type: 'weld', compliance: [0, 0, 0, 1e-3, 0, 2e-3] }));
  b.addConstraint(Joint.atWorldFrame('toFixed', body('A'), body('F'), q0, [0, 0.5, 0], [1, 0, 0, 0], { type: 'ball' }));
  return b.build();
}

describe('ConstraintSystem.evaluate: G and Gᵀ in the KKT matrix', () => {
  for (const hardOnly of [false, true]) {
    it(`puts every Jacobian entry at its two places${hardOnly ? ', compliant rows zero under hardOnly' : ''}`, () => {
      const m = model(), ws = new Workspace(m), q = m.initialQ.slice(), u = m.initialU.slice();
      // moved off the load-time configuration, so the blocks are generic
      for (let i = 0; i < q.length; i++) q[i] = q[i]! + 0.05 * Math.sin(1 + i);
      const ctx = ws.fs.bind(q, u);
      ws.Gm.values.fill(NaN);
      ws.cs.evaluate(ctx, ws.Gm, hardOnly);
      const L = ws.fs.layout, n = m.nSolve, at = (r: number, c: number) => {
        for (let p = L.colPtr[c]!; p < L.colPtr[c + 1]!; p++) if (L.rowIdx[p] === r) return ws.Gm.values[p]!;
        return 0;
      };
      let checked = 0;
      m.constraints.forEach((c, ci) => {
        const blocks = c.jacobian(ctx, scratchOf(c)), r0 = n + m.rowStart[ci]!;
        c.components.forEach((ix, k) => {
          const comp = m.components[ix]!;
          if (comp.block < 0) return;
          const c0 = m.blockStart[comp.block]!, cols = m.blockSize[comp.block]!;
          for (let r = 0; r < c.rows; r++) {
            const keep = !hardOnly || c.compliance[r] === 0;
            for (let j = 0; j < cols; j++) {
              const want = keep ? blocks[k]![r * cols + j]! : 0;
              expect(at(r0 + r, c0 + j)).toBe(want);
              expect(at(c0 + j, r0 + r)).toBe(want);
              checked++;
            }
          }
        });
      });
      // hinge: both sides; weld and ball: one dynamic side each
      expect(checked).toBe(2 * 5 * 6 + 6 * 6 + 3 * 6);
    });
  }
});
