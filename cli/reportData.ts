/**
 * What `vinculum run --report` records as the run steps (docs/report.md). The replay: frames of
 * the scene (`SceneSampler`) kept every `frameStride`-th step, so that at most `maxFrames` are
 * kept, MAX_FRAMES or fewer for a large scene (REPLAY_BYTES bounds nq + lines per frame times
 * the frames). The plots: each series kept every `plotStride`-th step (plain stride, no
 * averaging), so that at most MAX_POINTS points are kept; a plot of more than MAX_SERIES series
 * keeps those of the largest peak |value|. The first and the last state are always kept. Strides
 * are fixed from the run's step count before it starts, so memory and the file's size are bounded
 * whatever the run's length. Numbers are stored as 32-bit floats (7 significant digits: far below
 * a pixel at any zoom a scene or plot is drawn at), contacts at most MAX_CONTACTS per frame, all
 * base64-encoded.
 */
import { SceneSampler, CONTACT_STRIDE, describeScene, type SceneDescription } from '../src/index.js';
import type { Simulation } from '../src/simulation.js';
import { outputColumns, WRENCH_COLUMNS, type OutputColumns, type OutputGroup } from '../src/api/outputs.js';

export const MAX_FRAMES = 600;
export const MAX_POINTS = 2000;
export const MAX_CONTACTS = 64;
export const MAX_SERIES = 24;
/** the replay's positions and tensions, bytes (as 32-bit floats, before base64) */
export const REPLAY_BYTES = 3_000_000;
/** the fewest frames a large scene's replay keeps */
export const MIN_FRAMES = 100;

/** one plot of the report: a title, a unit, and its series by name (base64 Float32 values) */
export interface ReportPlot {
  title: string;
  unit: string;
  /** how many series the plot has in all (more than `series` when some were left out) */
  total: number;
  series: { name: string; values: string }[];
}

/** the recorded run, as the report page reads it (JSON) */
export interface ReportRecording {
  scene: SceneDescription;
  /** the replay: times, and base64 Float32 positions (nq per frame), tensions and contacts */
  frames: { t: number[]; q: string; tensions: string; contactCounts: number[]; contacts: string };
  /** the plots' time axis (base64 Float32) and plots */
  plotTimes: string;
  plots: ReportPlot[];
}

/** the stride that keeps at most `max` samples of a run of `steps` steps (plus the last) */
export function strideFor(steps: number, max: number): number {
  return Math.max(1, Math.ceil(steps / Math.max(1, max - 1)));
}

/** the most frames the replay of a scene with `nq` coordinates and `lines` lines keeps */
export function frameBudget(nq: number, lines: number): number {
  return Math.max(MIN_FRAMES, Math.min(MAX_FRAMES, Math.floor(REPLAY_BYTES / (4 * Math.max(1, nq + lines)))));
}

/** the indices of the `max` series of the largest peak |value|, in their order */
export function largestPeaks(series: readonly ArrayLike<number>[], max: number): number[] {
  const peak = series.map((v) => {
    let m = 0;
    for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]!));
    return m;
  });
  const order = series.map((_, i) => i).sort((a, b) => peak[b]! - peak[a]! || a - b);
  return order.slice(0, max).sort((a, b) => a - b);
}

/** base64 of a float array's 32-bit floats */
export function base64Floats(values: ArrayLike<number>): string {
  const bytes = new Uint8Array(Float32Array.from(values).buffer);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** a plot's series, read from one output group's columns */
interface PlotSpec {
  title: string;
  unit: string;
  names: string[];
  columns: OutputColumns;
  read: (row: readonly number[]) => number[];
}

/** the plot of chosen columns of one output group */
function plotOf(
  title: string, unit: string, columns: OutputColumns, keep: (name: string, i: number) => boolean,
): PlotSpec {
  const idx = columns.columns.flatMap((c, i) => (keep(c, i) ? [i] : []));
  const names = idx.map((i) => columns.columns[i]!);
  return { title, unit, columns, names, read: (row) => idx.map((i) => row[i]!) };
}

/** the plots of a run: energies, joint coordinates, constraint forces, spring tensions, contacts */
function plotSpecs(sim: Simulation): PlotSpec[] {
  const group = (g: OutputGroup) => outputColumns(sim, [g]);
  const specs = [plotOf('Energy', 'J', group('energy'), () => true)];
  // a joint's coordinates are the columns that have a rate column beside them
  const joints = group('joints');
  if (joints.columns.length > 0) {
    specs.push(plotOf('Joint coordinates', 'm or rad', joints, (c) => joints.columns.includes(`${c}_rate`)));
  }
  // the forces group gives a wrench per joint (fx, fy, fz, mx, my, mz): the force's magnitude
  const forces = group('forces'), w = WRENCH_COLUMNS.length;
  if (forces.columns.length > 0) {
    const n = forces.columns.length / w;
    specs.push({ title: 'Constraint forces |F|', unit: 'N', columns: forces,
      names: Array.from({ length: n }, (_, k) => forces.columns[w * k]!.slice(0, -'.fx'.length)),
      read: (row) => Array.from({ length: n },
        (_, k) => Math.hypot(row[w * k]!, row[w * k + 1]!, row[w * k + 2]!)),
    });
  }
  const springs = group('springs');
  if (springs.columns.some((c) => c.endsWith('.tension'))) {
    specs.push(plotOf('Spring tensions', 'N', springs, (c) => c.endsWith('.tension')));
  }
  // contacts only where shapes can touch
  if (sim.model.shapes.some((sh) => sh.collide)) {
    specs.push(plotOf('Contacts', 'active', group('contacts'), (c) => c === 'contacts.active'));
  }
  return specs;
}

/** records a run for its report: call `observe` at step 0 and after each step */
export class ReportRecorder {
  readonly frameStride: number;
  readonly plotStride: number;
  private readonly sampler: SceneSampler;
  private readonly scene: SceneDescription;
  private readonly specs: PlotSpec[];
  private readonly row: number[] = [];
  private readonly times: number[] = [];
  private readonly q: number[] = [];
  private readonly tensions: number[] = [];
  private readonly counts: number[] = [];
  private readonly contacts: number[] = [];
  private readonly plotTimes: number[] = [];
  private readonly plotValues: number[][];
  private lastFrame = -1;
  private lastPlot = -1;

  constructor(private readonly sim: Simulation, private readonly steps: number) {
    this.scene = describeScene(sim.model);
    this.frameStride = strideFor(steps, frameBudget(this.scene.q0.length, this.scene.lines.length));
    this.plotStride = strideFor(steps, MAX_POINTS);
    this.sampler = new SceneSampler(sim);
    this.specs = plotSpecs(sim);
    const series = this.specs.reduce((n, s) => n + s.names.length, 0);
    this.plotValues = Array.from({ length: series }, () => []);
  }

  /** records the state after step i (0: the initial state) when a stride or the end falls on it */
  observe(i: number): void {
    const last = i === this.steps;
    if ((i % this.frameStride === 0 || last) && i !== this.lastFrame) { this.frame(); this.lastFrame = i; }
    if ((i % this.plotStride === 0 || last) && i !== this.lastPlot) { this.plot(); this.lastPlot = i; }
  }

  private frame(): void {
    const f = this.sampler.sample(), n = Math.min(MAX_CONTACTS, f.contacts.length / CONTACT_STRIDE);
    this.times.push(f.t);
    for (const v of f.q) this.q.push(v);
    for (const v of f.tensions) this.tensions.push(v);
    this.counts.push(n);
    for (let k = 0; k < n * CONTACT_STRIDE; k++) this.contacts.push(f.contacts[k]!);
  }

  private plot(): void {
    this.plotTimes.push(this.sim.time);
    let k = 0;
    for (const s of this.specs) {
      this.row.length = 0;
      s.columns.values(this.sim, this.sim.stepCount > 0, this.row);
      for (const v of s.read(this.row)) this.plotValues[k++]!.push(v);
    }
  }

  /** the recording so far (a failed run's report shows what led to the failure) */
  recording(): ReportRecording {
    let k = 0;
    const plots = this.specs.map((s) => {
      const values = s.names.map(() => this.plotValues[k++]!);
      const kept = largestPeaks(values, MAX_SERIES);
      return { title: s.title, unit: s.unit, total: s.names.length,
        series: kept.map((i) => ({ name: s.names[i]!, values: base64Floats(values[i]!) })) };
    });
    return {
      scene: this.scene,
      frames: { t: this.times, q: base64Floats(this.q), tensions: base64Floats(this.tensions),
        contactCounts: this.counts, contacts: base64Floats(this.contacts) },
      plotTimes: base64Floats(this.plotTimes),
      plots,
    };
  }
}
