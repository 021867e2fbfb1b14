/**
 * The messages between the viewer's page and its simulation worker (docs/viewer.md, "How it
 * works"). The page sends commands; the worker answers a load with the scene and the plottable
 * columns, then posts a frame per tick of its clock (about 60 per second) while it runs.
 */
import type { SceneDescription, SceneFrame } from '../../src/index.js';

type V3 = [number, number, number];

/** page → worker */
export type ToWorker =
  /** parses and loads a model; `source` names it in error messages */
  | { type: 'load'; text: string; source: string }
  | { type: 'play' }
  | { type: 'pause' }
  /** one step (pauses first) */
  | { type: 'step' }
  /** back to the model's initial state, paused */
  | { type: 'reset' }
  /** simulated seconds per wall-clock second */
  | { type: 'speed'; speed: number }
  /** another integrator or step size: the run restarts from t = 0 with it */
  | { type: 'settings'; integrator: string; step: number }
  /** the plotted columns, by name */
  | { type: 'plot'; columns: string[] }
  /** pulls the component's point `local` (its frame) towards the world point `target` with a spring */
  | { type: 'drag'; component: number; local: V3; target: V3 }
  | { type: 'release' };

/** worker → page */
export type FromWorker =
  /** a model was loaded: what to draw, what can be plotted, its settings */
  | { type: 'scene'; scene: SceneDescription; columns: string[]; integrator: string; step: number;
      source: string; description: string }
  /**
   * the state now, the plotted columns' values, and the cost: `steps` steps this tick took
   * `stepMs` ms of the worker's wall clock
   */
  | { type: 'frame'; frame: SceneFrame; playing: boolean; stepCount: number; values: number[];
      steps: number; stepMs: number }
  /** a model or a step failed: the one-line message, as the command line prints it */
  | { type: 'error'; message: string }
  /** a warning of the simulation, the line `vinculum run` prints on stderr */
  | { type: 'warning'; message: string };
