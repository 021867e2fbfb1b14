/**
 * The browser bundle (dist/vinculum.browser.js: the core and zod in one ES module) runs in a page
 * and gives the numbers Node gives:
 * - the test builds the bundle afresh with the build's own esbuild options (scripts/bundle.mjs)
 *   into a temporary folder and serves it from 127.0.0.1 with a page that loads it with
 *   `<script type="module">`, with no import map;
 * - the scenario uses only what the package root exports: it builds a 12-link ball-joint chain
 *   from a JSON model and a hinge pendulum with the ModelBuilder, steps both (implicit Euler and trapezoidal, with the
 *   projection; the LDLᵀ solves run as WebAssembly on both sides), and returns positions,
 *   velocities, energies, diagnostics and readouts through the handles (a joint's reaction and
 *   coordinates, a body's point);
 * - a Node process imports the same bundle file and runs the same scenario, and the two agree to
 *   1e-10 (relative, against max(1, |x|)). Not required bit for bit: ECMAScript leaves Math.sin,
 *   cos, exp and atan2 "implementation-approximated", and the V8 of Chromium 143 and that of
 *   Node 20 round sin and cos differently in the last bit for about 3% of arguments (exp and
 *   atan2 agree), so runs may part at rounding level (these two come out identical; with
 *   Chromium 156 they parted at 5e-14). Determinism is per JavaScript engine build.
 * The browser is the headless Chromium of test/helpers/chromium.ts (an npm devDependency, or
 * VINCULUM_CHROMIUM, or /usr/bin/chromium).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { bundleOptions } from '../../scripts/bundle.mjs';
import { launchChromium } from '../helpers/chromium.js';

/** The scenario run on both sides, as a plain module: run(vinculum) takes the bundle's exports. */
const SCENARIO = `
export function run({ parseModel, ModelBuilder, Simulation }) {
  // 12 boxes 0.1 x 0.02 x 0.02 m of 0.1 kg end to end along x, ball joints, the first pinned to the world
  const n = 12, len = 0.1, bodies = [], joints = [];
  for (let i = 0; i < n; i++) {
    bodies.push({ name: 'link' + i, shape: { type: 'box', size: [len, 0.02, 0.02] }, density: 2500,
      position: [(i + 0.5) * len, 0, 0] });
    joints.push({ type: 'ball', name: i === 0 ? 'pin' : 'j' + i, bodyA: i === 0 ? 'world' : 'link' + (i - 1),
      bodyB: 'link' + i, position: [i * len, 0, 0] });
  }
  const chain = new Simulation(parseModel({ version: 1, gravity: [0, 0, -9.81], integrator: 'implicit-euler',
    step: 1 / 240, bodies, joints }, { source: 'chain.json' }));
  chain.step(300);
  const hinge = new Simulation(new ModelBuilder({ gravity: [0, 0, -9.81], integrator: 'trapezoidal', step: 0.002 })
    .addBody({ name: 'bar', shape: { type: 'box', size: [1, 0.05, 0.05] }, density: 1000, position: [0.5, 0, 0] })
    .addJoint({ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0] })
    .build());
  hinge.run(1);
  const pin = chain.joint('pin').reaction;
  return {
    chainQ: Array.from(chain.state.q), chainU: Array.from(chain.state.u), chainEnergy: chain.energy(),
    chainWorst: chain.diagnostics.worstViolation.value, chainPin: [...pin.force, ...pin.torque],
    hingeAngle: hinge.joint('h').coordinates[0], hingeTip: hinge.body('bar').worldPoint([0.5, 0, 0]),
    hingeQ: Array.from(hinge.state.q), hingeEnergy: hinge.energy(), wasm: chain.ws.solver.wasmSolves,
  };
}
`;

/** the page: loads the bundle and the scenario as modules, leaves the result (or the error) on window */
const PAGE = `<!doctype html>
<script type="module" onerror="window.vinculumError = 'a module failed to load'">
import * as vinculum from './vinculum.browser.js';
import { run } from './scenario.js';
try { window.vinculumResult = run(vinculum); } catch (e) { window.vinculumError = String(e && e.stack || e); }
</script>
<body>vinculum</body>`;

/** the Node side: the same two files, imported natively by a separate Node process */
const NODE_MAIN = `
import * as vinculum from './vinculum.browser.js';
import { run } from './scenario.js';
process.stdout.write(JSON.stringify(run(vinculum)));
`;

const FILES: Record<string, string> = {
  '/': 'index.html', '/vinculum.browser.js': 'vinculum.browser.js', '/scenario.js': 'scenario.js',
};
const MIME: Record<string, string> = { html: 'text/html', js: 'text/javascript' };

type Energy = { kinetic: number; potential: number; total: number };
type Result = { wasm: boolean; chainQ: number[]; chainU: number[]; chainEnergy: Energy; chainWorst: number;
  chainPin: number[]; hingeAngle: number; hingeTip: number[]; hingeQ: number[]; hingeEnergy: Energy };

describe('the browser bundle', () => {
  let out = '', server: Server | null = null, browser: Browser | null = null, url = '';
  const missing: string[] = [];

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'vinculum-browser-'));
    await build(bundleOptions(join(out, 'vinculum.browser.js')));
    writeFileSync(join(out, 'scenario.js'), SCENARIO);
    writeFileSync(join(out, 'index.html'), PAGE);
    writeFileSync(join(out, 'node-main.js'), NODE_MAIN);
    writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
    // serves the page, the bundle and the scenario; nothing else
    server = createServer((req, res) => {
      const file = FILES[new URL(req.url ?? '/', 'http://x').pathname];
      if (file === undefined) { missing.push(req.url ?? ''); res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': MIME[file.slice(file.lastIndexOf('.') + 1)]! });
      res.end(readFileSync(join(out, file)));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      if (out) rmSync(out, { recursive: true, force: true });
    }
  });

  it('contains zod and imports nothing', () => {
    const code = readFileSync(join(out, 'vinculum.browser.js'), 'utf8');
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).toContain('ZodError');
  });

  it('steps a jointed chain and a hinge pendulum in a page as Node does', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    const settled = '"vinculumResult" in window || "vinculumError" in window';
    await page.waitForFunction(settled, null, { timeout: 60_000 });
    expect(await page.evaluate('window.vinculumError ?? null')).toBe(null);
    const web = (await page.evaluate('window.vinculumResult')) as Result;
    const node = JSON.parse(await nodeRun(join(out, 'node-main.js'))) as Result;
    expect(errors).toEqual([]);
    expect(missing).toEqual([]);
    const close = (a: number[], b: number[]) => {
      expect(a.length).toBe(b.length);
      let worst = 0;
      for (let i = 0; i < a.length; i++) {
        worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!)));
      }
      return worst;
    };
    const parted = Math.max(close(web.chainQ, node.chainQ), close(web.chainU, node.chainU),
      close(Object.values(web.chainEnergy), Object.values(node.chainEnergy)), close(web.chainPin, node.chainPin),
      close([web.hingeAngle, ...web.hingeTip], [node.hingeAngle, ...node.hingeTip]), close(web.hingeQ, node.hingeQ),
      close(Object.values(web.hingeEnergy), Object.values(node.hingeEnergy)));
    console.log(`browser against Node: largest relative difference ${parted.toExponential(2)}`);
    expect(parted).toBeLessThan(1e-10);
    // and the runs themselves are sane: the chain held its joints and fell, the hinge swung
    for (const r of [web, node]) {
      // the LDLᵀ solves ran as WebAssembly on both sides
      expect(r.wasm).toBe(true);
      expect(r.chainWorst).toBeLessThan(1e-11);
      // released horizontal at rest: 1.25 s later it has lost potential energy and moves
      expect(r.chainEnergy.potential).toBeLessThan(-1);
      expect(r.chainEnergy.kinetic).toBeGreaterThan(0.1);
      // the pin holds the chain up: its reaction on the world pulls down and sideways
      expect(Math.hypot(...r.chainPin.slice(0, 3))).toBeGreaterThan(0.1);
      // released horizontal, after 1 s (about half a period) the bar is near the far side
      expect(r.hingeQ[0]!).toBeLessThan(-0.3);
      // the tip, 1 m from the hinge, is where the hinge angle puts it
      expect(Math.hypot(...r.hingeTip)).toBeCloseTo(1, 9);
    }
  }, 120_000);
});

/** runs `file` with Node (native ES modules, no test transform); resolves to its stdout */
function nodeRun(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { timeout: 60_000, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${file}: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}
