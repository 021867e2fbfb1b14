/**
 * A run's `--report`: records the run (./reportData.ts) and writes the HTML (./report.ts)
 * atomically at the end, or, when a step fails (exit 3), with what was recorded up to the failure,
 * the summary of the steps taken (cli/summary.ts, the same text the command line prints) and the
 * error at the top of the page.
 */
import type { Simulation, Energy } from '../src/simulation.js';
import type { CliIo } from './io.js';
import { CliError, messageOf } from './common.js';
import { ReportRecorder } from './reportData.js';
import { reportHtml, type ReportAssets } from './report.js';
import { packageVersion } from './load.js';
import { summary, type ContactWatch } from './summary.js';
import { oneLine } from '../src/io/messages.js';

/** what a failed run's summary needs that the simulation does not keep */
interface RunStart { sim: Simulation; e0: Energy; contacts: ContactWatch; started: number }

export class ReportWriter {
  private recorder: ReportRecorder | null = null;
  private run: RunStart | null = null;

  constructor(private readonly io: CliIo, readonly path: string, private readonly label: string,
    private readonly assets: ReportAssets) {}

  /** starts recording a run of `steps` steps (before its first step: e0 is the initial energy) */
  start(sim: Simulation, steps: number, e0: Energy, contacts: ContactWatch): void {
    this.run = { sim, e0, contacts, started: this.now() };
    this.recorder = new ReportRecorder(sim, steps);
  }

  /** after step i (0: the initial state) */
  observe(i: number): void { this.recorder?.observe(i); }

  /** writes the report of a finished run; `summary`: the command line's summary text */
  async write(summaryText: string, error: string | null): Promise<void> {
    if (!this.recorder || !this.run) return;
    const { sim, e0 } = this.run;
    const version = await packageVersion(this.io).catch(() => 'unknown');
    const html = reportHtml(this.assets, {
      ...this.recorder.recording(), title: this.label, summary: summaryText.trimEnd().split('\n'),
      energy: { start: e0, end: sim.energy() },
      warnings: sim.warnings.map((w) => oneLine(w)), error, version,
    });
    try {
      await this.io.writeFileAtomic(this.path, html);
    } catch (e) {
      throw new CliError(2, `cannot write ${this.path}: ${messageOf(e)}`);
    }
  }

  /**
   * writes a failed run's report: the summary of the steps it completed and its error on top;
   * the note for the error's message
   */
  async writeFailed(error: string): Promise<string> {
    if (!this.run) return '';
    const { sim, e0, contacts, started } = this.run;
    const steps = sim.stepCount;
    try {
      const text = summary({ label: this.label, model: sim.model, sim, steps, wall: this.now() - started, e0,
        e1: sim.energy(), rows: 0, warnings: sim.warnings.length, contacts, report: this.path });
      await this.write(text, `error: ${oneLine(error)}`);
      return ` (wrote the report to ${this.path})`;
    } catch (e) {
      return `; ${messageOf(e)}`;
    }
  }

  private now(): number { return (this.io.now ?? (() => performance.now()))(); }
}
