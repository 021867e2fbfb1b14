/**
 * `vinculum run --report`: the recording keeps at most its frame and point budgets whatever the
 * run's length (always the first and last states); the data block cannot be closed by model text;
 * the file opens from file:// in headless Chromium with every network request refused and none
 * attempted, shows the summary, draws the replay in the bodies' colours, moves with its slider and
 * draws its plots; a run that fails (exit 3) still writes its report, with the error on top.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { buildReport } from '../../scripts/report.mjs';
import { runCli } from '../../cli/main.js';
import { fake, divergent } from '../cli/fake.js';
import { strideFor, ReportRecorder, MAX_FRAMES, MAX_POINTS } from '../../cli/reportData.js';
import { scriptJson } from '../../cli/report.js';
import { Simulation, parseModel } from '../../src/index.js';
import { bodyColor } from '../../viewer/src/render/colors.js';

const root = join(import.meta.dirname, '..', '..');
const fourBar = readFileSync(join(root, 'examples', 'four-bar.json'), 'utf8');

describe('the recording', () => {
  it('keeps at most MAX_FRAMES frames and MAX_POINTS points, the first and last included', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 2, max: 5000 }), (steps, max) => {
      const s = strideFor(steps, max);
      const kept = Math.floor(steps / s) + 1 + (steps % s === 0 ? 0 : 1);
      return kept <= max && (steps <= max - 1 ? s === 1 : true);
    }), { seed: 19, numRuns: 2000 });
  });

  it('records a long run within its budget: the first state and the last', () => {
    const sim = new Simulation(parseModel(fourBar));
    const steps = 3000, rec = new ReportRecorder(sim, steps);
    rec.observe(0);
    for (let i = 1; i <= steps; i++) { sim.step(); rec.observe(i); }
    const r = rec.recording();
    expect(r.frames.t.length).toBeLessThanOrEqual(MAX_FRAMES);
    expect(r.frames.t.length).toBeGreaterThan(MAX_FRAMES / 2);
    expect(r.frames.t[0]).toBe(0);
    expect(r.frames.t.at(-1)).toBeCloseTo(sim.time, 12);
    expect(r.plotTimes.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(r.plotTimes.at(-1)).toBe(sim.time);
    // 32-bit positions: the decoded last frame matches the state to float precision
    const q = new Float32Array(Uint8Array.from(atob(r.frames.q), (c) => c.charCodeAt(0)).buffer);
    const nq = sim.state.q.length, last = q.subarray(q.length - nq);
    last.forEach((v, i) => expect(Math.abs(v - sim.state.q[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(sim.state.q[i]!))));
    expect(r.plots.map((p) => p.title)).toEqual(['Energy', 'Joint coordinates', 'Constraint forces |F|', 'Contacts']);
    for (const p of r.plots) for (const s of p.series) expect(s.values.length).toBe(r.plotTimes.length);
  });

  it('writes data no model text can close: every "<" escaped, the JSON unchanged', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const text = scriptJson({ name: s });
      return !text.includes('<') && (JSON.parse(text) as { name: string }).name === s;
    }), { seed: 19, numRuns: 500 });
  });
});

let dir = '', browser: Browser | null = null;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vinculum-report-'));
  await buildReport(join(dir, 'assets'));
  browser = await launchChromium();
}, 120_000);
afterAll(async () => { await browser?.close(); rmSync(dir, { recursive: true, force: true }); });

/** runs the CLI in-process with the built report page; the report's text, or undefined */
async function runReport(files: Record<string, string>, args: string[]) {
  const cli = fake(files);
  cli.io.reportAssets = join(dir, 'assets');
  const code = await runCli(args, cli.io);
  return { code, out: cli.out(), err: cli.err(), html: cli.files.get('out.html') };
}

/** opens a report file from file:// with every other request refused; the requests seen, the errors */
async function openReport(html: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const file = join(dir, `report-${Date.now()}.html`);
  writeFileSync(file, html);
  const page = await browser!.newPage({ viewport: { width: 1000, height: 1200 }, deviceScaleFactor: 1 });
  const requests: string[] = [], errors: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => (window as unknown as { __report?: { drawn: number } }).__report?.drawn ?? 0 > 0);
  return { page, requests, errors };
}

/** the replay canvas's pixels, RGBA, every third pixel of every third row (the transfer stays small) */
const replayPixels = (page: Page) => page.evaluate(() => {
  const canvas = document.querySelector('#replay canvas') as HTMLCanvasElement;
  const gl = canvas.getContext('webgl2')!, w = canvas.width, h = canvas.height, px = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const out: number[] = [];
  for (let y = 0; y < h; y += 3) for (let x = 0; x < w; x += 3) out.push(...px.subarray(4 * (y * w + x), 4 * (y * w + x) + 4));
  return out;
});

/** the hue of an RGB colour, degrees, and its chroma (max − min)/max */
function hueOf(r: number, g: number, b: number): { hue: number; chroma: number } {
  const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
  if (d === 0) return { hue: 0, chroma: 0 };
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return { hue: (h * 60 + 360) % 360, chroma: d / max };
}

/** how many pixels have `rgb`'s hue (within 15°) and are far from grey: lighting scales, hue stays */
function countNear(px: number[], rgb: readonly number[]): number {
  const want = hueOf(rgb[0]!, rgb[1]!, rgb[2]!).hue;
  let n = 0;
  for (let i = 0; i < px.length; i += 4) {
    const { hue, chroma } = hueOf(px[i]!, px[i + 1]!, px[i + 2]!);
    if (chroma > 0.4 && Math.min(Math.abs(hue - want), 360 - Math.abs(hue - want)) < 15) n++;
  }
  return n;
}

describe('the report file', () => {
  it('is one file with no external URL, which opens offline and shows the run', async () => {
    const r = await runReport({ 'four-bar.json': fourBar }, ['run', 'four-bar.json', '--duration', '1', '--report', 'out.html']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('report          out.html');
    const html = r.html!;
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link|<script[^>]*src=/i);
    const { page, requests, errors } = await openReport(html);
    expect(await page.textContent('#summary pre')).toContain('steps           200');
    expect(await page.textContent('h1')).toBe('four-bar.json');
    // the three bars are drawn in their colours
    const first = await replayPixels(page);
    for (const i of [0, 1, 2]) expect(countNear(first, bodyColor(i)), `body ${i}`).toBeGreaterThan(20);
    // the slider's last frame draws the linkage elsewhere
    await page.evaluate(() => {
      const s = document.querySelector('#replay input[type=range]') as HTMLInputElement;
      s.value = s.max;
      s.dispatchEvent(new Event('input'));
    });
    const state = await page.evaluate(() => (window as unknown as { __report: { frame: number; frames: number } }).__report);
    expect(state.frame).toBe(state.frames - 1);
    expect(await page.textContent('#replay .time')).toBe('t = 1.000 s');
    const last = await replayPixels(page);
    let changed = 0;
    for (let i = 0; i < first.length; i += 4) if (Math.abs(first[i]! - last[i]!) > 30) changed++;
    expect(changed).toBeGreaterThan(50);
    // the plots: a uPlot canvas each, with drawn (non-white) pixels
    const plots = await page.evaluate(() => Array.from(document.querySelectorAll('#plots canvas')).map((c) => {
      const cv = c as HTMLCanvasElement, d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
      let ink = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3]! > 0 && (d[i]! < 200 || d[i + 1]! < 200)) ink++;
      return ink;
    }));
    expect(plots.length).toBe(4);
    for (const ink of plots) expect(ink).toBeGreaterThan(100);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('of a run that fails (exit 3) is written with the error on top', async () => {
    const r = await runReport({ 'div.json': divergent }, ['run', 'div.json', '--duration', '5', '--report', 'out.html', '-q']);
    expect(r.code).toBe(3);
    const line = r.err.trimEnd().split('\n').at(-1)!;
    expect(line).toMatch(/^error: .*\(wrote the report to out\.html\)$/);
    const { page, errors } = await openReport(r.html!);
    const shown = await page.textContent('#run-error');
    expect(shown).toMatch(/^error: /);
    expect(line).toContain(shown!.replace(/^error: /, ''));
    expect(errors).toEqual([]);
  });

  it('needs an .html name: anything else is a one-line usage error', async () => {
    const r = await runReport({ 'four-bar.json': fourBar }, ['run', 'four-bar.json', '--report', 'out.txt']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: .*--report.*\.html/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
