/**
 * The core runs in a browser (Debian's headless Chromium, driven by playwright-core) and gives
 * the numbers it gives in Node:
 * - src/ and examples/ are compiled to plain ES modules (the TypeScript compiler, into a
 *   temporary folder) and served from localhost, with an import map for zod (the model loader);
 * - the page builds a 12-link ball-joint chain in code and a hinge pendulum from a JSON model
 *   file, steps both (implicit Euler and trapezoidal, with the projection), and returns positions,
 *   velocities, constraint forces and diagnostics (the LDLᵀ solves run as WebAssembly on both sides);
 * - Node runs the same compiled modules, and the two agree to 1e-10 (relative, against
 *   max(1, |x|)). Not bit for bit: ECMAScript leaves Math.sin, cos, exp and atan2
 *   "implementation-approximated", and Chromium 156 (V8 15.6) and Node 20 (V8 11.3) round
 *   them differently in the last bit for 3–18% of arguments (measured; sqrt and hypot agree),
 *   so the runs part at rounding level (5e-14 relative here). Determinism is
 *   per JavaScript engine build.
 * Needs Debian's Chromium at /usr/bin/chromium (`apt-get install -y chromium`; `.ci/run` installs
 * it), or another Chromium named by VINCULUM_CHROMIUM. playwright-core drives whatever Chromium is
 * installed over the DevTools protocol; a Chromium much newer than the playwright-core release
 * may need a newer playwright-core.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, dirname, normalize, extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { chromium, type Browser } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHROMIUM = process.env['VINCULUM_CHROMIUM'] ?? '/usr/bin/chromium';

/**
 * The scenario run on both sides, as a plain module (kept out of the test's own transform, which
 * rewrites dynamic imports): run(base) loads the compiled modules from base (a URL).
 */
const SCENARIO = `
export async function run(base) {
  const { chainOfBodies } = await import(base + '/examples/scenes.js');
  const { Simulation, parseModel } = await import(base + '/src/index.js');
  const chain = new Simulation(chainOfBodies(12, { integrator: 'implicit-euler' }));
  chain.steps(300);
  const hinge = new Simulation(parseModel(JSON.stringify({
    version: 1, gravity: [0, 0, -9.81], integrator: 'trapezoidal', step: 0.002,
    bodies: [{ name: 'bar', shape: { type: 'box', size: [1, 0.05, 0.05] }, density: 1000, position: [0.5, 0, 0] }],
    joints: [{ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0] }],
  }), 'hinge.json'));
  hinge.steps(500);
  return {
    chainQ: Array.from(chain.state.q), chainU: Array.from(chain.state.u),
    chainLambda: Array.from(chain.ws.cs.lambda), chainWorst: chain.diagnostics.worstViolation,
    hingeQ: Array.from(hinge.state.q), hingeEnergy: hinge.energy(), wasm: chain.ws.solver.wasmSolves,
  };
}
`;

const MIME: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };

describe('the core in a browser', () => {
  let out = '', server: Server | null = null, browser: Browser | null = null, url = '';

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`browser tests need ${CHROMIUM}: apt-get install -y chromium (or set VINCULUM_CHROMIUM)`);
    // compile src/ and examples/ to ES modules (what a bundler or a page would load)
    // inside node_modules: Node resolves zod from there and loads the modules natively
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    out = mkdtempSync(join(root, 'node_modules', '.vinculum-browser-'));
    const program = ts.createProgram([join(root, 'src', 'index.ts'), join(root, 'examples', 'scenes.ts')], {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true, skipLibCheck: true, rootDir: root, outDir: out, noEmitOnError: true, types: [],
    });
    const emitted = program.emit();
    const errors = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics);
    if (emitted.emitSkipped || errors.length > 0) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
    writeFileSync(join(out, 'scenario.js'), SCENARIO);
    writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
    // serve the compiled modules, zod, and the page; nothing else
    const page = `<!doctype html><script type="importmap">{"imports":{"zod":"/node_modules/zod/index.js"}}</script><body>vinculum</body>`;
    server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
      const file = path === '/' ? null : path.startsWith('/node_modules/zod/') ? join(root, path) : join(out, path);
      if (file === null) { res.writeHead(200, { 'content-type': 'text/html' }); res.end(page); return; }
      if (!file.startsWith(out) && !file.startsWith(join(root, 'node_modules', 'zod'))) { res.writeHead(403); res.end(); return; }
      if (!existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 120_000);

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      if (out) rmSync(out, { recursive: true, force: true });
    }
  });

  it('steps a jointed chain and a model file as Node does', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    // the same module in the page (served) and in Node (from the folder)
    const inBrowser = await page.evaluate(`import(${JSON.stringify(`${url}/scenario.js`)}).then((m) => m.run(${JSON.stringify(url)}))`);
    const scenario = (await import(pathToFileURL(join(out, 'scenario.js')).href)) as { run(base: string): Promise<unknown> };
    const inNode = await scenario.run(pathToFileURL(out).href);
    expect(errors).toEqual([]);
    type Result = { wasm: boolean; chainQ: number[]; chainU: number[]; chainLambda: number[]; chainWorst: { value: number; constraint: string | null }; hingeQ: number[]; hingeEnergy: { kinetic: number; potential: number; total: number } };
    const web = inBrowser as Result, node = inNode as Result;
    const close = (a: number[], b: number[]) => {
      expect(a.length).toBe(b.length);
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!)));
      return worst;
    };
    const parted = Math.max(close(web.chainQ, node.chainQ), close(web.chainU, node.chainU), close(web.chainLambda, node.chainLambda),
      close(web.hingeQ, node.hingeQ), close(Object.values(web.hingeEnergy), Object.values(node.hingeEnergy)));
    console.log(`browser against Node: largest relative difference ${parted.toExponential(2)}`);
    expect(parted).toBeLessThan(1e-10);
    // and the runs themselves are sane: the chain held its joints, the hinge swung
    for (const r of [web, node]) {
      // the LDLᵀ solves ran as WebAssembly on both sides
      expect(r.wasm).toBe(true);
      expect(r.chainWorst.value).toBeLessThan(1e-11);
      expect(r.chainLambda.some((l) => Math.abs(l) > 0.5)).toBe(true);
      // released horizontal, after 1 s (about half a period) the bar is near the far side
      expect(r.hingeQ[0]!).toBeLessThan(-0.3);
    }
  }, 120_000);
});
