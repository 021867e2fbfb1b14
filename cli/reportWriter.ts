/**
 * A run's `--report`: records the run (./reportData.ts) and writes the HTML (./report.ts)
 * atomically at the end, or, when a step fails (exit 3), with what was recorded up to the failure
 * and the error at the top of the page.
 */
import type { Simulation } from '../src/simulation.js';
import type { CliIo } from './io.js';
import { CliError, messageOf } from './common.js';
import { ReportRecorder } from './reportData.js';
import { reportHtml, type ReportAssets } from './report.js';
import { packageVersion } from './load.js';
import { oneLine } from '../src/io/messages.js';

export class ReportWriter {
  private recorder: ReportRecorder | null = null;
  private sim: Simulation | null = null;

  constructor(private readonly io: CliIo, readonly path: string, private readonly label: string,
    private readonly assets: ReportAssets) {}

  /** starts recording a run of `steps` steps */
  start(sim: Simulation, steps: number): void {
    this.sim = sim;
    this.recorder = new ReportRecorder(sim, steps);
  }

  /** after step i (0: the initial state) */
  observe(i: number): void { this.recorder?.observe(i); }

  /** writes the report of a finished run; `summary`: the command line's summary text */
  async write(summary: string, error: string | null): Promise<void> {
    if (!this.recorder || !this.sim) return;
    const version = await packageVersion(this.io).catch(() => 'unknown');
    const html = reportHtml(this.assets, {
      ...this.recorder.recording(), title: this.label, summary: summary.trimEnd().split('\n'),
      warnings: this.sim.warnings.map((w) => oneLine(w)), error, version,
    });
    try {
      await this.io.writeFileAtomic(this.path, html);
    } catch (e) {
      throw new CliError(2, `cannot write ${this.path}: ${messageOf(e)}`);
    }
  }

  /** writes a failed run's report (its error on top); the note for the error's message */
  async writeFailed(error: string): Promise<string> {
    if (!this.sim) return '';
    const t = this.sim.time;
    try {
      await this.write(`model           ${this.label}\nstopped at      t = ${t} s, step ${this.sim.stepCount}`, `error: ${oneLine(error)}`);
      return ` (wrote the report to ${this.path})`;
    } catch (e) {
      return `; ${messageOf(e)}`;
    }
  }
}
