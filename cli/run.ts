/**
 * `vinculum run`: loads a model (or the bundled demo), checks the step count and the output file
 * before the first step, steps the simulation while streaming the trajectory, prints warnings and
 * progress on stderr as they come, and the summary on stdout at the end.
 */
import { Simulation, MAX_STEPS, DivergenceError, ModelError, type SimulationWarning } from '../src/index.js';
import { checkStepCount } from '../src/io/runLength.js';
import type { IntegratorName } from '../src/integrators/names.js';
import type { LoadedModel } from '../src/io/loader.js';
import type { AtomicWriter, CliIo } from './io.js';
import { CliError, messageOf } from './common.js';
import { oneLine } from '../src/io/messages.js';
import { loadDemo, loadModelFile } from './load.js';
import { DEFAULT_DURATION } from './info.js';
import { Progress, yieldToEventLoop } from './progress.js';
import { Recorder } from './recorder.js';
import { summary, ContactWatch } from './summary.js';
import { outputColumns, type OutputColumns, type OutputGroup } from './outputs.js';
import { ReportWriter } from './reportWriter.js';
import { reportAssets } from './report.js';

/** the default of `--max-steps`: runs of more steps are refused before they start (as `Simulation.run` does) */
export const DEFAULT_MAX_STEPS = MAX_STEPS;

/** the options of `vinculum run`, as commander parses them */
export interface RunOptions {
  duration?: number;
  step?: number;
  integrator?: IntegratorName;
  out?: string;
  every: number;
  outputs?: OutputGroup[];
  quiet?: boolean;
  maxSteps: number;
  strict?: boolean;
  /** write a self-contained HTML report here */
  report?: string;
}

/**
 * The number of steps of a run, ⌈duration / h⌉ and at least one (a duration of 0 runs one step);
 * a count that is not finite or above `--max-steps` is a usage error (exit 2) naming where the
 * duration and the step come from.
 */
export function stepCount(loaded: LoadedModel, opts: RunOptions): number {
  const duration = opts.duration ?? loaded.duration ?? DEFAULT_DURATION;
  const h = opts.step ?? loaded.model.settings.step;
  const fields = {
    duration: opts.duration !== undefined ? '--duration'
      : loaded.duration !== undefined ? 'duration' : 'duration (default)',
    step: opts.step !== undefined ? '--step' : 'step',
    raise: '--max-steps',
  };
  try {
    return Math.max(1, checkStepCount(duration, h, opts.maxSteps, fields));
  } catch (e) {
    if (e instanceof ModelError) throw new CliError(2, e.message);
    throw e;
  }
}

/** opens the output before the run, so that an unwritable path fails at once (exit 2) */
async function openOutput(io: CliIo, file: string): Promise<AtomicWriter> {
  try {
    return await io.openAtomic(file);
  } catch (e) {
    throw new CliError(2, `cannot write ${file}: ${messageOf(e)}`);
  }
}

/** runs `vinculum run`; returns the exit code or throws a CliError */
export async function run(io: CliIo, file: string | undefined, opts: RunOptions): Promise<number> {
  if (opts.outputs && !opts.out) throw new CliError(2, '--outputs adds trajectory columns: it needs --out');
  const { loaded, label } = file ? { loaded: await loadModelFile(io, file), label: file } : await loadDemo(io);
  const steps = stepCount(loaded, opts);
  const report = opts.report ? new ReportWriter(io, opts.report, label, await reportAssets(io)) : null;
  const writer = opts.out ? await openOutput(io, opts.out) : null;
  let recorder: Recorder | null = null;
  try {
    const { model } = loaded;
    const sim = new Simulation(model, { integrator: opts.integrator, step: opts.step });
    const extra = opts.outputs ? outputColumns(sim, opts.outputs) : null;
    recorder = writer ? new Recorder(model, writer, /\.jsonl$/i.test(writer.path), extra) : null;
    const e0 = sim.energy();
    const contacts = new ContactWatch(sim);
    report?.start(sim, steps, e0, contacts);
    const { wall, warnings } = await simulate(io, sim, steps, opts, { recorder, extra, contacts, report });
    if (writer) await commit(writer);
    const rows = recorder?.rows ?? 0;
    const text = summary({ label, model, sim, steps, wall, e0, e1: sim.energy(), out: opts.out, rows, warnings,
      contacts, report: opts.report });
    await report?.write(text, null);
    if (!opts.quiet) io.stdout(text);
    return 0;
  } catch (e) {
    if (!(e instanceof CliError && e.exitCode === 3)) { await writer?.abort(); throw e; }
    // a run stopped by divergence or instability keeps its rows and its report: they show what
    // led to it, also when they cannot be written (the exit code stays 3)
    const notes = [await keepRows(writer, recorder), await report?.writeFailed(e.message)].filter(Boolean);
    throw new CliError(3, `${e.message}${notes.join('')}`);
  }
}

/** commits a failed run's rows; the note for its message */
async function keepRows(writer: AtomicWriter | null, recorder: Recorder | null): Promise<string> {
  if (!writer) return '';
  try {
    await commit(writer);
    return ` (wrote ${recorder?.rows ?? 0} rows to ${writer.path})`;
  } catch (w) {
    return `; ${messageOf(w)}`;
  }
}

async function commit(writer: AtomicWriter): Promise<void> {
  try {
    await writer.commit();
  } catch (e) {
    throw new CliError(2, `cannot write ${writer.path}: ${messageOf(e)}`);
  }
}

/**
 * Prints the warnings of the simulation (as it raises them) and of the output columns on stderr,
 * and keeps the first instability warning for --strict.
 */
class WarningPrinter {
  count = 0;
  /** the first instability warning (energy growth) */
  instability: SimulationWarning | null = null;
  private extraSeen = 0;
  private readonly listener = (w: SimulationWarning): void => {
    this.print(w.message);
    if (w.kind === 'instability') this.instability ??= w;
  };

  /** prints the warnings raised while the simulation was made, and listens for the rest */
  constructor(
    private readonly sim: Simulation, private readonly extra: OutputColumns | null,
    private readonly progress: Progress,
  ) {
    for (const w of sim.warningLog) this.listener(w);
    sim.on('warning', this.listener);
  }

  /** prints the output columns' new warnings */
  poll(): void {
    const fromExtra = this.extra?.warnings ?? [];
    for (; this.extraSeen < fromExtra.length; this.extraSeen++) this.print(fromExtra[this.extraSeen]!);
  }

  /** stops listening */
  close(): void { this.sim.off('warning', this.listener); }

  private print(text: string): void {
    this.count++;
    this.progress.log(`warning: ${oneLine(text)}`);
  }
}

/** what watches a run's steps: the trajectory, its output columns, the contact records */
interface Watchers {
  recorder: Recorder | null;
  extra: OutputColumns | null;
  contacts: ContactWatch;
  report: ReportWriter | null;
}

/**
 * steps the simulation `steps` times, recording every `opts.every`-th step and the contacts of
 * each; exit-3 errors are CliErrors
 */
async function simulate(
  io: CliIo, sim: Simulation, steps: number, opts: RunOptions, { recorder, extra, contacts, report }: Watchers,
): Promise<{ wall: number; warnings: number }> {
  const now = io.now ?? (() => performance.now());
  const start = now();
  const progress = new Progress(io, steps, start, !opts.quiet);
  const warnings = new WarningPrinter(sim, extra, progress);
  const every = opts.every;
  try {
    recorder?.record(sim, false);
    report?.observe(0);
    warnings.poll();
    for (let i = 1; i <= steps; i++) {
      sim.step();
      contacts.observe();
      report?.observe(i);
      if (recorder && i % every === 0) recorder.record(sim, true);
      warnings.poll();
      if (opts.strict && warnings.instability) {
        throw new CliError(3, `${oneLine(warnings.instability.message)} (--strict)`);
      }
      if (progress.update(i, now(), sim.state.t)) await yieldToEventLoop();
    }
  } catch (e) {
    progress.stop();
    if (e instanceof DivergenceError) throw new CliError(3, e.message);
    throw e;
  } finally {
    warnings.close();
  }
  progress.stop(steps, sim.state.t);
  return { wall: now() - start, warnings: warnings.count };
}
