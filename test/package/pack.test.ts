/**
 * The npm package installs and works: the project is copied (without node_modules, dist and
 * .git) into a temporary folder and packed there with `npm pack`, whose `prepare` script builds
 * it; the tarball is installed into an empty project with `npm install --offline` (no network:
 * the dependencies come from the npm cache that `npm ci` filled); there an .mjs file imports
 * `vinculum`, `vinculum/node` and `vinculum/browser` and swings a hinge pendulum given as JSON,
 * whose period the test checks against the physics, and `npx vinculum run` and
 * `npx vinculum --version` run.
 *
 * `npm ci` fetches the tarballs named by package-lock.json but not the registry's package
 * documents that `npm install` needs to resolve version ranges, so the empty project gets a
 * package-lock.json with the production entries of the project's own: npm then takes exactly
 * those versions, from the cache, by their integrity.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import {
  cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** top-level entries of the project that are not copied: installed, built or local */
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'out']);

/** the pendulum: a bar 1 m long (4 cm square), hinged at its top end, released at 0.1 rad */
const THETA0 = 0.1, LENGTH = 1, WIDTH = 0.04, DENSITY = 500, G = 9.81;
const PENDULUM = {
  version: 1, gravity: [0, 0, -G], integrator: 'trapezoidal', step: 0.001,
  bodies: [{
    name: 'bar', shape: { type: 'box', size: [WIDTH, WIDTH, LENGTH] }, density: DENSITY,
    // hanging along −z, turned by THETA0 about +y: the top end stays at the origin
    position: [-LENGTH / 2 * Math.sin(THETA0), 0, -LENGTH / 2 * Math.cos(THETA0)],
    orientation: [Math.cos(THETA0 / 2), 0, Math.sin(THETA0 / 2), 0],
  }],
  joints: [{
    type: 'hinge', name: 'pivot', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0],
  }],
};

/**
 * The consumer's script: the mean period from the upward zero crossings of the bar's x over
 * 6000 steps (6 s, over three periods), the energy at the start and the end, and the imports.
 */
const CONSUMER = `
import { readFileSync } from 'node:fs';
import { parseModel, Simulation } from 'vinculum';
import { loadModel } from 'vinculum/node';
import * as browser from 'vinculum/browser';
import pkg from 'vinculum/package.json' with { type: 'json' };

const text = readFileSync(new URL('./pendulum.json', import.meta.url), 'utf8');
const sim = new Simulation(parseModel(text, { source: 'pendulum.json' }));
const energy0 = sim.energy().total;
const crossings = [];
let prev = sim.state.q[0], tPrev = sim.state.t;
for (let i = 0; i < 6000; i++) {
  sim.step();
  const x = sim.state.q[0], t = sim.state.t;
  if (prev < 0 && x >= 0) crossings.push(tPrev + (t - tPrev) * (-prev / (x - prev)));
  prev = x; tPrev = t;
}
const loaded = new Simulation(await loadModel('pendulum.json'));
for (let i = 0; i < 6000; i++) loaded.step();
console.log(JSON.stringify({
  crossings: crossings.length,
  period: (crossings[crossings.length - 1] - crossings[0]) / (crossings.length - 1),
  energy0, energy1: sim.energy().total,
  loadedAgrees: Array.from(loaded.state.q).every((v, i) => v === sim.state.q[i]),
  browser: typeof browser.parseModel === 'function' && typeof browser.Simulation === 'function',
  version: pkg.version,
}));
`;

/** the children's environment: no lifecycle variables of an enclosing npm run, no project's .bin on PATH */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_(package_|lifecycle_|command$)/i.test(k)) env[k] = v;
  }
  const path = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  if (path) {
    env[path] = env[path]!.split(delimiter).filter((p) => !p.endsWith(`node_modules${sep}.bin`)).join(delimiter);
  }
  return env;
}

type Run = { code: number; stdout: string; stderr: string };

/** runs a command in `cwd`; resolves with its exit code and output (also on a non-zero code) */
function run(command: string, args: string[], cwd: string): Promise<Run> {
  const options = { cwd, env: childEnv(), timeout: 90_000, maxBuffer: 1 << 26 };
  return new Promise((resolve, reject) => {
    execFile(command, args, options, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** runs a command that must succeed; the failure names it with its stderr */
async function ok(command: string, args: string[], cwd: string): Promise<string> {
  const r = await run(command, args, cwd);
  if (r.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${r.code}: ${r.stderr.trim()}`);
  }
  return r.stdout;
}

/** every file under `dir`, relative to it, with / separators */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** the project's package-lock.json cut to the production dependencies, for a project named `name` */
function productionLock(name: string): object {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  const packages: Record<string, object> = { '': { name } };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && !entry.dev && !entry.link) packages[path] = entry;
  }
  return { name, lockfileVersion: 3, requires: true, packages };
}

/**
 * the files a package may hold: the built library, the bundle, the viewer and report pages, the
 * example models, the schema
 */
const PACKABLE = new RegExp('^(dist/(src|node|cli|viewer|report)/|dist/vinculum\\.browser\\.js(\\.map)?$|examples/[^/]+\\.json$'
  + '|docs/model\\.schema\\.json$|package\\.json$|README\\.md$|LICENSE$)');

describe('the npm package', () => {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  let work = '', consumer = '', packed: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'vinculum-pack-'));
    const project = join(work, 'vinculum');
    consumer = join(work, 'consumer');
    const copied = (src: string): boolean => !NOT_COPIED.has(relative(root, src).split(sep)[0]!);
    cpSync(root, project, { recursive: true, filter: copied });
    symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
    const report = JSON.parse(await ok('npm', ['pack', '--json', '--pack-destination', work], project)) as
      [{ filename: string; files: { path: string }[] }];
    packed = report[0].files.map((f) => f.path).sort();
    mkdirSync(consumer);
    const manifest = { name: 'consumer', private: true, type: 'module' };
    writeFileSync(join(consumer, 'package.json'), JSON.stringify(manifest));
    writeFileSync(join(consumer, 'package-lock.json'), JSON.stringify(productionLock('consumer')));
    writeFileSync(join(consumer, 'pendulum.json'), JSON.stringify(PENDULUM));
    writeFileSync(join(consumer, 'check.mjs'), CONSUMER);
    await ok('npm', ['install', join(work, report[0].filename), '--offline', '--no-audit', '--no-fund'], consumer);
  }, 150_000);

  afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

  it('packs the built library, the viewer and report pages, the examples and the schema, and no tests or benchmarks', () => {
    for (const f of ['package.json', 'README.md', 'LICENSE', 'docs/model.schema.json', 'examples/default-demo.json',
      'dist/src/index.js', 'dist/src/index.d.ts', 'dist/node/index.js', 'dist/node/index.d.ts',
      'dist/cli/vinculum.js', 'dist/vinculum.browser.js', 'dist/vinculum.browser.js.map',
      'dist/viewer/index.html', 'dist/report/report.js', 'dist/report/report.css']) {
      expect(packed).toContain(f);
    }
    expect(packed.filter((f) => !PACKABLE.test(f))).toEqual([]);
  });

  it('installs as packed, without running its prepare script or installing devDependencies', () => {
    // prepare starts by removing dist/: had it run, the installed files would not be the packed ones
    expect(filesUnder(join(consumer, 'node_modules', 'vinculum'))).toEqual(packed);
    expect(readdirSync(join(consumer, 'node_modules'))).not.toContain('typescript');
  });

  it('imports from an .mjs file and swings a pendulum with the period of the physics', async () => {
    const r = JSON.parse(await ok('node', ['check.mjs'], consumer)) as { crossings: number; period: number;
      energy0: number; energy1: number; loadedAgrees: boolean; browser: boolean; version: string };
    // a uniform bar hinged at one end: I = m (L² + w²)/12 + m (L/2)², T0 = 2π √(I / (m g L/2)),
    // and at amplitude θ0 the period is T0 (1 + θ0²/16 + 11 θ0⁴/3072 + …)
    const inertiaPerMass = (LENGTH ** 2 + WIDTH ** 2) / 12 + (LENGTH / 2) ** 2;
    const t0 = 2 * Math.PI * Math.sqrt(inertiaPerMass / (G * LENGTH / 2));
    const expected = t0 * (1 + THETA0 ** 2 / 16 + 11 * THETA0 ** 4 / 3072);
    expect(r.crossings).toBeGreaterThanOrEqual(3);
    expect(Math.abs(r.period / expected - 1)).toBeLessThan(2e-5);
    // the trapezoidal rule keeps the energy of the swing, m g (L/2)(1 − cos θ0), to O(h²)
    const swing = DENSITY * WIDTH * WIDTH * LENGTH * G * (LENGTH / 2) * (1 - Math.cos(THETA0));
    expect(Math.abs(r.energy1 - r.energy0)).toBeLessThan(2e-5 * swing);
    expect(r.loadedAgrees).toBe(true);
    expect(r.browser).toBe(true);
    expect(r.version).toBe(version);
    console.log(`installed package: period ${r.period.toFixed(6)} s (physics ${expected.toFixed(6)} s), `
      + `energy change ${(r.energy1 - r.energy0).toExponential(2)} J of a swing of ${swing.toExponential(2)} J`);
  });

  it('runs npx vinculum run and npx vinculum --version', async () => {
    // --no: never fetch a package named vinculum; --: the flags after it are the command's
    const runs = await run('npx', ['--no', '--', 'vinculum', 'run', 'pendulum.json', '--duration', '0.5'], consumer);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout.length).toBeGreaterThan(0);
    const v = await run('npx', ['--no', '--', 'vinculum', '--version'], consumer);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(version);
  });

  it('writes a report with the installed report page inlined', async () => {
    const r = await run('npx', ['--no', '--', 'vinculum', 'run', 'pendulum.json', '--duration', '0.2', '--report', 'r.html',
      '-q'], consumer);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(consumer, 'r.html'), 'utf8');
    expect(html).toContain('id="vinculum-report"');
    expect(html.length).toBeGreaterThan(100_000);
  });
});
