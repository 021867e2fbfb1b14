/**
 * The `vinculum` command line: run, validate, info and schema (docs/model-format.md). `runCli`
 * takes the arguments and an I/O object and returns the exit code, so tests call it in-process;
 * cli/vinculum.ts wires it to the process. Exit codes: 0 ok, 1 internal error, 2 bad model or
 * usage (one line `error: …` on stderr), 3 the simulation diverged.
 */
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { SingleBar } from 'cli-progress';
import { parseModelDocument, type LoadedModel } from '../src/io/loader.js';
import { modelJsonSchema } from '../src/io/jsonSchema.js';
import { Simulation, type Energy } from '../src/simulation.js';
import { ModelError, DivergenceError } from '../src/model/errors.js';
import { INTEGRATORS, type IntegratorName } from '../src/integrators/names.js';
import { resolveStabilization, type Model, type Stabilization } from '../src/model/model.js';
import { PROJECTION_TOL, PROJECTION_VEL_TOL } from '../src/integrators/stabilize.js';
import { ConstraintColumns, parseOutputs, type OutputGroup } from './constraintColumns.js';

export interface CliIo {
  /** writes to standard output */
  stdout(text: string): void;
  /** writes to standard error */
  stderr(text: string): void;
  /** whether stderr is a terminal (the progress bar is only drawn on one) */
  isTTY: boolean;
  /** where the progress bar draws (process.stderr in the Node adapter); no bar without it */
  progressStream?: NodeJS.WritableStream;
  /** the text of a file; rejects with a short reason */
  readFile(path: string): Promise<string>;
  /** replaces a file atomically (temporary file, then rename); rejects with a short reason */
  writeFileAtomic(path: string, text: string): Promise<void>;
  /** wall clock in ms (default performance.now) */
  now?(): number;
}

/** simulated time of `vinculum run` when neither --duration nor the model gives one (s) */
export const DEFAULT_DURATION = 5;
/** the progress bar appears when a run is expected to take longer than this (ms) */
const PROGRESS_THRESHOLD_MS = 1000;
/** steps excluded from the progress estimate */
const WARMUP_STEPS = 20;

/** an error with its exit code and a one-line message */
class CliError extends Error {
  constructor(readonly exitCode: number, message: string) { super(message); }
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** 6 significant digits, without trailing zeros */
const fmt = (v: number): string => (Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : String(Number(v.toPrecision(6))));

// option parsers: each throws InvalidArgumentError, which commander reports on one line
function positiveNumber(s: string): number {
  const v = Number(s);
  if (s.trim() === '' || !Number.isFinite(v) || !(v > 0)) throw new InvalidArgumentError('expected a positive number.');
  return v;
}
function positiveInteger(s: string): number {
  const v = Number(s);
  if (!/^\s*\d+\s*$/.test(s) || !Number.isSafeInteger(v) || v < 1) throw new InvalidArgumentError('expected a positive integer.');
  return v;
}
function outputFile(s: string): string {
  if (!/\.(csv|jsonl)$/i.test(s)) throw new InvalidArgumentError('unknown output extension; use .csv or .jsonl.');
  return s;
}

interface RunOptions { duration?: number; step?: number; integrator?: IntegratorName; out?: string; every: number; outputs?: OutputGroup[] }

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = new Command('vinculum')
    .description('simulate constrained mechanical systems described by JSON model files')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s), outputError: () => undefined })
    .showSuggestionAfterError(true);

  program.command('run')
    .description('simulate a model (default: the bundled demo) and print a summary')
    .argument('[model]', 'model file (JSON)')
    .addOption(new Option('--duration <s>', `simulated time in seconds (default: the model's, else ${DEFAULT_DURATION})`).argParser(positiveNumber))
    .addOption(new Option('--step <h>', "step size in seconds (default: the model's)").argParser(positiveNumber))
    .addOption(new Option('--integrator <name>', "integrator (default: the model's)").choices(INTEGRATORS))
    .addOption(new Option('--out <file>', 'write the trajectory to a .csv or .jsonl file').argParser(outputFile))
    .addOption(new Option('--every <k>', 'write every k-th step').argParser(positiveInteger).default(1))
    .addOption(new Option('--outputs <list>', 'extra trajectory columns with --out: a comma list of joints, forces, or all').argParser(parseOutputs))
    .action(async (model: string | undefined, opts: RunOptions) => { code = await run(io, model, opts); });

  program.command('validate')
    .description('check a model file')
    .argument('<model>', 'model file (JSON)')
    .action(async (file: string) => {
      const { model } = await load(io, file);
      io.stdout(`ok: ${model.components.length} components, ${model.dof} DOF, ${model.nRows} constraint rows\n`);
    });

  program.command('info')
    .description('describe a model: degrees of freedom, components, markers, forces, settings')
    .argument('<model>', 'model file (JSON)')
    .action(async (file: string) => { io.stdout(info(file, await load(io, file))); });

  program.command('schema')
    .description('print the JSON Schema of the model format, or write it to a file')
    .option('--out <file>', 'write the schema to this file')
    .action(async (opts: { out?: string }) => {
      const text = `${JSON.stringify(modelJsonSchema(), null, 2)}\n`;
      if (!opts.out) { io.stdout(text); return; }
      await write(io, opts.out, text);
      io.stdout(`wrote ${opts.out}\n`);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    return report(io, e);
  }
}

/** prints an error on one line and returns its exit code */
function report(io: CliIo, e: unknown): number {
  if (e instanceof CommanderError) {
    // help requests exit 0; the help shown for a missing command is a usage error
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return e.exitCode === 0 ? 0 : 2;
    io.stderr(`error: ${oneLine(e.message.replace(/^error:\s*/, ''))}\n`);
    return 2;
  }
  if (e instanceof ModelError) { io.stderr(`error: ${oneLine(e.message)}\n`); return 2; }
  if (e instanceof CliError) { io.stderr(`error: ${oneLine(e.message)}\n`); return e.exitCode; }
  const msg = e instanceof Error ? e.message : String(e);
  io.stderr(`error: internal error: ${oneLine(msg)}\n`);
  return 1;
}

async function load(io: CliIo, file: string): Promise<LoadedModel> {
  let text: string;
  try {
    text = await io.readFile(file);
  } catch (e) {
    throw new CliError(2, `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseModelDocument(text, file);
}

async function write(io: CliIo, file: string, text: string): Promise<void> {
  try {
    await io.writeFileAtomic(file, text);
  } catch (e) {
    throw new CliError(2, `cannot write ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** the bundled demo, next to the sources (cli/ under vitest) or two levels up (dist/cli/ after tsc) */
async function loadDemo(io: CliIo): Promise<{ loaded: LoadedModel; label: string }> {
  for (const rel of ['../examples/default-demo.json', '../../examples/default-demo.json']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    let text: string;
    try { text = await io.readFile(path); } catch { continue; }
    return { loaded: parseModelDocument(text, 'default demo'), label: 'default demo (examples/default-demo.json)' };
  }
  throw new CliError(1, 'the default demo examples/default-demo.json is missing from the installation');
}

// ---------------------------------------------------------------------------------------------
// run

/** trajectory rows in memory, written at the end (or at divergence) */
class Recorder {
  readonly columns: string[] = ['t'];
  readonly rows: string[] = [];
  private readonly slots: number[] = [];   // offsets into State.q, column by column after t

  /** `extra`: the --outputs columns, after the positions */
  constructor(model: Model, private readonly jsonl: boolean, private readonly extra: ConstraintColumns | null) {
    for (const p of model.particles) for (const [k, s] of ['x', 'y', 'z'].entries()) { this.columns.push(`${p.name}.${s}`); this.slots.push(p.qOffset + k); }
    for (const b of model.bodies) {
      for (const [k, s] of ['x', 'y', 'z', 'qw', 'qx', 'qy', 'qz'].entries()) { this.columns.push(`${b.name}.${s}`); this.slots.push(b.qOffset + k); }
    }
    if (extra) this.columns.push(...extra.columns);
  }

  /** a row at the simulation's state; `started`: a step has run */
  record(sim: Simulation, started: boolean): void {
    const t = sim.state.t, q = sim.state.q;
    // t rounded to 12 digits, so 0.1 + 0.2 prints as 0.3
    const values = [Number(t.toPrecision(12)), ...this.slots.map((o) => q[o]!), ...(this.extra ? this.extra.values(sim, started) : [])];
    if (this.jsonl) this.rows.push(JSON.stringify(Object.fromEntries(values.map((v, i) => [this.columns[i]!, v]))));
    else this.rows.push(values.join(','));
  }

  text(): string {
    const lines = this.jsonl ? this.rows : [this.columns.join(','), ...this.rows];
    return lines.length ? `${lines.join('\n')}\n` : '';
  }
}

async function run(io: CliIo, file: string | undefined, opts: RunOptions): Promise<number> {
  const now = io.now ?? (() => performance.now());
  if (opts.outputs && !opts.out) throw new CliError(2, '--outputs adds trajectory columns: it needs --out');
  const { loaded, label } = file ? { loaded: await load(io, file), label: file } : await loadDemo(io);
  const { model } = loaded;
  const duration = opts.duration ?? loaded.duration ?? DEFAULT_DURATION;
  const sim = new Simulation(model, { integrator: opts.integrator, step: opts.step });
  const h = sim.h;
  const n = Math.max(1, Math.ceil(duration / h - 1e-9));
  const extra = opts.outputs ? new ConstraintColumns(model, opts.outputs) : null;
  const recorder = opts.out ? new Recorder(model, /\.jsonl$/i.test(opts.out), extra) : null;
  const every = opts.every;

  const e0 = sim.energy();
  recorder?.record(sim, false);
  const start = now();
  let bar: SingleBar | null = null;
  let decided = false, lastTick = start, warm = start;
  try {
    for (let i = 1; i <= n; i++) {
      sim.step();
      if (recorder && i % every === 0) recorder.record(sim, true);
      const t = now();
      if (i === WARMUP_STEPS) warm = t;
      // after the first steps: draw a progress bar if the run looks longer than the threshold
      // (the rate is measured past the warm-up steps, which are slow while the JIT compiles)
      if (!decided && t - start > 250) {
        decided = true;
        const rate = i > WARMUP_STEPS ? (t - warm) / (i - WARMUP_STEPS) : (t - start) / i;
        if (io.isTTY && io.progressStream && t - start + rate * (n - i) > PROGRESS_THRESHOLD_MS) {
          bar = new SingleBar({
            stream: io.progressStream, format: 'simulating {bar} {percentage}% | t = {sim} s | eta {eta_formatted}',
            hideCursor: true, clearOnComplete: true, barsize: 30,
          });
          bar.start(n, i, { sim: fmt(sim.state.t) });
        }
      }
      // let the bar redraw about ten times a second
      if (t - lastTick > 100) {
        lastTick = t;
        if (bar) { bar.update(i, { sim: fmt(sim.state.t) }); await new Promise((r) => setTimeout(r, 0)); }
      }
    }
  } catch (e) {
    bar?.stop();
    if (!(e instanceof DivergenceError)) throw e;
    // write what the run produced before it diverged, then fail with the divergence (exit 3),
    // also when the output cannot be written
    let note = '';
    if (recorder && opts.out) {
      try {
        await write(io, opts.out, recorder.text());
        note = ` (wrote ${recorder.rows.length} rows to ${opts.out})`;
      } catch (w) {
        note = `; ${w instanceof Error ? w.message : String(w)}`;
      }
    }
    throw new CliError(3, `${e.message}${note}`);
  }
  bar?.update(n, { sim: fmt(sim.state.t) });
  bar?.stop();
  const wall = now() - start;
  if (recorder && opts.out) await write(io, opts.out, recorder.text());
  io.stdout(summary({ label, model, sim, steps: n, wall, e0, e1: sim.energy(), out: opts.out, rows: recorder?.rows.length ?? 0, warnings: extra?.warnings ?? [] }));
  return 0;
}

function summary(s: { label: string; model: Model; sim: Simulation; steps: number; wall: number; e0: Energy; e1: Energy; out?: string; rows: number; warnings: string[] }): string {
  const { model, sim } = s;
  // 14 wide, and never run into the previous column
  const col = (v: number) => ` ${fmt(v).padStart(13)}`;
  const joints = model.constraints.length ? `, ${model.constraints.length} joints (${model.nRows} constraint rows)` : '';
  const lines = [
    `model           ${s.label}: ${model.particles.length} particles, ${model.bodies.length} bodies, ${model.dof} DOF${joints}`,
    `integrator      ${sim.integrator}, h = ${fmt(sim.h)} s`,
    `steps           ${s.steps}`,
    `simulated time  ${fmt(sim.state.t)} s`,
    `wall time       ${(s.wall / 1000).toFixed(3)} s (${(s.wall / s.steps).toFixed(4)} ms/step)`,
    `energy (J)      ${'kinetic'.padStart(14)}${'potential'.padStart(14)}${'total'.padStart(14)}`,
    `  start         ${col(s.e0.kinetic)}${col(s.e0.potential)}${col(s.e0.total)}`,
    `  end           ${col(s.e1.kinetic)}${col(s.e1.potential)}${col(s.e1.total)}`,
  ];
  if (s.out) lines.push(`output          ${s.out} (${s.rows} rows)`);
  const d = sim.diagnostics;
  if (d.unconverged > 0) lines.push(`solver          ${d.unconverged} solves did not converge (worst residual ${fmt(d.maxResidual)})`);
  if (d.projectionUnconverged > 0) lines.push(`projection      ${d.projectionUnconverged} projections stopped above their tolerance (${PROJECTION_TOL} m or rad, ${PROJECTION_VEL_TOL} in velocity)`);
  if (d.inertiaWarnings > 0) lines.push(`inertia check   ${d.inertiaWarnings} warnings; last: ${oneLine(d.lastInertia ?? '')}`);
  if (d.geometricFallbacks > 0) lines.push(`geometric       stiffness left out of ${d.geometricFallbacks} steps (it made the step matrix indefinite)`);
  // joints: the largest violation of a hard row at the end and over the run (m for translations and distances, rad for rotations)
  if (model.constraints.length) {
    const v = sim.largestViolation();
    lines.push(v ? `constraints     largest violation at the end ${v.value.toExponential(2)} (m or rad), joint "${v.constraint}"` : 'constraints     every row is compliant');
    // the worst end-of-step violation over the run: a joint can tear apart and close again
    const w = d.worstViolation;
    if (v && w.constraint !== null) lines.push(`                largest during the run ${w.value.toExponential(2)} (m or rad) after step ${w.step}, joint "${w.constraint}"`);
  }
  // bodies: the largest rotation in one step (h|ω|), what decides whether the step resolves the spin
  const turn = d.fastestTurn;
  if (turn.body !== null) lines.push(`rotation        fastest turn ${turn.value.toFixed(3)} rad in one step (h|ω|), body "${turn.body}" after step ${turn.step}`);
  for (const w of [...sim.warnings, ...s.warnings]) lines.push(`warning: ${oneLine(w)}`);
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// info

function info(file: string, loaded: LoadedModel): string {
  const { model, file: doc } = loaded;
  const names = (xs: string[]) => (xs.length ? `: ${xs.join(', ')}` : '');
  const particles = model.particles.map((p) => (p.dynamic ? p.name : `${p.name} (fixed)`));
  const bodies = model.bodies.map((b) => (b.dynamic ? b.name : `${b.name} (fixed)`));
  const markers = model.markers.map((m) => `${m.name} (on ${model.components[m.body]!.name})`);
  const point = (r: string | [string, number[]]) => (typeof r === 'string' ? r : `world [${r[1].join(', ')}]`);
  const forces = doc.forces.map((f, i) => {
    const name = f.name ?? `${f.type}#${i}`;
    const ends = f.type === 'frame-spring' ? `${f.bodyA} – ${f.bodyB}` : f.points.map(point).join(' – ');
    return `  ${f.type} "${name}": ${ends}`;
  });
  const joints = doc.joints.map((j, i) => {
    const name = j.name ?? `${j.type}#${i}`;
    const ends = j.type === 'distance' ? j.points.map(point).join(' – ') : `${j.bodyA} – ${j.bodyB}`;
    const rows = model.constraints[i]!.rows;
    return `  ${j.type} "${name}": ${ends}, ${rows} row${rows === 1 ? '' : 's'}`;
  });
  const duration = loaded.duration !== undefined ? `${fmt(loaded.duration)} s` : `${DEFAULT_DURATION} s (default)`;
  return [
    `model           ${file}`,
    `DOF             ${model.dof}`,
    `particles       ${model.particles.length}${names(particles)}`,
    `bodies          ${model.bodies.length}${names(bodies)}`,
    `markers         ${model.markers.length}${names(markers)}`,
    `forces          ${doc.forces.length}`,
    ...forces,
    `joints          ${doc.joints.length}${doc.joints.length ? ` (${model.nRows} constraint rows)` : ''}`,
    ...joints,
    `stabilization   ${stabilizationText(model.settings.stabilization)}`,
    `integrator      ${model.settings.integrator}`,
    `step            ${fmt(model.settings.step)} s`,
    `duration        ${duration}`,
    `gravity         [${model.settings.gravity.map(fmt).join(', ')}] m/s²`,
    '',
  ].join('\n');
}

/** the method with its parameters, defaults filled in */
function stabilizationText(given: Stabilization): string {
  const s = resolveStabilization(given);
  if (s.method === 'baumgarte') return `baumgarte (alpha ${fmt(s.alpha)} 1/s, beta ${fmt(s.beta)} 1/s²)`;
  if (s.method === 'spook') return `spook (relaxation ${fmt(s.relaxation)} steps, compliance ${fmt(s.compliance)})`;
  const mass = [s.positionMetric === 'mass' ? 'positions' : '', s.velocityMetric === 'mass' ? 'velocities' : ''].filter(Boolean);
  return mass.length === 0 ? 'projection' : `projection (${mass.join(' and ')} mass-weighted)`;
}
