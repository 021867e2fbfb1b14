/**
 * The render module (viewer/src/render) in a real browser: a model with every shape type is drawn
 * by three.js in headless Chromium (WebGL2 on SwiftShader). Each body's pixels at its projected
 * centre have its own colour's hue, a spot away from the scene is the background, a moved body
 * is drawn at its new place and not at its old, and picking at a body's centre finds it. The page
 * (test/viewer/renderPage.ts) is bundled by esbuild from the sources.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';

type V2 = [number, number];
interface RenderTest {
  names: string[]; colors: [number, number, number][];
  pixel(x: number, y: number): number[];
  projected(i: number): V2;
  move(i: number, d: [number, number, number]): V2;
  pick(x: number, y: number): { component: number; local: number[]; world: number[] } | null;
}

/** the hue of an RGB colour, degrees */
function hue([r, g, b]: readonly number[]): number {
  const max = Math.max(r!, g!, b!), min = Math.min(r!, g!, b!), d = max - min;
  if (d === 0) return 0;
  const h = max === r ? ((g! - b!) / d) % 6 : max === g ? (b! - r!) / d + 2 : (r! - g!) / d + 4;
  return (h * 60 + 360) % 360;
}
const hueGap = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));
/** the saturation (max − min)/max: the background and the grey ground are below 0.1 */
const chroma = ([r, g, b]: readonly number[]) => (Math.max(r!, g!, b!) - Math.min(r!, g!, b!)) / Math.max(1, r!, g!, b!);

let browser: Browser | null = null, server: Server | null = null, page: Page | null = null;

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [join(import.meta.dirname, 'renderPage.ts')], bundle: true, format: 'esm', platform: 'browser',
    target: 'es2022', write: false, logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><body><script type="module" src="/page.js"></script></body>');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 400, height: 300 }, deviceScaleFactor: 1 });
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => 'renderTest' in window, null, { timeout: 30_000 });
  expect(errors).toEqual([]);
}, 120_000);
afterAll(async () => { await browser?.close(); server?.close(); });

const call = <T>(f: (t: RenderTest, a: unknown) => T, arg?: unknown) =>
  page!.evaluate(([src, a]) => (new Function('t', 'a', `return (${src})(t, a)`))((window as unknown as { renderTest: unknown }).renderTest, a), [f.toString(), arg] as const) as Promise<T>;

describe('the render module', () => {
  it("draws each body in its own colour at its projected centre, and the background away from the scene", async () => {
    const t = await call((t) => ({ names: t.names, colors: t.colors, at: t.names.map((_, i) => t.projected(i)),
      px: t.names.map((_, i) => { const [x, y] = t.projected(i); return t.pixel(x, y); }), corner: t.pixel(2, 2) }));
    expect(t.names).toEqual(['box', 'ball', 'pill', 'can', 'egg', 'gem']);
    for (const [i, px] of t.px.entries()) {
      // lit by white light, a body keeps its hue; the grey ground and the background have none
      expect(chroma(px), `${t.names[i]} at ${t.at[i]}: ${px}`).toBeGreaterThan(0.3);
      expect(hueGap(hue(px), hue(t.colors[i]!)), `${t.names[i]}: drawn ${px}, colour ${t.colors[i]}`).toBeLessThan(20);
    }
    expect(chroma(t.corner)).toBeLessThan(0.1);
  });

  it('draws a moved body at its new place, not at its old, and picks it there', async () => {
    const r = await call((t) => {
      const before = t.projected(0), after = t.move(0, [0, 0, 0.8]);
      return { before, after, old: t.pixel(...before), now: t.pixel(...after), color: t.colors[0], pick: t.pick(...after) };
    });
    expect(Math.hypot(r.after[0] - r.before[0], r.after[1] - r.before[1])).toBeGreaterThan(30);
    expect(hueGap(hue(r.now), hue(r.color!))).toBeLessThan(20);
    expect(chroma(r.now)).toBeGreaterThan(0.3);
    // where the box was, the ground or another colour now shows
    expect(chroma(r.old) < 0.3 || hueGap(hue(r.old), hue(r.color!)) > 20).toBe(true);
    expect(r.pick?.component).toBe(0);
    // the hit lies on the box's surface: within its half extent of its centre in its own frame
    expect(Math.max(...r.pick!.local.map(Math.abs))).toBeCloseTo(0.15, 3);
  });
});
