/**
 * The three.js view of a Vinculum scene, shared by the live viewer and the HTML report
 * (docs/viewer.md): `createSceneView` builds the objects of a `SceneDescription` once (a group per
 * component holding its shapes, the world's shapes, the overlays), and `update` places them from a
 * `SceneFrame` (each component's pose read from q). Callers run their own animation loop and call
 * `render`; the drawing buffer is preserved so a test or a screenshot can read the pixels.
 */
import {
  AmbientLight, DirectionalLight, GridHelper, Group, Mesh, PerspectiveCamera, Plane, Raycaster, Scene,
  Vector2, Vector3, WebGLRenderer, type Float32BufferAttribute,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { SceneDescription, SceneFrame } from '../../../src/index.js';
import { BACKGROUND, FIXED_SLATE, PARTICLE, WORLD_GREY, bodyColor, color3 } from './colors.js';
import { markerObject, shapeObject } from './shapes.js';
import { frameCamera, sceneBounds, type SceneBounds } from './camera.js';
import { Overlays, pointWorld } from './overlays.js';

export { bodyColor, BACKGROUND, WORLD_GREY, FIXED_SLATE, PARTICLE } from './colors.js';
export { sceneBounds, type SceneBounds } from './camera.js';

type V3 = [number, number, number];

/** what the view draws besides the bodies (defaults: joints and contacts on, frames off) */
export interface ViewOptions {
  /** each body's frame as an axes triad */
  frames?: boolean;
  /** joints: frame C's origin and free axes */
  joints?: boolean;
  /** contact points with their normal and friction force arrows */
  contacts?: boolean;
  /**
   * the force arrows' length per newton, m/N (default: the mean weight of a moving component draws
   * 30% of the scene's radius, so a pile's many contacts still show)
   */
  forceScale?: number;
}

/** a drawn scene: place it with `update`, draw it with `render` */
export interface SceneView {
  readonly renderer: WebGLRenderer;
  readonly camera: PerspectiveCamera;
  readonly scene: Scene;
  readonly controls: OrbitControls;
  /** the bounds the camera was framed on (at q0) */
  readonly bounds: SceneBounds;
  /** places every component, colours the lines by tension and draws the contacts */
  update(frame: SceneFrame): void;
  setOptions(o: ViewOptions): void;
  /** draws once */
  render(): void;
  /** fits the drawing buffer and the camera's aspect to the container */
  resize(): void;
  /** the component under the pointer: its index, the hit point in its frame and in world */
  pick(clientX: number, clientY: number): { component: number; local: V3; world: V3 } | null;
  /** the pointer's point on the plane through `planePoint` facing the camera */
  worldAt(clientX: number, clientY: number, planePoint: V3): V3;
  /** the world position of a point fixed on component `component` (its frame), as last updated */
  pointWorld(component: number, local: V3): V3;
  /** shows a line from a body point to the pointer (the viewer's mouse spring), or hides it (null) */
  setDragLine(from: V3 | null, to?: V3): void;
  dispose(): void;
}

/** the side of the square drawn for a plane: it covers the scene seen from the plane's origin */
function planeSize(b: SceneBounds, origin: readonly number[]): number {
  const d = Math.hypot(b.center.x - origin[0]!, b.center.y - origin[1]!, b.center.z - origin[2]!);
  return 3 * (b.radius + d);
}

/** a group per component holding its shapes (a marker for a component without one), and the world's */
function buildObjects(desc: SceneDescription, root: Group, b: SceneBounds, marker: number): Group[] {
  const groups = desc.components.map(() => new Group());
  const world = new Group();
  for (const s of desc.shapes) {
    const c = s.component < 0 ? null : desc.components[s.component]!;
    const rgb = !c ? WORLD_GREY : c.dynamic ? bodyColor(s.component) : FIXED_SLATE;
    (c ? groups[s.component]! : world).add(shapeObject(s, color3(rgb), planeSize(b, s.position)));
  }
  // a component without a shape gets a marker: a body its own colour, particles one colour for
  // all (a cloth of many particles in many colours would hide its shape)
  const shaped = new Set(desc.shapes.map((s) => s.component));
  desc.components.forEach((c, i) => {
    if (shaped.has(i)) return;
    const rgb = !c.dynamic ? FIXED_SLATE : c.kind === 'particle' ? PARTICLE : bodyColor(i);
    groups[i]!.add(markerObject(i, color3(rgb), c.kind === 'particle' ? marker * 0.6 : marker));
  });
  // a faint grid under the scene when the model has no plane to stand on
  if (!desc.shapes.some((s) => s.kind === 'plane')) {
    const grid = new GridHelper(4 * b.radius, 20, 0xc4c9d0, 0xd6dae0);
    // GridHelper's normal is three's +y: turned onto up, at the scene's lowest point
    grid.quaternion.setFromUnitVectors(new Vector3(0, 1, 0), b.up);
    // one scene radius below the lowest point at the start: what hangs and swings stays above it
    grid.position.copy(b.center).addScaledVector(b.up, b.low - b.radius - b.center.dot(b.up));
    world.add(grid);
  }
  root.add(world, ...groups);
  return groups;
}

/** the mean weight of the dynamic components, N (0 without gravity or moving components) */
function weight(desc: SceneDescription): number {
  const g = Math.hypot(...desc.gravity), moving = desc.components.filter((c) => c.dynamic);
  return moving.length === 0 ? 0 : (g * moving.reduce((m, c) => m + c.mass, 0)) / moving.length;
}

/**
 * true when WebGL draws in software (SwiftShader, llvmpipe: a browser without a usable GPU, as in
 * headless test browsers). There the view draws without multisampling: measured in headless
 * Chromium on 2 cores, multisampling took the contact scenes from 30 to 20 frames per second and
 * the 48-box pile from 15 to 6.
 */
function softwareRendering(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|softpipe|software/i.test(name);
}

/** builds the view of `desc` in `container` (a canvas is appended to it) */
export function createSceneView(container: HTMLElement, desc: SceneDescription, o: ViewOptions = {}): SceneView {
  return new View(container, desc, o);
}

class View implements SceneView {
  readonly renderer = new WebGLRenderer({ antialias: !softwareRendering(), preserveDrawingBuffer: true });
  readonly camera = new PerspectiveCamera(40, 1, 0.01, 1000);
  readonly scene = new Scene();
  readonly controls: OrbitControls;
  readonly bounds: SceneBounds;
  private readonly groups: Group[];
  private readonly overlays: Overlays;
  private readonly options: Required<ViewOptions>;
  private readonly raycaster = new Raycaster();
  private readonly ndc = new Vector2();

  constructor(private readonly container: HTMLElement, private readonly desc: SceneDescription, o: ViewOptions) {
    // renderer, lights: mostly ambient so a body's pixels keep its colour, one light for shape
    this.renderer.setPixelRatio(Math.min(2, globalThis.devicePixelRatio || 1));
    container.appendChild(this.renderer.domElement);
    this.scene.background = color3(BACKGROUND);
    const sun = new DirectionalLight(0xffffff, 1.4);
    this.scene.add(new AmbientLight(0xffffff, 1.5), sun);
    // objects, framed at q0
    this.bounds = sceneBounds(desc);
    const size = this.bounds.radius * 0.03, root = new Group();
    this.scene.add(root);
    this.groups = buildObjects(desc, root, this.bounds, size * 1.5);
    this.overlays = new Overlays(desc, this.groups, size, root);
    sun.position.copy(this.bounds.up).multiplyScalar(2).add(new Vector3(0.5, 0.3, 0)).normalize();
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    const w = weight(desc);
    const forceScale = w > 0 ? (0.3 * this.bounds.radius) / w : 0.01;
    this.options = { frames: false, joints: true, contacts: true, forceScale };
    this.setOptions(o);
    this.resize();
    this.controls.target.copy(frameCamera(this.camera, this.bounds));
    this.controls.update();
    const lines = desc.lines.length;
    this.update({ t: 0, q: Float64Array.from(desc.q0), tensions: new Float64Array(lines), contacts: new Float64Array(0) });
  }

  update(frame: SceneFrame): void {
    const q = frame.q;
    this.desc.components.forEach((c, i) => {
      const g = this.groups[i]!, o = c.qOffset;
      g.position.set(q[o]!, q[o + 1]!, q[o + 2]!);
      if (c.kind === 'body') g.quaternion.set(q[o + 4]!, q[o + 5]!, q[o + 6]!, q[o + 3]!);
      g.updateMatrixWorld(true);
    });
    this.overlays.lines.update(this.groups, frame);
    if (this.options.joints) this.overlays.joints.update(this.groups);
    if (this.options.contacts) this.overlays.contacts.update(frame, this.options.forceScale);
  }

  setOptions(o: ViewOptions): void {
    Object.assign(this.options, Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    this.overlays.showFrames(this.groups, this.options.frames);
    this.overlays.joints.group.visible = this.options.joints;
    this.overlays.contacts.group.visible = this.options.contacts;
  }

  render(): void { this.renderer.render(this.scene, this.camera); }

  resize(): void {
    const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  /** the pointer in normalised device coordinates, into the raycaster */
  private aim(clientX: number, clientY: number): void {
    const r = this.renderer.domElement.getBoundingClientRect();
    this.ndc.set(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(this.ndc, this.camera);
  }

  pick(clientX: number, clientY: number): { component: number; local: V3; world: V3 } | null {
    this.aim(clientX, clientY);
    const hit = this.raycaster.intersectObjects(this.groups, true)
      .find((h) => h.object instanceof Mesh && typeof h.object.userData['component'] === 'number');
    if (!hit) return null;
    const component = hit.object.userData['component'] as number;
    const local = this.groups[component]!.worldToLocal(hit.point.clone());
    return { component, local: [local.x, local.y, local.z], world: [hit.point.x, hit.point.y, hit.point.z] };
  }

  worldAt(clientX: number, clientY: number, planePoint: V3): V3 {
    this.aim(clientX, clientY);
    const normal = this.camera.getWorldDirection(new Vector3());
    const plane = new Plane().setFromNormalAndCoplanarPoint(normal, new Vector3(...planePoint));
    const at = this.raycaster.ray.intersectPlane(plane, new Vector3());
    return at ? [at.x, at.y, at.z] : planePoint;
  }

  pointWorld(component: number, local: V3): V3 {
    const p = pointWorld(this.groups, { component, local }, new Vector3());
    return [p.x, p.y, p.z];
  }

  setDragLine(from: V3 | null, to?: V3): void {
    const line = this.overlays.drag;
    line.visible = from !== null && to !== undefined;
    if (!from || !to) return;
    const at = line.geometry.getAttribute('position') as Float32BufferAttribute;
    at.setXYZ(0, ...from);
    at.setXYZ(1, ...to);
    at.needsUpdate = true;
  }

  dispose(): void {
    this.controls.dispose();
    this.scene.traverse((obj) => {
      if (!(obj instanceof Mesh)) return;
      obj.geometry.dispose();
      (Array.isArray(obj.material) ? obj.material : [obj.material]).forEach((m) => m.dispose());
    });
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
