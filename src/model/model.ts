/**
 * The immutable model: components (particles, rigid bodies, markers), force effectors and
 * settings, plus the layout of the flat state vectors. Built once by `ModelAssembler.build()`
 * and never written afterwards: the mutable state lives in `State`, and everything an evaluation
 * computes (the forces' and constraints' scratch, their pattern slots, the readouts) in each
 * simulation's workspace, so one model can serve several simulations, even frozen.
 *
 * State layout (see docs/ARCHITECTURE.md):
 *   particle: q = [x, y, z]                      u = [vx, vy, vz]               (3, 3)
 *   body:     q = [x, y, z, qw, qx, qy, qz]      u = [vx, vy, vz, wx, wy, wz]   (7, 6)
 * where for a body (x, y, z) is the frame origin in world, q its unit orientation quaternion
 * (body → world), v the world velocity of the frame origin and ω the world angular velocity.
 */
import type { ForceEffector } from '../forces/force.js';
import type { IntegratorName } from '../integrators/names.js';
import type { BilateralConstraint } from '../constraints/constraint.js';
import { ModelError } from './errors.js';
import {
  DEFAULT_CONTACT, type ContactSettings, type ShapeEntry, type JointLimit, type JointMotor,
  type NamedMaterial, type MaterialPair,
} from './contactModel.js';

/** a 3-vector [x, y, z] */
export type Vec3Tuple = [number, number, number];
/** a quaternion [w, x, y, z] */
export type QuatTuple = [number, number, number, number];

/** a point mass: 3 entries of q (position) and 3 of u (velocity), world axes */
export interface Particle {
  /** the kind of component */
  readonly kind: 'particle';
  /** its unique name */
  readonly name: string;
  /** component index in Model.components */
  readonly index: number;
  /** kg */
  readonly mass: number;
  /** false: it stays where it is */
  readonly dynamic: boolean;
  /** into State.q, 3 entries */
  readonly qOffset: number;
  /** into State.u, 3 entries */
  readonly uOffset: number;
  /** solve block index, −1 when not dynamic */
  readonly block: number;
}

/**
 * a rigid body: 7 entries of q (frame origin, unit quaternion [w, x, y, z] body → world) and 6 of u
 * (the origin's velocity and the angular velocity, world axes)
 */
export interface RigidBody {
  /** the kind of component */
  readonly kind: 'body';
  /** its unique name */
  readonly name: string;
  /** component index in Model.components */
  readonly index: number;
  /** kg */
  readonly mass: number;
  /** (9) row-major J about the centre of mass, body axes, kg·m² */
  readonly inertia: Float64Array;
  /** (3) centre of mass in body coordinates, m */
  readonly com: Float64Array;
  /** false: it stays where it is */
  readonly dynamic: boolean;
  /** 7 entries: origin (3), quaternion wxyz (4) */
  readonly qOffset: number;
  /** 6 entries: v of origin (3), ω (3), both world */
  readonly uOffset: number;
  /** solve block index, −1 when not dynamic */
  readonly block: number;
}

/** a particle or a rigid body: what has entries in the state */
export type Component = Particle | RigidBody;

/** a named point fixed on a body */
export interface Marker {
  /** its unique name */
  readonly name: string;
  /** component index of its rigid body */
  readonly body: number;
  /** (3) in body coordinates, m */
  readonly location: Float64Array;
}

/**
 * How hard bilateral constraints are kept on their manifold (docs/constraints.md):
 * - 'projection' (default): velocity rows G u⁺ = 0 (first-order schemes, G at q_k) or
 *   G_mid u⁺ = −(h/2)κ (second-order schemes, G at the midpoint), then a post-step projection of
 *   positions and velocities onto the constraints (theory.md §8), weighted by M plus the joints'
 *   curvature, or by M alone (`positionMetric`, `velocityMetric`);
 * - 'baumgarte': g̈ + α ġ + β g = 0 at the velocity level (theory.md §8), no projection;
 * - 'spook': the regularized, stabilized rows of theory.md §8 with relaxation d steps, no projection.
 */
export interface Stabilization {
  /** the method: projection (default), Baumgarte feedback or SPOOK */
  method: 'projection' | 'baumgarte' | 'spook';
  /** Baumgarte α (1/s), default 40 (a critically damped error with a 0.05 s time constant) */
  alpha?: number;
  /** Baumgarte β (1/s²), default 400 */
  beta?: number;
  /** SPOOK relaxation d = τ/h in steps, default 4 */
  relaxation?: number;
  /** SPOOK compliance ε of hard rows, default 1e-10 (m/N or rad/(N·m)) */
  compliance?: number;
  /**
   * projection only: the metric of the velocity projection. 'projection' (default): the
   * position projection's last factorization, M plus the joints' curvature, iterated to
   * G(q⁺)u = 0; 'mass': P_v of theory.md §8 exactly, M(q⁺) alone, at most one more factorization per step
   */
  velocityMetric?: 'projection' | 'mass';
  /**
   * projection only: the metric of the position projection. 'projection' (default): M plus the
   * joints' curvature (the Hessian of μᵀg, capped), which keeps Newton's convergence on long chains
   * under tension; 'mass': M alone, so each Newton step is the mass-weighted step of theory.md §8
   * (δq = −M⁻¹Gᵀ(GM⁻¹Gᵀ)⁻¹g; the chord iterations between reuse its M and G), at the price of
   * more factorizations there (docs/constraints.md)
   */
  positionMetric?: 'projection' | 'mass';
}

/** the defaults of the projection's, Baumgarte's and SPOOK's parameters (see Stabilization) */
export const STABILIZATION_DEFAULTS = Object.freeze({ alpha: 40, beta: 400, relaxation: 4, compliance: 1e-10, velocityMetric: 'projection' as const, positionMetric: 'projection' as const });

/** a Stabilization with every parameter given */
export type ResolvedStabilization = Readonly<Required<Stabilization>>;

/** the parameters of `s`, the defaults filled in where it gives none */
export function resolveStabilization(s: Stabilization): ResolvedStabilization {
  const d = STABILIZATION_DEFAULTS;
  return Object.freeze({
    method: s.method, alpha: s.alpha ?? d.alpha, beta: s.beta ?? d.beta, relaxation: s.relaxation ?? d.relaxation, compliance: s.compliance ?? d.compliance,
    velocityMetric: s.velocityMetric ?? d.velocityMetric, positionMetric: s.positionMetric ?? d.positionMetric,
  });
}

/** the parameters object of a model, with documented defaults */
export interface ModelSettings {
  /** constraint stabilization (default { method: 'projection' }) */
  stabilization: Stabilization;
  /**
   * add the geometric stiffness of distance constraints and of joints' translational rows,
   * ∂(Gᵀλ)/∂q at the previous step's λ, to the implicit integrators' K (theory.md §12; default false)
   */
  geometricStiffness: boolean;
  /** gravitational acceleration, m/s² (default [0, 0, −9.81]) */
  gravity: Vec3Tuple;
  /** integrator (default 'implicit-euler') */
  integrator: IntegratorName;
  /** step size h, s (default 0.01) */
  step: number;
  /** how long the model is meant to run, s: `Simulation.run()`'s and `vinculum run`'s default (none by default) */
  duration?: number;
}

/** the settings a model has unless it says otherwise */
export const DEFAULT_SETTINGS: Readonly<ModelSettings> = Object.freeze({
  gravity: Object.freeze([0, 0, -9.81]) as unknown as Vec3Tuple, integrator: 'implicit-euler', step: 0.01,
  stabilization: Object.freeze({ method: 'projection' }) as Stabilization,
  geometricStiffness: false,
});

/**
 * A model: components, markers, forces, constraints and settings, and the layout of the state
 * vectors. Immutable once built (by `parseModel`, `loadModel` or a `ModelBuilder`): every run-time
 * number lives in the Simulation. One model may back many simulations at once.
 */
export class Model {
  /** the particles and bodies, in the order of the state vectors */
  readonly components: readonly Component[];
  /** the markers */
  readonly markers: readonly Marker[];
  /** @internal the force effectors, built-in ones (gravity, inertial forces, damping) first */
  readonly forces: readonly ForceEffector[];
  /** gravity, integrator, step, stabilization, geometric stiffness */
  readonly settings: Readonly<ModelSettings>;
  /** length of State.q */
  readonly nq: number;
  /** length of State.u */
  readonly nu: number;
  /** @internal the joints and distance constraints */
  readonly constraints: readonly BilateralConstraint[];
  /** @internal (nComponentBlocks) component index of each component block */
  readonly blockComponent: Int32Array;
  /** @internal (nBlocks) 3 or 6 for components, then the row count of each constraint */
  readonly blockSize: Int32Array;
  /** @internal (nBlocks + 1) offset of each block in the KKT vector */
  readonly blockStart: Int32Array;
  /** @internal n: number of velocity unknowns in the solve */
  readonly nSolve: number;
  /** @internal m: number of constraint rows */
  readonly nRows: number;
  /** @internal n + m */
  readonly nKkt: number;
  /** @internal (nConstraints + 1) first row of each constraint (0-based in the m rows) */
  readonly rowStart: Int32Array;
  /** (nq) the initial positions */
  readonly initialQ: Float64Array;
  /** (nu) the initial velocities */
  readonly initialU: Float64Array;

  /** @internal use ModelAssembler */
  constructor(args: {
    components: Component[]; markers: Marker[]; forces: ForceEffector[]; settings: ModelSettings;
    nq: number; nu: number; q0: Float64Array; u0: Float64Array; constraints?: BilateralConstraint[];
    /** how many of `forces` come first as built-in effectors (gravity, inertial forces, damping) */
    builtinForces?: number;
    /** the contact entry, shapes, limits and motors (default: none) */
    contact?: ContactSettings; shapes?: ShapeEntry[]; limits?: JointLimit[]; motors?: JointMotor[];
    /** the named surface materials, their pair overrides, the constraints whose components may collide */
    materials?: NamedMaterial[]; materialPairs?: MaterialPair[]; collidingConstraints?: number[];
  }) {
    this.contact = args.contact ?? DEFAULT_CONTACT;
    this.shapes = args.shapes ?? [];
    this.limits = args.limits ?? [];
    this.motors = args.motors ?? [];
    this.materials = args.materials ?? [];
    this.materialPairs = args.materialPairs ?? [];
    this.collidingConstraints = args.collidingConstraints ?? [];
    this.components = args.components;
    this.particles = args.components.filter((c): c is Particle => c.kind === 'particle');
    this.bodies = args.components.filter((c): c is RigidBody => c.kind === 'body');
    this.jointNames = (args.constraints ?? []).map((c) => c.name);
    this.forceNames = args.forces.slice(args.builtinForces ?? 0).map((f) => f.name);
    this.markers = args.markers;
    this.forces = args.forces;
    this.settings = args.settings;
    this.nq = args.nq;
    this.nu = args.nu;
    this.initialQ = args.q0;
    this.initialU = args.u0;
    const cons = args.constraints ?? [];
    this.constraints = cons;
    // a constraint must act on at least one dynamic component
    for (const c of cons) {
      if (!c.components.some((k) => args.components[k]!.dynamic)) throw new ModelError(`constraint "${c.name}"`, 'acts on no dynamic component');
    }
    // blocks: dynamic components, then one block per constraint
    const dyn = args.components.filter((c) => c.dynamic);
    this.blockComponent = Int32Array.from(dyn.map((c) => c.index));
    this.blockSize = Int32Array.from([...dyn.map((c) => (c.kind === 'particle' ? 3 : 6)), ...cons.map((c) => c.rows)]);
    const nb = this.blockSize.length;
    this.blockStart = new Int32Array(nb + 1);
    for (let b = 0; b < nb; b++) this.blockStart[b + 1] = this.blockStart[b]! + this.blockSize[b]!;
    this.nSolve = this.blockStart[dyn.length]!;
    this.nKkt = this.blockStart[nb]!;
    this.nRows = this.nKkt - this.nSolve;
    this.rowStart = new Int32Array(cons.length + 1);
    for (let c = 0; c < cons.length; c++) this.rowStart[c + 1] = this.rowStart[c]! + cons[c]!.rows;
  }

  /** the contact solver's settings (model file `contact`) */
  readonly contact: ContactSettings;
  /** the collision shapes: world shapes, then the components' in model order */
  readonly shapes: readonly ShapeEntry[];
  /** the joints' coordinate limits */
  readonly limits: readonly JointLimit[];
  /** the joints' motors */
  readonly motors: readonly JointMotor[];
  /** the named surface materials (model file `materials`), which shapes refer to by name */
  readonly materials: readonly NamedMaterial[];
  /** the fields that replace the combined material of two named materials (model file `materialPairs`) */
  readonly materialPairs: readonly MaterialPair[];
  /** the constraints (indices) whose components may collide; other joined components never do */
  readonly collidingConstraints: readonly number[];
  /** the particles, in component order */
  readonly particles: readonly Particle[];
  /** the rigid bodies, in component order */
  readonly bodies: readonly RigidBody[];
  /** the names of the joints and distance constraints (`Simulation.joint`), in model order */
  readonly jointNames: readonly string[];
  /** the names of the force elements (`Simulation.force`: springs and frame springs), in model order */
  readonly forceNames: readonly string[];

  /** velocity unknowns of the dynamic components */
  get dof(): number { return this.nSolve; }

}
