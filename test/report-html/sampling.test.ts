/**
 * The report's recording and its HTML text, without a browser: the strides keep at most the frame
 * and point budgets whatever the run's length (always the first and last states); 32-bit positions
 * decode to the state; no model text can close the data block or the script.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strideFor, ReportRecorder, MAX_FRAMES, MAX_POINTS } from '../../cli/reportData.js';
import { scriptJson, escapeHtml, reportHtml } from '../../cli/report.js';
import { Simulation, parseModel } from '../../src/index.js';

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

describe('the HTML', () => {
  const assets = { script: 'const s = "</script><script>alert(1)</script>";', style: 'a::after { content: "</style>"; }' };
  const data = {
    scene: null, frames: null, plotTimes: [], plots: [], summary: [], warnings: [], error: null, version: '1',
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
