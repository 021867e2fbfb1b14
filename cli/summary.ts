/**
 * The summary `vinculum run` prints on stdout at the end of a run: the model, the integrator, the
 * steps and times, the energies at the start and end, the output file, and the diagnostics that
 * are not zero. Warnings are not part of it: they go to stderr as they occur, and the summary
 * counts them. The simulation reports only the last step's contacts and contact solve
 * (docs/contact.md, "Reported results"), so `ContactWatch` keeps the run's contact records step
 * by step: the most active contacts, the largest penetration, and per solver its steps, its most
 * pivots or sweeps and its worst complementarity residual.
 */
import type { Simulation, Energy } from '../src/simulation.js';
import type { Model } from '../src/model/model.js';
import type { ContactSolverName, ContactSolveReport } from '../src/step/solve.js';
import { PROJECTION_TOL, PROJECTION_VEL_TOL } from '../src/step/stabilize.js';
import { fmt } from './common.js';
import { oneLine } from '../src/io/messages.js';

/** what the summary reports */
export interface RunSummary {
  label: string;
  model: Model;
  sim: Simulation;
  steps: number;
  /** wall time of the steps (ms) */
  wall: number;
  e0: Energy;
  e1: Energy;
  out?: string;
  rows: number;
  /** warnings printed on stderr during the run */
  warnings: number;
  /** the run's contact records (none: no contact lines) */
  contacts?: ContactWatch;
  /** the HTML report's path (`--report`) */
  report?: string;
}

/** one contact solver's record over a run */
interface SolverRecord {
  /** steps it solved */
  steps: number;
  /** the most pivots (pivoting, lemke) or sweeps (pgs) in one step */
  iterations: number;
  /** the most friction-bound iterations in one step */
  boundIterations: number;
  /** the worst complementarity residual (relative) and the step it came from */
  residual: number;
  residualStep: number;
}

/** what a solver's iterations count */
const ITERATIONS: Record<ContactSolverName, string> = { pivoting: 'pivots', lemke: 'pivots', pgs: 'sweeps' };

/**
 * The contact records of a run, kept by `observe` after each step: the steps with an active
 * contact (a normal force above 0), the most active contacts in one step, the largest
 * penetration (−gap, at the start of a step, when the contacts are found), and per solver its
 * record; the solves that did not end 'solved', by status. It reads `Simulation.contacts()` once
 * a step, only when the model has colliding shapes.
 */
export class ContactWatch {
  /** the model can make contact rows: a colliding shape, a joint limit or a motor */
  readonly applies: boolean;
  private readonly shapes: boolean;
  private readonly solvers = new Map<ContactSolverName, SolverRecord>();
  private readonly failed = new Map<ContactSolveReport['status'], number>();
  private lastFailed = 0;
  private steps = 0;         // steps observed
  private known = 0;         // steps with a contact known (within the margin)
  private activeSteps = 0;   // steps with an active contact
  private active = { count: 0, step: 0 };
  private penetration = { value: 0, step: 0, pair: '' };

  constructor(private readonly sim: Simulation) {
    const m = sim.model;
    this.shapes = m.shapes.some((sh) => sh.collide);
    this.applies = this.shapes || m.limits.length > 0 || m.motors.length > 0;
  }

  /** records the step just taken */
  observe(): void {
    if (!this.applies) return;
    const step = this.sim.state.step;
    this.steps++;
    // the contacts, found at the start of the step
    const list = this.shapes ? this.sim.contacts() : [];
    if (list.length > 0) this.known++;
    let active = 0;
    for (const c of list) {
      if (c.normalForce > 0) active++;
      if (-c.gap > this.penetration.value) {
        this.penetration = { value: -c.gap, step, pair: `${c.shapeA} and ${c.shapeB}` };
      }
    }
    if (active > 0) this.activeSteps++;
    if (active > this.active.count) this.active = { count: active, step };
    // the solve of its contact, limit and motor rows
    const r = this.sim.contactSolve;
    if (!r) return;
    const rec = this.solvers.get(r.solver)
      ?? { steps: 0, iterations: 0, boundIterations: 0, residual: -1, residualStep: 0 };
    this.solvers.set(r.solver, rec);
    rec.steps++;
    rec.iterations = Math.max(rec.iterations, r.iterations);
    rec.boundIterations = Math.max(rec.boundIterations, r.boundIterations);
    // a NaN residual is the worst
    if (!(r.residual <= rec.residual)) { rec.residual = r.residual; rec.residualStep = step; }
    if (r.status !== 'solved') {
      this.failed.set(r.status, (this.failed.get(r.status) ?? 0) + 1);
      this.lastFailed = step;
    }
  }

  /** the summary's `contacts` and `contact solver` lines */
  lines(): string[] {
    if (!this.applies) return [];
    const lines: string[] = [];
    // contacts: how often, how many at once, how deep
    if (this.shapes && this.known === 0) lines.push('contacts        none during the run');
    else if (this.shapes) {
      const a = this.active, p = this.penetration;
      lines.push(`contacts        active in ${this.activeSteps} of ${this.steps} steps, `
        + `at most ${a.count} at once${a.count > 0 ? ` (step ${a.step})` : ''}`);
      lines.push(p.value > 0
        ? `                largest penetration ${p.value.toExponential(2)} m at the start of step ${p.step}, `
          + `between ${p.pair}`
        : '                no penetration at the start of any step');
    }
    // the solvers: steps, most iterations, worst residual; then the solves that failed
    let head = 'contact solver  ';
    for (const [name, r] of this.solvers) {
      const bounds = r.boundIterations > 1 ? `, ${r.boundIterations} friction-bound iterations` : '';
      const unit = r.iterations === 1 ? ITERATIONS[name].slice(0, -1) : ITERATIONS[name];
      lines.push(`${head}${name} in ${r.steps} steps, at most ${r.iterations} ${unit}${bounds}, `
        + `worst complementarity residual ${r.residual.toExponential(2)} in step ${r.residualStep}`);
      head = ' '.repeat(16);
    }
    if (this.failed.size > 0) {
      const counts = [...this.failed].map(([status, n]) => `${n} ${status}`).join(', ');
      const total = [...this.failed.values()].reduce((a, b) => a + b, 0);
      lines.push(`${head}${total} solves ended unsolved (${counts}), the last in step ${this.lastFailed}`);
    }
    return lines;
  }
}

/** the summary's text, one fact a line */
export function summary(s: RunSummary): string {
  const { model, sim } = s;
  // 14 wide, and never run into the previous column
  const col = (v: number) => ` ${fmt(v).padStart(13)}`;
  const { particles, bodies, constraints, dof, nRows } = model;
  const joints = constraints.length ? `, ${constraints.length} joints (${nRows} constraint rows)` : '';
  const lines = [
    `model           ${s.label}: ${particles.length} particles, ${bodies.length} bodies, ${dof} DOF${joints}`,
    `integrator      ${sim.integrator}, h = ${fmt(sim.h)} s`,
    `steps           ${s.steps}`,
    `simulated time  ${fmt(sim.state.t)} s`,
    `wall time       ${(s.wall / 1000).toFixed(3)} s (${(s.wall / s.steps).toFixed(4)} ms/step)`,
    `energy (J)      ${'kinetic'.padStart(14)}${'potential'.padStart(14)}${'total'.padStart(14)}`,
    `  start         ${col(s.e0.kinetic)}${col(s.e0.potential)}${col(s.e0.total)}`,
    `  end           ${col(s.e1.kinetic)}${col(s.e1.potential)}${col(s.e1.total)}`,
  ];
  if (s.out) lines.push(`output          ${s.out} (${s.rows} rows)`);
  if (s.report) lines.push(`report          ${s.report}`);
  lines.push(...diagnostics(model, sim));
  if (s.contacts) lines.push(...s.contacts.lines());
  if (s.warnings > 0) lines.push(`warnings        ${s.warnings} (on stderr)`);
  return `${lines.join('\n')}\n`;
}

/** the solver, projection, inertia, geometric-stiffness, constraint and rotation lines */
function diagnostics(model: Model, sim: Simulation): string[] {
  const lines: string[] = [];
  const d = sim.diagnostics;
  if (d.unconverged > 0) {
    const worst = fmt(d.maxResidual);
    lines.push(`solver          ${d.unconverged} solves did not converge (worst residual ${worst})`);
  }
  if (d.projectionUnconverged > 0) {
    lines.push(`projection      ${d.projectionUnconverged} projections stopped above their tolerance `
      + `(${PROJECTION_TOL} m or rad, ${PROJECTION_VEL_TOL} in velocity)`);
  }
  if (d.inertiaWarnings > 0) {
    lines.push(`inertia check   ${d.inertiaWarnings} warnings; last: ${oneLine(d.lastInertia ?? '')}`);
  }
  if (d.geometricFallbacks > 0) {
    lines.push(`geometric       stiffness left out of ${d.geometricFallbacks} steps `
      + '(it made the step matrix indefinite)');
  }
  // joints: the largest violation of a hard row at the end and over the run (m for translations
  // and distances, rad for rotations)
  if (model.constraints.length) {
    const v = sim.largestViolation();
    lines.push(v
      ? `constraints     largest violation at the end ${v.value.toExponential(2)} (m or rad), `
        + `joint "${v.constraint}"`
      : 'constraints     every row is compliant');
    // the worst end-of-step violation over the run: a joint can tear apart and close again
    const w = d.worstViolation;
    if (v && w.constraint !== null) {
      lines.push(`                largest during the run ${w.value.toExponential(2)} (m or rad) `
        + `after step ${w.step}, joint "${w.constraint}"`);
    }
  }
  // bodies: the largest rotation in one step (h|ω|), what decides whether the step resolves the spin
  const turn = d.fastestTurn;
  if (turn.body !== null) {
    lines.push(`rotation        fastest turn ${turn.value.toFixed(3)} rad in one step (h|ω|), `
      + `body "${turn.body}" after step ${turn.step}`);
  }
  return lines;
}
