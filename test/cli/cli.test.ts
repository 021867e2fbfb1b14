/**
 * The command line, in-process: `runCli` with a fake I/O object (in-memory files, captured
 * stdout/stderr). Runs with CSV and JSONL output, joint coordinate and reaction columns
 * (--outputs), validate/info/schema, the exit codes of bad flags (2), bad models (2),
 * divergence (3) and internal errors (1), and the default demo. The Node adapter's atomic
 * write is checked on a temporary folder.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../cli/main.js';
import { writeTextFileAtomic, readTextFile } from '../../node/files.js';
import { modelJsonSchema } from '../../src/io/jsonSchema.js';
import { fake, memWriter, tiny, divergent, hingePendulum, hanging, csv, oneErrorLine, errorAfterWarnings, fakeTerminal } from './fake.js';

describe('vinculum run', () => {
  it('writes a CSV trajectory every k steps, including t = 0', async () => {
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json', '--out', 'out.csv', '--every', '2'], f.io)).toBe(0);
    const lines = f.files.get('out.csv')!.trimEnd().split('\n');
    expect(lines[0]).toBe('t,p.x,p.y,p.z,anchor.x,anchor.y,anchor.z,b.x,b.y,b.z,b.qw,b.qx,b.qy,b.qz');
    expect(lines).toHaveLength(1 + 6);   // header + steps 0, 2, 4, 6, 8, 10
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([0, 0.02, 0.04, 0.06, 0.08, 0.1]);
    expect(lines[1]).toBe('0,1,0,0,0,0,0,0,0,-1,1,0,0,0');
    expect(lines.every((l) => l.split(',').length === 14)).toBe(true);
    expect(f.err()).toBe('');
    const out = f.out();
    for (const s of ['steps           10', 'simulated time  0.1 s', 'integrator      implicit-euler, h = 0.01 s', 'ms/step', '  start', '  end', 'output          out.csv (6 rows)']) {
      expect(out).toContain(s);
    }
  });

  it('writes JSONL with the same keys, and honours --duration, --step and --integrator', async () => {
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['run', 'm.json', '--out', 'out.jsonl', '--duration', '0.05', '--step', '0.005', '--integrator', 'trapezoidal'], f.io)).toBe(0);
    const rows = f.files.get('out.jsonl')!.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, number>);
    expect(rows).toHaveLength(11);
    expect(Object.keys(rows[0]!)).toEqual(['t', 'p.x', 'p.y', 'p.z', 'anchor.x', 'anchor.y', 'anchor.z', 'b.x', 'b.y', 'b.z', 'b.qw', 'b.qx', 'b.qy', 'b.qz']);
    expect(rows[10]!.t).toBe(0.05);
    expect(rows[10]!['p.z']).toBeLessThan(0);   // it fell under gravity
    expect(f.out()).toContain('integrator      trapezoidal, h = 0.005 s');
  });

  it('runs the default demo without a model', async () => {
    const f = fake();
    expect(await runCli(['run', '--duration', '0.05'], f.io)).toBe(0);
    expect(f.out()).toContain('default demo (examples/default-demo.json): 256 particles, 0 bodies, 762 DOF');
    expect(f.out()).toContain('steps           5');
    expect(f.out()).toContain('integrator      implicit-euler, h = 0.01 s');
  });

  it('draws a progress bar on a terminal when the run looks long, and not otherwise', async () => {
    // a terminal whose clock makes 500 steps look like 2.5 s
    const f = fakeTerminal({ 'm.json': tiny }), drawn = f.drawn;
    expect(await runCli(['run', 'm.json', '--duration', '5'], f.io)).toBe(0);
    expect(drawn.join('')).toContain('simulating');
    expect(f.out()).toContain('steps           500');
    // a short run, or stderr not a terminal: no bar
    drawn.length = 0;
    expect(await runCli(['run', 'm.json', '--duration', '0.5'], f.io)).toBe(0);
    f.io.isTTY = false;
    expect(await runCli(['run', 'm.json', '--duration', '5'], f.io)).toBe(0);
    expect(drawn.join('')).toBe('');
  });

  it('stops a divergent run with exit code 3, naming the step and the component, and keeps the rows so far', async () => {
    const f = fake({ 'd.json': divergent });
    expect(await runCli(['run', 'd.json', '--out', 'd.csv'], f.io)).toBe(3);
    const err = errorAfterWarnings(f.err());
    const m = /^error: diverged at step (\d+) \(t = [^)]+ s\): particle "x": .+ \(wrote (\d+) rows to d\.csv\)$/.exec(err.trimEnd());
    expect(m).not.toBeNull();
    const step = Number(m![1]);
    expect(step).toBeGreaterThan(1);
    expect(Number(m![2])).toBe(step);   // rows for steps 0 … step−1
    expect(f.files.get('d.csv')!.trimEnd().split('\n')).toHaveLength(1 + step);
    expect(f.out()).toBe('');
  });
});

describe('vinculum run with joints', () => {
  it('--outputs joints,forces appends the hinge angle, its rate and the reaction wrench', async () => {
    const f = fake({ 'h.json': hingePendulum });
    expect(await runCli(['run', 'h.json', '--out', 'h.csv', '--outputs', 'joints,forces'], f.io)).toBe(0);
    const { header, rows } = csv(f.files.get('h.csv')!);
    expect(header.join(',')).toBe('t,bar.x,bar.y,bar.z,bar.qw,bar.qx,bar.qy,bar.qz,h.rz,h.rz_rate,h.fx,h.fy,h.fz,h.mx,h.my,h.mz');
    expect(rows).toHaveLength(1 + 40);
    const rz = header.indexOf('h.rz'), rate = header.indexOf('h.rz_rate');
    // t = 0: angle 0, at rest, no multipliers yet
    expect(rows[0]!.slice(rz)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    // the bar falls about +y (x toward −z is positive about y): the angle grows
    const angles = rows.map((r) => r[rz]!);
    for (let i = 1; i < angles.length; i++) expect(angles[i]!).toBeGreaterThan(angles[i - 1]!);
    expect(angles[40]).toBeGreaterThan(0.1);
    // implicit Euler: θ_k ≈ θ_{k−1} + h θ̇_k (up to the projection), so the rate column is the backward difference of the angle column
    const h = 0.005;
    for (const k of [10, 20, 40]) {
      const diff = (angles[k]! - angles[k - 1]!) / h;
      expect(Math.abs(rows[k]![rate]! - diff)).toBeLessThan(1e-3 * diff);
    }
    // the angle is the bar's rotation about y: its quaternion is (cos rz/2, 0, sin rz/2, 0)
    expect(rows[40]![header.indexOf('bar.qy')]!).toBeCloseTo(Math.sin(angles[40]! / 2), 9);
    expect(f.out()).toMatch(/constraints     largest violation at the end \d\.\d\de-\d+ \(m or rad\), joint "h"/);
    expect(f.out()).toMatch(/^ {16}largest during the run \d\.\d\de-\d+ \(m or rad\) after step \d+, joint "h"$/m);
    // a model with a body: the fastest turn in one step
    expect(f.out()).toMatch(/^rotation {8}fastest turn \d\.\d{3} rad in one step \(h\|ω\|\), body "bar" after step \d+$/m);
    // all: the velocities before them, the energies after
    const g = fake({ 'h.json': hingePendulum });
    expect(await runCli(['run', 'h.json', '--out', 'h.jsonl', '--outputs', 'all'], g.io)).toBe(0);
    expect(Object.keys(JSON.parse(g.files.get('h.jsonl')!.split('\n')[0]!) as object)).toEqual([
      ...header.slice(0, 8), 'bar.vx', 'bar.vy', 'bar.vz', 'bar.wx', 'bar.wy', 'bar.wz', ...header.slice(8),
      'energy.kinetic', 'energy.potential', 'energy.total', 'contacts.active', 'contacts.residual', 'contacts',
    ]);
  });

  it('reports the reaction on side A: the world under a hanging body feels −m g, the body +m g', async () => {
    // the ball joint holds the 2 kg box up against gravity: the constraint force on the box is
    // +m g ẑ. With bodyA "world", side A is the world, and the force on it is the reaction: the
    // box pulls the world down, fz = −m g = −19.62 N. With the sides swapped, side A is the box:
    // fz = +m g. The force passes through the anchor (a ball joint carries no torque): m ≈ 0.
    for (const [sides, fz] of [[{ bodyA: 'world', bodyB: 'B' }, -2 * 9.81], [{ bodyA: 'B', bodyB: 'world' }, 2 * 9.81]] as const) {
      const f = fake({ 'b.json': hanging(sides) });
      expect(await runCli(['run', 'b.json', '--out', 'b.csv', '--outputs', 'forces'], f.io)).toBe(0);
      const { header, rows } = csv(f.files.get('b.csv')!);
      expect(header.slice(8)).toEqual(['j.fx', 'j.fy', 'j.fz', 'j.mx', 'j.my', 'j.mz']);
      const last = rows[rows.length - 1]!;
      expect(last[header.indexOf('j.fz')]!).toBeCloseTo(fz, 6);
      for (const k of ['j.fx', 'j.fy', 'j.mx', 'j.my', 'j.mz']) expect(Math.abs(last[header.indexOf(k)]!)).toBeLessThan(1e-9);
      expect(rows[0]!.slice(8)).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });

  it('prints the redundant-constraint warning of the four-bar example, one line each', async () => {
    const fourBar = readFileSync(join(import.meta.dirname ?? '.', '..', '..', 'examples', 'four-bar.json'), 'utf8');
    const f = fake({ 'four-bar.json': fourBar });
    expect(await runCli(['run', 'four-bar.json', '--duration', '0.1'], f.io)).toBe(0);
    const out = f.out();
    expect(out).toContain('3 bodies, 18 DOF, 4 joints (20 constraint rows)');
    // the warning goes to stderr; the summary counts it
    expect(f.err()).toMatch(/^warning: step 1: redundant constraints "[A-D]"(, "[A-D]")*: regularized with R = \S+\n$/);
    expect(out).not.toContain('warning:');
    expect(out).toMatch(/^warnings {8}1 \(on stderr\)$/m);
    expect(out).toMatch(/^constraints     largest violation at the end /m);
  });
});

describe('vinculum validate, info, schema', () => {
  it('validate prints the component and DOF counts', async () => {
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['validate', 'm.json'], f.io)).toBe(0);
    expect(f.out()).toBe('ok: 3 components, 9 DOF, 0 constraint rows\n');
    const g = fake({ 'h.json': hingePendulum });
    expect(await runCli(['validate', 'h.json'], g.io)).toBe(0);
    expect(g.out()).toBe('ok: 1 components, 6 DOF, 5 constraint rows\n');
  });

  it('info lists the joints and the stabilization method', async () => {
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['info', 'm.json'], f.io)).toBe(0);
    expect(f.out()).toContain('joints          0\n');
    expect(f.out()).toContain('stabilization   projection\n');
    const model = JSON.parse(hingePendulum) as Record<string, unknown>;
    const g = fake({ 'h.json': JSON.stringify({ ...model, stabilization: { method: 'spook', relaxation: 3 } }) });
    expect(await runCli(['info', 'h.json'], g.io)).toBe(0);
    for (const s of ['joints          1 (5 constraint rows)', '  hinge "h": world – bar, 5 rows', 'stabilization   spook (relaxation 3 steps, compliance 1e-10)']) {
      expect(g.out()).toContain(s);
    }
    const v = fake({ 'v.json': JSON.stringify({ ...model, stabilization: { method: 'projection', velocityMetric: 'mass' } }) });
    expect(await runCli(['info', 'v.json'], v.io)).toBe(0);
    expect(v.out()).toContain('stabilization   projection (velocities mass-weighted)\n');
    const w = fake({ 'w.json': JSON.stringify({ ...model, stabilization: { method: 'projection', positionMetric: 'mass', velocityMetric: 'mass' } }) });
    expect(await runCli(['info', 'w.json'], w.io)).toBe(0);
    expect(w.out()).toContain('stabilization   projection (positions and velocities mass-weighted)\n');
  });

  it('info describes the model', async () => {
    const f = fake({ 'm.json': tiny });
    expect(await runCli(['info', 'm.json'], f.io)).toBe(0);
    const out = f.out();
    for (const s of ['DOF             9', 'particles       2: p, anchor (fixed)', 'bodies          1: b', 'markers         0', 'forces          2',
      'axial-spring "s": anchor – p', 'frame-spring "k": world – b', 'integrator      implicit-euler', 'step            0.01 s', 'duration        0.1 s']) {
      expect(out).toContain(s);
    }
  });

  it('schema prints the JSON Schema or writes it', async () => {
    const f = fake();
    expect(await runCli(['schema'], f.io)).toBe(0);
    expect(JSON.parse(f.out())).toEqual(modelJsonSchema());
    expect(await runCli(['schema', '--out', 'model.schema.json'], f.io)).toBe(0);
    expect(JSON.parse(f.files.get('model.schema.json')!)).toEqual(modelJsonSchema());
  });
});

describe('errors', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown option', ['run', 'm.json', '--speed', '2'], /unknown option '--speed'/],
    ['misspelt option', ['run', 'm.json', '--durration', '2'], /unknown option '--durration' \(Did you mean --duration\?\)/],
    ['non-numeric duration', ['run', 'm.json', '--duration', 'abc'], /--duration.*'abc' is invalid/],
    ['zero step', ['run', 'm.json', '--step', '0'], /--step.*'0' is invalid. expected a positive number/],
    ['negative duration', ['run', 'm.json', '--duration', '-1'], /--duration.*'-1' is invalid/],
    ['fractional every', ['run', 'm.json', '--every', '1.5'], /--every.*'1.5' is invalid. expected a positive integer/],
    ['zero every', ['run', 'm.json', '--every', '0'], /--every.*is invalid/],
    ['unknown integrator', ['run', 'm.json', '--integrator', 'euler'], /--integrator.*'euler' is invalid. Allowed choices are symplectic-euler/],
    ['unknown output extension', ['run', 'm.json', '--out', 'x.txt'], /--out.*unknown output extension; use .csv or .jsonl/],
    ['unknown command', ['simulate'], /unknown command 'simulate'/],
    ['missing model', ['validate'], /missing required argument 'model'/],
    ['too many arguments', ['run', 'a.json', 'b.json'], /too many arguments/],
    ['missing file', ['validate', 'nope.json'], /^error: cannot read nope\.json: /],
    ['unknown output group', ['run', 'm.json', '--out', 'x.csv', '--outputs', 'joints,torques'], /--outputs.*unknown output "torques"; use a comma list of velocities, markers, joints, forces, springs, energy, contacts, or all/],
    ['empty output group', ['run', 'm.json', '--out', 'x.csv', '--outputs', 'joints,'], /--outputs.*unknown output ""/],
    ['outputs without out', ['run', 'm.json', '--outputs', 'all'], /^error: --outputs adds trajectory columns: it needs --out\n$/],
  ];
  for (const [what, argv, re] of cases) {
    it(`${what}: exit 2 with one line`, async () => {
      const f = fake({ 'm.json': tiny });
      expect(await runCli(argv, f.io)).toBe(2);
      oneErrorLine(f.err());
      expect(f.err()).toMatch(re);
      expect(f.out()).toBe('');
    });
  }

  it('a bad model: exit 2 with one line naming the file and the path', async () => {
    const bad = JSON.stringify({ version: 1, bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1, 2, 0, 0] }] });
    for (const cmd of ['run', 'validate', 'info']) {
      const f = fake({ 'bad.json': bad });
      expect(await runCli([cmd, 'bad.json'], f.io)).toBe(2);
      oneErrorLine(f.err());
      expect(f.err()).toBe('error: bad.json: bodies[0].inertia: inertia [1,1,1,2,0,0] is not positive definite\n');
    }
    const f = fake({ 'x.json': '{"version": 1, "step": }' });
    expect(await runCli(['validate', 'x.json'], f.io)).toBe(2);
    expect(f.err()).toBe('error: x.json: not valid JSON: line 1, column 24: unexpected "}"\n');
  });

  it('an unexpected internal error: exit 1 with one line', async () => {
    const f = fake({ 'm.json': tiny });
    f.io.stdout = () => { throw new Error('stdout closed\nunexpectedly'); };
    expect(await runCli(['validate', 'm.json'], f.io)).toBe(1);
    expect(f.err()).toBe('error: internal error: stdout closed unexpectedly\n');
  });

  it('help exits 0; no command prints the usage and exits 2', async () => {
    const f = fake();
    expect(await runCli(['--help'], f.io)).toBe(0);
    expect(f.out()).toContain('Usage: vinculum');
    const h = fake();
    expect(await runCli(['help', 'run'], h.io)).toBe(0);
    expect(h.out()).toContain('--integrator <name>');
    const g = fake();
    expect(await runCli([], g.io)).toBe(2);
    expect(g.err()).toContain('Usage: vinculum');
  });
});

describe('node I/O adapter', () => {
  it('writes atomically and reports read errors briefly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vinculum-cli-'));
    try {
      const path = join(dir, 'out.csv');
      await writeTextFileAtomic(path, 'a\n');
      await writeTextFileAtomic(path, 'b\n');
      expect(readFileSync(path, 'utf8')).toBe('b\n');
      expect(readdirSync(dir)).toEqual(['out.csv']);   // no temporary files left
      await expect(writeTextFileAtomic(join(dir, 'missing', 'x.csv'), 'c')).rejects.toThrow('no such file or directory');
      expect(await readTextFile(path)).toBe('b\n');
      await expect(readTextFile(join(dir, 'nope.json'))).rejects.toThrow(/^no such file or directory$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // regression (review): an output that could not be written turned a divergence into exit 2 and hid its message
  it('reports a divergence with exit code 3 also when the rows cannot be committed', async () => {
    const f = fake({ 'd.json': divergent });
    f.io.openAtomic = async (p) => ({ ...memWriter(f.files, p), commit: async () => { throw new Error('no space left on device'); } });
    expect(await runCli(['run', 'd.json', '--out', 'd.csv'], f.io)).toBe(3);
    expect(errorAfterWarnings(f.err())).toMatch(/^error: diverged at step \d+ \(t = [^)]+ s\): particle "x": .*; cannot write d\.csv: no space left on device\n$/);
  });

  it('reports projections that stopped above their tolerance in the summary', async () => {
    // two distance constraints no position can satisfy: p 1 m from the origin and 1 m from (3, 0, 0)
    const f = fake({ 'c.json': JSON.stringify({
      version: 1, gravity: [0, 0, -9.81], integrator: 'implicit-euler', step: 0.01, duration: 0.1,
      particles: [{ name: 'p', mass: 1, position: [1, 0, 0] }],
      joints: [
        { type: 'distance', name: 'near', points: [['world', [0, 0, 0]], 'p'] },
        { type: 'distance', name: 'far', points: [['world', [3, 0, 0]], 'p'], length: 1 },
      ],
    }) });
    expect(await runCli(['run', 'c.json'], f.io)).toBe(0);
    expect(f.out()).toMatch(/^projection {6}10 projections stopped above their tolerance \(1e-12 m or rad, 1e-13 in velocity\)$/m);
  });

  it('the cloth example under symplectic Euler at 10 ms diverges with exit code 3, not hidden', async () => {
    const cloth = readFileSync(join(import.meta.dirname ?? '.', '..', '..', 'examples', 'cloth.json'), 'utf8');
    const f = fake({ 'cloth.json': cloth });
    expect(await runCli(['run', 'cloth.json', '--integrator', 'symplectic-euler', '--duration', '3'], f.io)).toBe(3);
    expect(errorAfterWarnings(f.err())).toMatch(/^error: diverged at step \d+ \(t = [^)]+ s\): particle "p\d+_\d+": /);
    // and under its own integrator (implicit Euler) it completes
    const g = fake({ 'cloth.json': cloth });
    expect(await runCli(['run', 'cloth.json', '--duration', '1'], g.io)).toBe(0);
  });
});
