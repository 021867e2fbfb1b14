/**
 * The viewer's simulation, in a Web Worker so that stepping never stalls the page (docs/viewer.md).
 * It runs the engine through its public API: `parseModel`, `Simulation`, `describeScene`,
 * `SceneSampler` and `outputColumns`. A clock ticks about 60 times a second; a playing tick steps
 * as far as wall time × speed asks, within a budget of BUDGET_MS of work, so a model the machine
 * cannot run in real time runs slower instead of falling ever further behind; every tick posts a
 * frame with the plotted columns' values. A drag is a spring from a body point to the pointer,
 * applied as an external force before each step.
 */
import {
  DivergenceError, ModelError, OUTPUT_GROUPS, SceneSampler, Simulation, describeScene, oneLine, outputColumns,
  parseModel, isIntegratorName, type Model, type OutputColumns,
} from '../../src/index.js';
import type { FromWorker, ToWorker } from './protocol.js';

/** the worker's global scope, as far as it is used (the DOM library has no worker types) */
interface WorkerScope {
  postMessage(message: FromWorker): void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;

/** the clock's period and the stepping budget per tick, ms */
const TICK_MS = 16;
const BUDGET_MS = 12;
/** the drag spring's natural frequency (Hz) and damping ratio, on the dragged component's mass */
const DRAG_HZ = 3;
const DRAG_ZETA = 0.7;

type V3 = [number, number, number];

/** one loaded model and its run */
interface Run {
  model: Model;
  source: string;
  sim: Simulation;
  sampler: SceneSampler;
  columns: OutputColumns;
  integrator: string;
  step: number;
}

let run: Run | null = null;
let playing = false, speed = 1, due = 0, last = 0;
let plotted: number[] = [];
let drag: { component: number; local: V3; target: V3 } | null = null;
const values: number[] = [];

const post = (m: FromWorker) => scope.postMessage(m);
const fail = (e: unknown) => {
  playing = false;
  // the command line's wording: a model or a step is at fault, or else the engine
  const known = e instanceof ModelError || e instanceof DivergenceError;
  const text = known ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}`;
  post({ type: 'error', message: `error: ${oneLine(text)}` });
};

/** posts the warnings the simulation raised when it was made */
function announce(r: Run): void {
  for (const w of r.sim.warningLog) post({ type: 'warning', message: `warning: ${oneLine(w.message)}` });
}

/** a fresh simulation of the model with these settings */
function start(model: Model, source: string, integrator: string, step: number): Run {
  const options = isIntegratorName(integrator) ? { integrator, step } : { step };
  const sim = new Simulation(model, options);
  // the warnings raised while stepping go to the page as they come (those of the set-up: announce)
  sim.on('warning', (w) => post({ type: 'warning', message: `warning: ${oneLine(w.message)}` }));
  return { model, source, sim, sampler: new SceneSampler(sim), columns: outputColumns(sim, OUTPUT_GROUPS),
    integrator: sim.integrator, step: sim.h };
}

function load(text: string, source: string): void {
  playing = false;
  drag = null;
  const model = parseModel(text, { source });
  run = start(model, source, model.settings.integrator, model.settings.step);
  const description = (JSON.parse(text) as { description?: unknown }).description;
  post({ type: 'scene', scene: describeScene(model), columns: [...run.columns.columns],
    integrator: run.integrator, step: run.step, source,
    description: typeof description === 'string' ? description : '' });
  announce(run);
  plotted = [];
  frame(0, 0);
}

/** the drag spring's force on the grabbed point, applied as a held load for the next step */
function applyDrag(r: Run): void {
  const c = r.model.components[drag?.component ?? -1];
  if (!drag || !c || !c.dynamic) return;
  const w = 2 * Math.PI * DRAG_HZ, k = c.mass * w * w, d = 2 * DRAG_ZETA * c.mass * w;
  if (c.kind === 'body') {
    const h = r.sim.body(c.name), p = h.worldPoint(drag.local), v = h.pointVelocity(p);
    h.clearLoads().applyForce(p.map((x, i) => k * (drag!.target[i]! - x) - d * v[i]!), p);
  } else {
    const h = r.sim.particle(c.name), p = h.position, v = h.velocity;
    h.clearLoads().applyForce(p.map((x, i) => k * (drag!.target[i]! - x) - d * v[i]!));
  }
}

/** steps n times (or until the budget is spent); returns the steps taken */
function advance(r: Run, n: number, budget: number): number {
  const t0 = performance.now();
  let done = 0;
  while (done < n && performance.now() - t0 < budget) {
    applyDrag(r);
    r.sim.step();
    done++;
  }
  return done;
}

/** posts the state now, with the plotted columns */
function frame(steps: number, stepMs: number): void {
  if (!run) return;
  values.length = 0;
  run.columns.values(run.sim, run.sim.stepCount > 0, values);
  post({ type: 'frame', frame: run.sampler.sample(), playing, stepCount: run.sim.stepCount,
    values: plotted.map((i) => values[i]!), steps, stepMs });
}

/** one tick of the clock: step as far as wall time × speed asks, within the budget */
function tick(): void {
  const now = performance.now(), dt = (now - last) / 1000;
  last = now;
  if (!run || !playing) return;
  try {
    due += dt * speed;
    const wanted = Math.floor(due / run.step), t0 = performance.now();
    const steps = advance(run, wanted, BUDGET_MS);
    // time that could not be simulated within the budget is dropped, not owed
    due = steps < wanted ? 0 : due - steps * run.step;
    frame(steps, performance.now() - t0);
  } catch (e) {
    fail(e);
    frame(0, 0);
  }
}

function handle(m: ToWorker): void {
  if (m.type === 'load') { load(m.text, m.source); return; }
  if (!run) return;
  switch (m.type) {
    case 'play': playing = true; due = 0; break;
    case 'pause': playing = false; break;
    case 'step': playing = false; advance(run, 1, Infinity); break;
    case 'reset':
      playing = false;
      run = start(run.model, run.source, run.integrator, run.step);
      announce(run);
      break;
    case 'speed': speed = m.speed; break;
    case 'settings':
      playing = false;
      run = start(run.model, run.source, m.integrator, m.step);
      announce(run);
      break;
    case 'plot': plotted = m.columns.map((c) => run!.columns.columns.indexOf(c)).filter((i) => i >= 0); break;
    case 'drag': drag = { component: m.component, local: m.local, target: m.target }; break;
    case 'release': {
      const c = drag ? run.model.components[drag.component] : undefined;
      if (c) (c.kind === 'body' ? run.sim.body(c.name) : run.sim.particle(c.name)).clearLoads();
      drag = null;
      break;
    }
  }
  if (m.type !== 'drag' && m.type !== 'speed') frame(m.type === 'step' ? 1 : 0, 0);
}

scope.onmessage = (e) => {
  try {
    handle(e.data);
  } catch (err) {
    fail(err);
  }
};
last = performance.now();
setInterval(tick, TICK_MS);
