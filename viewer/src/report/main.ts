/**
 * The page of a `vinculum run --report` file (docs/report.md). Everything it shows comes from the
 * JSON block `#vinculum-report` of the file: the summary the command line printed, the warnings,
 * the replay (frames of the scene drawn by the render module, with a time slider) and the plots
 * (uPlot). It needs no network: the file holds this script, its style and the data.
 */
import './style.css';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { SceneDescription, SceneFrame } from '../../../src/index.js';
import { createSceneView } from '../render/index.js';

/** the data block, as cli/report.ts writes it (ReportData) */
interface Energy { kinetic: number; potential: number; total: number }
interface Report {
  title: string; version: string; summary: string[]; warnings: string[]; error: string | null;
  energy: { start: Energy; end: Energy };
  scene: SceneDescription;
  frames: { t: number[]; q: string; tensions: string; contactCounts: number[]; contacts: string };
  plotTimes: string;
  plots: { title: string; unit: string; total: number; series: { name: string; values: string }[] }[];
}

/** the replay's state, for the tests (docs/report.md) */
declare global { interface Window { __report: { frame: number; frames: number; drawn: number } } }

const PALETTE = ['#3060ff', '#e0452b', '#1a9850', '#9c27b0', '#ff9800', '#00acc1', '#795548', '#607d8b'];

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text = '') => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
};

/** a base64 block of 32-bit floats */
function floats(b64: string): Float32Array {
  const s = atob(b64), bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}

/**
 * The command line's summary as a table: a line's first 16 characters name it, the rest is its
 * value; a line with a blank name continues the row above. The energy drift (end − start, total)
 * follows the energy rows.
 */
function summaryTable(r: Report): HTMLTableElement {
  const table = el('table', { class: 'summary' });
  let value: HTMLElement | null = null;
  for (const line of r.summary) {
    const name = line.slice(0, 16).trim(), text = line.slice(16);
    if (!name && value) { value.textContent += `\n${text.trimStart()}`; continue; }
    const row = table.insertRow();
    row.append(el('th', {}, name));
    value = el('td', {}, text);
    row.append(value);
    if (name === 'end') {
      // relative to the energy in play: the larger of K + |V| at the start and at the end
      const { start: a, end: b } = r.energy, drift = b.total - a.total;
      const scale = Math.max(a.kinetic + Math.abs(a.potential), b.kinetic + Math.abs(b.potential));
      const rel = scale > 0 ? ` (${((100 * drift) / scale).toPrecision(3)} % of the larger K + |V|)` : '';
      const d = table.insertRow();
      d.append(el('th', {}, 'energy drift'), el('td', {}, `${drift.toPrecision(4)} J${rel}`));
    }
  }
  return table;
}

/** the header, the error, the summary and the warnings */
function summarySection(r: Report): HTMLElement {
  const head = el('header');
  head.append(el('h1', {}, r.title), el('span', { class: 'version' }, `Vinculum ${r.version} report`));
  const section = el('section', { id: 'summary' });
  section.append(head);
  if (r.error) section.append(el('div', { class: 'error', id: 'run-error' }, r.error));
  section.append(summaryTable(r));
  if (r.warnings.length > 0) {
    const d = el('details');
    d.append(el('summary', {}, `${r.warnings.length} warning${r.warnings.length > 1 ? 's' : ''}`));
    const list = el('ul');
    for (const w of r.warnings.slice(0, 200)) list.append(el('li', {}, w));
    d.append(list);
    section.append(d);
  }
  return section;
}

/** the recorded frame i, decoded from the report's base64 blocks */
function frameReader(r: Report): (i: number) => SceneFrame {
  const q = floats(r.frames.q), tensions = floats(r.frames.tensions), contacts = floats(r.frames.contacts);
  const nq = r.scene.q0.length, nl = r.scene.lines.length, starts = [0];
  for (const c of r.frames.contactCounts) starts.push(starts[starts.length - 1]! + 10 * c);
  return (i) => ({
    t: r.frames.t[i]!, q: Float64Array.from(q.subarray(i * nq, (i + 1) * nq)),
    tensions: Float64Array.from(tensions.subarray(i * nl, (i + 1) * nl)),
    contacts: Float64Array.from(contacts.subarray(starts[i]!, starts[i + 1]!)),
  });
}

/** the replay: the scene view, play/pause, a speed and a time slider over the recorded frames */
function replaySection(r: Report, parent: HTMLElement): void {
  const section = el('section', { id: 'replay' }), stage = el('div', { class: 'stage' });
  const bar = el('div', { class: 'bar' }), play = el('button', {}, '▶ Play');
  const last = String(Math.max(0, r.frames.t.length - 1));
  const slider = el('input', { type: 'range', min: '0', max: last, value: '0' });
  const speed = el('select', { title: 'replay speed' });
  for (const v of [0.1, 0.25, 1, 4, 16, 64]) {
    speed.append(el('option', v === 1 ? { value: '1', selected: '' } : { value: String(v) }, `${v}×`));
  }
  const time = el('span', { class: 'time' });
  bar.append(play, speed, slider, time);
  section.append(el('h2', {}, 'Replay'), stage, bar);
  parent.append(section);
  const frameAt = frameReader(r), view = createSceneView(stage, r.scene);
  const state = { frame: 0, frames: r.frames.t.length, drawn: 0 };
  window.__report = state;
  const show = (i: number) => {
    state.frame = i;
    slider.value = String(i);
    time.textContent = `t = ${(r.frames.t[i] ?? 0).toFixed(3)} s`;
    view.update(frameAt(i));
    view.render();
    state.drawn++;
  };
  // playing walks the frames at their recorded times times the speed, and stops at the last
  let playing = false, t0 = 0, from = 0;
  const restart = () => { from = state.frame; t0 = performance.now(); };
  const tick = (now: number) => {
    if (!playing) return;
    const t = r.frames.t[from]! + (Number(speed.value) * (now - t0)) / 1000;
    let i = from;
    while (i + 1 < state.frames && r.frames.t[i + 1]! <= t) i++;
    if (i !== state.frame) show(i);
    if (i + 1 >= state.frames) { playing = false; play.textContent = '▶ Play'; return; }
    requestAnimationFrame(tick);
  };
  play.addEventListener('click', () => {
    playing = !playing;
    play.textContent = playing ? '❚❚ Pause' : '▶ Play';
    if (!playing) return;
    if (state.frame + 1 >= state.frames) show(0);
    restart();
    requestAnimationFrame(tick);
  });
  speed.addEventListener('change', restart);
  slider.addEventListener('input', () => { show(Number(slider.value)); restart(); });
  // the orbit controls redraw the frame shown
  view.controls.addEventListener('change', () => view.render());
  window.addEventListener('resize', () => { view.resize(); view.render(); });
  show(0);
}

/** one uPlot chart per plot, every series of it with a legend */
function plotsSection(r: Report, parent: HTMLElement): void {
  const section = el('section', { id: 'plots' });
  section.append(el('h2', {}, 'Plots'));
  parent.append(section);
  const width = Math.min(900, Math.max(320, section.clientWidth - 20)), times = floats(r.plotTimes);
  for (const p of r.plots) {
    const box = el('div', { class: 'plot' });
    section.append(box);
    const some = p.total > p.series.length ? `, ${p.series.length} of ${p.total}: the largest peaks` : '';
    const opts: uPlot.Options = {
      title: `${p.title} (${p.unit}${some})`, width, height: 220,
      scales: { x: { time: false } },
      axes: [{ label: 't (s)' }, {}],
      series: [{ label: 't (s)' },
        ...p.series.map((s, i) => ({ label: s.name, stroke: PALETTE[i % PALETTE.length], width: 1.25 }))],
    };
    new uPlot(opts, [times, ...p.series.map((s) => floats(s.values))], box);
  }
}

const data = JSON.parse(document.getElementById('vinculum-report')!.textContent!) as Report;
const main = el('main');
document.body.append(main);
main.append(summarySection(data));
replaySection(data, main);
plotsSection(data, main);
