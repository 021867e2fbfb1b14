/**
 * Handles by name on a simulation's components, joints and forces. A handle reads the
 * simulation's own state and workspace, never the model's: two simulations of one model give
 * two handles with their own numbers. Getters return fresh arrays (world axes, SI units), so a
 * value read stays as it was when the simulation steps on.
 */
import type { Simulation } from '../simulation.js';
import type { Model, Particle, RigidBody, Vec3Tuple, QuatTuple } from '../model/model.js';
import { ModelError } from '../model/errors.js';
import { Joint } from '../constraints/joint.js';
import { PathSpring } from '../forces/pathSpring.js';
import { FrameSpring } from '../forces/frameSpring.js';
import { quatToMat3 } from '../math/quat.js';
import type { SpringReadout } from '../forces/pathSpring.js';

/** a value given by the user, for a message: `[1, NaN, 0]`, `undefined` */
function shown(v: unknown): string {
  return v && typeof v === 'object' && 'length' in v ? `[${Array.from(v as ArrayLike<unknown>).map(String).join(', ')}]` : String(v);
}

/** (a[o], a[o+1], a[o+2]) as a fresh tuple */
function read3(a: Float64Array, o: number): Vec3Tuple { return [a[o]!, a[o + 1]!, a[o + 2]!]; }

/** a vector given by the user: three finite numbers, or a ModelError naming where it was given */
function vec(at: string, v: ArrayLike<number> | undefined): Vec3Tuple {
  if (!v || v.length !== 3 || ![0, 1, 2].every((k) => typeof v[k] === 'number' && Number.isFinite(v[k]))) {
    throw new ModelError(at, `expected three finite numbers [x, y, z], got ${shown(v)}`);
  }
  return [v[0]!, v[1]!, v[2]!];
}

/** a velocity for a component: a non-dynamic one stays where it is, so only zero */
function moving(at: string, dynamic: boolean, v: Vec3Tuple): Vec3Tuple {
  if (!dynamic && v.some((x) => x !== 0)) throw new ModelError(at, 'a non-dynamic component stays where it is: its velocity must be zero');
  return v;
}

/** writes values into q or u at offset o, and tells the simulation that its state changed */
function writeState(sim: Simulation, target: Float64Array, o: number, values: readonly number[]): void {
  target.set(values, o);
  sim.stateChanged();
}

type Kind = 'body' | 'particle' | 'joint' | 'force';

/** the index of the named body or particle (in components), joint (in constraints) or force (in forces) */
export function findByName<K extends Kind>(model: Model, kind: K, name: string): number {
  const names: string[] = [];
  let found = -1;
  const look = (n: string, i: number) => { names.push(n); if (n === name) found = i; };
  if (kind === 'body' || kind === 'particle') model.components.forEach((c) => { if (c.kind === kind) look(c.name, c.index); });
  else if (kind === 'joint') model.constraints.forEach((c, i) => look(c.name, i));
  else model.forces.forEach((f, i) => { if (f instanceof PathSpring || f instanceof FrameSpring) look(f.name, i); });
  if (found >= 0) return found;
  const some = names.length === 0 ? `the model has no ${kind}` : `${kind === 'body' ? 'bodie' : kind}s: ${names.slice(0, 8).map((n) => `"${n}"`).join(', ')}${names.length > 8 ? ', …' : ''}`;
  throw new ModelError(`${kind}(${JSON.stringify(name)})`, `no ${kind} named ${JSON.stringify(name)} (${some})`);
}

/** a force and a torque, world axes; each use says about which point the torque is taken */
export interface Wrench {
  /** force, N */
  force: Vec3Tuple;
  /** torque, N·m */
  torque: Vec3Tuple;
}

/** what particle and body handles share: the name, mass, position, velocity and held loads */
export abstract class ComponentHandle<C extends Particle | RigidBody> {
  /** its name in the model */
  readonly name: string;
  /** @internal */
  protected readonly c: C;

  /** @internal made by `Simulation.body(name)` or `Simulation.particle(name)` */
  constructor(protected readonly sim: Simulation, index: number) {
    this.c = sim.model.components[index] as C;
    this.name = this.c.name;
  }

  /** mass, kg */
  get mass(): number { return this.c.mass; }

  /** the world position of a particle, or of a body frame's origin, m */
  get position(): Vec3Tuple { return read3(this.sim.state.q, this.c.qOffset); }

  /** the world velocity of a particle, or of a body frame's origin, m/s */
  get velocity(): Vec3Tuple { return read3(this.sim.state.u, this.c.uOffset); }

  /** moves it to p (world, m): a particle, or a body frame's origin; see `Simulation.stateChanged` */
  setPosition(p: ArrayLike<number>): this {
    writeState(this.sim, this.sim.state.q, this.c.qOffset, vec(this.call('setPosition(p)'), p));
    return this;
  }

  /** sets the world velocity (m/s) of a particle, or of a body frame's origin */
  setVelocity(v: ArrayLike<number>): this {
    const at = this.call('setVelocity(v)');
    writeState(this.sim, this.sim.state.u, this.c.uOffset, moving(at, this.c.dynamic, vec(at, v)));
    return this;
  }

  /** removes the loads applied to it */
  clearLoads(): this {
    this.sim.ws.fs.external.fill(0, this.c.uOffset, this.c.uOffset + (this.c.kind === 'body' ? 6 : 3));
    return this;
  }

  /** @internal `body "arm".applyForce`, for messages */
  protected call(what: string): string { return `${this.c.kind} "${this.name}".${what}`; }

  /** @internal adds generalized load entries from the component's first velocity entry, if it is dynamic */
  protected addLoad(at: string, load: readonly number[]): void {
    if (!this.c.dynamic) throw new ModelError(at, `${this.c.kind} "${this.name}" is not dynamic: loads do not move it`);
    const e = this.sim.ws.fs.external, o = this.c.uOffset;
    for (let k = 0; k < load.length; k++) e[o + k] = e[o + k]! + load[k]!;
  }
}

/** a rigid body of a simulation: its pose, velocities and the external loads on it */
export class BodyHandle extends ComponentHandle<RigidBody> {
  private readonly R = new Float64Array(9);

  /** the orientation, a unit quaternion [w, x, y, z] taking body axes to world axes */
  get orientation(): QuatTuple { const q = this.sim.state.q, o = this.c.qOffset + 3; return [q[o]!, q[o + 1]!, q[o + 2]!, q[o + 3]!]; }

  /** the angular velocity in world axes, rad/s */
  get angularVelocity(): Vec3Tuple { return read3(this.sim.state.u, this.c.uOffset + 3); }

  /** the world position of the centre of mass, m */
  get centerOfMass(): Vec3Tuple { return this.worldPoint(this.c.com); }

  /** turns the body to the orientation [w, x, y, z] (normalised; body → world) */
  setOrientation(q: ArrayLike<number>): this {
    const at = this.call('setOrientation(q)');
    const n = q && q.length === 4 ? Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!) : NaN;
    if (!(n > 1e-12) || !Number.isFinite(n)) throw new ModelError(at, `expected a non-zero quaternion [w, x, y, z] of finite numbers, got ${shown(q)}`);
    writeState(this.sim, this.sim.state.q, this.c.qOffset + 3, [q[0]! / n, q[1]! / n, q[2]! / n, q[3]! / n]);
    return this;
  }

  /** sets the angular velocity (rad/s, world axes) */
  setAngularVelocity(w: ArrayLike<number>): this {
    const at = this.call('setAngularVelocity(w)');
    writeState(this.sim, this.sim.state.u, this.c.uOffset + 3, moving(at, this.c.dynamic, vec(at, w)));
    return this;
  }

  /** the world position of a point given in body coordinates, m */
  worldPoint(local: ArrayLike<number>): Vec3Tuple {
    const [lx, ly, lz] = vec(this.call('worldPoint(local)'), local);
    const R = quatToMat3(this.R, this.sim.state.q, this.c.qOffset + 3), [x, y, z] = this.position;
    return [x + R[0]! * lx + R[1]! * ly + R[2]! * lz, y + R[3]! * lx + R[4]! * ly + R[5]! * lz, z + R[6]! * lx + R[7]! * ly + R[8]! * lz];
  }

  /** the world velocity of the body's material point now at world position p: v + ω × (p − x), m/s */
  pointVelocity(p: ArrayLike<number>): Vec3Tuple {
    const [px, py, pz] = vec(this.call('pointVelocity(p)'), p);
    const [x, y, z] = this.position, [vx, vy, vz] = this.velocity, [wx, wy, wz] = this.angularVelocity;
    const rx = px - x, ry = py - y, rz = pz - z;
    return [vx + wy * rz - wz * ry, vy + wz * rx - wx * rz, vz + wx * ry - wy * rx];
  }

  /**
   * Adds a force f (N, world axes) at the world point `point` (default: the centre of mass). The
   * load is held, constant in world axes with its lever arm of the moment it was applied, until
   * `clearLoads()`: call that first in a control loop that sets new loads every step. It is an
   * explicit load: the implicit integrators take it as constant over the step.
   */
  applyForce(f: ArrayLike<number>, point?: ArrayLike<number>): this {
    const at = this.call('applyForce');
    const [fx, fy, fz] = vec(`${at}(f)`, f);
    const [px, py, pz] = point === undefined ? this.centerOfMass : vec(`${at}(f, point)`, point);
    const [x, y, z] = this.position, rx = px - x, ry = py - y, rz = pz - z;
    this.addLoad(at, [fx, fy, fz, ry * fz - rz * fy, rz * fx - rx * fz, rx * fy - ry * fx]);
    return this;
  }

  /** adds a torque t (N·m, world axes), held until `clearLoads()` like `applyForce` */
  applyTorque(t: ArrayLike<number>): this {
    const at = this.call('applyTorque');
    this.addLoad(at, [0, 0, 0, ...vec(`${at}(t)`, t)]);
    return this;
  }

  /** the held load: the force (N) and the torque about the body frame's origin (N·m), world axes */
  get load(): Wrench {
    const e = this.sim.ws.fs.external, o = this.c.uOffset;
    return { force: read3(e, o), torque: read3(e, o + 3) };
  }
}

/** a particle of a simulation: its position, velocity and the external force on it */
export class ParticleHandle extends ComponentHandle<Particle> {
  /** adds a force f (N, world axes), held until `clearLoads()` (see BodyHandle.applyForce) */
  applyForce(f: ArrayLike<number>): this {
    const at = this.call('applyForce');
    this.addLoad(at, vec(`${at}(f)`, f));
    return this;
  }

  /** the held force, N */
  get load(): Vec3Tuple { return read3(this.sim.ws.fs.external, this.c.uOffset); }
}

/** a joint or distance constraint of a simulation: its coordinates and its reaction */
export class JointHandle {
  /** its name in the model */
  readonly name: string;
  /** the joint type ('hinge', 'ball', …, or 'distance') */
  readonly type: string;
  /** the names of its coordinates (a hinge's ['angle'], …; none for a distance constraint) */
  readonly coordinateNames: readonly string[];
  private readonly buf: Float64Array;
  private readonly w = new Float64Array(6);

  /** @internal made by `Simulation.joint(name)` */
  constructor(private readonly sim: Simulation, private readonly ci: number) {
    const c = sim.model.constraints[ci]!;
    this.name = c.name;
    this.type = c instanceof Joint ? c.type : 'distance';
    this.coordinateNames = c instanceof Joint ? [...c.coordinateNames] : [];
    this.buf = new Float64Array(Math.max(1, this.coordinateNames.length));
  }

  /** the joint's coordinates (m for translations, rad for angles), in the order of coordinateNames */
  get coordinates(): number[] {
    if (this.coordinateNames.length === 0) return [];
    const { q, u } = this.sim.state;
    this.sim.ws.cs.jointCoordinates(this.ci, q, u, this.buf);
    return Array.from(this.buf.subarray(0, this.coordinateNames.length));
  }

  /** the coordinates' rates (m/s, rad/s) */
  get rates(): number[] {
    if (this.coordinateNames.length === 0) return [];
    const { q, u } = this.sim.state;
    this.sim.ws.cs.jointRates(this.ci, q, u, this.buf);
    return Array.from(this.buf.subarray(0, this.coordinateNames.length));
  }

  /**
   * The generalized force (N or N·m) the limits of coordinate `name` applied over the last step:
   * positive pushes the coordinate up (at its lower bound), negative down (at its upper bound), 0
   * when neither was reached
   */
  limitForce(name: string): number {
    return this.sim.jointRowForce(this.ci, this.coordinateIndex(name), 'limit');
  }

  /** the force or torque (N or N·m) the motor of coordinate `name` applied over the last step */
  motorForce(name: string): number {
    return this.sim.jointRowForce(this.ci, this.coordinateIndex(name), 'motor');
  }

  private coordinateIndex(name: string): number {
    const k = this.coordinateNames.indexOf(name);
    if (k < 0) throw new ModelError(`joint("${this.name}")`, `has no coordinate "${name}" (it has ${this.coordinateNames.join(', ') || 'none'})`);
    return k;
  }

  /**
   * The force and torque the constraint applies to side A (bodyA, or the first point), world
   * axes, the torque about the anchor; the reaction on the world when A is the world. From the
   * last step's constraint forces (zero before the first step).
   */
  get reaction(): Wrench {
    const { q, u } = this.sim.state;
    this.sim.ws.cs.reaction(this.ci, q, u, this.sim.ws.cs.lambda, this.w);
    const w = this.w;
    return { force: [w[0]!, w[1]!, w[2]!], torque: [w[3]!, w[4]!, w[5]!] };
  }
}

/** a spring's state, from one evaluation (ForceHandle.readout) */
export interface SpringState {
  /** the length over the active segments, m */
  length: number;
  /** its rate of lengthening, m/s */
  rate: number;
  /** the tension, N (positive pulls the ends together) */
  tension: number;
  /** each segment's length, active or passive, in path order, m */
  segments: number[];
}

/** a force element of a simulation: its readouts at the current state */
export class ForceHandle {
  /** its name in the model */
  readonly name: string;
  /** 'spring' (axial or multi-point) or 'frame-spring' */
  readonly kind: 'spring' | 'frame-spring';
  private readonly spring: SpringReadout;
  private readonly frame = { force: new Float64Array(3), torque: new Float64Array(3) };

  /** @internal made by `Simulation.force(name)` */
  constructor(private readonly sim: Simulation, private readonly fi: number) {
    const f = sim.model.forces[fi]!;
    this.name = f.name;
    this.kind = f instanceof PathSpring ? 'spring' : 'frame-spring';
    this.spring = sim.ws.fs.createSpringReadout(fi) ?? { length: 0, rate: 0, tension: 0, segments: new Float64Array(0) };
  }

  private readSpring(what: string): SpringReadout {
    const { q, u } = this.sim.state;
    if (!this.sim.ws.fs.springReadout(this.fi, q, u, this.spring)) {
      throw new ModelError(`force "${this.name}".${what}`, 'a frame spring has no length; read its force and torque');
    }
    return this.spring;
  }

  /**
   * all of a spring's readouts from one evaluation (the getters below evaluate once each): length
   * (m), rate (m/s), tension (N) and each segment's length (m)
   */
  readout(): SpringState {
    const r = this.readSpring('readout()');
    return { length: r.length, rate: r.rate, tension: r.tension, segments: Array.from(r.segments) };
  }

  /** a spring's length (the sum of its active segments), m */
  get length(): number { return this.readSpring('length').length; }

  /** a spring's rate of lengthening, m/s */
  get rate(): number { return this.readSpring('rate').rate; }

  /** a spring's tension (positive when it pulls its ends together), N */
  get tension(): number { return this.readSpring('tension').tension; }

  /** each segment's length, m (one for an axial spring) */
  get segments(): number[] { return Array.from(this.readSpring('segments').segments); }

  /** a frame spring's force (N) and torque (N·m) on body B, world axes (ForceSystem.frameSpringReadout) */
  get wrench(): Wrench {
    const { q, u } = this.sim.state;
    if (!this.sim.ws.fs.frameSpringReadout(this.fi, q, u, this.frame)) {
      throw new ModelError(`force "${this.name}".wrench`, 'a spring has a tension, not a wrench');
    }
    const { force: f, torque: t } = this.frame;
    return { force: [f[0]!, f[1]!, f[2]!], torque: [t[0]!, t[1]!, t[2]!] };
  }
}
