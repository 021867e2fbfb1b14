/**
 * Progress of `vinculum run` on stderr: a bar on a terminal when the run looks longer than about
 * a second, and otherwise (CI logs, pipes) a line every few seconds once the run has lasted that
 * long. Warnings printed during a run go through `log`, which keeps the bar intact.
 */
import { SingleBar } from 'cli-progress';
import type { CliIo } from './io.js';
import { fmt } from './common.js';

/** the progress bar appears when a run is expected to take longer than this (ms) */
const BAR_THRESHOLD_MS = 1000;
/** steps excluded from the estimate (slow while the JIT compiles) */
const WARMUP_STEPS = 20;
/** default ms between progress lines when stderr is not a terminal */
export const PROGRESS_INTERVAL_MS = 5000;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** resolves on the next turn of the event loop, after pending I/O (a redrawn bar) */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => { setTimeout(resolve, 0); });

/** the progress of a run of `total` steps */
export class Progress {
  private bar: SingleBar | null = null;
  private decided = false;
  private lastDraw: number;
  private warm: number;
  private nextLine: number;
  private readonly interval: number;

  /** `enabled`: false under --quiet (no bar, no lines; `log` still prints) */
  constructor(
    private readonly io: CliIo, private readonly total: number, private readonly start: number,
    private readonly enabled: boolean,
  ) {
    this.lastDraw = start;
    this.warm = start;
    this.interval = io.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
    this.nextLine = start + this.interval;
  }

  /**
   * Called after step `i` at wall time `now` with the simulated time `t`. Returns true after a
   * redraw of the bar (about ten times a second): the caller then yields to the event loop
   * (`yieldToEventLoop`) so that the stream can drain. Synchronous, so that the steps between
   * redraws cost no promise each.
   */
  update(i: number, now: number, t: number): boolean {
    if (!this.enabled) return false;
    if (i === WARMUP_STEPS) this.warm = now;
    if (!this.io.isTTY) {
      if (now >= this.nextLine) {
        this.nextLine = now + this.interval;
        const percent = Math.floor((100 * i) / this.total);
        this.io.stderr(`progress: step ${i} of ${this.total} (${percent}%), t = ${fmt(t)} s, `
          + `${seconds(now - this.start)} elapsed, about ${seconds(this.eta(i, now))} left\n`);
      }
      return false;
    }
    // after the first steps: draw a bar if the run looks longer than the threshold
    if (!this.decided && now - this.start > 250) {
      this.decided = true;
      if (this.io.progressStream && now - this.start + this.eta(i, now) > BAR_THRESHOLD_MS) {
        this.bar = new SingleBar({
          stream: this.io.progressStream, hideCursor: true, clearOnComplete: true, barsize: 30,
          format: 'simulating {bar} {percentage}% | t = {sim} s | eta {eta_formatted}',
        });
        this.bar.start(this.total, i, { sim: fmt(t) });
      }
    }
    if (this.bar && now - this.lastDraw > 100) {
      this.lastDraw = now;
      this.bar.update(i, { sim: fmt(t) });
      return true;
    }
    return false;
  }

  /** ms left, from the rate past the warm-up steps */
  private eta(i: number, now: number): number {
    const rate = i > WARMUP_STEPS ? (now - this.warm) / (i - WARMUP_STEPS) : (now - this.start) / i;
    return rate * (this.total - i);
  }

  /** prints a line on stderr; over a bar, it clears the bar's line first (the bar redraws below) */
  log(line: string): void {
    this.io.stderr(this.bar ? `\r\x1b[2K${line}\n` : `${line}\n`);
  }

  /** removes the bar (at the end of the run, or before an error is reported) */
  stop(i?: number, t?: number): void {
    if (this.bar && i !== undefined) this.bar.update(i, { sim: fmt(t ?? 0) });
    this.bar?.stop();
    this.bar = null;
  }
}
