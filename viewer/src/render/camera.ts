/**
 * Framing: the bounds of a scene at its initial positions (components, their shapes, world shapes
 * other than planes) and a camera that looks at them from above one side, with gravity pointing
 * down on the screen (camera up = −g; +z when there is no gravity).
 */
import { Vector3, type PerspectiveCamera } from 'three';
import type { SceneDescription } from '../../../src/index.js';
import { shapeRadius } from './shapes.js';

/** a sphere around the scene, the up direction and the height of its lowest point along up */
export interface SceneBounds {
  center: Vector3;
  radius: number;
  up: Vector3;
  /** min over the scene of up·x, m */
  low: number;
}

/** the component's origin at positions q, into out */
function origin(scene: SceneDescription, q: ArrayLike<number>, component: number, out: Vector3): Vector3 {
  const o = scene.components[component]!.qOffset;
  return out.set(q[o]!, q[o + 1]!, q[o + 2]!);
}

/**
 * the bounds of the scene at q0: each component's origin grown by its shapes' reach, and the
 * origins of the world's shapes other than planes
 */
export function sceneBounds(scene: SceneDescription): SceneBounds {
  const g = scene.gravity, gn = Math.hypot(g[0], g[1], g[2]);
  const up = gn > 0 ? new Vector3(-g[0] / gn, -g[1] / gn, -g[2] / gn) : new Vector3(0, 0, 1);
  const balls: [Vector3, number][] = [];
  const p = new Vector3();
  for (const [i] of scene.components.entries()) balls.push([origin(scene, scene.q0, i, p).clone(), 0]);
  for (const s of scene.shapes) {
    if (s.kind === 'plane') continue;
    // a world mesh (a floor, a height field) may be far larger than what moves on it: its origin
    // is kept in view, not its extent
    if (s.component < 0) { balls.push([new Vector3(...s.position), 0]); continue; }
    // a shape's offset in its component's frame only moves it by at most its length
    balls.push([origin(scene, scene.q0, s.component, p).clone(), shapeRadius(s) + Math.hypot(...s.position)]);
  }
  if (balls.length === 0) balls.push([new Vector3(), 1]);
  const lo = new Vector3(Infinity, Infinity, Infinity), hi = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const [c, r] of balls) {
    lo.min(new Vector3(c.x - r, c.y - r, c.z - r));
    hi.max(new Vector3(c.x + r, c.y + r, c.z + r));
  }
  const center = lo.clone().add(hi).multiplyScalar(0.5);
  const radius = Math.max(0.05, 0.5 * hi.clone().sub(lo).length());
  let low = Infinity;
  for (const [c, r] of balls) low = Math.min(low, c.dot(up) - r);
  return { center, radius, up, low };
}

/**
 * Places `camera` to see the whole bounds: from a direction tilted 25° above the horizontal,
 * turned 35° off the first horizontal axis, at the distance that fits the sphere in the view
 */
export function frameCamera(camera: PerspectiveCamera, b: SceneBounds): Vector3 {
  // a horizontal pair (h1, h2) orthogonal to up: h1 from the world axis least aligned with up
  const axes = [new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1)];
  const least = axes.reduce((a, c) => (Math.abs(c.dot(b.up)) < Math.abs(a.dot(b.up)) ? c : a));
  const h1 = least.clone().addScaledVector(b.up, -least.dot(b.up)).normalize();
  const h2 = b.up.clone().cross(h1);
  const tilt = (25 * Math.PI) / 180, turn = (35 * Math.PI) / 180;
  const dir = h1.multiplyScalar(-Math.sin(turn) * Math.cos(tilt))
    .addScaledVector(h2, -Math.cos(turn) * Math.cos(tilt)).addScaledVector(b.up, Math.sin(tilt));
  const fov = (camera.fov * Math.PI) / 180, fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * camera.aspect));
  const distance = (1.1 * b.radius) / Math.sin(fit / 2);
  camera.up.copy(b.up);
  camera.position.copy(b.center).addScaledVector(dir, distance);
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.lookAt(b.center);
  camera.updateProjectionMatrix();
  return b.center.clone();
}
