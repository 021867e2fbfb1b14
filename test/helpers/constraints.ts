/**
 * Shared scaffolding of the constraint tests: an evaluation context at (q, u), the flow
 * q ⊕ εu of every component (non-dynamic ones too, as a driver would move them), and the
 * perturbation q ⊕ ε e_j of one component (`retract` when it is dynamic).
 */
import type { Model } from '../../src/model/model.js';
import type { BilateralConstraint, ConstraintContext } from '../../src/constraints/constraint.js';
import { Kinematics } from '../../src/model/kinematics.js';
import { quatIntegrateWorld } from '../../src/math/quat.js';
import { retract } from './fd.js';

/** a new scratch of constraint c for a test's evaluations (what a workspace makes for it) */
export function scratchOf<S>(c: BilateralConstraint<S>): S {
  return c.createScratch(new Float64Array(c.scratchSize));
}

/** a constraint context at (q, u), with its own body caches */
export function context(model: Model, q: Float64Array, u: Float64Array): ConstraintContext {
  const kin = new Kinematics(model);
  kin.update(q);
  return { model, q, u, kin };
}

/** q ⊕ εu over all components (non-dynamic ones too): x += εv, R ← exp(ε[ω]) R */
export function flow(model: Model, q: Float64Array, u: Float64Array, eps: number): Float64Array {
  const out = q.slice(), tmp = new Float64Array(4);
  for (const c of model.components) {
    for (let k = 0; k < 3; k++) out[c.qOffset + k] = out[c.qOffset + k]! + eps * u[c.uOffset + k]!;
    if (c.kind === 'body') quatIntegrateWorld(out, c.qOffset + 3, u[c.uOffset + 3]!, u[c.uOffset + 4]!, u[c.uOffset + 5]!, eps, tmp);
  }
  return out;
}

/** q ⊕ ε e_j of component c: `retract` for a dynamic component, the same step for a non-dynamic one */
export function perturb(model: Model, q: Float64Array, c: number, j: number, eps: number): Float64Array {
  const comp = model.components[c]!;
  if (comp.dynamic) {
    const d = new Float64Array(model.nSolve);
    const b = Array.from(model.blockComponent).indexOf(c);
    d[model.blockStart[b]! + j] = eps;
    return retract(model, q, d);
  }
  const u = new Float64Array(model.nu);
  u[comp.uOffset + j] = 1;
  return flow(model, q, u, eps);
}
