/**
 * The report stage's watch over a run: the worst joint separation, the fastest turn of a body,
 * and the warnings a user can act on (redundant constraints, coordinate singularities,
 * projections that stopped above their tolerance, steps taken without the geometric stiffness,
 * turns too fast for the scheme). Each warning is raised once, through the simulation's `warn`.
 */
import type { Model } from '../model/model.js';
import type { State } from '../model/state.js';
import type { Workspace } from '../step/workspace.js';
import type { IntegratorName } from '../integrators/names.js';
import { Projection, PROJECTION_TOL, PROJECTION_VEL_TOL } from '../step/stabilize.js';
import { Joint } from '../constraints/joint.js';
import { ignoredDampingRow, dampingIgnoredBy } from '../constraints/softness.js';
import type { WarningKind } from './warnings.js';
import { EnergyWatch, EXPLICIT_LIMITS, BLOWUP, highestFrequency, fastestComponent, type EnergyExcess } from './stability.js';
import { NonFiniteError } from '../model/errors.js';

/** |cos φ| below which a gimbal joint is reported as at its roll-pitch-yaw singularity (theory.md §9) */
export const GIMBAL_WARN_COS = 1e-2;

/**
 * h|ω| (rad per step) past which the trapezoidal rule and Bridson-Marino (which linearize the
 * gyroscopic force once per step) and RK4 (explicit) warn once (docs/integrators.md, fast spin).
 * Measured: the trapezoidal rule held a free thin rod at 1.25 and chain100's whip at 1.14, and
 * diverged after 1.74 (a universal-joint chain) and at 4.2 (the rod); a step of 1 rad or more
 * resolves no rotation well, but below 1.5 that did not cost stability. Implicit and symplectic
 * Euler stay bounded there: no warning.
 */
export const FAST_TURN = 1.5;

/** the schemes that warn past FAST_TURN, with how the warning names them */
const TURN_WARNS: Readonly<Partial<Record<IntegratorName, string>>> = {
  trapezoidal: 'the trapezoidal rule, which linearizes the gyroscopic force once per step,',
  'bridson-marino': 'Bridson-Marino, which linearizes the gyroscopic force once per step,',
  rk4: 'RK4, which is explicit,',
};

/** the largest |g| of a hard constraint row over the end-of-step states so far (m or rad) */
export interface WorstViolation {
  /** |g| (0 before the first step, or without hard rows) */
  value: number;
  /** the step after which it was seen, −1 before the first step */
  step: number;
  /** the constraint it belongs to, null before the first step */
  constraint: string | null;
}

/** the largest violation of a hard constraint row at one state */
export interface Violation {
  /** |g|, m or rad */
  value: number;
  /** the constraint it belongs to */
  constraint: string;
}

/** the largest rotation of a body in one step, h|ω| over the end-of-step states so far (rad) */
export interface FastestTurn {
  /** h|ω| (0 before the first step, or without bodies) */
  value: number;
  /** the step after which it was seen, −1 before the first step */
  step: number;
  /** the body, null before the first step or without bodies */
  body: string | null;
}

/**
 * a hard-row violation (m or rad) below which an initial violation counts as closed; it also
 * counts as closed at a thousandth of where it started, or after SETTLE_TIME (under load,
 * Baumgarte and SPOOK keep a residual violation, and the energy watch must not wait for ever)
 */
const SETTLED = 1e-6;
/** the longest the energy watch waits for an initial violation to close, s */
const SETTLE_TIME = 1;

/** raises one warning of a kind */
export type Warn = (kind: WarningKind, message: string) => void;

export class RunMonitor {
  private worstValue = 0;
  private worstStep = -1;
  private worstRow = -1;
  /** (dynamic bodies) each one's offset in u, and its component index (for the name) */
  private readonly bodyU: Int32Array;
  private readonly bodyComp: Int32Array;
  private turnValue = 0;
  private turnStep = -1;
  private turnBody = -1;
  /** the first turn past FAST_TURN since the simulation was made or restored, for divergence messages */
  private firstFastTurn: string | null = null;
  private warnedTurn = false;
  private warnedGeometric = false;
  private warnedProjection = false;
  private warnedIndefinite = false;
  private reportedRedundant = 0;
  /** gimbal joints (the only coordinate singularity worth a warning) not yet reported: their constraint indices */
  private readonly singularCheck: number[];
  private readonly gEnd: Float64Array;   // (m) end-of-step violation when the projection did not compute it
  private readonly energy: EnergyWatch;
  private warnedEnergy = false;
  /** the stabilization is still closing an initial violation (the energy balance waits) */
  private settling = false;
  /** while settling: the violation (m or rad) and the time (s) at which it counts as closed */
  private settleBelow = 0;
  private settleUntil = 0;
  private gained: EnergyExcess | null = null;

  constructor(private readonly model: Model, private readonly ws: Workspace, private readonly state: State,
    private readonly projection: Projection, private readonly integrator: IntegratorName, private readonly h: number,
    private readonly warn: Warn) {
    const dyn = model.bodies.filter((b) => b.dynamic);
    this.bodyU = Int32Array.from(dyn, (b) => b.uOffset);
    this.bodyComp = Int32Array.from(dyn, (b) => b.index);
    this.singularCheck = model.constraints.flatMap((c, ci) => (c instanceof Joint && c.type === 'gimbal' ? [ci] : []));
    this.gEnd = new Float64Array(model.nRows);
    this.energy = new EnergyWatch(model, ws, state);
  }

  /** the warnings a model earns before it runs */
  start(): void {
    this.checkInitialViolation();
    this.checkIgnoredDamping();
    this.checkExplicitStep();
    this.rebase();
  }

  /**
   * the energy balance starts over at the current state, or, while Baumgarte or SPOOK close a
   * violation of it, once they have
   */
  private rebase(): void {
    const v = this.largestViolation();
    this.settling = v !== null && v.value > SETTLED && this.ws.cs.stabilization.method !== 'projection';
    this.settleBelow = v === null ? 0 : Math.max(SETTLED, 1e-3 * v.value);
    this.settleUntil = this.state.t + SETTLE_TIME;
    this.energy.reset();
  }

  /** after each completed step: the records and the warnings of the report stage */
  afterStep(): void {
    if (this.ws.redundant.size > this.reportedRedundant) this.reportRedundant();
    if (this.singularCheck.length > 0) this.checkSingular();
    this.trackViolation();
    this.trackTurn();
    if (this.projection.unconverged > 0 && !this.warnedProjection) this.warnProjection();
    if (this.ws.geometricFallbacks > 0 && !this.warnedGeometric) this.warnGeometric();
    if (this.ws.inertiaWarnings > 0 && !this.warnedIndefinite) this.warnIndefinite();
    if (this.gained && !this.warnedEnergy) this.warnEnergy(this.gained);
  }

  /**
   * Inside the step, on its end state: the energy balance (stability.ts). An excess past BLOWUP
   * times the model's energy scale fails the step; a smaller one is warned of after it.
   */
  checkEnergy(step: number): void {
    // Baumgarte and SPOOK close an initial violation by adding energy: the balance starts once it is closed
    if (this.settling) {
      const v = this.largestViolation();
      if (v && v.value > this.settleBelow && this.state.t + this.h < this.settleUntil) return;
      this.settling = false;
      this.energy.reset();
      return;
    }
    const e = this.energy.afterStep(this.h, step);
    this.gained = e;
    if (!e || !(e.times > BLOWUP)) return;
    throw new NonFiniteError(fastestComponent(this.model, this.state.u), `blew up: the energy grew from ${e.e0.toPrecision(4)} J to ${e.energy.toPrecision(4)} J, ${e.times.toPrecision(3)} times the model's energy scale (the step is too large for this model or integrator)`);
  }

  /** a restored run names only its own fast turns when it diverges */
  restored(): void { this.firstFastTurn = null; this.rebase(); }

  /** the state was written from outside a step: the energy balance starts over there */
  stateChanged(): void { this.rebase(); }

  /** for a divergence: the first turn of a body past FAST_TURN since the start or the last restore */
  turnHint(): string {
    return this.firstFastTurn === null ? '' : ` (before it, ${this.firstFastTurn}: from then on the step did not resolve its rotation)`;
  }

  get worstViolation(): WorstViolation {
    const constraint = this.worstRow < 0 ? null : this.model.constraints[this.ws.cs.rowOwner(this.worstRow).constraint]!.name;
    return { value: this.worstValue, step: this.worstStep, constraint };
  }

  get fastestTurn(): FastestTurn {
    return { value: this.turnValue, step: this.turnStep, body: this.turnBody < 0 ? null : this.model.components[this.turnBody]!.name };
  }

  /** the largest |g| over the hard rows at the current state (m or rad), and its constraint; null without hard rows */
  largestViolation(): Violation | null {
    const cs = this.ws.cs;
    if (!cs.hasHardRows) return null;
    const g = this.violationNow(), i = cs.worstHardRow(g);
    return i < 0 ? null : { value: Math.abs(g[i]!), constraint: this.model.constraints[cs.rowOwner(i).constraint]!.name };
  }

  /**
   * one warning per constraint with damping on a hard row that the stabilization ignores
   * (constraints/softness.ts): model files reject it at load (io/joints.ts); this is for models
   * assembled in code
   */
  private checkIgnoredDamping(): void {
    const method = this.ws.cs.stabilization.method;
    for (const c of this.model.constraints) {
      const r = ignoredDampingRow(c, method, this.integrator);
      if (r >= 0) this.warn('ignored-damping', `constraint "${c.name}": row ${r} is hard and has damping ${c.damping[r]}, which ${dampingIgnoredBy(method)} ignores (damping acts on compliant rows; under "spook", except with rk4, it sets a hard row's relaxation)`);
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
    this.warn('initial-violation', `t = 0: constraint "${v.constraint}" is violated by ${v.value.toExponential(2)} (m or rad) in the initial state: ${what}`);
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
    const turn = this.h * Math.sqrt(w2), body = this.bodyComp[at]!, step = this.state.step;
    if (turn > this.turnValue) { this.turnValue = turn; this.turnStep = step; this.turnBody = body; }
    if (!(turn > FAST_TURN) || this.firstFastTurn !== null) return;
    const name = this.model.components[body]!.name;
    this.firstFastTurn = `body "${name}" turned ${turn.toFixed(3)} rad in step ${step}`;
    const scheme = TURN_WARNS[this.integrator];
    if (!scheme || this.warnedTurn) return;
    this.warnedTurn = true;
    this.warn('fast-turn', `step ${step}: body "${name}" turns ${turn.toFixed(3)} rad in one step (|ω| = ${(turn / this.h).toPrecision(3)} rad/s at h = ${this.h.toPrecision(3)} s): the step no longer resolves its rotation, and ${scheme} can gain energy or diverge there (docs/integrators.md, fast spin); a smaller step, or implicit Euler, stays bounded`);
  }

  /**
   * one warning when an explicit scheme's step exceeds its stability limit on the model's
   * stiffest mode, with the largest stable step
   */
  private checkExplicitStep(): void {
    const limit = EXPLICIT_LIMITS[this.integrator];
    if (limit === undefined) return;
    const f = highestFrequency(this.model, this.ws, this.state.q, this.state.u);
    if (!f || !(this.h * f.omega > limit)) return;
    const mode = f.source === 'stiffness' ? `stiffest mode (ω ≈ ${f.omega.toPrecision(3)} rad/s` : `most damped mode (rate ${f.omega.toPrecision(3)} 1/s`;
    this.warn('stability-limit', `t = 0: the step h = ${this.h.toPrecision(3)} s exceeds ${this.integrator}'s stability limit h·ω < ${limit.toPrecision(3)} on the model's ${mode}, mostly ${f.component}): the run will likely blow up; the largest stable step is about ${(limit / f.omega).toPrecision(2)} s, or use implicit Euler`);
  }

  /** one warning when the energy grows beyond what the loads supplied (stability.ts) */
  private warnEnergy(e: EnergyExcess): void {
    this.warnedEnergy = true;
    this.warn('instability', `step ${this.state.step}: instability: the energy grew from ${e.e0.toPrecision(4)} J to ${e.energy.toPrecision(4)} J, ${e.excess.toPrecision(3)} J more than the external loads supplied (${e.work.toPrecision(3)} J); the step is too large for this model or integrator (docs/integrators.md)`);
  }

  /** the first step whose step matrix was not quasi-definite (later ones are counted in the diagnostics) */
  private warnIndefinite(): void {
    this.warnedIndefinite = true;
    this.warn('indefinite', `step ${this.state.step}: the symmetric part of the non-symmetric step matrix is not positive definite at ${this.ws.firstIndefinite}: the step is solved all the same (GMRES) and its energy watched (diagnostics.inertiaWarnings counts such steps); a smaller step keeps it definite`);
  }

  /** the first step taken without the geometric stiffness (later ones are counted in the diagnostics) */
  private warnGeometric(): void {
    this.warnedGeometric = true;
    this.warn('geometric-stiffness', `step ${this.state.step}: with the geometric stiffness the step matrix was indefinite (${this.ws.firstGeometricFallback}); the step was taken without it, like later ones that are (diagnostics.geometricFallbacks counts them). A smaller step keeps it definite (docs/constraints.md)`);
  }

  /**
   * Keeps the largest |g| over hard rows of the end-of-step states: the projection leaves g at
   * the final positions in the constraint stage (no extra cost); Baumgarte and SPOOK do not
   * project, so their g is evaluated here (one violation pass per step). A joint that tears
   * apart in the middle of a run and closes again is still reported.
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

  /** the first projection that stopped above its tolerance, with what helps (later ones are counted in the diagnostics) */
  private warnProjection(): void {
    this.warnedProjection = true;
    const p = this.projection, cs = this.ws.cs;
    const what = p.firstFailure === 'velocity'
      ? `the velocity projection stopped above its tolerance ${PROJECTION_VEL_TOL} (max |G u| ${cs.maxHardAbs(cs.Gu).toExponential(1)} m/s or rad/s`
      : `the position projection stopped above its tolerance ${PROJECTION_TOL} (max |g| ${cs.maxHardViolation().toExponential(1)} m or rad`;
    this.warn('projection', `step ${this.state.step}: ${what}; later ones are counted in diagnostics.projectionUnconverged): the step leaves more drift than the projection can remove. A smaller step keeps the drift small; on long chains under tension at moderate steps, so does "geometricStiffness": true (docs/constraints.md)`);
  }

  /** one warning per joint that reaches a coordinate singularity (cos φ = 0 for the gimbal) */
  private checkSingular(): void {
    const { q, u } = this.state;
    for (let i = 0; i < this.singularCheck.length; i++) {
      const ci = this.singularCheck[i]!, c = this.model.constraints[ci]!;
      if (!this.ws.cs.isSingular(ci, q, u, GIMBAL_WARN_COS)) continue;
      this.warn('singularity', `step ${this.state.step}: joint "${c.name}" is at a coordinate singularity (gimbal: |cos φ| < ${GIMBAL_WARN_COS}): its angles and rates are not separately defined there; the constraint itself is unaffected`);
      this.singularCheck.splice(i--, 1);
    }
  }

  /** one warning per newly found redundant constraint set */
  private reportRedundant(): void {
    const names = [...this.ws.redundant].slice(this.reportedRedundant);
    this.reportedRedundant = this.ws.redundant.size;
    this.warn('redundancy', `step ${this.state.step}: redundant constraints ${names.map((n) => `"${n}"`).join(', ')}: regularized with R = ${this.ws.regularization.toExponential(1)}`);
  }
}
