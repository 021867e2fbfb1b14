/**
 * The summary `vinculum run` prints on stdout at the end of a run: the model, the integrator, the
 * steps and times, the energies at the start and end, the output file, and the diagnostics that
 * are not zero. Warnings are not part of it: they go to stderr as they occur, and the summary
 * counts them.
 */
import type { Simulation, Energy } from '../src/simulation.js';
import type { Model } from '../src/model/model.js';
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
  lines.push(...diagnostics(model, sim));
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
