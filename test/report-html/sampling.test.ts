/**
 * The report's recording and its HTML text, without a browser: the strides keep at most the frame
 * and point budgets whatever the run's length (always the first and last states); 32-bit positions
 * decode to the state; no model text can close the data block or the script.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  strideFor, frameBudget, largestPeaks, base64Floats, ReportRecorder, MAX_FRAMES, MAX_POINTS, MAX_SERIES,
  MIN_FRAMES, REPLAY_BYTES,
} from '../../cli/reportData.js';
import { scriptJson, escapeHtml, reportHtml } from '../../cli/report.js';
import { Simulation, parseModel } from '../../src/index.js';

const root = join(import.meta.dirname, '..', '..');
const fourBar = readFileSync(join(root, 'examples', 'four-bar.json'), 'utf8');
const demo = readFileSync(join(root, 'examples', 'default-demo.json'), 'utf8');

/** a base64 block of 32-bit floats, as the page decodes it */
const floats = (b64: string) => new Float32Array(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer);

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
    const times = floats(r.plotTimes);
    expect(times.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(times.length).toBeGreaterThan(MAX_POINTS / 2);
    expect(times.at(-1)).toBe(Math.fround(sim.time));
    // 32-bit positions: the decoded last frame matches the state to float precision
    const q = floats(r.frames.q);
    const nq = sim.state.q.length, last = q.subarray(q.length - nq);
    last.forEach((v, i) => expect(Math.abs(v - sim.state.q[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(sim.state.q[i]!))));
    expect(r.plots.map((p) => p.title)).toEqual(['Energy', 'Joint coordinates', 'Constraint forces |F|', 'Contacts']);
    for (const p of r.plots) for (const s of p.series) expect(floats(s.values).length).toBe(times.length);
  });

  it('keeps a large scene\'s replay within its byte budget, and its plots within MAX_SERIES', () => {
    const sim = new Simulation(parseModel(demo));
    const steps = 1200, rec = new ReportRecorder(sim, steps);
    rec.observe(0);
    for (let i = 1; i <= 20; i++) { sim.step(); rec.observe(i); }
    const r = rec.recording(), nq = r.scene.q0.length, nl = r.scene.lines.length;
    expect(4 * (nq + nl) * frameBudget(nq, nl)).toBeLessThanOrEqual(REPLAY_BYTES);
    expect(frameBudget(nq, nl)).toBeLessThan(MAX_FRAMES);
    expect(rec.frameStride).toBe(strideFor(steps, frameBudget(nq, nl)));
    const springs = r.plots.find((p) => p.title === 'Spring tensions')!;
    expect(springs.total).toBe(nl);
    expect(springs.series).toHaveLength(MAX_SERIES);
  });

  it('frame budget: within [MIN_FRAMES, MAX_FRAMES], within REPLAY_BYTES unless at MIN_FRAMES', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 100_000 }), (nq, nl) => {
      const n = frameBudget(nq, nl);
      return n >= MIN_FRAMES && n <= MAX_FRAMES && (n === MIN_FRAMES || 4 * (nq + nl) * n <= REPLAY_BYTES);
    }), { seed: 19, numRuns: 1000 });
  });

  it('keeps the series of the largest peaks, in their order', () => {
    fc.assert(fc.property(fc.array(fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { maxLength: 8 }),
      { maxLength: 40 }), fc.integer({ min: 0, max: 40 }), (series, max) => {
      const kept = largestPeaks(series, max);
      const peak = (i: number) => Math.max(0, ...series[i]!.map(Math.abs));
      const left = series.map((_, i) => i).filter((i) => !kept.includes(i));
      expect(kept).toHaveLength(Math.min(max, series.length));
      expect([...kept].sort((a, b) => a - b)).toEqual(kept);
      for (const i of left) for (const k of kept) expect(peak(i)).toBeLessThanOrEqual(peak(k));
    }), { seed: 19, numRuns: 500 });
  });

  it('stores 32-bit floats in base64 and reads them back', () => {
    fc.assert(fc.property(fc.array(fc.float({ noNaN: true })), (v) => {
      expect(Array.from(floats(base64Floats(v)))).toEqual(v.map(Math.fround));
    }), { seed: 19, numRuns: 300 });
  });

  it('writes data no model text can close: every "<" escaped, the JSON unchanged', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const text = scriptJson({ name: s });
      return !text.includes('<') && (JSON.parse(text) as { name: string }).name === s;
    }), { seed: 19, numRuns: 500 });
  });
});

describe('the HTML', () => {
  const assets = { script: 'const s = "</script><script>alert(1)</script>";', style: 'a::after { content: "</style>"; }' };
  const data = {
    scene: null, frames: null, plotTimes: '', plots: [], summary: [], warnings: [], error: null, version: '1',
    energy: { start: { kinetic: 0, potential: 0, total: 0 }, end: { kinetic: 0, potential: 0, total: 0 } },
  } as unknown as Parameters<typeof reportHtml>[1];

  it('keeps the page script and style inside their elements, and escapes the title', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (title) => {
      const html = reportHtml(assets, { ...data, title });
      // one element each: nothing in the script or style closes it early
      expect(html.match(/<\/script/gi)).toHaveLength(2);
      expect(html.match(/<\/style/gi)).toHaveLength(1);
      expect(html).toContain(`<title>${escapeHtml(title)} · Vinculum report</title>`);
      return !escapeHtml(title).includes('<');
    }), { seed: 19, numRuns: 300 });
  });
});
