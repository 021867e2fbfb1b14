/**
 * `vinculum run --report`, in-process with a report page built into a temporary folder: the file
 * holds no external URL; it opens from file:// in headless Chromium with every other request
 * refused (and none attempted), without console errors, shows the summary (model, steps), draws
 * the replay in the bodies' colours, draws another frame when its slider moves and draws its plots;
 * it is written beside --out; a run that fails (exit 3) still writes its report, its error on top;
 * a missing page build is a one-line usage error.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { buildReport } from '../../scripts/report.mjs';
import { runCli } from '../../cli/main.js';
import { fake, divergent } from '../cli/fake.js';
import { bodyColor } from '../../viewer/src/render/colors.js';

const root = join(import.meta.dirname, '..', '..');
const fourBar = readFileSync(join(root, 'examples', 'four-bar.json'), 'utf8');

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
  await page.waitForFunction(() => ((window as unknown as { __report?: { drawn: number } }).__report?.drawn ?? 0) > 0);
  return { page, requests, errors };
}

/**
 * The replay canvas, read in the page: per colour of `colours`, how many pixels have its hue
 * (within 15°) and are far from grey (lighting scales a colour, its hue stays); and a checksum of
 * every pixel's red, to tell two frames apart.
 */
const replayInk = (page: Page, colours: number[][]) => page.evaluate((colours) => {
  const canvas = document.querySelector('#replay canvas') as HTMLCanvasElement;
  const gl = canvas.getContext('webgl2')!, w = canvas.width, h = canvas.height, px = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const hueOf = (r: number, g: number, b: number) => {
    const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
    if (d === 0) return { hue: 0, chroma: 0 };
    const k = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return { hue: (k * 60 + 360) % 360, chroma: d / max };
  };
  const want = colours.map(([r, g, b]) => hueOf(r!, g!, b!).hue), counts = want.map(() => 0);
  const red: number[] = [];
  for (let i = 0; i < px.length; i += 4) {
    if (i % 64 === 0) red.push(px[i]!);
    const { hue, chroma } = hueOf(px[i]!, px[i + 1]!, px[i + 2]!);
    if (chroma <= 0.4) continue;
    want.forEach((wh, k) => { if (Math.min(Math.abs(hue - wh), 360 - Math.abs(hue - wh)) < 15) counts[k]!++; });
  }
  return { counts, red };
}, colours);

describe('the report file', () => {
  it('is one file with no external URL, which opens offline and shows the run', async () => {
    const r = await runReport({ 'four-bar.json': fourBar }, ['run', 'four-bar.json', '--duration', '1', '--report', 'out.html']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('report          out.html');
    const html = r.html!;
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link|<script[^>]*src=/i);
    // no dynamic import or fetch, and no URL but XML namespace names (which are never fetched)
    expect(html).not.toMatch(/\bimport\(|\bfetch\(|XMLHttpRequest|WebSocket/);
    const urls = html.match(/\b(https?|wss?):\/\/[^\s"'`)]*/gi) ?? [];
    expect(urls.filter((u) => !/^http:\/\/www\.w3\.org\//.test(u))).toEqual([]);
    const { page, requests, errors } = await openReport(html);
    const rows = await page.$$eval('#summary tr', (trs) => trs.map((tr) => tr.textContent));
    expect(rows).toContain('steps200');
    expect(rows.find((t) => t?.startsWith('model'))).toContain('four-bar.json: 0 particles, 3 bodies');
    expect(rows.find((t) => t?.startsWith('energy drift'))).toMatch(/^energy drift-?\d/);
    expect(await page.textContent('h1')).toBe('four-bar.json');
    // the three bars are drawn in their colours
    const bodies = [0, 1, 2].map((i) => bodyColor(i));
    const first = await replayInk(page, bodies);
    first.counts.forEach((n, i) => expect(n, `body ${i}`).toBeGreaterThan(100));
    // the slider's last frame draws the linkage elsewhere
    await page.evaluate(() => {
      const s = document.querySelector('#replay input[type=range]') as HTMLInputElement;
      s.value = s.max;
      s.dispatchEvent(new Event('input'));
    });
    const state = await page.evaluate(() => (window as unknown as { __report: { frame: number; frames: number } }).__report);
    expect(state.frame).toBe(state.frames - 1);
    expect(await page.textContent('#replay .time')).toBe('t = 1.000 s');
    const last = await replayInk(page, bodies);
    let changed = 0;
    first.red.forEach((v, i) => { if (Math.abs(v - last.red[i]!) > 30) changed++; });
    expect(changed).toBeGreaterThan(50);
    // play at 0.25× from the first frame walks the frames; pause holds the frame shown
    await page.evaluate(() => {
      const s = document.querySelector('#replay input[type=range]') as HTMLInputElement;
      s.value = '0';
      s.dispatchEvent(new Event('input'));
      const speed = document.querySelector('#replay select') as HTMLSelectElement;
      speed.value = '0.25';
      speed.dispatchEvent(new Event('change'));
    });
    await page.click('#replay button');
    await page.waitForFunction(() => (window as unknown as { __report: { frame: number } }).__report.frame > 5);
    await page.click('#replay button');
    const held = await page.evaluate(() => (window as unknown as { __report: { frame: number } }).__report.frame);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __report: { frame: number } }).__report.frame)).toBe(held);
    expect(await page.textContent('#replay button')).toBe('▶ Play');
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
    // the summary of the steps it took, as the command line would print it
    const rows = await page.$$eval('#summary tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows.find((t) => t.startsWith('steps'))).toMatch(/^steps\d+$/);
    expect(rows.find((t) => t.startsWith('integrator'))).toContain('symplectic-euler');
    expect(errors).toEqual([]);
  });

  it('is written beside --out, and the summary names both files', async () => {
    const r = await runReport({ 'four-bar.json': fourBar },
      ['run', 'four-bar.json', '--duration', '0.2', '--out', 'traj.csv', '--report', 'out.html']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^output {10}traj\.csv \(\d+ rows\)$/m);
    expect(r.out).toMatch(/^report {10}out\.html$/m);
    expect(r.html).toContain('id="vinculum-report"');
  });

  it('without the built page is a one-line usage error before the run', async () => {
    const cli = fake({ 'four-bar.json': fourBar });
    cli.io.reportAssets = join(dir, 'missing');
    const code = await runCli(['run', 'four-bar.json', '--report', 'out.html'], cli.io);
    expect(code).toBe(2);
    expect(cli.err().trim().split('\n')).toHaveLength(1);
    expect(cli.err()).toMatch(/^error: cannot read the report page in .*missing/);
    expect(cli.out()).toBe('');
    expect(cli.files.has('out.html')).toBe(false);
  });

  it('needs an .html name: anything else is a one-line usage error', async () => {
    const r = await runReport({ 'four-bar.json': fourBar }, ['run', 'four-bar.json', '--report', 'out.txt']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: .*--report.*\.html/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});
