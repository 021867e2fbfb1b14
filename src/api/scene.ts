/**
 * What a viewer draws, read through the public API (docs/viewer.md): `describeScene` gives, once
 * per model, every shape with its geometry, the components, the joints' frames and the springs'
 * attachment points, all in the frames they are fixed to, as plain JSON-ready data; a
 * `SceneSampler` gives, once per drawn frame, the positions q, the springs' tensions and the last
 * step's contacts with their forces. A renderer places each item with its component's pose read
 * from q (a particle's x, y, z; a body's x, y, z, qw, qx, qy, qz at `qOffset`), so a frame costs
 * the state vector and the contacts, not a mesh.
 */
import type { Model, Vec3Tuple, QuatTuple } from '../model/model.js';
import type { ShapeEntry } from '../model/contactModel.js';
import type { Simulation } from '../simulation.js';
import type { JointHandle, ForceHandle } from './handles.js';
import { Joint } from '../constraints/joint.js';
import { DistanceConstraint } from '../constraints/distance.js';
import { PathSpring } from '../forces/pathSpring.js';
import { FrameSpring } from '../forces/frameSpring.js';
import { pointAt, type PointRef } from '../model/points.js';

/** a point fixed on a component, in its frame; `component` −1: a world point, in world */
export interface ScenePoint {
  /** the component's index in `SceneDescription.components`, −1 for the world */
  component: number;
  /** the point in the component's frame (world for a world point), m */
  local: Vec3Tuple;
}

/** a frame fixed on a component: its origin and orientation in the component's frame */
export interface SceneFrameOn {
  /** the component's index, −1 for the world */
  component: number;
  /** the frame's origin in the component's frame, m */
  position: Vec3Tuple;
  /** its orientation [w, x, y, z] relative to the component's frame */
  orientation: QuatTuple;
}

/** a hull's or a mesh's triangles */
export interface SceneMesh {
  /** (3V) vertex positions in the shape's frame, m */
  positions: number[];
  /** (3T) each triangle's vertex indices, counter-clockwise seen from outside */
  indices: number[];
}

/** a particle or a body, in model order (the index is `ScenePoint.component`'s) */
export interface SceneComponent {
  /** its name in the model */
  name: string;
  /** a particle's q holds x, y, z; a body's x, y, z, qw, qx, qy, qz */
  kind: 'particle' | 'body';
  /** where its pose starts in q: x, y, z (and qw, qx, qy, qz for a body) */
  qOffset: number;
  /** false: a fixed or kinematic component */
  dynamic: boolean;
  /** kg */
  mass: number;
}

/** a shape to draw: the collision shapes of the model, whether or not they collide */
export interface SceneShape {
  /** "body:<name>", "body:<name>.shapes[i]", "particle:<name>" or "world.shapes[i]" */
  name: string;
  /** the shape's type (a height field is a mesh) */
  kind: ShapeEntry['kind'];
  /** the component it is fixed to, −1 for the world */
  component: number;
  /**
   * sphere [r], capsule [r, half length] (axis z), box [hx, hy, hz], cylinder [r, half length]
   * (axis z), ellipsoid [rx, ry, rz], plane [] (the plane z = 0 of its frame, normal +z)
   */
  params: number[];
  /** position in the component's frame, m */
  position: Vec3Tuple;
  /** orientation [w, x, y, z] in the component's frame */
  orientation: QuatTuple;
  /** hulls (faces fanned into triangles) and meshes */
  mesh?: SceneMesh;
}

/** a joint's two frames: C fixed in side A, D fixed in side B (docs/constraints.md) */
export interface SceneJoint {
  /** its name in the model */
  name: string;
  /** 'hinge', 'ball', …, 'custom' */
  type: string;
  /** frame C on side A (component −1: the world) */
  a: SceneFrameOn;
  /** frame D on side B */
  b: SceneFrameOn;
  /** the axes of C it turns about (0 x, 1 y, 2 z): a hinge's [2], a ball's [0, 1, 2], a weld's [] */
  freeRotation: number[];
  /** the axes of C it slides along: a slider's [2] */
  freeTranslation: number[];
}

/** a line between attachment points: a spring, a via-point spring, a frame spring or a distance constraint */
export interface SceneLine {
  /** the spring's or the constraint's name in the model */
  name: string;
  /** what it is: an axial or via-point spring, a frame spring, or a distance constraint */
  kind: 'spring' | 'frame-spring' | 'distance';
  /** the path's points in order (two except for via-point springs) */
  points: ScenePoint[];
  /** the rest length, m (a frame spring: 0) */
  restLength: number;
}

/** everything a viewer draws of a model that does not change as it moves */
export interface SceneDescription {
  /** the particles and bodies, in model order */
  components: SceneComponent[];
  /** the shapes: the world's, then the components' in model order */
  shapes: SceneShape[];
  /** the joints (distance constraints are lines) */
  joints: SceneJoint[];
  /** springs and distance constraints; `SceneFrame.tensions` follows this order */
  lines: SceneLine[];
  /** the initial positions (nq) */
  q0: number[];
  /** m/s² */
  gravity: Vec3Tuple;
  /** the model's step size h, s */
  step: number;
  /** the model's integrator */
  integrator: string;
}

/** numbers per contact in `SceneFrame.contacts`: point (3), normal (3), normal force (1), friction force (3) */
export const CONTACT_STRIDE = 10;

/** what moves, at one instant */
export interface SceneFrame {
  /** s */
  t: number;
  /** the positions (nq) */
  q: Float64Array;
  /** each line's tension, N (positive pulls its ends together; a frame spring: the force's magnitude) */
  tensions: Float64Array;
  /**
   * the last step's contacts, CONTACT_STRIDE numbers each: point (m), unit normal from A to B,
   * normal force (N), friction force (N, world)
   */
  contacts: Float64Array;
}

const tuple3 = (a: ArrayLike<number>): Vec3Tuple => [a[0]!, a[1]!, a[2]!];
const tuple4 = (a: ArrayLike<number>): QuatTuple => [a[0]!, a[1]!, a[2]!, a[3]!];
const scenePoint = (p: PointRef): ScenePoint => ({ component: p.component, local: tuple3(p.local) });

/** a hull's faces fanned into triangles, or a mesh's triangles */
function shapeMesh(s: ShapeEntry): SceneShape['mesh'] {
  const g = s.geometry;
  if (!g) return undefined;
  const positions = Array.from(g.vertices);
  if (g.type === 'mesh') return { positions, indices: Array.from(g.triangles) };
  const indices: number[] = [];
  for (let f = 0; f < g.faceCount; f++) {
    const start = g.faceStart[f]!, end = g.faceStart[f + 1]!;
    const fv = g.faceVertices;
    for (let k = start + 1; k + 1 < end; k++) indices.push(fv[start]!, fv[k]!, fv[k + 1]!);
  }
  return { positions, indices };
}

function sceneShape(s: ShapeEntry): SceneShape {
  const mesh = shapeMesh(s);
  return {
    name: s.name, kind: s.kind, component: s.component, params: [...s.params],
    position: tuple3(s.position), orientation: tuple4(s.orientation), ...(mesh ? { mesh } : {}),
  };
}

function sceneJoint(c: Joint): SceneJoint {
  const side = (body: Joint['bodyA'], f: { p: Float64Array; q: Float64Array }): SceneFrameOn =>
    ({ component: body ? body.index : -1, position: tuple3(f.p), orientation: tuple4(f.q) });
  // a universal joint turns about C's x and D's y; otherwise the axes without a lock row turn
  const rotation = c.layout.universal ? [0, 1] : [0, 1, 2].filter((k) => !c.layout.angular.includes(k));
  return {
    name: c.name, type: c.type, a: side(c.bodyA, c.frameA), b: side(c.bodyB, c.frameB),
    freeRotation: rotation, freeTranslation: Array.from(c.layout.freeLinear),
  };
}

/** the springs, frame springs and distance constraints of a model, in the order of `SceneDescription.lines` */
function sceneLines(model: Model): SceneLine[] {
  const lines: SceneLine[] = [];
  for (const f of model.forces) {
    if (f instanceof PathSpring) {
      lines.push({ name: f.name, kind: 'spring', points: f.points.map(scenePoint), restLength: f.restLength });
    } else if (f instanceof FrameSpring) {
      const [oA, oB] = f.origins;
      const points = [
        { component: f.bodyA?.index ?? -1, local: oA }, { component: f.bodyB?.index ?? -1, local: oB },
      ];
      lines.push({ name: f.name, kind: 'frame-spring', points, restLength: 0 });
    }
  }
  for (const c of model.constraints) {
    if (c instanceof DistanceConstraint) {
      lines.push({ name: c.name, kind: 'distance', points: c.points.map(scenePoint), restLength: c.length });
    }
  }
  return lines;
}

/** what a viewer draws of `model` that stays as it moves (plain data: JSON and structured clone carry it) */
export function describeScene(model: Model): SceneDescription {
  return {
    components: model.components.map((c) => ({
      name: c.name, kind: c.kind, qOffset: c.qOffset, dynamic: c.dynamic, mass: c.mass,
    })),
    shapes: model.shapes.map(sceneShape),
    joints: model.constraints.filter((c): c is Joint => c instanceof Joint).map(sceneJoint),
    lines: sceneLines(model),
    q0: Array.from(model.initialQ),
    gravity: tuple3(model.settings.gravity),
    step: model.settings.step,
    integrator: model.settings.integrator,
  };
}

/** one line's tension reader */
type TensionOf = () => number;

/**
 * Reads the moving part of a simulation's scene, a `SceneFrame`, through its handles (made once
 * here). Each `sample` returns fresh arrays, ready to post to another thread.
 */
export class SceneSampler {
  private readonly tensions: TensionOf[];

  constructor(private readonly sim: Simulation) {
    const model = sim.model;
    const distances = new Map(model.constraints
      .flatMap((c) => (c instanceof DistanceConstraint ? [[c.name, c]] as const : [])));
    this.tensions = sceneLines(model).map((line) => {
      if (line.kind === 'spring') {
        const h: ForceHandle = sim.force(line.name);
        return () => h.tension;
      }
      if (line.kind === 'frame-spring') {
        const h: ForceHandle = sim.force(line.name);
        return () => { const [x, y, z] = h.wrench.force; return Math.hypot(x, y, z); };
      }
      return this.distanceTension(sim.joint(line.name), distances.get(line.name)!.points);
    });
  }

  /** a distance constraint's force along its points' line: positive pulls them together */
  private distanceTension(h: JointHandle, points: readonly PointRef[]): TensionOf {
    return () => {
      if (this.sim.stepCount === 0) return 0;
      const q = this.sim.state.q, a = pointAt(points[0]!, q), b = pointAt(points[1]!, q), f = h.reaction.force;
      const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!], l = Math.hypot(d[0]!, d[1]!, d[2]!);
      // the force on side A points at B when the constraint pulls
      return l > 0 ? (f[0] * d[0]! + f[1] * d[1]! + f[2] * d[2]!) / l : Math.hypot(...f);
    };
  }

  /** the positions, the lines' tensions and the last step's contacts (none before the first step) */
  sample(): SceneFrame {
    const sim = this.sim;
    const contacts = sim.stepCount > 0 ? sim.contacts() : [];
    const packed = new Float64Array(CONTACT_STRIDE * contacts.length);
    contacts.forEach((c, k) => {
      packed.set(c.point, CONTACT_STRIDE * k);
      packed.set(c.normal, CONTACT_STRIDE * k + 3);
      packed[CONTACT_STRIDE * k + 6] = c.normalForce;
      packed.set(c.frictionForce, CONTACT_STRIDE * k + 7);
    });
    return {
      t: sim.time,
      q: Float64Array.from(sim.state.q),
      tensions: Float64Array.from(this.tensions, (f) => f()),
      contacts: packed,
    };
  }
}
