/**
 * The mass-variation term of theory.md §4: with a = M(q)⁻¹ f(q, u), the step's position Jacobian
 * K − ∂(M a)/∂q must equal the finite-difference Jacobian of g(q) = M(q_k) M(q)⁻¹ f(q, u) at
 * q = q_k (rotations perturbed by the exponential map).
 */
import { describe, it, expect } from 'vitest';
import { ModelAssembler } from '../../src/model/assembler.js';
import { Workspace } from '../../src/step/workspace.js';
import { retract, relErr } from '../helpers/fd.js';
import { cscToDense } from '../../src/math/sparse/csc.js';

/** a spinning body (its centre of mass offset, or at the origin: Workspace's shorter path) and a particle */
function model(com: [number, number, number] = [0.1, -0.05, 0.2]) {
  const b = new ModelAssembler();
  b.settings.gravity = [0.5, -2, -9.81];
  b.addBody({ name: 'A', mass: 1.7, inertia: [0.1, 0.25, 0.3, 0.01, -0.02, 0.015], com, position: [0.1, 0.2, 0.3],
    orientation: [0.9, 0.2, -0.3, 0.1], velocity: [0.4, -0.1, 0.2], angularVelocity: [1.5, -2, 3], linearDamping: 0.3, angularDamping: 0.2 });
  b.addParticle({ name: 'p', mass: 0.3, position: [1, 0, 0], velocity: [0, 1, 0] });
  return b.build();
}

describe('mass variation of rigid bodies (theory.md §4)', () => {
  for (const [label, com] of [['offset centre of mass', [0.1, -0.05, 0.2]], ['centre of mass at the origin', [0, 0, 0]]] as const) {
  it(`M M⁻¹ f = f (${label})`, () => {
    const m = model([...com]), ws = new Workspace(m), n = m.nSolve, q = m.initialQ, u = m.initialU;
    const f = ws.gather(new Float64Array(n), ws.fs.forces(q, u)), a = new Float64Array(n), back = new Float64Array(n);
    ws.massInverse(a, f);
    ws.mass(q);
    ws.mulM(back, a);
    for (let i = 0; i < n; i++) expect(Math.abs(back[i]! - f[i]!)).toBeLessThan(1e-13 * (1 + Math.abs(f[i]!)));
  });

  it(`K − ∂(M a)/∂q equals the FD Jacobian of M(q_k) M(q)⁻¹ f(q, u) (${label})`, () => {
    const m = model([...com]), ws = new Workspace(m), n = m.nSolve;
    const q0 = m.initialQ, u = m.initialU;
    const g = (q: Float64Array): Float64Array => {
      const f = ws.gather(new Float64Array(n), ws.fs.forces(q, u));
      ws.massInverse(f, f);            // kinematics are at q after forces()
      ws.mass(q0);
      const out = new Float64Array(n);
      ws.mulM(out, f);
      return out;
    };
    // analytic
    const f0 = ws.gather(new Float64Array(n), ws.fs.forces(q0, u));
    ws.fs.jacobians(q0, u);
    const a = new Float64Array(n);
    ws.massInverse(a, f0);
    ws.addMassVariation(a);
    const K = cscToDense(ws.fs.K.csc());
    // central differences
    const eps = 1e-6, Kfd = new Float64Array(n * n), d = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      d.fill(0); d[j] = eps;
      const gp = g(retract(m, q0, d));
      d[j] = -eps;
      const gm = g(retract(m, q0, d));
      for (let i = 0; i < n; i++) Kfd[i * n + j] = (gp[i]! - gm[i]!) / (2 * eps);
    }
    const e = relErr(K, Kfd);
    console.log(`mass-variation Jacobian rel. error ${e.toExponential(2)}`);
    expect(e).toBeLessThan(1e-6);
  });
  }
});
