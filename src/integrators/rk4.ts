/**
 * Explicit RK4 as an accuracy reference, on the Lie group of rigid-body poses: the Runge-Kutta
 * Munthe-Kaas method. Each stage position is q_i = q₀ ⊕ Θ_i with a tangent displacement Θ
 * (translations added, rotations applied by the exponential map R = exp([θ]) R₀), and the
 * rotation rate in the tangent coordinates is θ̇ = dexp⁻¹_θ(ω) for world ω, with
 *
 *   dexp⁻¹_θ(ω) = ω − ½ θ × ω + (1/φ²)(1 − (φ/2) cot(φ/2)) θ × (θ × ω),   φ = |θ|
 *
 * (series 1/12 + φ²/720 near φ = 0). With the classical Butcher tableau this is fourth order.
 * Accelerations solve M(q_i) a_i = f(q_i, u_i) through the same solve stage as the other
 * integrators; with bilateral constraints, the index-1 KKT system [[M, Gᵀ], [G, −R]] [a; μ] =
 * [f; −κ] (g̈ = G a + κ = 0; Baumgarte adds −αġ − βg), compliant rows acting as the forces
 * Gᵀλ, λ = −(g + βġ)/α. Drift is removed by the post-step projection. The reported λ is the
 * RK4-weighted average of the stage multipliers (for compliant rows, of their stage forces),
 * plus the velocity projection's impulses/h (stabilize.ts; small here: up to 2e-6 of the largest
 * |λ| on examples/pendulum-chain.json and 3e-5 on examples/four-bar.json over 200 steps).
 */
import type { Workspace } from '../step/workspace.js';
import type { State } from '../model/state.js';
import { invLeftJacobianApply } from '../math/so3.js';

export class Rk4Scratch {
  readonly q0: Float64Array;
  readonly u0: Float64Array;
  readonly kq: Float64Array[];   // 4 × (nu) tangent rates
  readonly ku: Float64Array[];   // 4 × (nu) accelerations
  readonly th: Float64Array;     // (nu) stage tangent displacement
  readonly fs: Float64Array;     // (nKkt) forces, then constraint right-hand sides
  readonly a: Float64Array;      // (nKkt) accelerations, then −λ

  constructor(nq: number, nu: number, nKkt: number) {
    this.q0 = new Float64Array(nq); this.u0 = new Float64Array(nu);
    this.kq = [0, 1, 2, 3].map(() => new Float64Array(nu));
    this.ku = [0, 1, 2, 3].map(() => new Float64Array(nu));
    this.th = new Float64Array(nu);
    this.fs = new Float64Array(nKkt); this.a = new Float64Array(nKkt);
  }
}

/** stage rates at (q, u) with tangent displacement Θ: kq = (v, dexp⁻¹_Θ ω), ku = M⁻¹ f */
function rates(ws: Workspace, q: Float64Array, u: Float64Array, s: Rk4Scratch, kq: Float64Array, ku: Float64Array, h: number, weight: number, first: boolean): void {
  const comps = ws.model.components;
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i]!;
    const o = c.uOffset;
    kq[o] = u[o]!; kq[o + 1] = u[o + 1]!; kq[o + 2] = u[o + 2]!;
    if (c.kind === 'body') invLeftJacobianApply(kq, o + 3, s.th, u, o + 3);
  }
  ws.mass(q);
  ws.gather(s.fs, ws.fs.forces(q, u));
  ws.constraints(q, u, h, 'acceleration', s.fs);
  ws.factor(0, 0);
  ws.constraintRhs(s.fs, 'acceleration');
  ws.solveWith(s.fs, s.a);
  ws.storeLambda(s.a, weight, first ? 0 : 1, true);
  ku.fill(0);
  ws.scatterAdd(ku, s.a, 1);
}

/** the classical RK4 stage times */
const RK4_C: readonly number[] = Object.freeze([0, 0.5, 0.5, 1]);
/** and weights */
const RK4_W: readonly number[] = Object.freeze([1 / 6, 2 / 6, 2 / 6, 1 / 6]);

export function rk4(ws: Workspace, st: State, h: number, s: Rk4Scratch): void {
  const { q, u } = st;
  const n = u.length;
  s.q0.set(q); s.u0.set(u);
  for (let i = 0; i < 4; i++) {
    // stage state: Θ = c_i h k_{i−1}, u = u₀ + c_i h a_{i−1}
    if (i === 0) s.th.fill(0);
    else for (let k = 0; k < n; k++) { s.th[k] = RK4_C[i]! * h * s.kq[i - 1]![k]!; u[k] = s.u0[k]! + RK4_C[i]! * h * s.ku[i - 1]![k]!; }
    // q ← q₀ ⊕ Θ
    if (i > 0) { q.set(s.q0); ws.advance(q, s.th, 1); }
    rates(ws, q, u, s, s.kq[i]!, s.ku[i]!, h, RK4_W[i]!, i === 0);
  }
  // combine: Θ = h/6 (k₁ + 2k₂ + 2k₃ + k₄)
  for (let k = 0; k < n; k++) {
    s.th[k] = (h / 6) * (s.kq[0]![k]! + 2 * s.kq[1]![k]! + 2 * s.kq[2]![k]! + s.kq[3]![k]!);
    u[k] = s.u0[k]! + (h / 6) * (s.ku[0]![k]! + 2 * s.ku[1]![k]! + 2 * s.ku[2]![k]! + s.ku[3]![k]!);
  }
  q.set(s.q0);
  ws.advance(q, s.th, 1);
}
