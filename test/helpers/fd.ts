/**
 * Finite-difference oracles for force Jacobians. Positions are perturbed in the tangent space
 * the engine uses: particles and body origins by δx in world, body rotations by the exponential
 * map R ← exp([δθ]) R with δθ world (quatIntegrateWorld with h = ε). Velocities u are held
 * fixed while positions move.
 */
import type { Model } from '../../src/model/model.js';
import type { ForceEffector } from '../../src/forces/force.js';
import { BlockPattern, BlockMatrix } from '../../src/assembly/blockSparse.js';
import { Kinematics } from '../../src/model/kinematics.js';
import { PointMap } from '../../src/forces/pointMap.js';
import { quatIntegrateWorld } from '../../src/math/quat.js';
import { cscToDense } from '../../src/math/sparse/csc.js';

/** q ⊕ δ for the solve-layout tangent vector δ (only dynamic components move) */
export function retract(model: Model, q: Float64Array, delta: Float64Array): Float64Array {
  const out = q.slice();
  const tmp = new Float64Array(4);
  for (let b = 0; b < model.blockComponent.length; b++) {
    const c = model.components[model.blockComponent[b]!]!, s = model.blockStart[b]!;
    for (let k = 0; k < 3; k++) out[c.qOffset + k] = out[c.qOffset + k]! + delta[s + k]!;
    if (c.kind === 'body') quatIntegrateWorld(out, c.qOffset + 3, delta[s + 3]!, delta[s + 4]!, delta[s + 5]!, 1, tmp);
  }
  return out;
}

/** the solve-layout slice of a velocity-layout vector */
export function gather(model: Model, v: Float64Array): Float64Array {
  const out = new Float64Array(model.nSolve);
  for (let b = 0; b < model.blockComponent.length; b++) {
    const c = model.components[model.blockComponent[b]!]!;
    for (let k = 0; k < model.blockSize[b]!; k++) out[model.blockStart[b]! + k] = v[c.uOffset + k]!;
  }
  return out;
}

export interface ForceEval {
  f(q: Float64Array, u: Float64Array): Float64Array;                       // solve layout
  jacobians(q: Float64Array, u: Float64Array): { K: Float64Array; D: Float64Array; n: number }; // dense row-major
}

/** evaluates a chosen set of forces of a model (all of them by default) */
export function forceEval(model: Model, forces: readonly ForceEffector[] = model.forces): ForceEval {
  const pattern = new BlockPattern(model.blockSize, model.blockStart);
  // the oracle's own scratch for each force (a workspace of its own)
  const scratch = forces.map((fe) => fe.createScratch());
  forces.forEach((fe, i) => fe.setup(pattern, scratch[i]));
  const layout = pattern.build();
  const kin = new Kinematics(model), pm = new PointMap();
  const K = new BlockMatrix(layout), D = new BlockMatrix(layout);
  const ctx = (q: Float64Array, u: Float64Array) => { kin.update(q); return { model, q, u, kin, pm }; };
  return {
    f(q, u) {
      const f = new Float64Array(model.nu);
      const c = ctx(q, u);
      forces.forEach((fe, i) => fe.addForces(c, f, scratch[i]));
      return gather(model, f);
    },
    jacobians(q, u) {
      const c = ctx(q, u);
      K.zero(); D.zero();
      forces.forEach((fe, i) => fe.addJacobians(c, K, D, scratch[i]));
      return { K: cscToDense(K.csc()), D: cscToDense(D.csc()), n: layout.n };
    },
  };
}

/** central-difference ∂f/∂q and ∂f/∂u (dense, row-major n×n) */
export function fdJacobians(model: Model, ev: ForceEval, q: Float64Array, u: Float64Array, eps = 1e-6): { K: Float64Array; D: Float64Array } {
  const n = model.nSolve;
  const K = new Float64Array(n * n), D = new Float64Array(n * n);
  const d = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    d.fill(0); d[j] = eps;
    const fp = ev.f(retract(model, q, d), u);
    d[j] = -eps;
    const fm = ev.f(retract(model, q, d), u);
    for (let i = 0; i < n; i++) K[i * n + j] = (fp[i]! - fm[i]!) / (2 * eps);
  }
  for (let b = 0; b < model.blockComponent.length; b++) {
    const c = model.components[model.blockComponent[b]!]!;
    for (let k = 0; k < model.blockSize[b]!; k++) {
      const j = model.blockStart[b]! + k;
      const up = u.slice(), um = u.slice();
      up[c.uOffset + k] = up[c.uOffset + k]! + eps;
      um[c.uOffset + k] = um[c.uOffset + k]! - eps;
      const fp = ev.f(q, up), fm = ev.f(q, um);
      for (let i = 0; i < n; i++) D[i * n + j] = (fp[i]! - fm[i]!) / (2 * eps);
    }
  }
  return { K, D };
}

/** max |a − b| / max(max |b|, floor) */
export function relErr(a: Float64Array, b: Float64Array, floor = 1e-12): number {
  let num = 0, den = floor;
  for (let i = 0; i < a.length; i++) { num = Math.max(num, Math.abs(a[i]! - b[i]!)); den = Math.max(den, Math.abs(b[i]!)); }
  return num / den;
}

export { rng } from './numeric.js';

/** checks analytic vs FD Jacobians of the given forces; returns the relative errors */
export function checkJacobians(model: Model, q: Float64Array, u: Float64Array, forces?: readonly ForceEffector[]): { K: number; D: number } {
  const ev = forceEval(model, forces);
  const an = ev.jacobians(q, u);
  const fd = fdJacobians(model, ev, q, u);
  return { K: relErr(an.K, fd.K), D: relErr(an.D, fd.D) };
}
