/**
 * `vinculum run`'s streams and checks, in-process: the summary on stdout and warnings on stderr,
 * --quiet, --version, --out checked before the first step (real files), rows streamed while the
 * run goes, progress lines without a terminal, --max-steps, and --strict.
 */
import { describe, it, expect, vi, afterEach } from 'vitest';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliIo } from '../../cli/main.js';
import { nodeIo } from '../../cli/nodeIo.js';
import { Simulation } from '../../src/simulation.js';
import { TEMP_HOST } from '../../node/files.js';
import { fake, memWriter, tiny, divergent, oneErrorLine, errorAfterWarnings, fakeTerminal } from './fake.js';

const fourBar = readFileSync(join(import.meta.dirname ?? '.', '..', '..', 'examples', 'four-bar.json'), 'utf8');
const version = (JSON.parse(readFileSync(join(import.meta.dirname ?? '.', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/** the Node adapter on a temporary folder, with stdout and stderr captured */
function onDisk(): { io: CliIo; dir: string; out: () => string; err: () => string } {
  const dir = mkdtempSync(join(tmpdir(), 'vinculum-run-'));
  const out: string[] = [], err: string[] = [];
  const io: CliIo = { ...nodeIo(), stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); }, isTTY: false };
  return { io, dir, out: () => out.join(''), err: () => err.join('') };
}

afterEach(() => { vi.restoreAllMocks(); });

describe('streams', () => {
  it('--quiet prints no summary; warnings still go to stderr and the output is written', async () => {
    const f = fake({ 'four-bar.json': fourBar });
    expect(await runCli(['run', 'four-bar.json', '--duration', '0.05', '--quiet', '--out', 'o.csv'], f.io)).toBe(0);
    expect(f.out()).toBe('');
    expect(f.err()).toMatch(/^warning: step 1: redundant constraints /);
    expect(f.files.get('o.csv')!.trimEnd().split('\n')).toHaveLength(1 + 11);   // h = 5 ms
    const g = fake({ 'four-bar.json': fourBar });
    expect(await runCli(['run', 'four-bar.json', '--duration', '0.05', '-q'], g.io)).toBe(0);
    expect(g.out()).toBe('');
  });

  it('--version prints the version of package.json on stdout', async () => {
    for (const flag of ['--version', '-V']) {
      const f = fake();
      expect(await runCli([flag], f.io)).toBe(0);
      expect(f.out()).toBe(`${version}\n`);
      expect(f.err()).toBe('');
    }
  });

  it('a long warning is printed whole, on one line', async () => {
    const long = `step 2: ${'a constraint named at length, '.repeat(12)}\nand a second line`;
    const step = Simulation.prototype.step;
    vi.spyOn(Simulation.prototype, 'step').mockImplementation(function (this: Simulation, n?: number) {
      step.call(this, n);
      if (this.state.step === 2) this.warn('fast-turn', long);
    });
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json', '--quiet'], f.io)).toBe(0);
    expect(f.err()).toBe(`warning: ${long.replace(/\s+/g, ' ')}\n`);
    expect(f.err().length).toBeGreaterThan(300);
  });

  it('run --help lists the new flags and the output groups with their columns', async () => {
    const f = fake();
    expect(await runCli(['run', '--help'], f.io)).toBe(0);
    for (const s of ['--quiet', '--strict', '--max-steps <n>', '(default: 1e8)', 'Output groups', '<joint>.fx']) expect(f.out()).toContain(s);
  });
});

describe('--out is checked before the run', () => {
  const cases: [string, (dir: string) => string, RegExp][] = [
    ['a missing folder', (dir) => join(dir, 'missing', 'd.csv'), /no such file or directory/],
    ['a directory', (dir) => { const p = join(dir, 'x.csv'); mkdirSync(p); return p; }, /is a directory/],
    ['a file as a folder', (dir) => { writeFileSync(join(dir, 'f'), ''); return join(dir, 'f', 'd.csv'); }, /a parent is not a directory/],
  ];
  for (const [what, path, re] of cases) {
    it(`${what}: exit 2 with one line, and no step taken`, async () => {
      const d = onDisk();
      try {
        const out = path(d.dir);
        writeFileSync(join(d.dir, 'd.json'), divergent);
        const step = vi.spyOn(Simulation.prototype, 'step');
        // the divergent model would exit 3 if it ran
        expect(await runCli(['run', join(d.dir, 'd.json'), '--out', out], d.io)).toBe(2);
        oneErrorLine(d.err());
        expect(d.err()).toMatch(new RegExp(`^error: cannot write ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${re.source}\\n$`));
        expect(step).not.toHaveBeenCalled();
        expect(d.out()).toBe('');
      } finally {
        rmSync(d.dir, { recursive: true, force: true });
      }
    });
  }

  it('a diverging run on disk keeps its rows and leaves no temporary file', async () => {
    const d = onDisk();
    try {
      writeFileSync(join(d.dir, 'd.json'), divergent);
      writeFileSync(join(d.dir, `.d.csv.${TEMP_HOST}.${process.pid + 1_000_000}.00ff.tmp`), 'stale\n');   // no such process
      expect(await runCli(['run', join(d.dir, 'd.json'), '--out', join(d.dir, 'd.csv')], d.io)).toBe(3);
      const rows = Number(/wrote (\d+) rows/.exec(d.err())![1]);
      expect(readFileSync(join(d.dir, 'd.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(1 + rows);
      expect(readdirSync(d.dir).sort()).toEqual(['d.csv', 'd.json']);
    } finally {
      rmSync(d.dir, { recursive: true, force: true });
    }
  });
});

describe('streaming', () => {
  it('writes each row as it is produced, not at the end', async () => {
    const f = fake({ 'm.json': tiny });
    const written: string[] = [];
    f.io.openAtomic = async (p) => ({ ...memWriter(f.files, p), write: (t) => { written.push(t); } });
    // the clock is read once after every step: by then that step's row has been written
    const seen: number[] = [];
    f.io.now = () => { seen.push(written.length); return 0; };
    expect(await runCli(['run', 'm.json', '--out', 'o.csv'], f.io)).toBe(0);
    expect(written).toHaveLength(1 + 11);   // the header, rows 0 … 10
    // reads: the start (after the header), then after steps 1 … 10, then the end
    expect(seen).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12]);
  });

  it('a write that fails mid-run (a full disk) is exit 2 naming the file, and the temporary file is removed', async () => {
    const f = fake({ 'm.json': tiny });
    let aborted = false, writes = 0;
    f.io.openAtomic = async (p) => ({
      ...memWriter(f.files, p),
      write: () => { if (++writes > 4) throw new Error('no space left on device'); },
      abort: async () => { aborted = true; },
    });
    expect(await runCli(['run', 'm.json', '--out', 'o.csv'], f.io)).toBe(2);
    expect(f.err()).toBe('error: cannot write o.csv: no space left on device\n');
    expect(aborted).toBe(true);
    expect(f.files.has('o.csv')).toBe(false);
  });

  it('JSONL rows are the objects JSON.stringify writes', async () => {
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json', '--out', 'o.jsonl'], f.io)).toBe(0);
    for (const line of f.files.get('o.jsonl')!.trimEnd().split('\n')) expect(JSON.stringify(JSON.parse(line))).toBe(line);
  });
});

describe('progress without a terminal', () => {
  /** a clock that advances `ms` per reading */
  const clock = (ms: number) => { let t = 0; return () => (t += ms); };

  it('prints a line every interval on long runs, none on short ones or with --quiet', async () => {
    const f = fake({ 'm.json': tiny });
    Object.assign(f.io, { now: clock(1000), progressIntervalMs: 5000 });
    expect(await runCli(['run', 'm.json', '--duration', '0.3'], f.io)).toBe(0);
    const lines = f.err().trimEnd().split('\n');
    // the start at 1 s, step i at 1 + i s: lines after steps 5, 10, … 30
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('progress: step 5 of 30 (16%), t = 0.05 s, 5.0 s elapsed, about 25 s left');
    expect(lines[5]).toBe('progress: step 30 of 30 (100%), t = 0.3 s, 30 s elapsed, about 0.0 s left');
    const short = fake({ 'm.json': tiny });
    Object.assign(short.io, { now: clock(1), progressIntervalMs: 5000 });
    expect(await runCli(['run', 'm.json', '--duration', '0.3'], short.io)).toBe(0);
    expect(short.err()).toBe('');
    const quiet = fake({ 'm.json': tiny });
    Object.assign(quiet.io, { now: clock(1000), progressIntervalMs: 5000 });
    expect(await runCli(['run', 'm.json', '--duration', '0.3', '--quiet'], quiet.io)).toBe(0);
    expect(quiet.err()).toBe('');
  });
});

describe('progress on a terminal', () => {
  it('a warning during a run clears the bar\'s line first; --quiet draws no bar', async () => {
    const step = Simulation.prototype.step;
    vi.spyOn(Simulation.prototype, 'step').mockImplementation(function (this: Simulation, n?: number) {
      step.call(this, n);
      if (this.state.step === 300) this.warn('fast-turn', 'step 300: a warning mid-run');
    });
    // a terminal whose clock makes 500 steps look like 2.5 s
    const f = fakeTerminal({ 'm.json': tiny }), drawn = f.drawn;
    expect(await runCli(['run', 'm.json', '--duration', '5'], f.io)).toBe(0);
    expect(drawn.join('')).toContain('simulating');
    expect(f.err()).toBe('\r\x1b[2Kwarning: step 300: a warning mid-run\n');
    const q = fakeTerminal({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json', '--duration', '5', '--quiet'], q.io)).toBe(0);
    expect(q.drawn.join('')).toBe('');
    expect(q.err()).toBe('warning: step 300: a warning mid-run\n');
  });
});

describe('--max-steps', () => {
  const cases: [string, Record<string, unknown>, string[], string][] = [
    ['--duration 1e308', {}, ['--duration', '1e308'],
      'error: --duration / step: 1e+308 s / 0.01 s = Infinity steps, more than the cap of 1e8 (raise it with --max-steps)\n'],
    ['"step": 1e-12', { step: 1e-12, duration: 1000 }, [],
      'error: duration / step: 1000 s / 1e-12 s = 1e15 steps, more than the cap of 1e8 (raise it with --max-steps)\n'],
    ['--step below the cap', {}, ['--step', '1e-4', '--max-steps', '999'],
      'error: duration / --step: 0.1 s / 0.0001 s = 1000 steps, more than the cap of 999 (raise it with --max-steps)\n'],
    ['no duration', { duration: undefined }, ['--max-steps', '10'],
      'error: duration (default) / step: 5 s / 0.01 s = 500 steps, more than the cap of 10 (raise it with --max-steps)\n'],
  ];
  for (const [what, change, argv, message] of cases) {
    it(`${what}: exit 2 before the run, naming the fields`, async () => {
      const f = fake({ 'm.json': JSON.stringify({ ...JSON.parse(tiny), ...change }) });
      const step = vi.spyOn(Simulation.prototype, 'step');
      expect(await runCli(['run', 'm.json', ...argv], f.io)).toBe(2);
      expect(f.err()).toBe(message);
      expect(step).not.toHaveBeenCalled();
    });
  }

  it('a duration far below one step still runs one step', async () => {
    const f = fake({ 'm.json': tiny });
    const step = vi.spyOn(Simulation.prototype, 'step');
    expect(await runCli(['run', 'm.json', '--duration', '1e-12', '--quiet'], f.io)).toBe(0);
    expect(step).toHaveBeenCalledTimes(1);
  });

  it('a run at the cap runs; the flag takes exponent notation and refuses what is not a whole number', async () => {
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json', '--max-steps', '10'], f.io)).toBe(0);
    expect(await runCli(['run', 'm.json', '--max-steps', '1e1'], f.io)).toBe(0);
    for (const bad of ['0', '1.5', 'many', '']) {
      const g = fake({ 'm.json': tiny });
      expect(await runCli(['run', 'm.json', '--max-steps', bad], g.io)).toBe(2);
      oneErrorLine(g.err());
      expect(g.err()).toMatch(/--max-steps.*is invalid\. expected a whole number of steps/);
    }
  });
});

describe('--strict', () => {
  /** steps as usual, and raises an instability warning at step 4 */
  function unstableAtStep4(): void {
    const step = Simulation.prototype.step;
    vi.spyOn(Simulation.prototype, 'step').mockImplementation(function (this: Simulation, n?: number) {
      step.call(this, n);
      if (this.state.step === 4) this.warn('instability', 'instability: step 4: the energy grew by 12 J');
    });
  }

  it('an instability warning is printed; with --strict the run stops with exit 3 and keeps its rows', async () => {
    unstableAtStep4();
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json'], f.io)).toBe(0);
    expect(f.err()).toBe('warning: instability: step 4: the energy grew by 12 J\n');
    expect(f.out()).toMatch(/^warnings {8}1 \(on stderr\)$/m);
    const g = fake({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json', '--strict', '--out', 'o.csv'], g.io)).toBe(3);
    expect(g.err()).toBe('warning: instability: step 4: the energy grew by 12 J\n'
      + 'error: instability: step 4: the energy grew by 12 J (--strict) (wrote 5 rows to o.csv)\n');
    expect(g.files.get('o.csv')!.trimEnd().split('\n')).toHaveLength(1 + 5);
    expect(g.out()).toBe('');
  });

  it('the simulation\'s own instability warning: a growing run exits 0, or 3 with --strict', async () => {
    // 30 steps of the divergent model: its energy grows, short of the blow-up
    const f = fake({ 'd.json': divergent });
    expect(await runCli(['run', 'd.json', '--duration', '0.3'], f.io)).toBe(0);
    const warned = f.err().split('\n').filter((l) => /^warning: .*instability/.test(l));
    expect(warned).toHaveLength(1);
    const g = fake({ 'd.json': divergent });
    expect(await runCli(['run', 'd.json', '--duration', '0.3', '--strict', '--out', 'd.csv'], g.io)).toBe(3);
    const error = errorAfterWarnings(g.err());
    expect(error).toBe(`error: ${warned[0]!.slice('warning: '.length)} (--strict) (wrote ${g.files.get('d.csv')!.trimEnd().split('\n').length - 1} rows to d.csv)\n`);
    expect(g.files.get('d.csv')!.trimEnd().split('\n').length - 1).toBeLessThan(31);
  });

  it('other warnings do not stop a strict run', async () => {
    const f = fake({ 'four-bar.json': fourBar });
    expect(await runCli(['run', 'four-bar.json', '--duration', '0.05', '--strict'], f.io)).toBe(0);
    expect(f.err()).toMatch(/^warning: step 1: redundant constraints /);
  });
});
