/**
 * The viewer page in headless Chromium (WebGL2 on SwiftShader), built from the sources with
 * scripts/viewer.mjs into a temporary folder and served by `vinculum view`'s server function: it
 * loads without console errors, draws the model's bodies in their colours, plays (time advances),
 * steps exactly one step, lets a body be dragged by the mouse, shows a bad model's one-line error
 * as the command line prints it (from ?model= and from a dropped file), and plots a column.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { buildViewer } from '../../scripts/viewer.mjs';
import { serveViewer, type ServedViewer } from '../../cli/view.js';
import { runCli } from '../../cli/main.js';
import { fake } from '../cli/fake.js';

const root = join(import.meta.dirname, '..', '..');
const example = (name: string) => readFileSync(join(root, 'examples', name), 'utf8');

/** a model of two boxes resting on a plane (no joints: a drag moves one freely) */
const BOXES = JSON.stringify({
  version: 1, gravity: [0, 0, -9.81], step: 0.01, world: { shapes: [{ type: 'plane' }] },
  bodies: [
    { name: 'red', shape: { type: 'box', size: [0.2, 0.2, 0.2] }, density: 500, position: [0, 0, 0.1] },
    { name: 'other', shape: { type: 'box', size: [0.2, 0.2, 0.2] }, density: 500, position: [0.5, 0.3, 0.1] },
  ],
});

let dir = '', browser: Browser | null = null;
const servers: ServedViewer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vinculum-viewer-'));
  await buildViewer(dir);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * serves `text` as model `name`, opens the page (left open: closing a page with WebGL and a worker
 * can end the packaged single-process Chromium), waits for the scene; console errors are collected
 */
async function open(name: string, text: string): Promise<{ page: Page; errors: string[] }> {
  const served = await serveViewer(dir, { name, text }, 0);
  servers.push(served);
  const page = await browser!.newPage({ viewport: { width: 1000, height: 650 }, deviceScaleFactor: 1 });
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(served.url);
  await page.waitForFunction(() => window.__vinculum !== undefined
    && (window.__vinculum.scene !== null || window.__vinculum.error !== ''), null, { timeout: 30_000 });
  return { page, errors };
}

/** component i's origin on the screen (page pixels) and the drawn colour there */
const screenOf = (page: Page, i: number) => page.evaluate((i) => {
  const v = window.__vinculum, view = v.view!, q = v.frame!.q, o = v.scene!.components[i]!.qOffset;
  const p = view.camera.position.clone().set(q[o]!, q[o + 1]!, q[o + 2]!).project(view.camera);
  const r = view.renderer.domElement.getBoundingClientRect();
  const x = r.left + ((p.x + 1) / 2) * r.width, y = r.top + ((1 - p.y) / 2) * r.height;
  const gl = view.renderer.getContext(), px = new Uint8Array(4), s = view.renderer.getPixelRatio();
  const gx = Math.round((x - r.left) * s), gy = Math.round(gl.drawingBufferHeight - 1 - (y - r.top) * s);
  gl.readPixels(gx, gy, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
  return { x, y, px: Array.from(px), position: Array.from(q.slice(o, o + 3)) };
}, i);

describe('the viewer page', () => {
  it('loads a model without console errors and draws each body in its colour', async () => {
    const { page, errors } = await open('boxes.json', BOXES);
    await page.waitForFunction(() => window.__vinculum.drawn > 2);
    const colors = await page.evaluate(() => window.__vinculum.scene!.components.map((_, i) => i));
    for (const i of colors) {
      const { px } = await screenOf(page, i);
      const { bodyColor } = await import('../../viewer/src/render/colors.js');
      const want = bodyColor(i);
      // the lit face keeps the colour's dominant channel and is far from grey
      const argmax = (c: number[]) => c.indexOf(Math.max(...c));
      expect(argmax(px.slice(0, 3)), `body ${i}: drawn ${px}, colour ${want}`).toBe(argmax(want));
      expect(Math.max(...px.slice(0, 3)) - Math.min(...px.slice(0, 3))).toBeGreaterThan(60);
    }
    expect(await page.textContent('#about')).toContain('boxes.json');
    expect(errors).toEqual([]);

  });

  it('plays (time advances), pauses, and steps exactly one step', async () => {
    const { page, errors } = await open('four-bar.json', example('four-bar.json'));
    expect(await page.evaluate(() => window.__vinculum.stepCount)).toBe(0);
    await page.click('#play');
    await page.waitForFunction(() => window.__vinculum.frame!.t > 0.2, null, { timeout: 20_000 });
    expect(await page.textContent('#time')).toMatch(/^t = \d+\.\d{3} s$/);
    await page.click('#play');
    await page.waitForFunction(() => !window.__vinculum.playing);
    const before = await page.evaluate(() => window.__vinculum.stepCount);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.__vinculum.stepCount)).toBe(before);
    await page.click('#step');
    await page.waitForFunction((n) => window.__vinculum.stepCount === n + 1, before);
    const h = await page.evaluate(() => window.__vinculum.scene!.step);
    expect(await page.evaluate(() => window.__vinculum.frame!.t)).toBeCloseTo((before + 1) * h, 9);
    expect(errors).toEqual([]);

  });

  it('runs at the chosen speed: simulated time per wall second is at most the speed', async () => {
    const { page, errors } = await open('four-bar.json', example('four-bar.json'));
    await page.selectOption('#speed', '0.25');
    await page.click('#play');
    await page.waitForFunction(() => window.__vinculum.frame!.t > 0.05, null, { timeout: 20_000 });
    const at = () => page.evaluate(() => ({ t: window.__vinculum.frame!.t, wall: performance.now() / 1000 }));
    const a = await at();
    await page.waitForTimeout(1500);
    const b = await at();
    // the worker steps wall time × speed, less if a tick's budget runs out, never more
    const rate = (b.t - a.t) / (b.wall - a.wall);
    expect(rate).toBeLessThan(0.25 * 1.15);
    expect(rate).toBeGreaterThan(0.05);
    expect(errors).toEqual([]);
  });

  it('drags a body with the mouse: the grabbed point follows the pointer', async () => {
    const { page, errors } = await open('boxes.json', BOXES);
    await page.waitForFunction(() => window.__vinculum.drawn > 2);
    const start = await screenOf(page, 0);
    const grabbed = await page.evaluate(([x, y]) => window.__vinculum.view!.pick(x!, y!), [start.x, start.y]);
    expect(grabbed?.component).toBe(0);
    await page.click('#play');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    // up the screen by 150 px, in steps, then hold while the spring settles
    const to = { x: start.x, y: start.y - 150 };
    for (let k = 1; k <= 10; k++) {
      await page.mouse.move(start.x, start.y - 15 * k);
      await page.waitForTimeout(30);
    }
    await page.waitForTimeout(2000);
    const held = await screenOf(page, 0);
    // where the grabbed point is drawn now
    const point = await page.evaluate((local) => {
      const view = window.__vinculum.view!, w = view.pointWorld(0, local);
      const p = view.camera.position.clone().set(...w).project(view.camera);
      const r = view.renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    }, grabbed!.local);
    await page.mouse.up();
    // the body rose (screen up is world up here); the grabbed point hangs just below the pointer:
    // the spring's sag under the weight is g/(2π·3 Hz)² = 2.8 cm, about 20 px at this zoom
    expect(held.position[2]! - start.position[2]!).toBeGreaterThan(0.1);
    expect(Math.hypot(point.x - to.x, point.y - to.y)).toBeLessThan(30);
    // the other body did not move
    const other = await screenOf(page, 1);
    expect(Math.abs(other.position[2]! - 0.1)).toBeLessThan(1e-3);
    expect(errors).toEqual([]);
  });

  it('shows a bad model\'s one-line error, the same line `vinculum validate` prints', async () => {
    const bad = JSON.stringify({ version: 1, bodies: [{ name: 'b', mass: -1, position: [0, 0, 0] }] });
    const { page } = await open('bad.json', bad);
    await page.waitForFunction(() => window.__vinculum.error !== '');
    const shown = (await page.textContent('#error'))!;
    expect(await page.isVisible('#error')).toBe(true);
    // the command line on the same text, named the same
    const cli = fake({ 'bad.json': bad });
    expect(await runCli(['validate', 'bad.json'], cli.io)).toBe(2);
    expect(`${shown}\n`).toBe(cli.err());
    expect(shown).toMatch(/^error: bad\.json: bodies\[0\]\.mass/);
  });

  it('shows the same line for a bad model dropped on the view, and clears it with a good one', async () => {
    const { page, errors } = await open('four-bar.json', example('four-bar.json'));
    const bad = JSON.stringify({
      version: 1, bodies: [{ name: 'b', mass: 1 }], joints: [{ type: 'ball', bodies: ['b', 'c'] }],
    });
    const drop = (name: string, text: string) => page.evaluate(([name, text]) => {
      const data = new DataTransfer();
      data.items.add(new File([text!], name!, { type: 'application/json' }));
      const event = new DragEvent('drop', { dataTransfer: data, bubbles: true });
      document.getElementById('view')!.dispatchEvent(event);
    }, [name, text]);
    await drop('dropped.json', bad);
    await page.waitForFunction(() => window.__vinculum.error !== '');
    const cli = fake({ 'dropped.json': bad });
    expect(await runCli(['validate', 'dropped.json'], cli.io)).toBe(2);
    expect(`${(await page.textContent('#error'))!}\n`).toBe(cli.err());
    // a good model replaces the message with its scene
    await drop('boxes.json', BOXES);
    await page.waitForFunction(() => window.__vinculum.error === ''
      && window.__vinculum.scene!.components.length === 2);
    expect(await page.isVisible('#error')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('shows a failed step as the line `vinculum run` ends with, and pauses', async () => {
    // a spring far too stiff for explicit Euler at this step: the first step blows up
    const stiff = JSON.stringify({
      version: 1, integrator: 'symplectic-euler', step: 0.1, gravity: [0, 0, 0],
      particles: [{ name: 'p', mass: 1, position: [1, 0, 0] }],
      forces: [{
        type: 'axial-spring', name: 's', points: [['world', [0, 0, 0]], 'p'], stiffness: 1e12, restLength: 0,
      }],
    });
    const { page, errors } = await open('stiff.json', stiff);
    expect(await page.evaluate(() => window.__vinculum.error)).toBe('');
    await page.click('#play');
    await page.waitForFunction(() => window.__vinculum.error !== '');
    const cli = fake({ 'stiff.json': stiff });
    expect(await runCli(['run', 'stiff.json', '--quiet'], cli.io)).toBe(3);
    const last = cli.err().trimEnd().split('\n').pop()!;
    expect(last).toMatch(/^error: diverged at step 1 \(t = 0\.1/);
    expect(await page.textContent('#error')).toBe(last);
    expect(await page.evaluate(() => window.__vinculum.playing)).toBe(false);
    // a reset starts over without the message; a bad step size is its own error
    await page.click('#reset');
    expect(await page.isVisible('#error')).toBe(false);
    await page.fill('#h', '-1');
    await page.press('#h', 'Enter');
    await page.waitForFunction(() => window.__vinculum.error !== '');
    expect(await page.textContent('#error')).toBe('error: options.step: must be positive (got -1)');
    expect(errors).toEqual([]);
  });

  it("lists the simulation's warnings as `vinculum run` prints them, and Reset clears them", async () => {
    const { page, errors } = await open('four-bar.json', example('four-bar.json'));
    await page.click('#step');
    await page.waitForFunction(() => window.__vinculum.warnings.length > 0);
    const shown = await page.evaluate(() => window.__vinculum.warnings);
    expect(await page.isVisible('#warnings')).toBe(true);
    // the command line, one step of the same model: its stderr holds the same lines
    const cli = fake({ 'four-bar.json': example('four-bar.json') });
    expect(await runCli(['run', 'four-bar.json', '--duration', '0.005', '-q'], cli.io)).toBe(0);
    expect(shown).toEqual(cli.err().trimEnd().split('\n'));
    expect(shown[0]).toMatch(/^warning: step 1: redundant constraints/);
    await page.click('#reset');
    await page.waitForFunction(() => window.__vinculum.warnings.length === 0 && window.__vinculum.stepCount === 0);
    expect(await page.isVisible('#warnings')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('plots a chosen column over time', async () => {
    const { page, errors } = await open('four-bar.json', example('four-bar.json'));
    const columns = await page.$$eval('#column option', (o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(columns).toContain('energy.kinetic');
    await page.selectOption('#column', 'energy.kinetic');
    await page.click('#add-plot');
    await page.click('#play');
    await page.waitForFunction(() => window.__vinculum.frame!.t > 1, null, { timeout: 20_000 });
    await page.waitForTimeout(300);
    // the series is drawn: pixels of its stroke colour (#3060ff) on the chart's canvas
    const stroke = await page.$eval('#plot-area canvas', (c) => {
      const canvas = c as HTMLCanvasElement;
      const d = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i]! - 48) < 40 && Math.abs(d[i + 1]! - 96) < 40 && d[i + 2]! > 200) n++;
      }
      return n;
    });
    expect(stroke).toBeGreaterThan(50);
    expect(await page.textContent('#plot-area')).toContain('energy.kinetic');
    await page.click('#clear-plots');
    expect(await page.$$('#plot-area canvas')).toHaveLength(0);
    expect(errors).toEqual([]);
  });
});
