/**
 * What is drawn over the bodies: springs and distance constraints as polylines coloured by
 * tension (normalised by the largest |tension| seen so far, so a colour reads "how taut, relative
 * to the run"), joints as a dot at frame C with a line along each free axis, body frames as axes
 * triads, contacts as a dot with the normal force and the friction force as arrows of
 * `forceScale` m per N, and the drag spring. Arrows come from a pool that only grows, so a frame
 * allocates nothing once the largest contact count has been seen.
 */
import {
  ArrowHelper, AxesHelper, BufferGeometry, Color, Float32BufferAttribute, Group, Line, LineBasicMaterial,
  Mesh, MeshBasicMaterial, Quaternion, SphereGeometry, Vector3, type Object3D,
} from 'three';
import type { SceneDescription, SceneFrame, ScenePoint } from '../../../src/index.js';
import { CONTACT_STRIDE } from '../../../src/api/scene.js';
import { FRICTION_FORCE, JOINT, NORMAL_FORCE, color3, tensionColor } from './colors.js';

/** where each component is: its group (pose set from q); −1, the world, is the identity */
export type ComponentObjects = readonly Group[];

/** the world position of a point fixed on a component (or in world), into out */
export function pointWorld(objects: ComponentObjects, p: ScenePoint, out: Vector3): Vector3 {
  out.set(p.local[0], p.local[1], p.local[2]);
  return p.component < 0 ? out : out.applyMatrix4(objects[p.component]!.matrixWorld);
}

/** springs and distance constraints */
class Lines {
  readonly group = new Group();
  private readonly lines: Line[];
  private maxTension = 0;
  private readonly p = new Vector3();
  private readonly c = new Color();

  constructor(private readonly scene: SceneDescription) {
    this.lines = scene.lines.map((l) => {
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new Float32BufferAttribute(new Float32Array(3 * l.points.length), 3));
      const line = new Line(geometry, new LineBasicMaterial({ color: 0x3060ff }));
      line.frustumCulled = false;
      this.group.add(line);
      return line;
    });
  }

  update(objects: ComponentObjects, frame: SceneFrame): void {
    for (let i = 0; i < this.lines.length; i++) this.maxTension = Math.max(this.maxTension, Math.abs(frame.tensions[i] ?? 0));
    this.scene.lines.forEach((l, i) => {
      const line = this.lines[i]!, at = line.geometry.getAttribute('position') as Float32BufferAttribute;
      l.points.forEach((p, k) => { pointWorld(objects, p, this.p); at.setXYZ(k, this.p.x, this.p.y, this.p.z); });
      at.needsUpdate = true;
      const r = this.maxTension > 0 ? (frame.tensions[i] ?? 0) / this.maxTension : 0;
      (line.material as LineBasicMaterial).color.copy(tensionColor(this.c, r));
    });
  }
}

/** joints: a dot at frame C and a line along each free axis of C */
class Joints {
  readonly group = new Group();
  private readonly marks: { dot: Mesh; axes: Line[] }[];
  private readonly p = new Vector3();
  private readonly q = new Quaternion();
  private readonly local = new Quaternion();
  private readonly d = new Vector3();

  constructor(private readonly scene: SceneDescription, private readonly size: number) {
    const material = new MeshBasicMaterial({ color: color3(JOINT) }), lineMaterial = new LineBasicMaterial({ color: color3(JOINT) });
    const dot = new SphereGeometry(size * 0.6, 12, 6);
    this.marks = scene.joints.map((j) => {
      const mark = { dot: new Mesh(dot, material), axes: [...j.freeRotation, ...j.freeTranslation].map(() => {
        const g = new BufferGeometry().setAttribute('position', new Float32BufferAttribute(new Float32Array(6), 3));
        const line = new Line(g, lineMaterial);
        line.frustumCulled = false;
        return line;
      }) };
      this.group.add(mark.dot, ...mark.axes);
      return mark;
    });
  }

  update(objects: ComponentObjects): void {
    this.scene.joints.forEach((j, i) => {
      const mark = this.marks[i]!;
      pointWorld(objects, { component: j.a.component, local: j.a.position }, this.p);
      mark.dot.position.copy(this.p);
      // C's orientation in world: the component's, then C's in it
      const [w, x, y, z] = j.a.orientation;
      this.local.set(x, y, z, w);
      this.q.identity();
      if (j.a.component >= 0) objects[j.a.component]!.getWorldQuaternion(this.q);
      this.q.multiply(this.local);
      [...j.freeRotation, ...j.freeTranslation].forEach((axis, k) => {
        this.d.set(axis === 0 ? 1 : 0, axis === 1 ? 1 : 0, axis === 2 ? 1 : 0).applyQuaternion(this.q).multiplyScalar(4 * this.size);
        const at = mark.axes[k]!.geometry.getAttribute('position') as Float32BufferAttribute;
        at.setXYZ(0, this.p.x - this.d.x, this.p.y - this.d.y, this.p.z - this.d.z);
        at.setXYZ(1, this.p.x + this.d.x, this.p.y + this.d.y, this.p.z + this.d.z);
        at.needsUpdate = true;
      });
    });
  }
}

/** contact dots and force arrows, pooled */
class Contacts {
  readonly group = new Group();
  private readonly normals: ArrowHelper[] = [];
  private readonly frictions: ArrowHelper[] = [];
  private readonly dots: Mesh[] = [];
  private readonly dotGeometry: SphereGeometry;
  private readonly dotMaterial = new MeshBasicMaterial({ color: color3(NORMAL_FORCE) });
  private readonly p = new Vector3();
  private readonly d = new Vector3();

  constructor(private readonly size: number) {
    this.dotGeometry = new SphereGeometry(size * 0.15, 8, 4);
  }

  private grow(n: number): void {
    while (this.dots.length < n) {
      const dot = new Mesh(this.dotGeometry, this.dotMaterial);
      const normal = new ArrowHelper(new Vector3(0, 0, 1), new Vector3(), 1, color3(NORMAL_FORCE).getHex());
      const friction = new ArrowHelper(new Vector3(1, 0, 0), new Vector3(), 1, color3(FRICTION_FORCE).getHex());
      this.dots.push(dot); this.normals.push(normal); this.frictions.push(friction);
      this.group.add(dot, normal, friction);
    }
  }

  /** one arrow from p along d·scale (hidden when shorter than a tenth of the marker size) */
  private arrow(a: ArrowHelper, length: number): void {
    a.visible = length > this.size * 0.1;
    if (!a.visible) return;
    a.position.copy(this.p);
    a.setDirection(this.d.normalize());
    const head = Math.min(0.3 * length, this.size * 0.6);
    a.setLength(length, head, head * 0.5);
  }

  update(frame: SceneFrame, forceScale: number): void {
    const c = frame.contacts, n = c.length / CONTACT_STRIDE;
    this.grow(n);
    for (let k = 0; k < this.dots.length; k++) {
      const on = k < n;
      this.dots[k]!.visible = on; this.normals[k]!.visible = on; this.frictions[k]!.visible = on;
      if (!on) continue;
      const o = CONTACT_STRIDE * k;
      this.p.set(c[o]!, c[o + 1]!, c[o + 2]!);
      this.dots[k]!.position.copy(this.p);
      this.d.set(c[o + 3]!, c[o + 4]!, c[o + 5]!);
      this.arrow(this.normals[k]!, c[o + 6]! * forceScale);
      this.d.set(c[o + 7]!, c[o + 8]!, c[o + 9]!);
      this.arrow(this.frictions[k]!, this.d.length() * forceScale);
    }
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
      if (c.kind !== 'body') return;
      const axes = new AxesHelper(size * 2);
      objects[i]!.add(axes);
    });
    const dragGeometry = new BufferGeometry().setAttribute('position', new Float32BufferAttribute(new Float32Array(6), 3));
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
