/**
 * Soft constraint rows given in physical units (theory.md §7): a row with stiffness k and
 * damping ratio ζ gets the compliance α = 1/k and the damping β = 2ζ √(m_eff/k), with the row's
 * effective mass m_eff = 1/(G_i M⁻¹ G_iᵀ) at q0 (the closed-form M⁻¹ of theory.md §2). Run once, by
 * ModelAssembler.build: the model is immutable afterwards, and every simulation of it sees the
 * same α and β.
 */
import type { Model, Stabilization } from '../model/model.js';
import type { IntegratorName } from '../integrators/names.js';
import type { BilateralConstraint } from './constraint.js';
import { Kinematics } from '../model/kinematics.js';
import { spatialInertiaInverse, spatialScratch } from '../math/spatial.js';

export function applySoftness(model: Model): void {
  const soft = model.constraints.filter((c) => c.softness);
  if (soft.length === 0) return;
  const kin = new Kinematics(model), sp = spatialScratch(), Mi = new Float64Array(36);
  kin.update(model.initialQ);
  const ctx = { model, q: model.initialQ, u: model.initialU, kin };
  for (const c of soft) {
    // a scratch of its own for this one evaluation, at construction
    const blocks = c.jacobian(ctx, c.createScratch(new Float64Array(c.scratchSize))), { stiffness, dampingRatio } = c.softness!;
    for (let r = 0; r < c.rows; r++) {
      const k = stiffness[r]!;
      if (!(k > 0)) continue;
      // G_i M⁻¹ G_iᵀ over the dynamic components of the row
      let w = 0;
      c.components.forEach((ci, kk) => {
        const comp = model.components[ci]!, G = blocks[kk]!;
        if (!comp.dynamic) return;
        if (comp.kind === 'particle') { for (let j = 0; j < 3; j++) w += (G[3 * r + j]! ** 2) / comp.mass; return; }
        spatialInertiaInverse(Mi, comp.mass, kin.cW.subarray(3 * ci, 3 * ci + 3), kin.JW.subarray(9 * ci, 9 * ci + 9), sp);
        for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) w += G[6 * r + i]! * Mi[6 * i + j]! * G[6 * r + j]!;
      });
      c.compliance[r] = 1 / k;
      c.damping[r] = w > 0 ? 2 * dampingRatio * Math.sqrt(1 / (w * k)) : 0;
    }
  }
}

/**
 * The first hard row of c whose damping the stabilization `method` under `integrator` ignores,
 * or −1. Damping β acts on compliant rows (theory.md §7) and, under SPOOK only, as a hard row's
 * relaxation d = β/h, except under RK4, whose SPOOK rows take the method's relaxation
 * (ConstraintSystem.rows); projection and Baumgarte ignore it on hard rows. (One damping value
 * for a joint with compliant rows leaves its hard rows at 0: Joint.) Rows given in physical units
 * (stiffness) are all compliant.
 */
export function ignoredDampingRow(c: BilateralConstraint, method: Stabilization['method'], integrator: IntegratorName): number {
  if (c.softness || (method === 'spook' && integrator !== 'rk4')) return -1;
  for (let r = 0; r < c.rows; r++) if (c.damping[r]! > 0 && !(c.compliance[r]! > 0)) return r;
  return -1;
}

/** what ignores a hard row's damping, for messages: `stabilization "projection"`, or `stabilization "spook" with rk4` */
export function dampingIgnoredBy(method: Stabilization['method']): string {
  return method === 'spook' ? 'stabilization "spook" with rk4' : `stabilization "${method}"`;
}
