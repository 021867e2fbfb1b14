/**
 * A simulation: an immutable Model, its mutable State, and the Workspace that steps it.
 * `step()` reads as the list of named stages of docs/ARCHITECTURE.md. Two simulations of one
 * model share only the model's scratch (constraint frames, force effectors' temporaries), which
 * every evaluation rewrites before it reads it, and caches keyed by each simulation's own
 * kinematics, so they can step side by side (test/model/state.test.ts).
 */
import type { Model } from './model/model.js';
import { State, type Checkpoint } from './model/state.js';
import { DivergenceError, NonFiniteError } from './model/errors.js';
import { Workspace } from './integrators/workspace.js';
import { SchemeScratch, symplecticEuler, implicitEuler, trapezoidal, bridsonMarino, type Scheme } from './integrators/schemes.js';
import { Rk4Scratch, rk4 } from './integrators/rk4.js';
import { Projection, PROJECTION_TOL, PROJECTION_VEL_TOL } from './integrators/stabilize.js';
import type { IntegratorName } from './integrators/names.js';
import type { StepSolverOptions } from './solvers/stepSolver.js';
import { Joint } from './constraints/joint.js';
import { ignoredDampingRow, dampingIgnoredBy } from './constraints/softness.js';

export interface SimulationOptions {
  /** overrides the model's integrator */
  integrator?: IntegratorName;
  /** overrides the model's step size (s) */
  step?: number;
  /** linear-solver options (ordering, refinement) */
  solver?: StepSolverOptions;
}

/** |cos φ| below which a gimbal joint is reported as at its roll-pitch-yaw singularity (000 §0.4) */
export const GIMBAL_WARN_COS = 1e-2;

export interface Energy { kinetic: number; potential: number; total: number }

/** the largest |g| of a hard constraint row over the end-of-step states so far (m or rad) */
export interface WorstViolation {
  /** |g| (0 before the first step, or without hard rows) */
  value: number;
  /** the step after which it was seen (state.step), −1 before the first step */
  step: number;
  /** the constraint it belongs to, null before the first step */
  constraint: string | null;
}

/** the largest rotation of a body in one step, h|ω| over the end-of-step states so far (rad) */
export interface FastestTurn {
  /** h|ω| (0 before the first step, or without bodies) */
  value: number;
  /** the step after which it was seen (state.step), −1 before the first step */
  step: number;
  /** the body, null before the first step or without bodies */
  body: string | null;
}

/**
 * h|ω| (rad per step) past which the trapezoidal rule and Bridson-Marino (which linearize the
 * gyroscopic force once per step) and RK4 (explicit) warn once (docs/integrators.md, fast spin).
 * Measured in the ninth session: the trapezoidal rule held a free thin rod at 1.25 and chain100's
 * whip at 1.14, and diverged after 1.74 (a universal-joint chain, at step 90, divergence 7 steps
 * later) and at 4.2 (the rod); a step of 1 rad or more resolves no rotation well, but below 1.5
 * that did not cost stability. Implicit and symplectic Euler stayed bounded there: no warning.
 */
export const FAST_TURN = 1.5;

/** the schemes that warn past FAST_TURN, with how the warning names them */
const TURN_WARNS: Readonly<Partial<Record<IntegratorName, string>>> = {
  trapezoidal: 'the trapezoidal rule, which linearizes the gyroscopic force once per step,',
  'bridson-marino': 'Bridson-Marino, which linearizes the gyroscopic force once per step,',
  rk4: 'RK4, which is explicit,',
};

export class Simulation {
  readonly state: State;
  readonly ws: Workspace;
  readonly integrator: IntegratorName;
  readonly h: number;
  private readonly scheme: (st: State, h: number) => void;
  private readonly projection: Projection;
  /** warnings raised so far (redundant constraints, singular joint coordinates), each once */
  readonly warnings: string[] = [];
  private readonly q0: Float64Array;   // (nq) state at the start of the current step
  private readonly u0: Float64Array;   // (nu)
  private readonly gEnd: Float64Array; // (m) end-of-step violation when the projection did not compute it
  private readonly carried: Float64Array; // (2m + 1) λ, the projection's multipliers and the redundancy regularization at the start of the current step
  private worstValue = 0;
  private worstStep = -1;
  private worstRow = -1;
  /** (bodies) each dynamic body's offset in u, and its component index (for the name) */
  private readonly bodyU: Int32Array;
  private readonly bodyComp: Int32Array;
  private turnValue = 0;
  private turnStep = -1;
  private turnBody = -1;
  /** the first step that turned a body more than FAST_TURN, as "body "name" turned x rad in step k", or null */
  private firstFastTurn: string | null = null;
  private warnedTurn = false;

  constructor(readonly model: Model, opts: SimulationOptions = {}) {
    this.integrator = opts.integrator ?? model.settings.integrator;
    this.h = opts.step ?? model.settings.step;
    if (!(this.h > 0) || !Number.isFinite(this.h)) throw new Error(`step must be positive (got ${this.h})`);
    this.state = new State(model);
    this.ws = new Workspace(model, opts.solver);
    this.scheme = this.makeScheme(this.integrator);
    this.projection = new Projection(this.ws);
    // only the gimbal's coordinates have a singularity worth a warning (000 §0.4)
    this.singularCheck = model.constraints.filter((c): c is Joint => c instanceof Joint && c.type === 'gimbal');
    this.q0 = new Float64Array(model.nq);
    this.u0 = new Float64Array(model.nu);
    this.gEnd = new Float64Array(model.nRows);
    this.carried = new Float64Array(2 * model.nRows + 1);
    const dyn = model.bodies.filter((b) => b.dynamic);
    this.bodyU = Int32Array.from(dyn, (b) => b.uOffset);
    this.bodyComp = Int32Array.from(dyn, (b) => b.index);
    this.checkInitialViolation();
    this.checkIgnoredDamping();
  }

  /**
   * one warning per constraint with damping on a hard row that the stabilization ignores
   * (constraints/softness.ts): model files reject it at load (io/joints.ts); this is for models
   * built in code
   */
  private checkIgnoredDamping(): void {
    const method = this.ws.cs.stabilization.method;
    for (const c of this.model.constraints) {
      const r = ignoredDampingRow(c, method, this.integrator);
      if (r >= 0) this.warnings.push(`constraint "${c.name}": row ${r} is hard and has damping ${c.damping[r]}, which ${dampingIgnoredBy(method)} ignores (damping acts on compliant rows; under "spook", except with rk4, it sets a hard row's relaxation)`);
    }
  }

  /**
   * one warning when the initial state violates a hard constraint by more than 1e-9 (joints
   * given one frame per body need not meet at load; a distance constraint may be given another
   * length): the stabilization, not the model, then brings the bodies together
   */
  private checkInitialViolation(): void {
    const v = this.largestViolation();
    if (!v || !(v.value > 1e-9)) return;
    const st = this.ws.cs.stabilization.method;
    const what = st === 'projection' ? 'the first step\'s projection moves the bodies onto it' : `${st} pulls them together over the next steps`;
    this.warnings.push(`t = 0: constraint "${v.constraint}" is violated by ${v.value.toExponential(2)} (m or rad) in the initial state: ${what}`);
  }

  private makeScheme(name: IntegratorName): (st: State, h: number) => void {
    if (name === 'rk4') {
      const s = new Rk4Scratch(this.model.nq, this.model.nu, this.model.nKkt);
      return (st, h) => rk4(this.ws, st, h, s);
    }
    const table: Record<Exclude<IntegratorName, 'rk4'>, Scheme> = {
      'symplectic-euler': symplecticEuler, 'implicit-euler': implicitEuler, trapezoidal, 'bridson-marino': bridsonMarino,
    };
    const scheme = table[name], s = new SchemeScratch(this.model.nKkt, this.model.nu, this.model.nRows);
    return (st, h) => scheme(this.ws, st, h, s);
  }

  /** advances the state by one step h; throws DivergenceError on a non-finite state */
  step(): void {
    const st = this.state, h = this.h;
    // keep the start of the step, so a failed step leaves the last good state (λ and the
    // projection's multipliers too: the geometric stiffness and the projection read them next step)
    this.q0.set(st.q);
    this.u0.set(st.u);
    this.saveCarried(this.carried);
    // 1. drive: parametric components take their prescribed motion (none yet)
    // 2. attach: attached components follow their masters (none yet)
    // 3. collide: contacts (none yet)
    // 4-8. forces, constraints, assemble, solve, advance: the integrator (000 §0.9)
    try {
      this.scheme(st, h);
      // 9. stabilize: project onto the hard constraints (stabilization 'projection')
      this.projection.run(st.q, st.u, h);
      // 10. report, divergence first: a non-finite state fails the step
      this.checkFinite(st.step + 1, st.t + h);
    } catch (e) {
      // report the failed step, but keep the last good state
      st.q.set(this.q0);
      st.u.set(this.u0);
      this.loadCarried(this.carried);
      if (e instanceof NonFiniteError) throw new DivergenceError(st.step + 1, st.t + h, e.component, e.detail + this.turnHint());
      throw e;
    }
    // 10. report: time, warnings, the worst joint separation (of completed steps only)
    st.t += h;
    st.step++;
    if (this.ws.redundant.size > this.reportedRedundant) this.reportRedundant();
    if (this.singularCheck.length > 0) this.checkSingular();
    this.trackViolation();
    this.trackTurn();
    if (this.projection.unconverged > 0 && !this.warnedProjection) this.warnProjection();
    if (this.ws.geometricFallbacks > 0 && !this.warnedGeometric) this.warnGeometric();
  }

  /**
   * keeps the largest h|ω| of a body over the end-of-step states, and the first turn past
   * FAST_TURN since the simulation was made or restored; the schemes of TURN_WARNS warn once
   */
  private trackTurn(): void {
    const u = this.state.u, U = this.bodyU;
    let w2 = 0, at = -1;
    for (let k = 0; k < U.length; k++) {
      const o = U[k]! + 3, x = u[o]! * u[o]! + u[o + 1]! * u[o + 1]! + u[o + 2]! * u[o + 2]!;
      if (x > w2) { w2 = x; at = k; }
    }
    if (at < 0) return;
    const turn = this.h * Math.sqrt(w2), body = this.bodyComp[at]!;
    if (turn > this.turnValue) { this.turnValue = turn; this.turnStep = this.state.step; this.turnBody = body; }
    if (!(turn > FAST_TURN) || this.firstFastTurn !== null) return;
    const name = this.model.components[body]!.name;
    this.firstFastTurn = `body "${name}" turned ${turn.toFixed(3)} rad in step ${this.state.step}`;
    const scheme = TURN_WARNS[this.integrator];
    if (scheme && !this.warnedTurn) {
      this.warnedTurn = true;
      this.warnings.push(`step ${this.state.step}: body "${name}" turns ${turn.toFixed(3)} rad in one step (|ω| = ${(turn / this.h).toPrecision(3)} rad/s at h = ${this.h.toPrecision(3)} s): the step no longer resolves its rotation, and ${scheme} can gain energy or diverge there (docs/integrators.md, fast spin); a smaller step, or implicit Euler, stays bounded`);
    }
  }

  /** for a divergence: the first turn of a body past FAST_TURN since the simulation was made or restored, if any */
  private turnHint(): string {
    return this.firstFastTurn === null ? '' : ` (before it, ${this.firstFastTurn}: from then on the step did not resolve its rotation)`;
  }

  private warnedGeometric = false;

  /** the first step taken without the geometric stiffness (later ones are counted in the diagnostics) */
  private warnGeometric(): void {
    this.warnedGeometric = true;
    this.warnings.push(`step ${this.state.step}: with the geometric stiffness the step matrix was indefinite (${this.ws.firstGeometricFallback}); the step was taken without it, like later ones that are (diagnostics.geometricFallbacks counts them). A smaller step keeps it definite (docs/constraints.md)`);
  }

  /** runs n steps, calling `each` after every step */
  steps(n: number, each?: (sim: Simulation) => void): void {
    for (let i = 0; i < n; i++) { this.step(); if (each) each(this); }
  }

  /**
   * Keeps the largest |g| over hard rows of the end-of-step states: the projection leaves g at
   * the final positions in the constraint stage (no extra cost); Baumgarte and SPOOK do not
   * project, so their g is evaluated here (one violation pass per step). A joint that tears
   * apart in the middle of a run and closes again is still reported (`diagnostics`, CLI summary).
   */
  private trackViolation(): void {
    const cs = this.ws.cs;
    if (!cs.hasHardRows) return;
    const g = cs.stabilization.method === 'projection' ? cs.g : this.violationNow();
    const i = cs.worstHardRow(g);
    if (i >= 0 && Math.abs(g[i]!) > this.worstValue) { this.worstValue = Math.abs(g[i]!); this.worstStep = this.state.step; this.worstRow = i; }
  }

  /** (m) g at the current state, evaluated into a buffer of its own (the constraint stage's g is left alone) */
  private violationNow(): Float64Array {
    this.ws.cs.violation(this.ws.fs.bind(this.state.q, this.state.u), this.gEnd);
    return this.gEnd;
  }

  /** the largest |g| over the hard rows at the current state (m or rad), and its constraint; null without hard rows */
  largestViolation(): { value: number; constraint: string } | null {
    const cs = this.ws.cs;
    if (!cs.hasHardRows) return null;
    const g = this.violationNow(), i = cs.worstHardRow(g);
    return i < 0 ? null : { value: Math.abs(g[i]!), constraint: this.model.constraints[cs.rowOwner(i).constraint]!.name };
  }

  private warnedProjection = false;

  /** the first projection that stopped above its tolerance, with what helps (later ones are counted in the diagnostics) */
  private warnProjection(): void {
    this.warnedProjection = true;
    const p = this.projection, cs = this.ws.cs;
    const what = p.firstFailure === 'velocity'
      ? `the velocity projection stopped above its tolerance ${PROJECTION_VEL_TOL} (max |G u| ${cs.maxHardAbs(cs.Gu).toExponential(1)} m/s or rad/s`
      : `the position projection stopped above its tolerance ${PROJECTION_TOL} (max |g| ${cs.maxHardViolation().toExponential(1)} m or rad`;
    this.warnings.push(`step ${this.state.step}: ${what}; later ones are counted in diagnostics.projectionUnconverged): the step leaves more drift than the projection can remove. A smaller step keeps the drift small; on long chains under tension at moderate steps, so does "geometricStiffness": true (docs/constraints.md)`);
  }

  private reportedRedundant = 0;
  /** gimbal joints (the only coordinate singularity worth a warning, 000 §0.4), not yet reported */
  private singularCheck: Joint[] = [];

  /** one warning per joint that reaches a coordinate singularity (000 §0.4: cos φ = 0 for the gimbal) */
  private checkSingular(): void {
    const ctx = this.ws.fs.bind(this.state.q, this.state.u);
    for (let i = 0; i < this.singularCheck.length; i++) {
      const c = this.singularCheck[i]!;
      if (!c.isSingular(ctx, GIMBAL_WARN_COS)) continue;
      this.warnings.push(`step ${this.state.step}: joint "${c.name}" is at a coordinate singularity (gimbal: |cos φ| < ${GIMBAL_WARN_COS}): its angles and rates are not separately defined there; the constraint itself is unaffected`);
      this.singularCheck.splice(i--, 1);
    }
  }

  /** one warning per newly found redundant constraint set */
  private reportRedundant(): void {
    const names = [...this.ws.redundant].slice(this.reportedRedundant);
    this.reportedRedundant = this.ws.redundant.size;
    this.warnings.push(`step ${this.state.step}: redundant constraints ${names.map((n) => `"${n}"`).join(', ')}: regularized with R = ${this.ws.regularization.toExponential(1)}`);
  }

  /** the first component with a non-finite position or velocity, reported as a DivergenceError */
  private checkFinite(step: number, t: number): void {
    const { q, u } = this.state;
    // x·0 is NaN exactly for a non-finite x: one pass without a branch per entry
    let z = 0;
    for (let i = 0; i < q.length; i++) z += q[i]! * 0;
    for (let i = 0; i < u.length; i++) z += u[i]! * 0;
    if (z === 0) return;
    for (const c of this.model.components) {
      const nq = c.kind === 'body' ? 7 : 3, nu = c.kind === 'body' ? 6 : 3;
      for (let k = 0; k < nq; k++) if (!Number.isFinite(q[c.qOffset + k])) throw new DivergenceError(step, t, `${c.kind} "${c.name}"`, 'position became non-finite' + this.turnHint());
      for (let k = 0; k < nu; k++) if (!Number.isFinite(u[c.uOffset + k])) throw new DivergenceError(step, t, `${c.kind} "${c.name}"`, 'velocity became non-finite' + this.turnHint());
    }
  }

  energy(): Energy {
    const { q, u } = this.state;
    const kinetic = this.ws.kineticEnergy(q, u);
    const potential = this.ws.fs.potentialEnergy(q, u);
    return { kinetic, potential, total: kinetic + potential };
  }

  checkpoint(): Checkpoint {
    const carried = new Float64Array(2 * this.model.nRows + 1);
    this.saveCarried(carried);
    return { ...this.state.checkpoint(), carried };
  }

  restore(c: Checkpoint): void {
    const m = this.model.nRows;
    if (c.carried && c.carried.length !== 2 * m + 1) throw new Error('checkpoint does not match this model');
    this.state.restore(c);
    // a divergence after this names only turns of the restored run
    this.firstFastTurn = null;
    // a checkpoint without them (a bare State's) starts them from zero, as a new simulation does
    if (c.carried) this.loadCarried(c.carried);
    else { this.carried.fill(0); this.loadCarried(this.carried); }
  }

  /**
   * out (2m + 1) ← what a step carries over: the constraint forces λ, the projection's
   * multipliers, and the regularization of redundant hard rows (the rows write it as their −R
   * each step, and it stops the redundancy search once set)
   */
  private saveCarried(out: Float64Array): void {
    const m = this.model.nRows;
    out.set(this.ws.cs.lambda);
    this.projection.saveMultipliers(out, m);
    out[2 * m] = this.ws.regularization;
  }

  /** λ, the projection's multipliers and the regularization ← src (2m + 1, as saveCarried wrote it) */
  private loadCarried(src: Float64Array): void {
    const m = this.model.nRows;
    this.ws.cs.lambda.set(src.subarray(0, m));
    this.projection.loadMultipliers(src, m);
    this.ws.regularization = src[2 * m]!;
  }

  /**
   * solver health since the simulation was made: worst refinement residual, unconverged solves,
   * inertia warnings, projections that stopped above their tolerance, steps taken without the
   * geometric stiffness because it made the step matrix indefinite, the worst joint separation,
   * and the fastest turn of a body in one step (h|ω|). Statistics of everything run so far:
   * `restore` does not reset them.
   */
  get diagnostics(): { maxResidual: number; unconverged: number; inertiaWarnings: number; lastInertia: string | null; projectionUnconverged: number; geometricFallbacks: number; worstViolation: WorstViolation; fastestTurn: FastestTurn } {
    const w = this.ws;
    const constraint = this.worstRow < 0 ? null : this.model.constraints[w.cs.rowOwner(this.worstRow).constraint]!.name;
    return {
      maxResidual: w.maxResidual, unconverged: w.unconverged, inertiaWarnings: w.inertiaWarnings, lastInertia: w.lastInertia,
      projectionUnconverged: this.projection.unconverged, geometricFallbacks: w.geometricFallbacks, worstViolation: { value: this.worstValue, step: this.worstStep, constraint },
      fastestTurn: { value: this.turnValue, step: this.turnStep, body: this.turnBody < 0 ? null : this.model.components[this.turnBody]!.name },
    };
  }
}
