/**
 * The page of test/viewer/render.test.ts, bundled by esbuild: a model with every shape type drawn
 * by the render module in a 400 × 300 box, and functions the test calls through `window.renderTest`.
 */
import { parseModel, describeScene, type SceneFrame } from '../../src/index.js';
import { createSceneView, bodyColor } from '../../viewer/src/render/index.js';

/** the model: a ground plane, a height-field patch, and one body of each shape kind */
export const MODEL = {
  version: 1,
  gravity: [0, 0, -9.81],
  world: { shapes: [
    { type: 'plane' },
    { type: 'heightfield', size: [0.6, 0.6], position: [1.2, 1.2, 0], heights: [[0, 0.05, 0], [0.05, 0.1, 0.05], [0, 0.05, 0]] },
  ] },
  bodies: [
    { name: 'box', shape: { type: 'box', size: [0.3, 0.3, 0.3] }, density: 500, position: [0, 0, 0.3] },
    { name: 'ball', shape: { type: 'sphere', radius: 0.15 }, density: 500, position: [0.6, 0, 0.3] },
    { name: 'pill', shape: { type: 'capsule', radius: 0.08, length: 0.2 }, density: 500, position: [-0.6, 0, 0.3] },
    { name: 'can', shape: { type: 'cylinder', radius: 0.12, length: 0.25 }, density: 500, position: [0, 0.6, 0.3] },
    { name: 'egg', shape: { type: 'ellipsoid', radii: [0.18, 0.12, 0.1] }, density: 500, position: [0, -0.6, 0.3] },
    { name: 'gem', shape: { type: 'hull', points: [[0.15, 0, 0], [-0.15, 0, 0], [0, 0.15, 0], [0, -0.15, 0], [0, 0, 0.2], [0, 0, -0.1]] },
      density: 500, position: [0.6, 0.6, 0.3] },
  ],
};

const div = document.createElement('div');
div.style.cssText = 'width: 400px; height: 300px';
document.body.style.margin = '0';
document.body.appendChild(div);
const model = parseModel(JSON.stringify(MODEL));
const scene = describeScene(model);
const view = createSceneView(div, scene);
view.render();

/** the frame with component `i` moved by d (m) from q0 */
function moved(i: number, d: [number, number, number]): SceneFrame {
  const q = Float64Array.from(scene.q0), o = scene.components[i]!.qOffset;
  for (let k = 0; k < 3; k++) q[o + k] += d[k];
  return { t: 0, q, tensions: new Float64Array(scene.lines.length), contacts: new Float64Array(0) };
}

/** the drawn pixel at CSS pixel (x, y) from the top left, RGBA 0–255 */
function pixel(x: number, y: number): number[] {
  const gl = view.renderer.getContext(), r = view.renderer.getPixelRatio(), out = new Uint8Array(4);
  gl.readPixels(Math.round(x * r), Math.round(gl.drawingBufferHeight - 1 - y * r), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return Array.from(out);
}

/** where component i's origin is drawn, CSS pixels from the top left */
function projected(i: number, q: ArrayLike<number> = scene.q0): [number, number] {
  const o = scene.components[i]!.qOffset;
  const p = view.camera.position.clone().set(q[o]!, q[o + 1]!, q[o + 2]!).project(view.camera);
  return [(p.x + 1) * 200, (1 - p.y) * 150];
}

declare global { interface Window { renderTest: unknown } }
window.renderTest = {
  names: scene.components.map((c) => c.name),
  colors: scene.components.map((_, i) => bodyColor(i)),
  pixel, projected,
  /** draws component i moved by d; returns its new projected centre */
  move(i: number, d: [number, number, number]) {
    const f = moved(i, d);
    view.update(f);
    view.render();
    return projected(i, f.q);
  },
  pick(x: number, y: number) { return view.pick(x, y); },
};
