/**
 * What is drawn over the bodies: springs and distance constraints as polylines coloured by
 * tension (normalised by the largest |tension| seen so far, so a colour reads "how taut, relative
 * to the run"), joints as a dot at frame C with a line along each free axis, body frames as axes
 * triads, contacts as a dot with the normal force and the friction force as arrows of
 * `forceScale` m per N, and the drag spring. Each kind is one batch (one line-segment geometry,
 * or instanced meshes: ./arrows.ts), so a cloth's thousand springs or a pile's hundreds of
 * contacts cost a few draw calls; a steady frame allocates nothing.
 */
import {
  AxesHelper, BufferGeometry, Color, Float32BufferAttribute, Group, Line, LineBasicMaterial, LineSegments,
  Quaternion, Vector3, type Object3D,
} from 'three';
import type { SceneDescription, SceneFrame, ScenePoint } from '../../../src/index.js';
import { CONTACT_STRIDE } from '../../../src/api/scene.js';
import { FRICTION_FORCE, JOINT, NORMAL_FORCE, color3, tensionColor } from './colors.js';
import { ArrowBatch, DotBatch } from './arrows.js';

/** where each component is: its group (pose set from q); −1, the world, is the identity */
export type ComponentObjects = readonly Group[];

/** the world position of a point fixed on a component (or in world), into out */
export function pointWorld(objects: ComponentObjects, p: ScenePoint, out: Vector3): Vector3 {
  out.set(p.local[0], p.local[1], p.local[2]);
  return p.component < 0 ? out : out.applyMatrix4(objects[p.component]!.matrixWorld);
}

/** line segments of `n` segments, written per frame; `colored`: a colour per vertex */
function segments(n: number, material: LineBasicMaterial, colored: boolean): LineSegments {
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(new Float32Array(6 * n), 3));
  if (colored) g.setAttribute('color', new Float32BufferAttribute(new Float32Array(6 * n), 3));
  const s = new LineSegments(g, material);
  s.frustumCulled = false;
  return s;
}

/** springs and distance constraints: every segment of every line in one geometry */
class Lines {
  readonly group = new Group();
  private readonly segs: LineSegments;
  private maxTension = 0;
  private readonly a = new Vector3();
  private readonly b = new Vector3();
  private readonly c = new Color();

  constructor(private readonly scene: SceneDescription) {
    const n = scene.lines.reduce((k, l) => k + Math.max(0, l.points.length - 1), 0);
    this.segs = segments(n, new LineBasicMaterial({ vertexColors: true }), true);
    this.group.add(this.segs);
  }

  update(objects: ComponentObjects, frame: SceneFrame): void {
    for (let i = 0; i < this.scene.lines.length; i++) {
      this.maxTension = Math.max(this.maxTension, Math.abs(frame.tensions[i] ?? 0));
    }
    const at = this.segs.geometry.getAttribute('position') as Float32BufferAttribute;
    const col = this.segs.geometry.getAttribute('color') as Float32BufferAttribute;
    let v = 0;
    this.scene.lines.forEach((l, i) => {
      const r = this.maxTension > 0 ? (frame.tensions[i] ?? 0) / this.maxTension : 0;
      tensionColor(this.c, r);
      for (let k = 0; k + 1 < l.points.length; k++) {
        pointWorld(objects, l.points[k]!, this.a);
        pointWorld(objects, l.points[k + 1]!, this.b);
        at.setXYZ(v, this.a.x, this.a.y, this.a.z); col.setXYZ(v++, this.c.r, this.c.g, this.c.b);
        at.setXYZ(v, this.b.x, this.b.y, this.b.z); col.setXYZ(v++, this.c.r, this.c.g, this.c.b);
      }
    });
    at.needsUpdate = true;
    col.needsUpdate = true;
  }
}

/** joints: a dot at frame C and a line along each free axis of C */
class Joints {
  readonly group = new Group();
  private readonly dots: DotBatch;
  private readonly axes: LineSegments;
  private readonly p = new Vector3();
  private readonly q = new Quaternion();
  private readonly local = new Quaternion();
  private readonly d = new Vector3();

  constructor(private readonly scene: SceneDescription, private readonly size: number) {
    this.dots = new DotBatch(this.group, color3(JOINT), size * 0.6);
    const n = scene.joints.reduce((k, j) => k + j.freeRotation.length + j.freeTranslation.length, 0);
    this.axes = segments(n, new LineBasicMaterial({ color: color3(JOINT) }), false);
    this.group.add(this.axes);
  }

  update(objects: ComponentObjects): void {
    const at = this.axes.geometry.getAttribute('position') as Float32BufferAttribute;
    let v = 0;
    this.dots.begin(this.scene.joints.length);
    for (const j of this.scene.joints) {
      pointWorld(objects, { component: j.a.component, local: j.a.position }, this.p);
      this.dots.add(this.p);
      // C's orientation in world: the component's, then C's in it
      const [w, x, y, z] = j.a.orientation;
      this.local.set(x, y, z, w);
      this.q.identity();
      if (j.a.component >= 0) objects[j.a.component]!.getWorldQuaternion(this.q);
      this.q.multiply(this.local);
      for (const axis of [...j.freeRotation, ...j.freeTranslation]) {
        this.d.set(axis === 0 ? 1 : 0, axis === 1 ? 1 : 0, axis === 2 ? 1 : 0).applyQuaternion(this.q)
          .multiplyScalar(4 * this.size);
        at.setXYZ(v++, this.p.x - this.d.x, this.p.y - this.d.y, this.p.z - this.d.z);
        at.setXYZ(v++, this.p.x + this.d.x, this.p.y + this.d.y, this.p.z + this.d.z);
      }
    }
    this.dots.end();
    at.needsUpdate = true;
  }
}

/** contact dots and force arrows */
class Contacts {
  readonly group = new Group();
  private readonly dots: DotBatch;
  private readonly normals: ArrowBatch;
  private readonly frictions: ArrowBatch;
  private readonly p = new Vector3();
  private readonly d = new Vector3();

  constructor(private readonly size: number) {
    this.dots = new DotBatch(this.group, color3(NORMAL_FORCE), size * 0.25);
    this.normals = new ArrowBatch(this.group, color3(NORMAL_FORCE), size * 0.1);
    this.frictions = new ArrowBatch(this.group, color3(FRICTION_FORCE), size * 0.1);
  }

  update(frame: SceneFrame, forceScale: number): void {
    const c = frame.contacts, n = c.length / CONTACT_STRIDE, shortest = this.size * 0.1;
    this.dots.begin(n); this.normals.begin(n); this.frictions.begin(n);
    for (let k = 0; k < n; k++) {
      const o = CONTACT_STRIDE * k;
      this.p.set(c[o]!, c[o + 1]!, c[o + 2]!);
      this.dots.add(this.p);
      // an arrow shorter than a tenth of the marker size is left out
      const fn = c[o + 6]! * forceScale;
      if (fn > shortest) this.normals.add(this.p, this.d.set(c[o + 3]!, c[o + 4]!, c[o + 5]!), fn);
      this.d.set(c[o + 7]!, c[o + 8]!, c[o + 9]!);
      const ft = this.d.length() * forceScale;
      if (ft > shortest) this.frictions.add(this.p, this.d.normalize(), ft);
    }
    this.dots.end(); this.normals.end(); this.frictions.end();
  }
}

/** every overlay, each in its own group so the options can hide it */
export class Overlays {
  readonly lines: Lines;
  readonly joints: Joints;
  readonly contacts: Contacts;
  readonly drag: Line;

  /** `size`: the marker size (m), a small fraction of the scene */
  constructor(scene: SceneDescription, objects: ComponentObjects, size: number, root: Object3D) {
    this.lines = new Lines(scene);
    this.joints = new Joints(scene, size);
    this.contacts = new Contacts(size);
    scene.components.forEach((c, i) => {
      if (c.kind === 'body') objects[i]!.add(new AxesHelper(size * 2));
    });
    const dragGeometry = new BufferGeometry()
      .setAttribute('position', new Float32BufferAttribute(new Float32Array(6), 3));
    this.drag = new Line(dragGeometry, new LineBasicMaterial({ color: 0xff6600 }));
    this.drag.visible = false;
    this.drag.frustumCulled = false;
    root.add(this.lines.group, this.joints.group, this.contacts.group, this.drag);
  }

  /** shows or hides the body frames' triads (children of the component groups) */
  showFrames(objects: ComponentObjects, on: boolean): void {
    for (const g of objects) for (const child of g.children) if (child instanceof AxesHelper) child.visible = on;
  }
}
