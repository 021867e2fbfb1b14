/**
 * Stage 9, stabilize: the post-step projection onto the constraint manifold (000 §0.5-0.6).
 *
 * Positions: the mass-weighted correction δq = −M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹ g, solved as the KKT system
 * [[M, Gᵀ], [G, −R]] [δq; μ] = [0; −g] at the new configuration and iterated until
 * max |g| ≤ 1e-12 over the hard rows: chord iterations on one factorization while each reduces
 * the violation a hundredfold, Newton (G re-evaluated and refactored) when one does not.
 * Velocities: [0; −G u] with G re-evaluated at the final configuration removes the velocity
 * component that violates ġ = 0 there, u ← P_v(q⁺) u, by chord iterations on the last
 * factorization until |G u| ≤ 1e-13.
 * Compliant rows are left alone (they are springs). Used when the model's stabilization method
 * is 'projection' (the default).
 */
import type { Workspace } from './workspace.js';

/** target violation of the hard rows after projection (m or rad) */
export const PROJECTION_TOL = 1e-12;
/** target |G u| of the hard rows after the velocity projection (m/s or rad/s) */
export const PROJECTION_VEL_TOL = 1e-13;
/** projection iterations at most */
export const PROJECTION_MAX_ITER = 12;

export class Projection {
  private readonly rhs: Float64Array;   // (nKkt)
  private readonly x: Float64Array;     // (nKkt)
  /** iterations used by the last projection */
  iterations = 0;
  /** projections that stopped above the tolerance (reported in the simulation's diagnostics) */
  unconverged = 0;

  constructor(private readonly ws: Workspace) {
    this.rhs = new Float64Array(ws.model.nKkt);
    this.x = new Float64Array(ws.model.nKkt);
  }

  /** projects (q, u) onto the hard constraints in place */
  run(q: Float64Array, u: Float64Array): void {
    const ws = this.ws, cs = ws.cs, model = ws.model, n = model.nSolve, m = model.nRows;
    if (m === 0 || !cs.hasHardRows || model.settings.stabilization.method !== 'projection') return;
    const { rhs, x } = this;
    // the projection matrix at the new configuration
    this.factor(q, u);
    // positions: chord or Newton iterations on g(q) = 0
    let it = 0, e = cs.maxHardViolation();
    for (; it < PROJECTION_MAX_ITER && e > PROJECTION_TOL; it++) {
      rhs.fill(0);
      for (let i = 0; i < m; i++) rhs[n + i] = cs.hard[i] ? -cs.g[i]! : 0;
      // the iteration itself corrects what the factorization alone leaves
      ws.solveDirect(rhs, x);
      ws.displace(q, x);
      cs.violation(ws.fs.bind(q, u));
      const e1 = cs.maxHardViolation();
      // slow contraction: refactor at the new configuration (Newton)
      if (e1 > 1e-2 * e && e1 > PROJECTION_TOL) this.factor(q, u);
      e = e1;
    }
    this.iterations = it;
    if (e > PROJECTION_TOL) this.unconverged++;
    // velocities at the final configuration: ġ = G(q⁺) u = 0 on the hard rows, by chord
    // iterations on the factorization above (G(q⁺) differs from its G by the small correction)
    if (it > 0) cs.evaluate(ws.fs.bind(q, u), ws.Gm, true, null, false);
    for (let k = 0; ; k++) {
      let ev = 0;
      for (let i = 0; i < m; i++) if (cs.hard[i]) ev = Math.max(ev, Math.abs(cs.Gu[i]!));
      if (ev <= PROJECTION_VEL_TOL) break;
      if (k === PROJECTION_MAX_ITER) { this.unconverged++; break; }
      rhs.fill(0);
      for (let i = 0; i < m; i++) rhs[n + i] = cs.hard[i] ? -cs.Gu[i]! : 0;
      ws.solveDirect(rhs, x);
      ws.scatterAdd(u, x, 1);
      // G(q⁺) u from the assembled G(q⁺)
      ws.gather(x, u);
      ws.mulConstraintRows(cs.Gu, x);
    }
  }

  /** assembles and factors [[M, Gᵀ], [G, −R]] at (q, u) (G u too, for the velocity projection) */
  private factor(q: Float64Array, u: Float64Array): void {
    const ws = this.ws, ctx = ws.fs.bind(q, u);
    ws.mass(q);
    ws.cs.evaluate(ctx, ws.Gm, true, null, false);
    ws.cs.projectionRows(ws.Gm, ws.regularization);
    ws.factor(0, 0, false);
  }
}
