/**
 * Dragging a body with the mouse: a pointer press on a dynamic component grabs the point under
 * it; moving the pointer moves a target on the plane through the grabbed point facing the camera;
 * the worker pulls the point towards the target with a spring (worker.ts). Orbiting is off while
 * a body is held; a press on empty space orbits as usual.
 */
import type { SceneDescription } from '../../../src/index.js';
import type { SceneView } from '../render/index.js';
import type { ToWorker } from '../protocol.js';

type V3 = [number, number, number];

/** what is held: the component, the point in its frame, and the target in world */
export interface Held { component: number; local: V3; target: V3 }

/** wires the pointer on the view's canvas; `held()` tells the animation loop what to draw */
export function dragging(
  view: SceneView, scene: SceneDescription, send: (m: ToWorker) => void,
): () => Held | null {
  const canvas = view.renderer.domElement;
  let held: Held | null = null, plane: V3 = [0, 0, 0];
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    const hit = view.pick(e.clientX, e.clientY);
    if (!hit || !scene.components[hit.component]?.dynamic) return;
    held = { component: hit.component, local: hit.local, target: hit.world };
    plane = hit.world;
    view.controls.enabled = false;
    canvas.setPointerCapture(e.pointerId);
    send({ type: 'drag', ...held });
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!held) return;
    held.target = view.worldAt(e.clientX, e.clientY, plane);
    send({ type: 'drag', ...held });
  });
  const release = () => {
    if (!held) return;
    held = null;
    view.controls.enabled = true;
    view.setDragLine(null);
    send({ type: 'release' });
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  return () => held;
}
