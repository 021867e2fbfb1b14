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

/** a rigid body of a simulation: its pose, velocities and the external loads on it */
export class BodyHandle {
  /** its name in the model */
  readonly name: string;
  private readonly b: RigidBody;
  private readonly R = new Float64Array(9);

  /** @internal made by `Simulation.body(name)` */
  constructor(private readonly sim: Simulation, index: number) {
    this.b = sim.model.components[index] as RigidBody;
    this.name = this.b.name;
  }

  /** mass, kg */
  get mass(): number { return this.b.mass; }

  /** the world position of the body frame's origin, m */
  get position(): Vec3Tuple { const q = this.sim.state.q, o = this.b.qOffset; return [q[o]!, q[o + 1]!, q[o + 2]!]; }

  /** the orientation, a unit quaternion [w, x, y, z] taking body axes to world axes */
  get orientation(): QuatTuple { const q = this.sim.state.q, o = this.b.qOffset + 3; return [q[o]!, q[o + 1]!, q[o + 2]!, q[o + 3]!]; }

  /** the world velocity of the body frame's origin, m/s */
  get velocity(): Vec3Tuple { const u = this.sim.state.u, o = this.b.uOffset; return [u[o]!, u[o + 1]!, u[o + 2]!]; }

  /** the angular velocity in world axes, rad/s */
  get angularVelocity(): Vec3Tuple { const u = this.sim.state.u, o = this.b.uOffset + 3; return [u[o]!, u[o + 1]!, u[o + 2]!]; }

  /** the world position of the centre of mass, m */
  get centerOfMass(): Vec3Tuple { return this.worldPoint(this.b.com); }

  /** moves the body frame's origin to p (world, m); see `Simulation.stateChanged` */
  setPosition(p: ArrayLike<number>): this {
    writeState(this.sim, this.sim.state.q, this.b.qOffset, vec(`body "${this.name}".setPosition(p)`, p));
    return this;
  }

  /** turns the body to the orientation [w, x, y, z] (normalised; body → world) */
  setOrientation(q: ArrayLike<number>): this {
    const at = `body "${this.name}".setOrientation(q)`;
    const n = q && q.length === 4 ? Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!) : NaN;
    if (!(n > 1e-12) || !Number.isFinite(n)) throw new ModelError(at, `expected a non-zero quaternion [w, x, y, z] of finite numbers, got ${shown(q)}`);
    writeState(this.sim, this.sim.state.q, this.b.qOffset + 3, [q[0]! / n, q[1]! / n, q[2]! / n, q[3]! / n]);
    return this;
  }

  /** sets the world velocity of the body frame's origin (m/s) */
  setVelocity(v: ArrayLike<number>): this {
    const at = `body "${this.name}".setVelocity(v)`;
    writeState(this.sim, this.sim.state.u, this.b.uOffset, moving(at, this.b.dynamic, vec(at, v)));
    return this;
  }

  /** sets the angular velocity (rad/s, world axes) */
  setAngularVelocity(w: ArrayLike<number>): this {
    const at = `body "${this.name}".setAngularVelocity(w)`;
    writeState(this.sim, this.sim.state.u, this.b.uOffset + 3, moving(at, this.b.dynamic, vec(at, w)));
    return this;
  }

  /** the world position of a point given in body coordinates, m */
  worldPoint(local: ArrayLike<number>): Vec3Tuple {
    const [lx, ly, lz] = vec(`body "${this.name}".worldPoint(local)`, local);
    const R = quatToMat3(this.R, this.sim.state.q, this.b.qOffset + 3), [x, y, z] = this.position;
    return [x + R[0]! * lx + R[1]! * ly + R[2]! * lz, y + R[3]! * lx + R[4]! * ly + R[5]! * lz, z + R[6]! * lx + R[7]! * ly + R[8]! * lz];
  }

  /** the world velocity of the body's material point now at world position p: v + ω × (p − x), m/s */
  pointVelocity(p: ArrayLike<number>): Vec3Tuple {
    const [px, py, pz] = vec(`body "${this.name}".pointVelocity(p)`, p);
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
    const at = `body "${this.name}".applyForce`;
    const [fx, fy, fz] = vec(`${at}(f)`, f);
    const [px, py, pz] = point === undefined ? this.centerOfMass : vec(`${at}(f, point)`, point);
    const [x, y, z] = this.position, rx = px - x, ry = py - y, rz = pz - z;
    this.add(at, fx, fy, fz, ry * fz - rz * fy, rz * fx - rx * fz, rx * fy - ry * fx);
    return this;
  }

  /** adds a torque t (N·m, world axes), held until `clearLoads()` like `applyForce` */
  applyTorque(t: ArrayLike<number>): this {
    const at = `body "${this.name}".applyTorque`;
    const [tx, ty, tz] = vec(`${at}(t)`, t);
    this.add(at, 0, 0, 0, tx, ty, tz);
    return this;
  }

  /** the held load: the force (N) and the torque about the body frame's origin (N·m), world axes */
  get load(): Wrench {
    const e = this.sim.ws.fs.external, o = this.b.uOffset;
    return { force: [e[o]!, e[o + 1]!, e[o + 2]!], torque: [e[o + 3]!, e[o + 4]!, e[o + 5]!] };
  }

  /** removes the loads applied to this body */
  clearLoads(): this { this.sim.ws.fs.external.fill(0, this.b.uOffset, this.b.uOffset + 6); return this; }

  private add(at: string, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): void {
    if (!this.b.dynamic) throw new ModelError(at, `body "${this.name}" is not dynamic: loads do not move it`);
    const e = this.sim.ws.fs.external, o = this.b.uOffset;
    e[o] = e[o]! + fx; e[o + 1] = e[o + 1]! + fy; e[o + 2] = e[o + 2]! + fz;
    e[o + 3] = e[o + 3]! + tx; e[o + 4] = e[o + 4]! + ty; e[o + 5] = e[o + 5]! + tz;
  }
}

/** a particle of a simulation: its position, velocity and the external force on it */
export class ParticleHandle {
  /** its name in the model */
  readonly name: string;
  private readonly p: Particle;

  /** @internal made by `Simulation.particle(name)` */
  constructor(private readonly sim: Simulation, index: number) {
    this.p = sim.model.components[index] as Particle;
    this.name = this.p.name;
  }

  /** mass, kg */
  get mass(): number { return this.p.mass; }

  /** world position, m */
  get position(): Vec3Tuple { const q = this.sim.state.q, o = this.p.qOffset; return [q[o]!, q[o + 1]!, q[o + 2]!]; }

  /** world velocity, m/s */
  get velocity(): Vec3Tuple { const u = this.sim.state.u, o = this.p.uOffset; return [u[o]!, u[o + 1]!, u[o + 2]!]; }

  /** moves the particle to p (world, m); see `Simulation.stateChanged` */
  setPosition(p: ArrayLike<number>): this {
    writeState(this.sim, this.sim.state.q, this.p.qOffset, vec(`particle "${this.name}".setPosition(p)`, p));
    return this;
  }

  /** sets the particle's velocity (m/s, world) */
  setVelocity(v: ArrayLike<number>): this {
    const at = `particle "${this.name}".setVelocity(v)`;
    writeState(this.sim, this.sim.state.u, this.p.uOffset, moving(at, this.p.dynamic, vec(at, v)));
    return this;
  }

  /** adds a force f (N, world axes), held until `clearLoads()` (see BodyHandle.applyForce) */
  applyForce(f: ArrayLike<number>): this {
    const at = `particle "${this.name}".applyForce`;
    const [fx, fy, fz] = vec(`${at}(f)`, f);
    if (!this.p.dynamic) throw new ModelError(at, `particle "${this.name}" is not dynamic: loads do not move it`);
    const e = this.sim.ws.fs.external, o = this.p.uOffset;
    e[o] = e[o]! + fx; e[o + 1] = e[o + 1]! + fy; e[o + 2] = e[o + 2]! + fz;
    return this;
  }

  /** the held force, N */
  get load(): Vec3Tuple { const e = this.sim.ws.fs.external, o = this.p.uOffset; return [e[o]!, e[o + 1]!, e[o + 2]!]; }

  /** removes the force applied to this particle */
  clearLoads(): this { this.sim.ws.fs.external.fill(0, this.p.uOffset, this.p.uOffset + 3); return this; }
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
