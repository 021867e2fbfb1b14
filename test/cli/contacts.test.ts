/**
 * `vinculum run --outputs contacts` and the summary's contact lines: the CSV columns
 * (contacts.active, contacts.residual) against the simulation's own readouts, the JSONL
 * `contacts` array against `Simulation.contacts()`, "active" as a normal force above zero (a
 * contact known within the margin but not pressed is not), the forces in N (a resting ball's
 * normal force is m g, not the impulse m g h), and `ContactWatch`'s records against a step-by-step
 * reference. The last test runs the command on a model file with a world plane; it waits for the
 * loader to read `world`.
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { parseModel } from '../../src/io/loader.js';
import { runCli } from '../../cli/main.js';
import { outputColumns, parseOutputs, OUTPUT_GROUPS } from '../../cli/outputs.js';
import { Recorder } from '../../cli/recorder.js';
import { summary, ContactWatch } from '../../cli/summary.js';
import { withContacts, plane, shapeOf, material } from '../helpers/contactModel.js';
import { fake, memWriter, csv } from './fake.js';

const g = 9.81, r = 0.1, m = 2;

/** a ball of mass m and radius r whose lowest point is `height` above the plane z = 0 */
function ball(height: number, contact: object = { solver: 'pivoting' }, step = 0.01): Simulation {
  return new Simulation(withContacts({
    version: 1, step, gravity: [0, 0, -g],
    bodies: [{ name: 'ball', mass: m, shape: { type: 'sphere', radius: r }, position: [0, 0, r + height] }],
  }, { contact, shapes: [plane(), { ...shapeOf(0, 'sphere', [r], material(0.5)), name: 'body:ball' }] }));
}

/** the values and the JSONL fields of the contacts group at the simulation's state */
function read(sim: Simulation, started: boolean): { values: number[]; json: string } {
  const cols = outputColumns(sim, ['contacts']), values: number[] = [];
  cols.values(sim, started, values);
  return { values, json: cols.jsonFields() };
}

describe('--outputs contacts', () => {
  it('is a group of its own, last in `all`', () => {
    expect(parseOutputs('contacts')).toEqual(['contacts']);
    expect(parseOutputs('contacts,velocities')).toEqual(['velocities', 'contacts']);
    expect(parseOutputs('all')).toEqual([...OUTPUT_GROUPS]);
    expect(OUTPUT_GROUPS[OUTPUT_GROUPS.length - 1]).toBe('contacts');
  });

  it('a resting ball: one active contact, the solve\'s residual, and its normal force m g in N', () => {
    const sim = ball(0);
    expect(outputColumns(sim, ['contacts']).columns).toEqual(['contacts.active', 'contacts.residual']);
    // before the first step: no contacts, no solve
    expect(read(sim, false)).toEqual({ values: [0, 0], json: ',"contacts":[]' });
    sim.step(100);
    const { values, json } = read(sim, true), solve = sim.contactSolve!;
    expect(values).toEqual([1, solve.residual]);
    expect(solve.residual).toBeLessThan(1e-10);
    // the array carries each report's fields in a fixed order, numbers in full precision
    const list = JSON.parse(json.slice(',"contacts":'.length)) as Record<string, unknown>[];
    const [c] = sim.contacts();
    expect(list).toHaveLength(1);
    expect(Object.keys(list[0]!)).toEqual([
      'shapeA', 'shapeB', 'featureA', 'featureB', 'point', 'normal', 'gap', 'normalForce', 'frictionForce',
    ]);
    expect(list[0]).toEqual({ ...c });
    expect(list[0]!.shapeB).toBe('body:ball');
    // at rest the plane carries the weight: m g in N (the impulse over the step would be m g h)
    expect(Math.abs(c!.normalForce / (m * g) - 1)).toBeLessThan(1e-6);
    expect(c!.normal).toEqual([0, 0, 1]);
  });

  it('a contact within the margin but not touching is listed and not active', () => {
    // 5 mm above the plane, inside the 10 mm detection margin, at rest: the row is known, not pressed
    const sim = ball(0.005, { solver: 'pivoting' }, 1e-3);
    sim.step();
    const { values, json } = read(sim, true);
    const list = JSON.parse(json.slice(',"contacts":'.length)) as { gap: number; normalForce: number }[];
    expect(list).toHaveLength(1);
    expect(list[0]!.gap).toBeCloseTo(0.005, 12);
    expect(list[0]!.normalForce).toBe(0);
    expect(values).toEqual([0, sim.contactSolve!.residual]);
  });

  it('a ball above the margin: no contacts and a residual of 0', () => {
    const sim = ball(1);
    sim.step();
    expect(sim.contactSolve).toBeNull();
    expect(read(sim, true)).toEqual({ values: [0, 0], json: ',"contacts":[]' });
  });

  it('the recorder: JSONL rows end with the contacts array, CSV rows have the two columns only', async () => {
    for (const jsonl of [true, false]) {
      const files = new Map<string, string>(), sim = ball(0.3);
      const extra = outputColumns(sim, ['contacts']), path = jsonl ? 'o.jsonl' : 'o.csv';
      const writer = memWriter(files, path), rec = new Recorder(sim.model, writer, jsonl, extra);
      const expected: { active: number; residual: number; list: string }[] = [];
      rec.record(sim, false);
      expected.push({ active: 0, residual: 0, list: '[]' });
      // the ball falls 0.3 m in about 0.25 s, then rests
      for (let k = 0; k < 50; k++) {
        sim.step();
        rec.record(sim, true);
        const list = sim.contacts();
        const active = list.filter((c) => c.normalForce > 0).length;
        expected.push({ active, residual: sim.contactSolve?.residual ?? 0, list: JSON.stringify(list) });
      }
      await writer.commit();
      const text = files.get(path)!;
      expect(expected.some((e) => e.active === 1) && expected.some((e, k) => k > 0 && e.active === 0)).toBe(true);
      if (!jsonl) {
        const { header, rows } = csv(text);
        expect(header.slice(-3)).toEqual(['ball.qz', 'contacts.active', 'contacts.residual']);
        rows.forEach((row, k) => expect(row.slice(-2)).toEqual([expected[k]!.active, expected[k]!.residual]));
        continue;
      }
      const rows = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(rows).toHaveLength(51);
      rows.forEach((row, k) => {
        expect(Object.keys(row).slice(-3)).toEqual(['contacts.active', 'contacts.residual', 'contacts']);
        expect([row['contacts.active'], row['contacts.residual']]).toEqual([expected[k]!.active, expected[k]!.residual]);
        expect(JSON.stringify(row.contacts)).toBe(expected[k]!.list);
      });
    }
  });
});

/** the records ContactWatch must keep, taken step by step from the simulation's readouts */
function reference(sim: Simulation, steps: number, watch: ContactWatch) {
  const ref = {
    activeSteps: 0, active: 0, activeStep: 0, pen: 0, penStep: 0,
    iterations: 0, bounds: 0, residual: -1, residualStep: 0, solved: 0,
  };
  for (let k = 1; k <= steps; k++) {
    sim.step();
    watch.observe();
    const list = sim.contacts(), s = sim.contactSolve;
    const active = list.filter((c) => c.normalForce > 0).length;
    if (active > 0) ref.activeSteps++;
    if (active > ref.active) { ref.active = active; ref.activeStep = k; }
    for (const c of list) if (-c.gap > ref.pen) { ref.pen = -c.gap; ref.penStep = k; }
    if (!s) continue;
    ref.solved++;
    ref.iterations = Math.max(ref.iterations, s.iterations);
    ref.bounds = Math.max(ref.bounds, s.boundIterations);
    if (s.residual > ref.residual) { ref.residual = s.residual; ref.residualStep = k; }
  }
  return ref;
}

describe('the summary\'s contact lines', () => {
  for (const [solver, unit] of [['pivoting', 'pivot'], ['pgs', 'sweep']] as const) {
    it(`${solver}: steps with contacts, most active, largest penetration, most ${unit}s, worst residual`, () => {
      // the ball starts 2 mm into the plane: the largest penetration is that, at the start of step 1
      const sim = ball(-0.002, { solver }), watch = new ContactWatch(sim);
      expect(watch.applies).toBe(true);
      const ref = reference(sim, 60, watch);
      expect(ref.penStep).toBe(1);
      expect(ref.pen).toBeCloseTo(0.002, 15);
      expect(ref.activeSteps).toBeGreaterThan(50);
      const units = `${unit}${ref.iterations === 1 ? '' : 's'}`;
      const bounds = ref.bounds > 1 ? `, ${ref.bounds} friction-bound iterations` : '';
      expect(watch.lines()).toEqual([
        `contacts        active in ${ref.activeSteps} of 60 steps, at most 1 at once (step ${ref.activeStep})`,
        '                largest penetration 2.00e-3 m at the start of step 1, between world.shapes[0] and body:ball',
        `contact solver  ${solver} in ${ref.solved} steps, at most ${ref.iterations} ${units}${bounds}, `
          + `worst complementarity residual ${ref.residual.toExponential(2)} in step ${ref.residualStep}`,
      ]);
    });
  }

  it('counts the solves that ended unsolved, by status', () => {
    // a box on the plane by its four vertices, with pgs held to one sweep at a tight tolerance
    const sim = new Simulation(withContacts({
      version: 1, step: 0.01, gravity: [0, 0, -g],
      bodies: [{
        name: 'box', mass: 1, shape: { type: 'box', size: [0.2, 0.2, 0.2] }, position: [0, 0, 0.1], velocity: [1, 0.5, 0],
      }],
    }, {
      contact: { solver: 'pgs', iterations: 1, tolerance: 1e-14 },
      shapes: [plane(), shapeOf(0, 'box', [0.1, 0.1, 0.1])],
    }));
    const watch = new ContactWatch(sim);
    let unsolved = 0, last = 0;
    for (let k = 1; k <= 20; k++) {
      sim.step();
      watch.observe();
      if (sim.contactSolve && sim.contactSolve.status !== 'solved') { unsolved++; last = k; }
      expect(sim.contactSolve?.status ?? 'iteration-limit').toBe('iteration-limit');
    }
    expect(unsolved).toBeGreaterThan(0);
    expect(watch.lines()[watch.lines().length - 1])
      .toBe(`                ${unsolved} solves ended unsolved (${unsolved} iteration-limit), the last in step ${last}`);
  });

  it('a model with shapes but no contact says so; one without shapes, limits or motors has no lines', () => {
    const sim = ball(5), watch = new ContactWatch(sim);
    for (let k = 0; k < 5; k++) { sim.step(); watch.observe(); }
    expect(watch.lines()).toEqual(['contacts        none during the run']);
    const free = new Simulation(parseModel({ version: 1, particles: [{ name: 'p', mass: 1, position: [0, 0, 0] }] }));
    const none = new ContactWatch(free);
    free.step();
    none.observe();
    expect(none.applies).toBe(false);
    expect(none.lines()).toEqual([]);
  });

  it('the summary prints them after the diagnostics and before the warnings', () => {
    const sim = ball(0.3), watch = new ContactWatch(sim), e0 = sim.energy();
    for (let k = 0; k < 40; k++) { sim.step(); watch.observe(); }
    const text = summary({
      label: 'm.json', model: sim.model, sim, steps: 40, wall: 10, e0, e1: sim.energy(), rows: 0, warnings: 2, contacts: watch,
    });
    const lines = text.trimEnd().split('\n');
    const at = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));
    expect(at('rotation')).toBeLessThan(at('contacts '));
    expect(at('contacts ')).toBeLessThan(at('contact solver'));
    expect(at('contact solver')).toBeLessThan(at('warnings'));
    expect(lines.slice(at('contacts '), at('warnings'))).toEqual(watch.lines());
  });
});

/** whether the loader reads a model file's `world` shapes yet */
const loaderReady = (() => {
  try {
    return parseModel({ version: 1, world: { shapes: [{ type: 'plane' }] } }).shapes.length === 1;
  } catch {
    return false;
  }
})();

describe('vinculum run with a world plane', () => {
  it.skipIf(!loaderReady)('a falling ball: the CSV and JSONL contact columns and the summary lines', async () => {
    const model = JSON.stringify({
      version: 1, step: 0.01, duration: 0.6, contact: { solver: 'pivoting' },
      world: { shapes: [{ type: 'plane' }] },
      bodies: [{ name: 'ball', mass: m, shape: { type: 'sphere', radius: r }, position: [0, 0, r + 0.3] }],
    });
    const f = fake({ 'm.json': model });
    expect(await runCli(['run', 'm.json', '--out', 'o.csv', '--outputs', 'contacts'], f.io)).toBe(0);
    const { header, rows } = csv(f.files.get('o.csv')!);
    expect(header.slice(-2)).toEqual(['contacts.active', 'contacts.residual']);
    const active = rows.map((row) => row[header.length - 2]!);
    // in the air at first, resting on the plane at the end
    expect(active[0]).toBe(0);
    expect(active[10]).toBe(0);
    expect(active[active.length - 1]).toBe(1);
    expect(rows[rows.length - 1]![header.length - 1]!).toBeLessThan(1e-10);
    // the ball falls 0.3 m in 0.247 s, then rests: active in the last 36 of the 60 steps
    const activeSteps = active.slice(1).filter((a) => a > 0).length;
    expect(f.out()).toContain(`\ncontacts        active in ${activeSteps} of 60 steps, at most 1 at once (step `);
    const penetration = /^ {16}largest penetration \d\.\d\de-\d+ m at the start of step \d+, between world\.shapes\[0\] and body:ball$/m;
    expect(f.out().includes('\n                no penetration at the start of any step\n') || penetration.test(f.out())).toBe(true);
    expect(f.out()).toMatch(new RegExp('^contact solver  pivoting in \\d+ steps, at most \\d+ pivots?(, \\d+ friction-bound iterations)?, '
      + 'worst complementarity residual \\d\\.\\d\\de[-+]\\d+ in step \\d+$', 'm'));
    // JSONL: the last row's contact carries the ball's weight, in N
    const j = fake({ 'm.json': model });
    expect(await runCli(['run', 'm.json', '--out', 'o.jsonl', '--outputs', 'contacts', '--quiet'], j.io)).toBe(0);
    type Row = { contacts: { shapeB: string; normalForce: number }[] };
    const last = JSON.parse(j.files.get('o.jsonl')!.trimEnd().split('\n').pop()!) as Row;
    expect(last.contacts).toHaveLength(1);
    expect(last.contacts[0]!.shapeB).toBe('body:ball');
    expect(Math.abs(last.contacts[0]!.normalForce / (m * g) - 1)).toBeLessThan(1e-6);
  });
});
