/**
 * The trajectory of `vinculum run --out`: a row at t = 0 and every k-th step, streamed to an
 * `AtomicWriter` as it is produced (CSV with a header, or JSONL with one object per row: the
 * columns, then the fields of the `--outputs` groups that are not numbers, the contacts' array).
 */
import type { Simulation } from '../src/simulation.js';
import type { Model } from '../src/model/model.js';
import type { AtomicWriter } from './io.js';
import type { OutputColumns } from './outputs.js';
import { CliError, messageOf } from './common.js';

/** a number as JSON writes it: non-finite values are null */
const jsonNumber = (v: number): string => (Number.isFinite(v) ? String(v) : 'null');

/** writes trajectory rows as the run produces them */
export class Recorder {
  /** the column names: `t`, the positions, then the `--outputs` columns */
  readonly columns: string[] = ['t'];
  /** rows written so far */
  rows = 0;
  private readonly slots: number[] = [];   // offsets into State.q, column by column after t
  private readonly keys: string[];         // JSONL: `{"t":`, `,"p.x":`, … (the keys, escaped once)
  private readonly values: number[] = [];

  /** `extra`: the --outputs columns, after the positions */
  constructor(
    model: Model, private readonly writer: AtomicWriter, private readonly jsonl: boolean,
    private readonly extra: OutputColumns | null,
  ) {
    const add = (name: string, offset: number, coordinates: readonly string[]) => {
      for (const [k, s] of coordinates.entries()) {
        this.columns.push(`${name}.${s}`);
        this.slots.push(offset + k);
      }
    };
    for (const p of model.particles) add(p.name, p.qOffset, ['x', 'y', 'z']);
    for (const b of model.bodies) add(b.name, b.qOffset, ['x', 'y', 'z', 'qw', 'qx', 'qy', 'qz']);
    if (extra) this.columns.push(...extra.columns);
    this.keys = this.columns.map((c, i) => `${i === 0 ? '{' : ','}${JSON.stringify(c)}:`);
    if (!jsonl) this.write(`${this.columns.join(',')}\n`);
  }

  /** a failed write (a full disk) is an error naming the file (exit 2) */
  private write(text: string): void {
    try {
      this.writer.write(text);
    } catch (e) {
      throw new CliError(2, `cannot write ${this.writer.path}: ${messageOf(e)}`);
    }
  }

  /** writes a row at the simulation's state; `started`: a step has run */
  record(sim: Simulation, started: boolean): void {
    const t = sim.state.t, q = sim.state.q, values = this.values;
    values.length = 0;
    // t rounded to 12 digits, so 0.1 + 0.2 prints as 0.3
    values.push(Number(t.toPrecision(12)));
    for (const o of this.slots) values.push(q[o]!);
    this.extra?.values(sim, started, values);
    if (this.jsonl) {
      let line = '';
      for (let i = 0; i < values.length; i++) line += this.keys[i]! + jsonNumber(values[i]!);
      // the fields that are not columns (the contacts group's array) close the object
      this.write(`${line}${this.extra?.jsonFields() ?? ''}}\n`);
    } else {
      this.write(`${values.join(',')}\n`);
    }
    this.rows++;
  }
}
