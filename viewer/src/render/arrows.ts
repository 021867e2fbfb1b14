/**
 * Many arrows (or dots) in a handful of draw calls: instanced meshes whose instances are set per
 * frame. A software renderer (SwiftShader, a browser without a GPU) pays for every draw call, and
 * a pile of boxes has hundreds of contacts: drawn as one object each, they took a frame 20 ms.
 * Capacity doubles when exceeded (a new instanced mesh), so steady frames allocate nothing.
 */
import {
  ConeGeometry, CylinderGeometry, Group, InstancedMesh, Matrix4, MeshBasicMaterial, Quaternion, SphereGeometry,
  Vector3, type BufferGeometry, type Color,
} from 'three';

/** unit shapes along +y with their base at the origin: a shaft of radius 1 and a cone of radius 1 */
const unitShaft = (): BufferGeometry => new CylinderGeometry(1, 1, 1, 8, 1).translate(0, 0.5, 0);
const unitHead = (): BufferGeometry => new ConeGeometry(1, 1, 12, 1).translate(0, 0.5, 0);

/** one instanced mesh of a geometry that grows its capacity by doubling */
class Instances {
  mesh: InstancedMesh;

  constructor(private readonly group: Group, private readonly geometry: BufferGeometry,
    private readonly material: MeshBasicMaterial, capacity: number) {
    this.mesh = this.make(capacity);
  }

  private make(capacity: number): InstancedMesh {
    const mesh = new InstancedMesh(this.geometry, this.material, capacity);
    mesh.count = 0;
    mesh.frustumCulled = false;
    this.group.add(mesh);
    return mesh;
  }

  /** room for n instances */
  reserve(n: number): void {
    if (n <= this.mesh.instanceMatrix.count) return;
    this.group.remove(this.mesh);
    this.mesh.dispose();
    this.mesh = this.make(Math.max(n, 2 * this.mesh.instanceMatrix.count));
  }

  /** ends a frame of n instances */
  commit(n: number): void {
    this.mesh.count = n;
    this.mesh.instanceMatrix.needsUpdate = true;
  }
}

/** arrows of one colour: a shaft and a head per arrow, two draw calls in all */
export class ArrowBatch {
  private readonly shafts: Instances;
  private readonly heads: Instances;
  private n = 0;
  private readonly m = new Matrix4();
  private readonly q = new Quaternion();
  private readonly s = new Vector3();
  private readonly at = new Vector3();
  private readonly dir = new Vector3();
  private static readonly Y = new Vector3(0, 1, 0);

  /** `width`: the shaft's radius (m); heads are 2.5 times wider */
  constructor(group: Group, color: Color, private readonly width: number) {
    const material = new MeshBasicMaterial({ color });
    this.shafts = new Instances(group, unitShaft(), material, 64);
    this.heads = new Instances(group, unitHead(), material, 64);
  }

  /** starts a frame of at most n arrows */
  begin(n: number): void {
    this.shafts.reserve(n);
    this.heads.reserve(n);
    this.n = 0;
  }

  /** an arrow from p along the unit direction d, of length L (m) */
  add(p: Vector3, d: Vector3, length: number): void {
    const head = Math.min(0.3 * length, 12 * this.width), shaft = length - head;
    this.q.setFromUnitVectors(ArrowBatch.Y, this.dir.copy(d));
    this.shafts.mesh.setMatrixAt(this.n, this.m.compose(p, this.q, this.s.set(this.width, shaft, this.width)));
    this.at.copy(p).addScaledVector(d, shaft);
    const r = 2.5 * this.width;
    this.heads.mesh.setMatrixAt(this.n, this.m.compose(this.at, this.q, this.s.set(r, head, r)));
    this.n++;
  }

  /** ends the frame */
  end(): void {
    this.shafts.commit(this.n);
    this.heads.commit(this.n);
  }
}

/** dots of one colour and radius, one draw call */
export class DotBatch {
  private readonly dots: Instances;
  private n = 0;
  private readonly m = new Matrix4();

  constructor(group: Group, color: Color, private readonly radius: number) {
    this.dots = new Instances(group, new SphereGeometry(1, 10, 6), new MeshBasicMaterial({ color }), 64);
  }

  begin(n: number): void { this.dots.reserve(n); this.n = 0; }

  add(p: Vector3): void {
    const r = this.radius;
    this.dots.mesh.setMatrixAt(this.n++, this.m.makeScale(r, r, r).setPosition(p));
  }

  end(): void { this.dots.commit(this.n); }
}
