/**
 * The immutable model: components (particles, rigid bodies, markers), force effectors and
 * settings, plus the layout of the flat state vectors. Built once by `ModelBuilder.build()`;
 * the mutable state lives in `State` and the scratch in the simulation's workspace.
 *
 * State layout (see docs/ARCHITECTURE.md):
 *   particle: q = [x, y, z]                      u = [vx, vy, vz]               (3, 3)
 *   body:     q = [x, y, z, qw, qx, qy, qz]      u = [vx, vy, vz, wx, wy, wz]   (7, 6)
 * where for a body (x, y, z) is the frame origin in world, q its unit orientation quaternion
 * (body → world), v the world velocity of the frame origin and ω the world angular velocity.
 */
import type { ForceEffector } from '../forces/force.js';
import type { IntegratorName } from '../integrators/names.js';

export type Vec3Tuple = [number, number, number];
export type QuatTuple = [number, number, number, number];

export interface Particle {
  readonly kind: 'particle';
  readonly name: string;
  readonly index: number;      // component index in Model.components
  readonly mass: number;       // kg
  readonly dynamic: boolean;
  readonly qOffset: number;    // into State.q, 3 entries
  readonly uOffset: number;    // into State.u, 3 entries
  readonly block: number;      // solve block index, −1 when not dynamic
}

export interface RigidBody {
  readonly kind: 'body';
  readonly name: string;
  readonly index: number;
  readonly mass: number;                 // kg
  readonly inertia: Float64Array;        // (9) row-major J about the centre of mass, body axes, kg·m²
  readonly com: Float64Array;            // (3) centre of mass in body coordinates, m
  readonly dynamic: boolean;
  readonly qOffset: number;              // 7 entries: origin (3), quaternion wxyz (4)
  readonly uOffset: number;              // 6 entries: v of origin (3), ω (3), both world
  readonly block: number;
}

export type Component = Particle | RigidBody;

export interface Marker {
  readonly name: string;
  readonly body: number;                 // component index of its rigid body
  readonly location: Float64Array;       // (3) in body coordinates, m
}

/** the parameters object of a model, with documented defaults */
export interface ModelSettings {
  /** gravitational acceleration, m/s² (default [0, 0, −9.81]) */
  gravity: Vec3Tuple;
  /** integrator (default 'implicit-euler') */
  integrator: IntegratorName;
  /** step size h, s (default 0.01) */
  step: number;
}

export const DEFAULT_SETTINGS: Readonly<ModelSettings> = Object.freeze({ gravity: Object.freeze([0, 0, -9.81]) as unknown as Vec3Tuple, integrator: 'implicit-euler', step: 0.01 });

export class Model {
  readonly components: readonly Component[];
  readonly markers: readonly Marker[];
  readonly forces: readonly ForceEffector[];
  readonly settings: Readonly<ModelSettings>;
  readonly nq: number;                    // length of State.q
  readonly nu: number;                    // length of State.u
  readonly blockComponent: Int32Array;    // (nBlocks) component index of each solve block
  readonly blockSize: Int32Array;         // (nBlocks) 3 or 6
  readonly blockStart: Int32Array;        // (nBlocks + 1) offset of each block in the solve vector
  readonly nSolve: number;                // number of velocity unknowns in the solve
  readonly initialQ: Float64Array;
  readonly initialU: Float64Array;
  private readonly byName: Map<string, number>;

  /** @internal use ModelBuilder */
  constructor(args: {
    components: Component[]; markers: Marker[]; forces: ForceEffector[]; settings: ModelSettings;
    nq: number; nu: number; q0: Float64Array; u0: Float64Array;
  }) {
    this.components = args.components;
    this.markers = args.markers;
    this.forces = args.forces;
    this.settings = args.settings;
    this.nq = args.nq;
    this.nu = args.nu;
    this.initialQ = args.q0;
    this.initialU = args.u0;
    const dyn = args.components.filter((c) => c.dynamic);
    this.blockComponent = Int32Array.from(dyn.map((c) => c.index));
    this.blockSize = Int32Array.from(dyn.map((c) => (c.kind === 'particle' ? 3 : 6)));
    this.blockStart = new Int32Array(dyn.length + 1);
    for (let b = 0; b < dyn.length; b++) this.blockStart[b + 1] = this.blockStart[b]! + this.blockSize[b]!;
    this.nSolve = this.blockStart[dyn.length]!;
    this.byName = new Map(args.components.map((c) => [c.name, c.index]));
  }

  component(name: string): Component | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : this.components[i];
  }

  get particles(): Particle[] { return this.components.filter((c): c is Particle => c.kind === 'particle'); }
  get bodies(): RigidBody[] { return this.components.filter((c): c is RigidBody => c.kind === 'body'); }

  /** degrees of freedom of the dynamic components (velocity unknowns) */
  get dof(): number { return this.nSolve; }
}
