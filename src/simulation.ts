/**
 * A simulation: an immutable Model, its mutable State, and the Workspace that steps it (the
 * Model/Data split of MuJoCo). `step()` reads as the list of named stages of
 * docs/ARCHITECTURE.md. Everything a run writes (state, scratch, readouts, loads, warnings)
 * belongs to the simulation, so two simulations of one model step side by side without seeing
 * each other's numbers.
 */
import * as z from 'zod';
import { Model } from './model/model.js';
import { describeIssue } from './io/messages.js';
import { State, type Checkpoint } from './model/state.js';
import { DivergenceError, ModelError, NonFiniteError } from './model/errors.js';
import { Workspace } from './step/workspace.js';
import { SchemeScratch, symplecticEuler, implicitEuler, trapezoidal, bridsonMarino, type Scheme } from './integrators/schemes.js';
import { Rk4Scratch, rk4 } from './integrators/rk4.js';
import { Projection } from './step/stabilize.js';
import { Stepper } from './step/step.js';
import { contactParts } from './step/contactParts.js';
import { NOT_RK4 } from './model/contactModel.js';
import { contactReports, jointRowForce, type ContactReport } from './api/contacts.js';
import type { ContactSolveReport } from './step/solve.js';
import { Redundancy } from './step/redundancy.js';
import { INTEGRATORS, type IntegratorName } from './integrators/names.js';
import type { StepSolverOptions } from './solvers/stepSolver.js';
import { MIN_STEP, STEP_RULE } from './io/schema.js';
import { RunMonitor, type WorstViolation, type FastestTurn, type Violation } from './report/monitor.js';
import { WarningLog, type SimulationWarning, type WarningKind, type WarningListener } from './report/warnings.js';
import { BodyHandle, ParticleHandle, JointHandle, ForceHandle, findByName } from './api/handles.js';
import { checkRunLength, RunOptionsSchema, type RunOptions, type RunResult } from './api/run.js';

export type { WorstViolation, FastestTurn, Violation } from './report/monitor.js';
export { FAST_TURN } from './report/monitor.js';
export type { ContactReport } from './api/contacts.js';
export type { ContactSolveReport } from './step/solve.js';

/** options of a Simulation; every one overrides the model's setting of the same name */
export interface SimulationOptions {
  /** the time integrator (default: the model's, 'implicit-euler' unless it says otherwise) */
  integrator?: IntegratorName;
  /** the step size h, s (default: the model's, 0.01 unless it says otherwise) */
  step?: number;
  /** the linear solver's options (ordering, refinement) */
  solver?: StepSolverOptions;
}

const OptionsSchema = z.strictObject({
  integrator: z.enum(INTEGRATORS).optional(),
  step: z.number().positive({ abort: true }).min(MIN_STEP, { error: STEP_RULE }).optional(),
  solver: z.strictObject({
    ordering: z.enum(['amd', 'natural']).optional(),
    maxRefine: z.number().int().nonnegative().optional(),
    tol: z.number().positive().optional(),
  }).optional(),
});

/** kinetic, potential and total energy, J */
export interface Energy {
  /** ½ uᵀ M u */
  kinetic: number;
  /** stored in gravity, the springs and the compliant constraint rows */
  potential: number;
  /** kinetic + potential */
  total: number;
}

/** solver health and records since the simulation was made (restore does not reset them) */
export interface Diagnostics {
  /** the worst relative residual of a linear solve */
  maxResidual: number;
  /** solves whose residual stayed above the acceptable level */
  unconverged: number;
  /** factorizations whose inertia was not (n positive, m negative) */
  inertiaWarnings: number;
  /** the last of those, described, or null */
  lastInertia: string | null;
  /** projections that stopped above their tolerance */
  projectionUnconverged: number;
  /** steps taken without the geometric stiffness because it made the step matrix indefinite */
  geometricFallbacks: number;
  /** the worst joint separation of an end-of-step state */
  worstViolation: WorstViolation;
  /** the fastest turn of a body in one step (h|ω|) */
  fastestTurn: FastestTurn;
}

/** a Checkpoint and what else a run carries: the constraint forces and the external loads */
interface FullCheckpoint extends Checkpoint { readonly loads?: Float64Array; readonly contacts?: Float64Array }

/**
 * Steps a {@link Model} through time.
 *
 * @example
 * ```ts
 * const sim = new Simulation(model, { integrator: 'trapezoidal', step: 0.002 });
 * sim.on('warning', (w) => console.warn(w.message));
 * sim.run(2);                                   // two simulated seconds
 * console.log(sim.time, sim.body('bar').position, sim.joint('pivot').reaction.force);
 * ```
 */
export class Simulation {
  /**
   * the positions, velocities and time (MuJoCo's mjData): read freely; after writing q or u
   * directly, call `stateChanged()` (or use the handles' setters, which do)
   */
  readonly state: State;
  /** @internal the scratch, the assembled matrices and the factorization of this simulation */
  readonly ws: Workspace;
  /** the time integrator */
  readonly integrator: IntegratorName;
  /** the step size h, s */
  readonly h: number;
  /** stages 1-9 of a step (step/step.ts) */
  private readonly stepper: Stepper;
  private readonly projection: Projection;
  private readonly log = new WarningLog();
  private readonly monitor: RunMonitor;
  private readonly q0: Float64Array;   // (nq) state at the start of the current step
  private readonly u0: Float64Array;   // (nu)
  private readonly carried: Float64Array; // λ, the projection's multipliers and the redundant rows' regularization at the start of the current step
  private readonly handles = new Map<string, BodyHandle | ParticleHandle | JointHandle | ForceHandle>();

  /** @param model built by `parseModel`, `loadModel` or a `ModelBuilder`; never changed by the simulation */
  constructor(readonly model: Model, options: SimulationOptions = {}) {
    if (!(model instanceof Model)) throw new ModelError('new Simulation(model)', 'expected a Model, from parseModel, loadModel (vinculum/node) or ModelBuilder.build()');
    const opts = checkOptions(OptionsSchema, options ?? {}, 'options');
    this.integrator = opts.integrator ?? model.settings.integrator;
    this.h = opts.step ?? model.settings.step;
    this.state = new State(model);
    this.ws = new Workspace(model, opts.solver);
    this.projection = new Projection(this.ws);
    const contact = contactParts(model, this.ws);
    if (this.integrator === 'rk4' && contact.jointRows) {
      throw new ModelError('options.integrator', `rk4 cannot take limits or motors (use ${NOT_RK4})`);
    }
    this.stepper = new Stepper(this.ws, {
      integrate: this.makeScheme(this.integrator), projection: this.projection, ...contact, refuseContacts: this.integrator === 'rk4',
    });
    this.q0 = new Float64Array(model.nq);
    this.u0 = new Float64Array(model.nu);
    this.carried = new Float64Array(carriedLength(model.nRows));
    this.monitor = new RunMonitor(model, this.ws, this.state, this.projection, this.integrator, this.h, (k, m) => this.warn(k, m));
    this.monitor.start();
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

  /** the simulated time, s */
  get time(): number { return this.state.t; }

  /** the step size h, s (the same as `h`) */
  get timestep(): number { return this.h; }

  /** the steps taken since t = 0 */
  get stepCount(): number { return this.state.step; }

  /**
   * Advances by n steps of size h (default one). Throws a `DivergenceError` naming the step and
   * the component when the state becomes non-finite or a step's linear system fails; the state is
   * then the last good one.
   */
  step(n = 1): void {
    checkCount('step(n)', n);
    for (let i = 0; i < n; i++) this.stepOnce();
  }

  /** runs n steps, calling `each` after every step */
  steps(n: number, each?: (sim: Simulation) => void): void {
    checkCount('steps(n)', n);
    for (let i = 0; i < n; i++) { this.stepOnce(); if (each) each(this); }
  }

  /**
   * Runs for `duration` simulated seconds (default: the model's `duration`): ⌈duration/h⌉ steps.
   * `onProgress` hears how far the run is, about a hundred times over it; returning `false` from
   * it stops the run there.
   */
  run(duration: number | undefined = this.model.settings.duration, options: RunOptions = {}): RunResult {
    const opts = checkOptions(RunOptionsSchema, options ?? {}, 'run(options)');
    if (duration === undefined) throw new ModelError('run(duration)', 'give a duration in seconds: the model has none');
    const n = checkRunLength(duration, this.h, opts), onProgress = opts.onProgress;
    const every = Math.max(1, Math.floor(n / 100));
    for (let i = 1; i <= n; i++) {
      this.stepOnce();
      if (onProgress && (i % every === 0 || i === n)) {
        if (onProgress({ step: i, steps: n, time: this.state.t }) === false) return { steps: i, stopped: true };
      }
    }
    return { steps: n, stopped: false };
  }

  private stepOnce(): void {
    const st = this.state, h = this.h;
    // keep the start of the step, so a failed step leaves the last good state (λ and the
    // projection's multipliers too: the geometric stiffness and the projection read them next step)
    this.q0.set(st.q);
    this.u0.set(st.u);
    this.saveCarried(this.carried);
    try {
      // 1-9: drive, attach, collide, rows, the integrator (forces, constraints, assemble, solve,
      // advance), stabilize (step/step.ts)
      this.stepper.step(st, h);
      // 10. report, divergence first: a non-finite state, or one that blew up, fails the step
      this.checkFinite(st.step + 1, st.t + h);
      this.monitor.checkEnergy(st.step + 1);
    } catch (e) {
      // report the failed step, but keep the last good state
      st.q.set(this.q0);
      st.u.set(this.u0);
      this.loadCarried(this.carried);
      if (e instanceof NonFiniteError) throw new DivergenceError(st.step + 1, st.t + h, e.component, e.detail + this.monitor.turnHint());
      throw e;
    }
    // 10. report: time, warnings, the worst joint separation (of completed steps only)
    st.t += h;
    st.step++;
    this.monitor.afterStep();
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
      const hint = this.monitor.turnHint();
      for (let k = 0; k < nq; k++) if (!Number.isFinite(q[c.qOffset + k])) throw new DivergenceError(step, t, `${c.kind} "${c.name}"`, 'position became non-finite' + hint);
      for (let k = 0; k < nu; k++) if (!Number.isFinite(u[c.uOffset + k])) throw new DivergenceError(step, t, `${c.kind} "${c.name}"`, 'velocity became non-finite' + hint);
    }
  }

  /**
   * the rigid body of that name: its pose, velocities and external loads. The handle is made once
   * per name and simulation; keep it in a loop rather than looking it up each step
   */
  body(name: string): BodyHandle {
    return this.handle(`body:${name}`, () => new BodyHandle(this, findByName(this.model, 'body', name)));
  }

  /** the particle of that name: its position, velocity and external force */
  particle(name: string): ParticleHandle {
    return this.handle(`particle:${name}`, () => new ParticleHandle(this, findByName(this.model, 'particle', name)));
  }

  /** the joint or distance constraint of that name: its coordinates, rates and reaction */
  joint(name: string): JointHandle {
    return this.handle(`joint:${name}`, () => new JointHandle(this, findByName(this.model, 'joint', name)));
  }

  /** the force element of that name (a spring or a frame spring): its readouts */
  force(name: string): ForceHandle {
    return this.handle(`force:${name}`, () => new ForceHandle(this, findByName(this.model, 'force', name)));
  }

  private handle<H extends BodyHandle | ParticleHandle | JointHandle | ForceHandle>(key: string, make: () => H): H {
    let h = this.handles.get(key);
    if (!h) { h = make(); this.handles.set(key, h); }
    return h as H;
  }

  /**
   * Tells the simulation that `state` was written directly (the handles' setters call it): the
   * energy watch takes the new state as its baseline, instead of reading the change as an
   * instability.
   */
  stateChanged(): void { this.monitor.stateChanged(); }

  /** removes every external force and torque applied through the handles */
  clearLoads(): void { this.ws.fs.external.fill(0); }

  /** kinetic, potential and total energy at the current state, J */
  energy(): Energy {
    const { q, u } = this.state;
    const kinetic = this.ws.kineticEnergy(q, u);
    const potential = this.ws.potentialEnergy(q, u);
    return { kinetic, potential, total: kinetic + potential };
  }

  /** the warnings raised so far, one line each (also heard through `on('warning', …)`) */
  get warnings(): string[] { return this.log.list.map((w) => w.message); }

  /** the warnings raised so far, with their kind, step and time */
  get warningLog(): readonly SimulationWarning[] { return this.log.list; }

  /**
   * Calls `listener` with each warning from now on. Warnings raised while the simulation was
   * made (an initial violation, ignored damping) are in `warnings` already.
   */
  on(event: 'warning', listener: WarningListener): this {
    if (event !== 'warning') throw new ModelError(`on(${JSON.stringify(event)})`, 'the only event is "warning"');
    this.log.add(listener);
    return this;
  }

  /** stops calling a listener added with `on` */
  off(event: 'warning', listener: WarningListener): this {
    if (event !== 'warning') throw new ModelError(`off(${JSON.stringify(event)})`, 'the only event is "warning"');
    this.log.remove(listener);
    return this;
  }

  /** @internal raises a warning: recorded, then heard by the listeners */
  warn(kind: WarningKind, message: string): void {
    this.log.raise({ kind, message, step: this.state.step, time: this.state.t });
  }

  /**
   * Everything the rest of the run depends on: time, q, u, the constraint forces and the
   * projection's multipliers, and the external loads. Restoring it reproduces the run bit for bit.
   */
  checkpoint(): Checkpoint {
    const carried = new Float64Array(carriedLength(this.model.nRows));
    this.saveCarried(carried);
    const c: FullCheckpoint = {
      ...this.state.checkpoint(), carried, loads: this.ws.fs.external.slice(), contacts: this.stepper.memory.save(),
    };
    return c;
  }

  /** returns to a checkpoint of this simulation, or of another simulation of the same model */
  restore(checkpoint: Checkpoint): void {
    const c = checkpoint as FullCheckpoint, m = this.model.nRows;
    if (c.carried && c.carried.length !== carriedLength(m)) throw new ModelError('restore(checkpoint)', 'the checkpoint is of another model');
    if (c.loads && c.loads.length !== this.model.nu) throw new ModelError('restore(checkpoint)', 'the checkpoint is of another model');
    this.state.restore(c);
    this.monitor.restored();
    // a checkpoint without them (a bare State's) starts them from zero, as a new simulation does
    if (c.carried) this.loadCarried(c.carried);
    else { this.carried.fill(0); this.loadCarried(this.carried); }
    if (c.loads) this.ws.fs.external.set(c.loads); else this.clearLoads();
    // the contacts' warm starts (none in a bare State's checkpoint)
    if (c.contacts) this.stepper.memory.load(c.contacts); else this.stepper.memory.count = 0;
  }

  /** the contacts of the last step: shapes, point, normal, gap, normal and friction forces (N) */
  contacts(): ContactReport[] {
    return contactReports(this.model, this.stepper, this.h);
  }

  /**
   * the last step's contact solve (solver, status, pivots or sweeps, friction-bound iterations,
   * complementarity residual), or null when it had no contact, limit or motor rows
   */
  get contactSolve(): ContactSolveReport | null {
    const r = this.stepper.solver?.report ?? null;
    return r && this.stepper.rows.count > 0 ? { ...r } : null;
  }

  /** @internal the limit or motor force (N or N·m) on coordinate k of joint ci over the last step */
  jointRowForce(ci: number, k: number, kind: 'limit' | 'motor'): number {
    return jointRowForce(this.model, this.stepper, this.h, ci, k, kind);
  }

  /**
   * out (carriedLength) ← what a step carries over: the constraint forces λ, the projection's
   * multipliers, and the regularization of redundant rows, per row, with the dependencies it
   * belongs to (the rows write it as their −R each step; step/redundancy.ts)
   */
  private saveCarried(out: Float64Array): void {
    const m = this.model.nRows;
    out.set(this.ws.cs.lambda);
    this.projection.saveMultipliers(out, m);
    this.ws.redundancy.save(out, 2 * m);
  }

  /** λ, the projection's multipliers and the regularization ← src (as saveCarried wrote it) */
  private loadCarried(src: Float64Array): void {
    const m = this.model.nRows;
    this.ws.cs.lambda.set(src.subarray(0, m));
    this.projection.loadMultipliers(src, m);
    this.ws.redundancy.load(src, 2 * m);
  }

  /** the largest |g| over the hard rows at the current state (m or rad), and its constraint; null without hard rows */
  largestViolation(): Violation | null { return this.monitor.largestViolation(); }

  /** solver health and records since the simulation was made; `restore` does not reset them */
  get diagnostics(): Diagnostics {
    const w = this.ws;
    return {
      maxResidual: w.maxResidual, unconverged: w.unconverged, inertiaWarnings: w.inertiaWarnings, lastInertia: w.lastInertia,
      projectionUnconverged: this.projection.unconverged, geometricFallbacks: w.geometricFallbacks,
      worstViolation: this.monitor.worstViolation, fastestTurn: this.monitor.fastestTurn,
    };
  }
}

/**
 * `options` checked against `schema`, worded as the model loader words a file's problems, with
 * the path from `at` (`options.step: must be positive (got 0)`); a ModelError otherwise
 */
export function checkOptions<T>(schema: z.ZodType<T>, options: unknown, at: string): T {
  const r = schema.safeParse(options);
  if (r.success) return r.data;
  const { path, detail } = describeIssue(r.error.issues[0]!, { raw: options, fromText: false });
  throw new ModelError([at, ...path].join('.'), detail);
}

/** the length of a checkpoint's carried state for m rows: λ, the projection's multipliers (m each), the redundancy's */
function carriedLength(m: number): number { return 2 * m + Redundancy.carriedLength(m); }

/** a step count: a whole number ≥ 0, or a ModelError naming the call */
function checkCount(at: string, n: unknown): asserts n is number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new ModelError(at, `n must be a whole number ≥ 0 (got ${String(n)})`);
}
