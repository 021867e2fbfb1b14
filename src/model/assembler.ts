/**
 * Programmatic model construction. The JSON loader (src/io/loader.ts) validates a file and
 * then drives this assembler; the public ModelBuilder (src/api) and the tests use it too.
 * Components, markers, forces and constraints come first; the contact part (docs/model-format.md,
 * Contact: collision shapes, joint limits and motors, the solver's settings) refers to them by index.
 */
import { Model, DEFAULT_SETTINGS, type Component, type Marker, type ModelSettings, type Vec3Tuple, type QuatTuple, type Particle, type RigidBody } from './model.js';
import { type PointRef, POINT_PARTICLE, POINT_BODY, POINT_WORLD } from './points.js';
import { ModelError, unitQuaternion } from './errors.js';
import { formatValue, quote } from './format.js';
import type { ForceEffector } from '../forces/force.js';
import type { BilateralConstraint } from '../constraints/constraint.js';
import { cholesky3, symmetricEigenvalues3 } from '../math/mat3.js';
import { Gravity } from '../forces/gravity.js';
import { applySoftness } from '../constraints/softness.js';
import { InertialForces } from '../forces/inertial.js';
import { ComponentDamping } from '../forces/damping.js';
import { FrameSpring, type FrameSpringParams } from '../forces/frameSpring.js';
import {
  DEFAULT_CONTACT, type ContactSettings, type ShapeEntry, type JointLimit, type JointMotor, type ShapeMaterial,
  type NamedMaterial, type MaterialPair,
} from './contactModel.js';

export interface ParticleSpec {
  name: string;
  mass: number;
  position: Vec3Tuple;
  velocity?: Vec3Tuple;
  dynamic?: boolean;
  /** linear damping coefficient d (N·s/m): f = −d v */
  damping?: number;
}

export interface BodySpec {
  name: string;
  mass: number;
  /** [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]: inertia tensor entries about the centre of mass, body axes */
  inertia: [number, number, number, number, number, number];
  /** centre of mass in body coordinates (default origin) */
  com?: Vec3Tuple;
  /** frame origin in world */
  position?: Vec3Tuple;
  /** orientation [w, x, y, z] (normalised on load) */
  orientation?: QuatTuple;
  /** world velocity of the frame origin */
  velocity?: Vec3Tuple;
  /** world angular velocity */
  angularVelocity?: Vec3Tuple;
  dynamic?: boolean;
  /** linear damping on the centre-of-mass velocity (N·s/m) */
  linearDamping?: number;
  /** angular damping (N·m·s/rad) */
  angularDamping?: number;
}

export interface MarkerSpec { name: string; body: string; location: Vec3Tuple }

/** throws a ModelError unless every entry of v is finite */
function finite(path: string, v: readonly number[] | undefined): void {
  if (v && !v.every(Number.isFinite)) throw new ModelError(path, `must be finite (got ${formatValue(v)})`);
}

/** throws a ModelError unless d is undefined or finite and ≥ 0 */
function nonNegative(path: string, d: number | undefined): void {
  if (d !== undefined && !(d >= 0 && Number.isFinite(d))) throw new ModelError(path, `must be finite and non-negative (got ${formatValue(d)})`);
}

/** non-dynamic components stay where they are until drivers prescribe their motion */
function staticVelocity(path: string, dynamic: boolean, v: readonly number[] | undefined): void {
  if (!dynamic && v && v.some((x) => x !== 0)) {
    throw new ModelError(path, 'a non-dynamic component stays where it is: its velocity must be zero (prescribed motion needs a driver)');
  }
}

/** how many parameters each shape kind takes (ShapeEntry.params) */
const SHAPE_PARAMS: Readonly<Record<ShapeEntry['kind'], number>> = {
  sphere: 1, capsule: 2, box: 3, plane: 0, cylinder: 2, ellipsoid: 3, hull: 0, mesh: 0,
};

/** throws a ModelError unless v is undefined or an integer of 32 bits (a collision group or mask) */
function bits(path: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= 0xffffffff)) {
    throw new ModelError(path, `must be an integer in [0, 4294967295] (got ${formatValue(v)})`);
  }
}

/** throws a ModelError unless the material's numbers are in range */
function checkMaterial(path: string, m: ShapeMaterial): void {
  nonNegative(`${path}.friction`, m.friction);
  nonNegative(`${path}.compliance`, m.compliance);
  nonNegative(`${path}.damping`, m.damping);
  if (!(m.restitution >= 0 && m.restitution <= 1)) {
    throw new ModelError(`${path}.restitution`, `must be in [0, 1] (got ${formatValue(m.restitution)})`);
  }
}

export class ModelAssembler {
  readonly settings: ModelSettings = { ...DEFAULT_SETTINGS, gravity: [...DEFAULT_SETTINGS.gravity], stabilization: { ...DEFAULT_SETTINGS.stabilization } };
  /** the contact solver's settings (model file `contact`) */
  contact: ContactSettings = { ...DEFAULT_CONTACT };

  /** the initial positions q of the components added so far (a copy), e.g. to place frames at load time */
  initialQ(): Float64Array { return Float64Array.from(this.q); }
  private readonly components: Component[] = [];
  private readonly markers: Marker[] = [];
  private readonly forces: ForceEffector[] = [];
  private readonly constraints: BilateralConstraint[] = [];
  private readonly constraintNames = new Set<string>();
  private readonly names = new Map<string, { kind: 'particle' | 'body' | 'marker'; index: number }>();
  private readonly q: number[] = [];
  private readonly u: number[] = [];
  private nBlocks = 0;
  private readonly shapes: ShapeEntry[] = [];
  private readonly limits: JointLimit[] = [];
  private readonly motors: JointMotor[] = [];
  private readonly materials: NamedMaterial[] = [];
  private readonly materialPairs: MaterialPair[] = [];
  private readonly collidingConstraints: number[] = [];
  private readonly pointDamping: number[] = [];     // per component: linear damping
  private readonly angularDamping: number[] = [];   // per component: angular damping (bodies)

  private claim(name: string, kind: 'particle' | 'body' | 'marker', index: number, path: string): void {
    if (name === 'world') throw new ModelError(path, `the name "world" is reserved`);
    if (this.names.has(name)) throw new ModelError(path, `duplicate name "${name}"`);
    this.names.set(name, { kind, index });
  }

  addParticle(s: ParticleSpec, path = `particle "${s.name}"`): Particle {
    if (!(s.mass > 0) || !Number.isFinite(s.mass)) throw new ModelError(`${path}.mass`, `mass must be positive and finite (got ${formatValue(s.mass)})`);
    finite(`${path}.position`, s.position);
    finite(`${path}.velocity`, s.velocity);
    nonNegative(`${path}.damping`, s.damping);
    const dynamic = s.dynamic ?? true;
    staticVelocity(`${path}.velocity`, dynamic, s.velocity);
    const index = this.components.length;
    this.claim(s.name, 'particle', index, `${path}.name`);
    const p: Particle = {
      kind: 'particle', name: s.name, index, mass: s.mass, dynamic,
      qOffset: this.q.length, uOffset: this.u.length, block: dynamic ? this.nBlocks++ : -1,
    };
    this.q.push(...s.position);
    this.u.push(...(s.velocity ?? [0, 0, 0]));
    this.components.push(p);
    this.pointDamping.push(s.damping ?? 0);
    this.angularDamping.push(0);
    return p;
  }

  addBody(s: BodySpec, path = `body "${s.name}"`): RigidBody {
    if (!(s.mass > 0) || !Number.isFinite(s.mass)) throw new ModelError(`${path}.mass`, `mass must be positive and finite (got ${formatValue(s.mass)})`);
    const [ixx, iyy, izz, ixy, ixz, iyz] = s.inertia;
    const J = Float64Array.of(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
    if (!J.every(Number.isFinite) || !cholesky3(new Float64Array(9), J)) {
      throw new ModelError(`${path}.inertia`, `inertia ${formatValue(s.inertia)} is not positive definite`);
    }
    // a physical inertia: each principal moment at most the sum of the other two
    const [e1, e2, e3] = symmetricEigenvalues3(J);
    if (e3 > (e1 + e2) * (1 + 1e-9)) {
      throw new ModelError(`${path}.inertia`, `principal moments ${[e1, e2, e3].map((e) => e.toPrecision(4)).join(', ')} violate the triangle inequality (no rigid body has them)`);
    }
    const o = unitQuaternion(`${path}.orientation`, s.orientation ?? [1, 0, 0, 0]);
    finite(`${path}.com`, s.com);
    finite(`${path}.position`, s.position);
    finite(`${path}.velocity`, s.velocity);
    finite(`${path}.angularVelocity`, s.angularVelocity);
    nonNegative(`${path}.linearDamping`, s.linearDamping);
    nonNegative(`${path}.angularDamping`, s.angularDamping);
    const dynamic = s.dynamic ?? true;
    staticVelocity(`${path}.velocity`, dynamic, s.velocity);
    staticVelocity(`${path}.angularVelocity`, dynamic, s.angularVelocity);
    const index = this.components.length;
    this.claim(s.name, 'body', index, `${path}.name`);
    const b: RigidBody = {
      // common fields in the particle's order, so loops over components see one layout prefix
      kind: 'body', name: s.name, index, mass: s.mass, dynamic,
      qOffset: this.q.length, uOffset: this.u.length, block: dynamic ? this.nBlocks++ : -1,
      inertia: J, com: Float64Array.from(s.com ?? [0, 0, 0]),
    };
    this.q.push(...(s.position ?? [0, 0, 0]), o[0]!, o[1]!, o[2]!, o[3]!);
    this.u.push(...(s.velocity ?? [0, 0, 0]), ...(s.angularVelocity ?? [0, 0, 0]));
    this.components.push(b);
    this.pointDamping.push(s.linearDamping ?? 0);
    this.angularDamping.push(s.angularDamping ?? 0);
    return b;
  }

  addMarker(s: MarkerSpec, path = `marker "${s.name}"`): Marker {
    finite(`${path}.location`, s.location);
    const b = this.names.get(s.body);
    if (!b) throw new ModelError(`${path}.body`, `no body named ${quote(s.body)}`);
    if (b.kind !== 'body') throw new ModelError(`${path}.body`, `${quote(s.body)} is a ${b.kind}, not a body`);
    this.claim(s.name, 'marker', this.markers.length, `${path}.name`);
    const m: Marker = { name: s.name, body: b.index, location: Float64Array.from(s.location) };
    this.markers.push(m);
    return m;
  }

  /** a point reference by name: a particle or a marker */
  point(name: string, path = name): PointRef {
    const e = this.names.get(name);
    if (!e) throw new ModelError(path, `no particle or marker named ${quote(name)}`);
    if (e.kind === 'particle') {
      const c = this.components[e.index]!;
      return { kind: POINT_PARTICLE, name, component: c.index, qOffset: c.qOffset, uOffset: c.uOffset, block: c.block, local: new Float64Array(3) };
    }
    if (e.kind === 'marker') {
      const m = this.markers[e.index]!;
      return this.bodyPoint(this.components[m.body]!.name, [m.location[0]!, m.location[1]!, m.location[2]!], name);
    }
    throw new ModelError(path, `${quote(name)} is a body; attach forces to a marker on it`);
  }

  /** a point fixed on a body at body coordinates `local` */
  bodyPoint(body: string, local: Vec3Tuple, label = `${body}@[${local.join(', ')}]`): PointRef {
    const e = this.names.get(body);
    if (!e || e.kind !== 'body') throw new ModelError(label, `no body named ${quote(body)}`);
    const c = this.components[e.index]!;
    return { kind: POINT_BODY, name: label, component: c.index, qOffset: c.qOffset, uOffset: c.uOffset, block: c.block, local: Float64Array.from(local) };
  }

  /** a fixed point in the world */
  worldPoint(position: Vec3Tuple): PointRef {
    finite('world point', position);
    return { kind: POINT_WORLD, name: `world@[${position.join(', ')}]`, component: -1, qOffset: -1, uOffset: -1, block: -1, local: Float64Array.from(position) };
  }

  /** the component index of a particle or body name, or undefined */
  componentIndex(name: string): number | undefined {
    const e = this.names.get(name);
    return e && e.kind !== 'marker' ? e.index : undefined;
  }

  componentAt(index: number): Component { return this.components[index]!; }

  addForce(f: ForceEffector): void { this.forces.push(f); }

  /** adds a bilateral constraint (a joint or a distance constraint); names must be unique among constraints */
  addConstraint(c: BilateralConstraint): void {
    if (this.constraintNames.has(c.name)) throw new ModelError(`constraint "${c.name}"`, 'duplicate constraint name');
    this.constraintNames.add(c.name);
    this.constraints.push(c);
  }

  /**
   * The two sides of a two-body element (joint, frame spring): body names or "world", not both
   * "world", not the same body. `path` prefixes the messages; `particleHint` completes the one
   * for a particle name.
   */
  sides(bodyA: string, bodyB: string, path: string, particleHint: string): [RigidBody | null, RigidBody | null] {
    const body = (ref: string, key: 'bodyA' | 'bodyB'): RigidBody | null => {
      if (ref === 'world') return null;
      const e = this.names.get(ref);
      if (!e || e.kind === 'marker') throw new ModelError(`${path}.${key}`, `no body named ${quote(ref)} (use a body name or "world")`);
      const c = this.components[e.index]!;
      if (c.kind !== 'body') throw new ModelError(`${path}.${key}`, `${quote(ref)} is a particle; ${particleHint}`);
      return c;
    };
    const A = body(bodyA, 'bodyA'), B = body(bodyB, 'bodyB');
    if (!A && !B) throw new ModelError(`${path}.bodyB`, 'bodyA and bodyB are both "world"');
    if (A && A === B) throw new ModelError(`${path}.bodyB`, `bodyA and bodyB are the same body "${A.name}"`);
    return [A, B];
  }

  /**
   * Adds a frame spring (6-DOF bushing) between two bodies, or a body and "world", whose two
   * attachment frames coincide at load time with the world frame (position, orientation).
   */
  addFrameSpring(name: string, bodyA: string, bodyB: string, position: Vec3Tuple, orientation: QuatTuple, params: FrameSpringParams): FrameSpring {
    const [A, B] = this.sides(bodyA, bodyB, `frame spring "${name}"`, 'frame springs attach to bodies or "world"');
    const fs = FrameSpring.atWorldFrame(name, A, B, this.initialQ(), position, orientation, params);
    this.addForce(fs);
    return fs;
  }

  /**
   * Adds a collision shape fixed in a component (or the world, component −1); its orientation is
   * normalised. A plane belongs to the world only. Returns the entry the model will hold.
   */
  addShape(s: ShapeEntry, path = s.name): ShapeEntry {
    if (!(s.component === -1 || (Number.isInteger(s.component) && s.component >= 0 && s.component < this.components.length))) {
      throw new ModelError(path, `no component ${s.component} (the model has ${this.components.length})`);
    }
    if (s.kind === 'plane' && s.component !== -1) throw new ModelError(`${path}.type`, 'a plane is a world shape only');
    const n = SHAPE_PARAMS[s.kind];
    // sizes: positive and finite (a capsule's half length may be 0)
    const ok = s.params.length === n && s.params.every((v, k) => Number.isFinite(v) && (v > 0 || (s.kind === 'capsule' && k === 1 && v === 0)));
    if (!ok) throw new ModelError(path, `a ${s.kind} takes ${n} positive finite sizes (got ${formatValue(s.params)})`);
    // hulls and meshes carry their data, of their own kind
    const data = s.kind === 'hull' || s.kind === 'mesh';
    if (data !== (s.geometry !== undefined) || (s.geometry && s.geometry.type !== s.kind)) {
      const why = s.geometry ? `cannot take ${s.geometry.type} data` : 'needs its data';
      throw new ModelError(path, `a ${s.kind} ${why}`);
    }
    finite(`${path}.position`, s.position);
    const o = unitQuaternion(`${path}.orientation`, s.orientation);
    checkMaterial(path, s.material);
    bits(`${path}.group`, s.group);
    bits(`${path}.mask`, s.mask);
    if (s.materialName !== undefined && !this.materials.some((m) => m.name === s.materialName)) {
      throw new ModelError(`${path}.material`, `no material named ${quote(s.materialName)}`);
    }
    const entry: ShapeEntry = {
      name: s.name, kind: s.kind, component: s.component, params: [...s.params], position: [...s.position],
      orientation: [o[0]!, o[1]!, o[2]!, o[3]!], material: { ...s.material }, collide: s.collide,
      ...(s.geometry ? { geometry: s.geometry } : {}), ...(s.group !== undefined ? { group: s.group } : {}),
      ...(s.mask !== undefined ? { mask: s.mask } : {}),
      ...(s.materialName !== undefined ? { materialName: s.materialName } : {}),
    };
    this.shapes.push(entry);
    return entry;
  }

  /** adds a named surface material; names are unique among materials */
  addMaterial(m: NamedMaterial, path = `material ${quote(m.name)}`): NamedMaterial {
    if (this.materials.some((x) => x.name === m.name)) {
      throw new ModelError(`${path}.name`, `duplicate material name ${quote(m.name)}`);
    }
    checkMaterial(path, m);
    const entry: NamedMaterial = {
      name: m.name, friction: m.friction, restitution: m.restitution, compliance: m.compliance, damping: m.damping,
    };
    this.materials.push(entry);
    return entry;
  }

  /** adds the fields that replace the combined material of two named materials; each pair once */
  addMaterialPair(p: MaterialPair, path = `material pair ${quote(p.materials[0])}, ${quote(p.materials[1])}`): void {
    p.materials.forEach((name, k) => {
      if (!this.materials.some((m) => m.name === name)) {
        throw new ModelError(`${path}.materials[${k}]`, `no material named ${quote(name)}`);
      }
    });
    const [a, b] = p.materials;
    if (this.materialPairs.some(({ materials: [x, y] }) => (x === a && y === b) || (x === b && y === a))) {
      throw new ModelError(`${path}.materials`, `the pair ${quote(a)}, ${quote(b)} is given twice`);
    }
    checkMaterial(path, {
      friction: p.friction ?? 0, restitution: p.restitution ?? 0, compliance: p.compliance ?? 0, damping: p.damping ?? 0,
    });
    const entry: MaterialPair = { materials: [a, b] };
    for (const k of ['friction', 'restitution', 'compliance', 'damping'] as const) {
      if (p[k] !== undefined) Object.assign(entry, { [k]: p[k] });
    }
    this.materialPairs.push(entry);
  }

  /** lets the components of constraint `ci` collide with each other (joined components do not by default) */
  letJoinedCollide(ci: number): void {
    if (!(ci >= 0 && ci < this.constraints.length)) {
      throw new ModelError(`constraint ${ci}`, 'no such constraint');
    }
    if (!this.collidingConstraints.includes(ci)) this.collidingConstraints.push(ci);
  }

  /** the constraint a limit or motor names: it must exist under that name */
  private limitedJoint(ci: number, joint: string, path: string): void {
    const c = this.constraints[ci];
    if (!c || c.name !== joint) throw new ModelError(path, `constraint ${ci} is not the joint ${quote(joint)}`);
  }

  /** adds a limit on a joint coordinate (coordinate k of constraint `l.constraint`) */
  addLimit(l: JointLimit, path = `joint "${l.joint}".limits.${l.coordinateName}`): void {
    this.limitedJoint(l.constraint, l.joint, path);
    if (Number.isNaN(l.lower) || Number.isNaN(l.upper) || !(l.lower <= l.upper)) {
      throw new ModelError(path, `lower ${formatValue(l.lower)} > upper ${formatValue(l.upper)}`);
    }
    checkMaterial(path, { friction: 0, restitution: l.restitution, compliance: l.compliance, damping: l.damping });
    this.limits.push({ ...l });
  }

  /** adds a motor on a joint coordinate */
  addMotor(m: JointMotor, path = `joint "${m.joint}".motors.${m.coordinateName}`): void {
    this.limitedJoint(m.constraint, m.joint, path);
    finite(`${path}.${m.mode}`, [m.target]);
    if (!(m.maxForce > 0 && Number.isFinite(m.maxForce))) {
      throw new ModelError(`${path}.maxForce`, `must be positive and finite (got ${formatValue(m.maxForce)})`);
    }
    if (m.time !== null && !(m.time > 0 && Number.isFinite(m.time))) {
      throw new ModelError(`${path}.time`, `must be positive and finite (got ${formatValue(m.time)})`);
    }
    this.motors.push({ ...m });
  }

  build(): Model {
    const comps = this.components.slice();
    // built-in effectors: gravity, rigid-body inertial (gyroscopic + fictitious) forces, damping
    const forces: ForceEffector[] = [];
    const g = this.settings.gravity;
    if (g[0] !== 0 || g[1] !== 0 || g[2] !== 0) forces.push(new Gravity(comps, g));
    if (comps.some((c) => c.kind === 'body' && c.dynamic)) forces.push(new InertialForces(comps));
    if (this.pointDamping.some((d) => d !== 0) || this.angularDamping.some((d) => d !== 0)) {
      forces.push(new ComponentDamping(comps, Float64Array.from(this.pointDamping), Float64Array.from(this.angularDamping)));
    }
    forces.push(...this.forces);
    const model = new Model({
      components: comps, markers: this.markers.slice(), forces, settings: { ...this.settings, gravity: [g[0], g[1], g[2]], stabilization: { ...this.settings.stabilization } },
      nq: this.q.length, nu: this.u.length, q0: Float64Array.from(this.q), u0: Float64Array.from(this.u),
      constraints: this.constraints.slice(), builtinForces: forces.length - this.forces.length,
      ...this.contactPart(),
    });
    // rows given as a stiffness and damping ratio get their compliance and damping, once, before
    // the model is handed out (the model itself imports no constraint code)
    applySoftness(model);
    return model;
  }

  /** the contact part of the model: world shapes first, then the components' in component order */
  private contactPart() {
    const shapes = this.shapes.map((s, i) => ({ s, i }))
      .sort((a, b) => a.s.component - b.s.component || a.i - b.i).map(({ s }) => s);
    return {
      contact: { ...this.contact }, shapes, limits: this.limits.slice(), motors: this.motors.slice(),
      materials: this.materials.slice(), materialPairs: this.materialPairs.slice(),
      collidingConstraints: this.collidingConstraints.slice().sort((a, b) => a - b),
    };
  }
}
