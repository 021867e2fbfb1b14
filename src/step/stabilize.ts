/**
 * Stage 9, stabilize: the post-step projection onto the constraint manifold (theory.md §8).
 *
 * Positions: the mass-weighted correction δq = −M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹ g, solved as the KKT system
 * [[M, Gᵀ], [G, −R]] [δq; μ] = [0; −g] (M plus the curvature below; G at the new configuration, M
 * at that of the last full factorization) and iterated until
 * max |g| ≤ 1e-12 over the hard rows: chord iterations on one factorization while each reduces
 * the violation a hundredfold, Newton (G re-evaluated and refactored; after a shortened step M
 * and the curvature too, after a full one the metric of the last full factorization kept) when one
 * does not. Every
 * step is a backtracking line search on ‖g‖₂ (α = 1, ½, … 1/64, Armijo): far from the manifold
 * (large steps, nearly singular chains) the full Newton step overshoots and the violation
 * oscillates and grows until the chain comes apart.
 * Velocities: first carried with the turns the correction gave the bodies (velocityTransport.ts:
 * ω turns with its body, so a thin body's spin is not changed by turning its axis). Then
 * [0; −G u] with G re-evaluated at the final configuration removes the velocity
 * component that violates ġ = 0 there, u ← P_v(q⁺) u, by chord iterations on the last
 * factorization until |G u| ≤ 1e-13, refactored at the final configuration when an iteration
 * gains less than a factor 10. Before them, when the last position iteration's contraction ρ
 * predicts more chord solves, ⌈log(|G u| / 1e-13) / log(1/ρ)⌉, than a factorization and one solve
 * cost (StepSolver.factorCost: the factorization's multiply-adds in solves), the factored matrix
 * gets G(q⁺) in place of its G, its metric kept, and is factored again: on chain100 that is one
 * factorization and a solve instead of five chord solves. After a turn of a body past
 * METRIC_TURN the whole matrix is factored at q⁺ instead.
 * Metric: both projections weight by the factored matrix, M plus the curvature below, so they
 * are the mass-weighted ones of theory.md §8 only where the curvature is zero (measured consequences:
 * docs/constraints.md, stabilization). The model's `velocityMetric: 'mass'` makes the velocity
 * projection P_v in M exactly, by at most one more factorization (M(q⁺) and G(q⁺), no curvature);
 * `positionMetric: 'mass'` leaves the curvature out of every factorization, so each Newton step
 * of the positions is the mass-weighted step, in M at the last full factorization's
 * configuration (and long chains need more of them).
 * Compliant rows are left alone (they are springs). Used when the model's stabilization method
 * is 'projection' (the default).
 *
 * Curvature: a full factorization takes the matrix of a Newton step of the closest-point problem
 * min ½‖δq‖²_M s.t. g(q + δq) = 0, whose Hessian is M + ∂²(μᵀg)/∂q² at its multipliers μ (the sum
 * of the iterations' μ; the first factorization of a step takes the previous step's sum as its
 * estimate; a refactorization after a full step keeps the last full factorization's). Joints
 * that lock all three translations add, per body, that term's rotational block on the turns
 * normal to each lever where it is positive (none about the lever), each joint's scaled to at
 * most twice the body's rotational inertia
 * (constraints/geometricStiffness.ts, addLeverCurvature, CURVATURE_CAP: no new pattern entries,
 * and M stays positive definite). Without it, on long chains under tension the minimum-norm step
 * bends nearly straight links through angles whose second-order effect is as large as the gap: the
 * projection contracts only about 3× per factorization on the 10 000-link chain, and over a run
 * of the 1000-link chain it needs 5.6 factorizations per step against 2.45 with the curvature
 * (docs/constraints.md, stabilization). The right-hand side stays [0; −g]: the Lagrangian's gradient
 * M δq + Gᵀμ of that problem is left out, so the iteration lands on the manifold near, not at,
 * the closest point.
 */
import type { Workspace } from './workspace.js';
import { flushTiny, TINY } from '../math/dense.js';
import { StiffnessScratch } from '../constraints/geometricStiffness.js';
import { VelocityTransport } from './velocityTransport.js';

/** target violation of the hard rows after projection (m or rad) */
export const PROJECTION_TOL = 1e-12;
/** target |G u| of the hard rows after the velocity projection (m/s or rad/s) */
export const PROJECTION_VEL_TOL = 1e-13;
/** the shortest step of the projection's line search (a fraction of the Newton step) */
export const LINE_SEARCH_MIN = 1 / 64;
/**
 * projection iterations at most (positions and velocities each): enough for the damped Newton
 * phase of a 100-link chain at h = 1/60, where violations of millimetres meet nearly singular
 * configurations and take 10-20 Newton steps
 */
export const PROJECTION_MAX_ITER = 30;
/**
 * the largest turn of a body by the position projection (rad) after which the velocity
 * projection gets its own factorization at q⁺ (M, curvature and G): chord iterations on a
 * matrix whose metric is turned by θ leak about θ·I_t/I_s of their corrections into a thin
 * body's spin. The projection turns links by about 6e-4 rad per step on the chains at h = 1/240
 * (up to 6e-2 on chain100), by 0.26 rad (median) up to 1 rad on the 300-link chain at h = 1/60,
 * where the links' spin reaches hundreds of rad/s without the factorization, below 0.1 rad/s
 * with it (docs/constraints.md, thin links' spin)
 */
export const METRIC_TURN = 1e-2;

export class Projection {
  private readonly rhs: Float64Array;   // (nKkt)
  private readonly x: Float64Array;     // (nKkt)
  private readonly qSave: Float64Array; // (nq) positions at the start of a line search
  private readonly qStart: Float64Array; // (nq) positions before the projection
  private readonly transport: VelocityTransport;
  private mu: Float64Array;              // (m) this step's multipliers, summed over its iterations
  private muPrev: Float64Array;          // (m) the previous step's
  private curvatureMu: Float64Array;     // the one the curvature of the next factorization uses
  private readonly scratch = new StiffnessScratch();
  /**
   * (component blocks) the trace of each body's rotational block of M without the curvature, its
   * cap: tr J_B + 2m|c|² for the inertia J_B about the centre of mass c, which turning the body
   * does not change
   */
  private readonly inertiaTrace: Float64Array;
  /** (9 · component blocks) each body's curvature term, 3×3 row-major, summed over its joints */
  private readonly curvature: Float64Array;
  /** the last factorization had curvature terms (some joint supplies them; their values may still be zero) */
  private curvatureAdded = false;
  /** the last factorization was a full one (`factor`: M and curvature at its configuration), not `refactorRows` */
  private metricFresh = false;
  /** projections that stopped above the tolerance (the simulation's diagnostics): position and velocity projections, one count each */
  unconverged = 0;
  /** which projection stopped above its tolerance first (the simulation's warning names it) */
  firstFailure: 'position' | 'velocity' | null = null;

  constructor(private readonly ws: Workspace) {
    this.rhs = new Float64Array(ws.model.nKkt);
    this.x = new Float64Array(ws.model.nKkt);
    this.qSave = new Float64Array(ws.model.nq);
    this.qStart = new Float64Array(ws.model.nq);
    this.transport = new VelocityTransport(ws.model);
    this.mu = new Float64Array(ws.model.nRows);
    this.muPrev = new Float64Array(ws.model.nRows);
    this.curvatureMu = this.muPrev;
    const comps = ws.model.blockComponent;
    this.inertiaTrace = Float64Array.from(comps, (ci) => {
      const c = ws.model.components[ci]!;
      return c.kind === 'body' ? c.inertia[0]! + c.inertia[4]! + c.inertia[8]! + 2 * c.mass * (c.com[0]! ** 2 + c.com[1]! ** 2 + c.com[2]! ** 2) : 0;
    });
    this.curvature = new Float64Array(9 * comps.length);
  }

  /**
   * projects (q, u) onto the hard constraints in place. With the step h (> 0), the velocity
   * projection's impulses are added to the constraint forces λ as the average force −μ/h over
   * the step (see below); without it λ is left alone.
   */
  run(q: Float64Array, u: Float64Array, h = 0): void {
    const ws = this.ws, cs = ws.cs, model = ws.model, n = model.nSolve, m = model.nRows;
    if (m === 0 || !cs.hasHardRows || cs.stabilization.method !== 'projection') return;
    const { rhs, x } = this, hard = cs.hard, g = cs.g, Gu = cs.Gu, lambda = cs.lambda;
    // the multipliers: the previous step's are the estimate for the first factorization's curvature
    const mu = this.muPrev;
    this.muPrev = this.mu;
    this.mu = mu;
    mu.fill(0);
    this.curvatureMu = this.muPrev;
    // the projection matrix at the new configuration
    this.qStart.set(q);
    this.factor(q, u);
    // every right-hand side is [0; −r] (the velocity part is never written after this)
    rhs.fill(0, 0, n);
    // positions: chord or Newton iterations on g(q) = 0, each with a backtracking line search
    // rho: the contraction of the last position iteration, the estimate of a velocity chord iteration's
    let it = 0, e = cs.maxHardViolation(), fresh = true, rho = 0;
    for (; it < PROJECTION_MAX_ITER && e > PROJECTION_TOL; it++) {
      for (let i = 0; i < m; i++) rhs[n + i] = hard[i] ? -g[i]! : 0;
      // the iteration itself corrects what the factorization alone leaves
      ws.solveDirect(rhs, x);
      // step α x with α = 1, ½, ¼ … until ‖g‖₂ decreases (Armijo): the Newton step is a descent
      // direction of ½‖g‖₂², but far from the manifold its full length can overshoot
      const f0 = cs.hardViolationNorm(), qs = this.qSave;
      qs.set(q);
      let alpha = 1, f1 = Infinity;
      for (;;) {
        ws.displace(q, x);
        cs.violation(ws.fs.bind(q, u));
        f1 = cs.hardViolationNorm();
        if (f1 < (1 - 1e-4 * alpha) * f0 || alpha <= LINE_SEARCH_MIN) break;
        alpha *= 0.5;
        q.set(qs);
        for (let i = 0; i < n; i++) x[i] = 0.5 * x[i]!;
      }
      if (!(f1 < f0)) {
        // no decrease even at the shortest step: back to the start of the iteration; a fresh
        // factorization (Newton) gets one more try, a fresh one that fails ends the projection
        q.set(qs);
        cs.violation(ws.fs.bind(q, u));
        // (a fresh matrix that renewed G alone gets the full refactorization first)
        if (fresh && this.metricFresh) break;
        this.factor(q, u);
        fresh = true;
        continue;
      }
      // this step's multipliers, from now on the curvature's
      for (let i = 0; i < m; i++) mu[i] = mu[i]! + alpha * x[n + i]!;
      flushTiny(mu, TINY);
      this.curvatureMu = mu;
      const e1 = cs.maxHardViolation();
      rho = e > 0 ? e1 / e : 0;
      // slow contraction or a shortened step: refactor at the new configuration (Newton); after
      // a full step only G is renewed (its metric kept: the 10 000-link chain's projection 3–5%
      // faster, converging as before), after a shortened one the curvature and M too
      fresh = false;
      if ((alpha < 1 || e1 > 1e-2 * e) && e1 > PROJECTION_TOL) {
        if (alpha < 1) this.factor(q, u); else this.refactorRows(q, u);
        fresh = true;
      }
      e = e1;
    }
    e = cs.maxHardViolation();
    if (e > PROJECTION_TOL) this.fail('position');
    // the velocities turn with their bodies (velocityTransport.ts); a factorization made at q⁺
    // keeps its G, with the new G u
    const turned = it > 0 ? this.transport.carry(this.qStart, q, u) : 0;
    if (it > 0 && fresh) cs.mulKept(u);
    // velocities at the final configuration: ġ = G(q⁺) u = 0 on the hard rows, by chord
    // iterations on the factorization above (G(q⁺) differs from its G by the small correction);
    // a factorization made at this configuration already holds G(q⁺) and G u. With the 'mass'
    // metric, P_v in M exactly (theory.md §8): a factorization of M(q⁺) and G(q⁺), no curvature
    if (cs.stabilization.velocityMetric === 'mass') {
      // a factorization made here without any curvature already is that one
      if (!fresh || this.curvatureAdded || !this.metricFresh) this.factor(q, u, false);
      fresh = true;
    } else if (turned > METRIC_TURN) {
      // the metric of a factorization made before such a turn drives thin bodies' spin: M, the
      // curvature and G at q⁺
      if (!(fresh && this.metricFresh)) this.factor(q, u);
      fresh = true;
    } else if (it > 0 && !fresh) {
      cs.evaluate(ws.fs.bind(q, u), ws.Gm, true, null, false);
      // chord iterations on the factorization above, or G(q⁺) factored in place of its G (the
      // same metric) and about one solve: whichever the last position iteration's contraction
      // says costs fewer solves (chain100: five chord solves or a refactorization and one)
      const ev = cs.maxHardAbs(Gu), chord = rho > 0 && rho < 1 ? Math.ceil(Math.log(ev / PROJECTION_VEL_TOL) / -Math.log(rho)) : rho >= 1 ? Infinity : 1;
      if (ev > PROJECTION_VEL_TOL && chord > 1 + ws.solver.factorCost) {
        this.refactorRows(null, u);
        fresh = true;
      }
    }
    let evPrev = Infinity;
    for (let k = 0; ; k++) {
      const ev = cs.maxHardAbs(cs.Gu);
      if (ev <= PROJECTION_VEL_TOL) break;
      if (k === PROJECTION_MAX_ITER) { this.fail('velocity'); break; }
      // a chord iteration that gained less than a factor 10 (large position corrections):
      // refactor here, after which the (linear) velocity projection is exact
      if (!fresh && ev > 0.1 * evPrev) { this.factor(q, u); fresh = true; continue; }
      evPrev = ev;
      for (let i = 0; i < m; i++) rhs[n + i] = hard[i] ? -Gu[i]! : 0;
      ws.solveDirect(rhs, x);
      ws.scatterAdd(u, x, 1);
      // its impulse −μ is part of the constraint force of the step: under the first-order schemes
      // the step's rows G(q_k)u⁺ = 0 leave the turning of the velocity (the centripetal part,
      // a third of a conical pendulum's tension) to this projection
      if (h > 0) for (let i = 0; i < m; i++) if (hard[i]) lambda[i] = lambda[i]! - x[n + i]! / h;
      // G(q⁺) u from the Jacobian blocks of the evaluation at q⁺
      cs.mulKept(u);
    }
  }

  private fail(which: 'position' | 'velocity'): void {
    this.unconverged++;
    this.firstFailure ??= which;
  }

  /**
   * the factored matrix with the rows' G at q (evaluated here; null: Gm holds them already) in
   * place of its G, its metric (M + curvature of the last `factor`) kept, factored again
   */
  private refactorRows(q: Float64Array | null, u: Float64Array): void {
    const ws = this.ws;
    if (q) ws.cs.evaluate(ws.fs.bind(q, u), ws.Gm, true, null, false);
    ws.cs.projectionRows(ws.Gm, ws.redundancy.R);
    ws.factor(0, 0);
    this.metricFresh = false;
  }

  /** out[o …] ← the multipliers the next step starts from (checkpoints) */
  saveMultipliers(out: Float64Array, o: number): void { out.set(this.mu, o); }
  /** the multipliers the next step starts from ← src[o …] */
  loadMultipliers(src: Float64Array, o: number): void { this.mu.set(src.subarray(o, o + this.mu.length)); }

  /**
   * assembles and factors [[M + curvature, Gᵀ], [G, −R]] at (q, u) (G u too, for the velocity
   * projection); M alone without `curvature` (by default, with the 'mass' position metric)
   */
  private factor(q: Float64Array, u: Float64Array, curvature = this.ws.cs.stabilization.positionMetric !== 'mass'): void {
    const ws = this.ws, ctx = ws.fs.bind(q, u);
    // the curvature terms are the joints' that lock all three translations (JointBatch.addCurvature)
    this.curvatureAdded = curvature && ws.cs.joints.curved > 0;
    this.metricFresh = true;
    // each body's curvature, summed over its joints (adding each joint's term to M directly cost
    // twice as much on long chains), then added to its rotational block of M as the mass pass
    // writes it
    if (this.curvatureAdded) {
      const C = this.curvature;
      C.fill(0);
      ws.cs.joints.addCurvature(ctx, this.curvatureMu, C, this.inertiaTrace, this.scratch);
    }
    ws.mass(q, this.curvatureAdded ? this.curvature : null);
    ws.cs.evaluate(ctx, ws.Gm, true, null, false);
    ws.cs.projectionRows(ws.Gm, ws.redundancy.R);
    ws.factor(0, 0);
  }
}
