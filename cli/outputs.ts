/**
 * The optional trajectory columns of `vinculum run --outputs` (docs/model-format.md, Command
 * line): joint coordinates and their rates (`joints`), and the reaction wrench of every joint
 * (`forces`): the force on side A in world axes (N) and the torque on A about the joint anchor
 * (N·m), from the multipliers of the last step.
 */
import { InvalidArgumentError } from 'commander';
import type { Simulation } from '../src/simulation.js';
import type { Model } from '../src/model/model.js';
import { Joint } from '../src/constraints/joint.js';
import { constraintWrench, WrenchScratch } from '../src/constraints/report.js';

export const OUTPUT_GROUPS = ['joints', 'forces'] as const;
export type OutputGroup = (typeof OUTPUT_GROUPS)[number];

/** `--outputs` parser: a comma list of groups, or `all`; throws InvalidArgumentError (exit 2) */
export function parseOutputs(s: string): OutputGroup[] {
  const chosen = new Set<string>();
  for (const part of s.split(',').map((x) => x.trim())) {
    if (part === 'all') for (const g of OUTPUT_GROUPS) chosen.add(g);
    else if ((OUTPUT_GROUPS as readonly string[]).includes(part)) chosen.add(part);
    else throw new InvalidArgumentError(`unknown output ${JSON.stringify(part)}; use a comma list of ${OUTPUT_GROUPS.join(', ')}, or all.`);
  }
  return OUTPUT_GROUPS.filter((g) => chosen.has(g));
}

/** the groups of `--outputs` and their columns, for `vinculum run --help` (docs/cli.md has the details) */
export const OUTPUTS_HELP = `
Output groups (--outputs, with --out; the columns follow the positions, in this order):
  joints      <joint>.<coordinate> for each coordinate of each joint (m or rad),
              then <joint>.<coordinate>_rate for each (m/s or rad/s)
  forces      <joint>.fx,fy,fz: the constraint force on side A (world axes, N);
              <joint>.mx,my,mz: the torque on side A about the joint anchor (N·m)
  all         every group
`;

/** the wrench columns of one constraint: force on side A (world, N), torque on A about the anchor (world, N·m) */
export const WRENCH_COLUMNS = ['fx', 'fy', 'fz', 'mx', 'my', 'mz'] as const;

/** the `--outputs` columns of a run: their names, and their values at each recorded row */
export interface OutputColumns {
  /** the column names, in the order `values` appends them */
  readonly columns: readonly string[];
  /** warnings met while recording (singular joint coordinates), each once, appended as they occur */
  readonly warnings: readonly string[];
  /** appends the values at the simulation's state to `out`; `started`: a step has run */
  values(sim: Simulation, started: boolean, out: number[]): void;
}

export class ConstraintColumns implements OutputColumns {
  readonly columns: string[] = [];
  /** singular joint coordinates met while recording, once per joint */
  readonly warnings: string[] = [];
  private readonly joints: Joint[];
  private readonly coords: Float64Array;
  private readonly wrench = new Float64Array(6);
  private readonly scratch = new WrenchScratch();
  private readonly singular = new Set<string>();
  private readonly withJoints: boolean;
  private readonly withForces: boolean;

  constructor(private readonly model: Model, groups: readonly OutputGroup[]) {
    this.withJoints = groups.includes('joints');
    this.withForces = groups.includes('forces');
    this.joints = this.withJoints ? model.constraints.filter((c): c is Joint => c instanceof Joint) : [];
    // per joint: its coordinates, then their rates
    for (const j of this.joints) {
      for (const n of j.coordinateNames) this.columns.push(`${j.name}.${n}`);
      for (const n of j.coordinateNames) this.columns.push(`${j.name}.${n}_rate`);
    }
    if (this.withForces) for (const c of model.constraints) for (const k of WRENCH_COLUMNS) this.columns.push(`${c.name}.${k}`);
    this.coords = new Float64Array(Math.max(3, ...this.joints.map((j) => j.coordinateNames.length)));
  }

  /** the values of the columns at the simulation's state; `started`: a step has run (λ is set) */
  values(sim: Simulation, started: boolean, out: number[]): void {
    if (this.columns.length === 0) return;
    const ctx = sim.ws.fs.bind(sim.state.q, sim.state.u);
    for (const j of this.joints) {
      const n = j.coordinateNames.length;
      j.coordinates(ctx, this.coords);
      for (let k = 0; k < n; k++) out.push(this.coords[k]!);
      j.coordinateRates(ctx, this.coords);
      for (let k = 0; k < n; k++) out.push(this.coords[k]!);
      if (n > 0 && !this.singular.has(j.name) && j.isSingular(ctx)) {
        this.singular.add(j.name);
        this.warnings.push(`t = ${Number(sim.state.t.toPrecision(6))} s: joint "${j.name}" (${j.type}) is at a singular configuration of its coordinates; their rates there are finite limits`);
      }
    }
    if (this.withForces) {
      const lambda = sim.ws.cs.lambda;
      for (let ci = 0; ci < this.model.constraints.length; ci++) {
        if (!started) { for (let k = 0; k < 6; k++) out.push(0); continue; }
        constraintWrench(this.model, ctx, lambda, ci, this.wrench, this.scratch);
        for (let k = 0; k < 6; k++) out.push(this.wrench[k]!);
      }
    }
  }
}

/** the `--outputs` columns of `groups` for a run of `sim` */
export function makeOutputColumns(sim: Simulation, groups: readonly OutputGroup[]): OutputColumns {
  return new ConstraintColumns(sim.model, groups);
}
