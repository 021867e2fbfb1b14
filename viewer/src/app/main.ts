/// <reference types="vite/client" />
/**
 * The viewer's page (docs/viewer.md): the control bar, the error banner, the 3-D view and the live
 * plots, talking to the simulation worker (../worker.ts) through ../protocol.ts. The page renders
 * the latest frame at display rate with requestAnimationFrame, apart from the worker's stepping.
 * A model comes from `?model=<url>`, from the URL field, or from a dropped .json file; without one
 * the page shows the default demo bundled into it.
 */
import './style.css';
import type { SceneDescription, SceneFrame } from '../../../src/index.js';
// the names only: importing the package root here would put the whole engine in the page's bundle too
import { INTEGRATORS } from '../../../src/integrators/names.js';
import { createSceneView, type SceneView } from '../render/index.js';
import type { FromWorker, ToWorker } from '../protocol.js';
import { LivePlots } from './plots.js';
import { dragging, type Held } from './drag.js';
import demo from '../../../examples/default-demo.json?raw';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** what the tests and the frame-time benchmark read (docs/viewer.md, "Test hooks") */
export interface ViewerProbe {
  scene: SceneDescription | null;
  view: SceneView | null;
  frame: SceneFrame | null;
  stepCount: number;
  playing: boolean;
  error: string;
  /** the warnings of the current run, as `vinculum run` prints them */
  warnings: string[];
  /** frames drawn, each animation frame's interval (ms) since the last, and each drawing's time (ms) */
  drawn: number;
  frameMs: number[];
  renderMs: number[];
  /** the worker's ticks: steps taken and wall time spent stepping (ms) */
  ticks: { steps: number; stepMs: number }[];
}
declare global { interface Window { __vinculum: ViewerProbe } }
const probe: ViewerProbe = {
  scene: null, view: null, frame: null, stepCount: 0, playing: false, error: '', warnings: [], drawn: 0,
  frameMs: [], renderMs: [], ticks: [],
};
/** the probe's lists keep their last PROBE_KEEP entries, so a long session does not grow them */
const PROBE_KEEP = 4096;
const keep = <T>(list: T[], v: T) => {
  list.push(v);
  if (list.length > PROBE_KEEP) list.splice(0, list.length - PROBE_KEEP);
};
window.__vinculum = probe;

const worker = new Worker(new URL('../worker.ts', import.meta.url), { type: 'module' });
const send = (m: ToWorker) => worker.postMessage(m);
const plots = new LivePlots($('plot-area'));
let view: SceneView | null = null, held: () => Held | null = () => null, fresh = false;

/** shows a one-line error in the banner ('' hides it) */
function showError(message: string): void {
  probe.error = message;
  const banner = $('error');
  banner.textContent = message;
  banner.hidden = message === '';
}

/** the warnings list under the plots: cleared with [], else one more line */
function showWarning(message: string | null): void {
  const box = $('warnings'), list = box.querySelector('ul')!;
  if (message === null) { probe.warnings = []; list.replaceChildren(); box.hidden = true; return; }
  probe.warnings.push(message);
  const n = probe.warnings.length;
  if (n <= 200) list.append(Object.assign(document.createElement('li'), { textContent: message }));
  box.querySelector('summary')!.textContent = `${n} warning${n > 1 ? 's' : ''}`;
  box.hidden = false;
}

/** a new scene: a new view, the column list, the settings shown */
function onScene(m: Extract<FromWorker, { type: 'scene' }>): void {
  view?.dispose();
  plots.clear();
  showWarning(null);
  probe.scene = m.scene;
  view = createSceneView($('view'), m.scene, options());
  probe.view = view;
  held = dragging(view, m.scene, send);
  const column = $<HTMLSelectElement>('column');
  column.replaceChildren(...m.columns.map((c) => new Option(c, c)));
  $<HTMLSelectElement>('integrator').value = m.integrator;
  $<HTMLInputElement>('h').value = String(m.step);
  $('about').textContent = `${m.source}${m.description ? `: ${m.description}` : ''}`;
  document.title = `${m.source} · Vinculum viewer`;
  showError('');
  send({ type: 'plot', columns: [] });
}

worker.onmessage = (e: MessageEvent<FromWorker>) => {
  const m = e.data;
  if (m.type === 'scene') onScene(m);
  else if (m.type === 'error') showError(m.message);
  else if (m.type === 'warning') showWarning(m.message);
  else {
    probe.frame = m.frame; probe.stepCount = m.stepCount; probe.playing = m.playing;
    if (m.steps > 0) keep(probe.ticks, { steps: m.steps, stepMs: m.stepMs });
    plots.push(m.frame.t, m.values);
    $('play').textContent = m.playing ? '❚❚ Pause' : '▶ Play';
    $('time').textContent = `t = ${m.frame.t.toFixed(3)} s`;
    fresh = true;
  }
};

/** the overlay toggles' state */
function options() {
  const on = (id: string) => $<HTMLInputElement>(id).checked;
  return { joints: on('show-joints'), contacts: on('show-contacts'), frames: on('show-frames') };
}

/** draws the latest frame once per display frame */
let lastAnimation = 0;
function animate(now: number): void {
  if (lastAnimation > 0) keep(probe.frameMs, now - lastAnimation);
  lastAnimation = now;
  if (view && probe.frame) {
    const t0 = performance.now();
    if (fresh) view.update(probe.frame);
    const h = held();
    view.setDragLine(h ? view.pointWorld(h.component, h.local) : null, h?.target);
    view.render();
    keep(probe.renderMs, performance.now() - t0);
    probe.drawn++;
    fresh = false;
  }
  plots.draw();
  requestAnimationFrame(animate);
}
requestAnimationFrame(animate);

/** loads model text; `source` names it in messages */
const load = (text: string, source: string) => send({ type: 'load', text, source });

/** fetches a model by URL; a failed fetch is an error in the banner */
async function open(url: string): Promise<void> {
  try {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`);
    load(await r.text(), decodeURIComponent(url.split('/').pop() || url));
  } catch (e) {
    showError(`error: cannot load ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** the control bar, the toggles, the plot picker, drag-and-drop and resizing */
function wire(): void {
  $('play').onclick = () => send({ type: probe.playing ? 'pause' : 'play' });
  $('step').onclick = () => send({ type: 'step' });
  // a reset or new settings start a fresh run: a failed step's message no longer applies
  $('reset').onclick = () => {
    showError('');
    showWarning(null);
    plots.clear();
    send({ type: 'plot', columns: [] });
    send({ type: 'reset' });
  };
  const speed = $<HTMLSelectElement>('speed');
  speed.onchange = () => send({ type: 'speed', speed: Number(speed.value) });
  const integrator = $<HTMLSelectElement>('integrator'), h = $<HTMLInputElement>('h');
  integrator.replaceChildren(...INTEGRATORS.map((n) => new Option(n, n)));
  const settings = () => {
    showError('');
    showWarning(null);
    send({ type: 'settings', integrator: integrator.value, step: Number(h.value) });
  };
  integrator.onchange = settings;
  h.onchange = settings;
  for (const id of ['show-joints', 'show-contacts', 'show-frames']) {
    $(id).onchange = () => view?.setOptions(options());
  }
  $('add-plot').onclick = () => {
    if (plots.add($<HTMLSelectElement>('column').value)) send({ type: 'plot', columns: plots.names });
  };
  $('clear-plots').onclick = () => { plots.clear(); send({ type: 'plot', columns: [] }); };
  $<HTMLFormElement>('open-url').onsubmit = (e) => {
    e.preventDefault();
    void open($<HTMLInputElement>('url').value.trim());
  };
  const area = $('view');
  area.ondragover = (e) => { e.preventDefault(); area.classList.add('dropping'); };
  area.ondragleave = () => area.classList.remove('dropping');
  area.ondrop = (e) => {
    e.preventDefault();
    area.classList.remove('dropping');
    const file = e.dataTransfer?.files[0];
    if (file) void file.text().then((text) => load(text, file.name));
  };
  window.addEventListener('resize', () => view?.resize());
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') { e.preventDefault(); $('play').click(); } else if (e.key === '.') $('step').click();
    else if (e.key === 'r') $('reset').click();
  });
}

wire();
const requested = new URLSearchParams(location.search).get('model');
if (requested) void open(requested);
else load(demo, 'default-demo.json');
