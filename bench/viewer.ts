/**
 * The viewer in headless Chromium (bench/chromium.ts: WebGL2 in software, SwiftShader, on this
 * machine's CPU): frame time and simulation time on chain100 and the contact scenes, and the
 * pictures of docs/gallery.md.
 *
 *   frames    for each scene, the built viewer (dist/viewer) is served by `vinculum view`'s server,
 *             played at 1× for WARMUP_S, then measured over MEASURE_S of wall time: the animation
 *             frames' intervals (median and 95th percentile, ms), the worker's stepping time per
 *             step (median, ms) and the simulated time over the wall time (1 = real time)
 *   gallery   (--gallery) a picture of every example in examples/ after `at` seconds of simulated
 *             time (docs/images/<example>.png), the whole viewer page with a plot
 *             (docs/images/viewer.png) and the top of a report (docs/images/report.png)
 *
 *   node dist/bench/viewer.js [--quick] [--gallery]
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { serveViewer, viewerFolder, type ServedViewer } from '../cli/view.js';
import { median, quantile } from './stats.js';
import { writeTextFileAtomic } from '../node/files.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WARMUP_S = 2, MEASURE_S = 8;

/** the measures of one scene */
export interface ViewerFrames {
  scene: string;
  frameMsMedian: number;
  frameMsP95: number;
  /** frames drawn per second over the measure (the intervals are whole display frames, 16.7 ms each) */
  fps: number;
  /** the page's time to update and draw a frame, ms (median) */
  renderMs: number;
  /** the worker's wall time per step, ms (median over ticks) */
  stepMs: number;
  /** simulated seconds per wall second at speed 1× (1: real time) */
  realTime: number;
}

/** the viewer page's probe (viewer/src/app/main.ts ViewerProbe), as far as it is read here */
interface Probe {
  drawn: number;
  frame: { t: number } | null;
  frameMs: number[];
  renderMs: number[];
  ticks: { steps: number; stepMs: number }[];
}
/** the probe, in the page */
type ProbeWindow = { __vinculum?: Probe };


/** opens `file` (an example) in the viewer: the page, once the scene is drawn */
async function openExample(browser: Browser, file: string, width = 1280, height = 720,
): Promise<{ page: Page; served: ServedViewer }> {
  const folder = viewerFolder();
  if (!folder) throw new Error('dist/viewer is missing: npm run build');
  const text = readFileSync(join(root, 'examples', file), 'utf8');
  const served = await serveViewer(folder, { name: file, text }, 0);
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => { throw e; });
  await page.goto(served.url);
  await page.waitForFunction(() => ((window as unknown as ProbeWindow).__vinculum?.drawn ?? 0) > 2, null,
    { timeout: 60_000 });
  return { page, served };
}

/**
 * stops a page (its worker and its drawing: a page left running takes the CPU from the next
 * measure) and its server; the page is sent to about:blank, as closing a page can end the
 * packaged single-process Chromium
 */
async function leave(page: Page, served: ServedViewer): Promise<void> {
  await page.goto('about:blank');
  await served.close();
}

/** plays a scene and measures frames, stepping and the real-time ratio */
async function measure(browser: Browser, file: string, measureS: number): Promise<ViewerFrames> {
  const { page, served } = await openExample(browser, file);
  await page.click('#play');
  await page.waitForTimeout(WARMUP_S * 1000);
  // the lists start empty at the measure's start (the page runs these functions: no closures)
  const before = await page.evaluate(() => {
    const v = (window as unknown as ProbeWindow).__vinculum!;
    v.frameMs.length = 0; v.renderMs.length = 0; v.ticks.length = 0;
    return { t: v.frame!.t, wall: performance.now() };
  });
  await page.waitForTimeout(measureS * 1000);
  const after = await page.evaluate(() => {
    const v = (window as unknown as ProbeWindow).__vinculum!;
    return { t: v.frame!.t, wall: performance.now(), frameMs: v.frameMs, renderMs: v.renderMs, ticks: v.ticks };
  });
  await leave(page, served);
  const perStep = after.ticks.map((k) => k.stepMs / k.steps);
  const frameMsMedian = median(after.frameMs);
  return { scene: file, frameMsMedian, frameMsP95: quantile(after.frameMs, 0.95),
    fps: (1000 * after.frameMs.length) / after.frameMs.reduce((a, b) => a + b, 0),
    renderMs: median(after.renderMs),
    stepMs: median(perStep), realTime: (after.t - before.t) / ((after.wall - before.wall) / 1000) };
}

/** frame time and simulation time of chain100 and the contact scenes */
export async function viewerBenchmarks(o: { quick: boolean; log: (s: string) => void }): Promise<ViewerFrames[]> {
  const browser = await launchChromium();
  try {
    const out: ViewerFrames[] = [];
    for (const file of ['chain100.json', 'box-pile.json', 'contact.json', 'shapes.json']) {
      const r = await measure(browser, file, o.quick ? 2 : MEASURE_S);
      o.log(`viewer ${file}: ${r.fps.toFixed(1)} frames/s, frame ${r.frameMsMedian.toFixed(1)} ms median, `
        + `p95 ${r.frameMsP95.toFixed(1)} ms, drawing ${r.renderMs.toFixed(1)} ms; `
        + `worker ${r.stepMs.toFixed(2)} ms/step; simulated/wall time ${r.realTime.toFixed(2)}`);
      out.push(r);
    }
    return out;
  } finally {
    await browser.close();
  }
}

/** when each example is pictured (s of simulated time) */
const PICTURE_AT: Record<string, number> = {
  'default-demo.json': 1.5, 'cloth.json': 1.5, 'box-pile.json': 1.5, 'shapes.json': 1.2, 'chain100.json': 0.6,
};

/** the gallery's pictures: every example, the viewer page with a plot, and a report */
async function gallery(log: (s: string) => void): Promise<void> {
  const dir = join(root, 'docs', 'images');
  mkdirSync(dir, { recursive: true });
  const browser = await launchChromium();
  try {
    for (const file of readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.json')).sort()) {
      const { page, served } = await openExample(browser, file, 1200, 640);
      const at = PICTURE_AT[file] ?? 1;
      await page.click('#play');
      await page.waitForFunction((t) => (window as unknown as ProbeWindow).__vinculum!.frame!.t >= t, at,
        { timeout: 120_000 });
      await page.click('#play');
      await page.waitForTimeout(300);
      await page.locator('#view').screenshot({ path: join(dir, file.replace(/\.json$/, '.png')) });
      await leave(page, served);
      log(`gallery: ${file} at t = ${at} s`);
    }
    await pageShots(browser, dir);
  } finally {
    await browser.close();
  }
}

/** the whole viewer (four-bar, with a plot of the crank's angle) and the top of a report */
async function pageShots(browser: Browser, dir: string): Promise<void> {
  const { page, served } = await openExample(browser, 'four-bar.json', 1280, 720);
  await page.selectOption('#column', 'A.rz');
  await page.click('#add-plot');
  await page.selectOption('#column', 'energy.total');
  await page.click('#add-plot');
  await page.click('#play');
  await page.waitForFunction(() => (window as unknown as ProbeWindow).__vinculum!.frame!.t >= 2.5, null,
    { timeout: 60_000 });
  await page.click('#play');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(dir, 'viewer.png') });
  await leave(page, served);
  // paths relative to the project, as a user in a clone types them (the report shows them)
  const report = join(root, 'contact.html');
  const { execFileSync } = await import('node:child_process');
  execFileSync(process.execPath, [join('dist', 'cli', 'vinculum.js'), 'run', join('examples', 'contact.json'),
    '--report', 'contact.html', '-q'], { cwd: root });
  const r = await browser.newPage({ viewport: { width: 1000, height: 1300 }, deviceScaleFactor: 1 });
  await r.goto(pathToFileURL(report).href);
  await r.waitForTimeout(1500);
  await r.screenshot({ path: join(dir, 'report.png') });
  const { rmSync } = await import('node:fs');
  rmSync(report, { force: true });
}

async function main(): Promise<void> {
  const log = (s: string) => process.stdout.write(`${s}\n`);
  if (process.argv.includes('--gallery')) { await gallery(log); return; }
  const quick = process.argv.includes('--quick');
  const frames = await viewerBenchmarks({ quick, log });
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `viewer-${new Date().toISOString().slice(0, 10)}${quick ? '-quick' : ''}.json`);
  await writeTextFileAtomic(file, `${JSON.stringify({ date: new Date().toISOString(), frames }, null, 2)}\n`);
  log(`results: ${file}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
}
