/**
 * The force stage of the step: evaluates f(q, u) of every force effector, and on request the
 * exact Jacobians K = ∂f/∂q and D = ∂f/∂u on the component blocks of the shared block-sparse
 * pattern (its sub-layout `jacobianLayout`). Owns, for one simulation, every force's scratch
 * (`ForceEffector.createScratch`, in model order: the pattern slots and what an evaluation
 * computes), the point-map scratch and, shared with the constraint stage, the kinematic cache.
 * The forces themselves are never written, so two simulations of one model share them safely.
 */
import type { Model } from '../model/model.js';
import { Kinematics } from '../model/kinematics.js';
import { PointMap } from '../forces/pointMap.js';
import { BlockPattern, BlockMatrix, type BlockLayout } from './blockSparse.js';
import type { ForceContext, ForceEffector } from '../forces/force.js';
import { PathSpring, type PathSpringScratch, type SpringReadout } from '../forces/pathSpring.js';
import { FrameSpring, type FrameSpringScratch, type FrameSpringReadout } from '../forces/frameSpring.js';
import { InertialForces, type InertialScratch } from '../forces/inertial.js';

export type { SpringReadout } from '../forces/pathSpring.js';
export type { FrameSpringReadout } from '../forces/frameSpring.js';

export class ForceSystem {
  readonly pattern: BlockPattern;
  readonly layout: BlockLayout;
  readonly kin: Kinematics;
  /**
   * ∂f/∂q and ∂f/∂u on the blocks between components only (`jacobianLayout`: the full layout
   * less the constraint blocks, which they never fill): entry e is the full layout's value
   * jacobianEntries[e]. On the 10 000-link chain the full arrays were 9.4 MB each, two thirds
   * zeros, cleared, written and read by every step.
   */
  readonly K: BlockMatrix;
  readonly D: BlockMatrix;
  /** the layout of K and D (same slots as `layout`) */
  readonly jacobianLayout: BlockLayout;
  /** (nnz of `layout`) each value index's entry in K and D, −1 outside the blocks between components */
  readonly jacobianIndex: Int32Array;
  readonly f: Float64Array;         // (nu) generalized forces
  /**
   * (nu) external loads in the velocity layout (a body's force at its origin and torque about it,
   * world axes; a particle's force), added to f(q, u) by every evaluation until changed: the
   * simulation's applied loads. They depend on neither q nor u, so K and D do not see them.
   */
  readonly external: Float64Array;
  /**
   * the value indices (in `layout`) of K's and D's entries, in their order: every block between
   * two components (forces, the mass matrix and the geometric stiffness of constraints fill only
   * these; mirror pairs both in), ascending. The rest of the pattern is the constraint rows.
   */
  readonly jacobianEntries: Int32Array;
  /** (nSolve) for each component column, the first value index in a constraint row (the end of its component rows) */
  readonly split: Int32Array;
  private readonly pm = new PointMap();
  /** each force's scratch, in model order */
  private readonly scratch: unknown[];
  private ctx: ForceContext;
  private ctx2: ForceContext;
  /**
   * (forces) the components whose positions each readable force (a path or frame spring) reads,
   * null for the others: its readout brings only those body caches up to date (O(1), not O(nq);
   * src/model/kinematics.ts, freshness)
   */
  private readonly reads: (Int32Array | null)[];
  /** the inertial forces' scratch (one, or none without dynamic bodies): `jacobians` sets its frozenInertia */
  private readonly inertial: InertialScratch[];

  /**
   * `register` adds further blocks (the constraint rows) before the pattern is built; `kin`, the
   * workspace's body caches (shared with its constraint stage), made here when not given
   */
  constructor(readonly model: Model, register?: (pattern: BlockPattern) => void, kin?: Kinematics) {
    this.pattern = new BlockPattern(model.blockSize, model.blockStart);
    // every force gets its scratch and registers the blocks it fills there, in model order
    // (deterministic slots)
    this.scratch = model.forces.map((force) => force.createScratch());
    model.forces.forEach((force, i) => force.setup(this.pattern, this.scratch[i]));
    register?.(this.pattern);
    this.layout = this.pattern.build();
    // where each component column's constraint rows start (rows are sorted, constraint rows last)
    const L = this.layout, n = model.nSolve;
    this.split = Int32Array.from({ length: n }, (_, j) => {
      let p = L.colPtr[j]!;
      while (p < L.colPtr[j + 1]! && L.rowIdx[p]! < n) p++;
      return p;
    });
    this.kin = kin ?? new Kinematics(model);
    const sub = this.pattern.sublayout(model.blockComponent.length);
    this.jacobianEntries = sub.entries;
    this.jacobianLayout = sub.layout;
    this.jacobianIndex = sub.compact;
    this.K = new BlockMatrix(sub.layout);
    this.D = new BlockMatrix(sub.layout);
    this.f = new Float64Array(model.nu);
    this.external = new Float64Array(model.nu);
    this.ctx = { model, q: model.initialQ, u: model.initialU, kin: this.kin, pm: this.pm };
    this.ctx2 = this.ctx;
    this.reads = model.forces.map(readComponents);
    this.inertial = model.forces.flatMap((force, i) => (force instanceof InertialForces ? [this.scratch[i] as InertialScratch] : []));
  }

  /** points the evaluation at (q, u) and refreshes the body caches */
  bind(q: Float64Array, u: Float64Array): ForceContext {
    this.kin.update(q);
    return this.context(q, u);
  }

  /** a context at (q, u), reused when the arrays are the same */
  private context(q: Float64Array, u: Float64Array): ForceContext {
    // keep two contexts (the step's state and the second-order schemes' midpoint): no allocation
    if (this.ctx.q !== q || this.ctx.u !== u) {
      const other = this.ctx2;
      this.ctx2 = this.ctx;
      this.ctx = other.q === q && other.u === u ? other : { model: this.model, q, u, kin: this.kin, pm: this.pm };
    }
    return this.ctx;
  }

  /** a context at (q, u) with the body caches of readable force i's components up to date with q */
  private readContext(i: number, q: Float64Array, u: Float64Array): ForceContext {
    this.kin.updateComponents(q, this.reads[i]!);
    return this.context(q, u);
  }

  /** f ← f(q, u) + the external loads */
  forces(q: Float64Array, u: Float64Array): Float64Array {
    const ctx = this.bind(q, u);
    // the loads first: with none, f starts from +0 as the forces always have
    this.f.set(this.external);
    const forces = this.model.forces, scratch = this.scratch;
    for (let i = 0; i < forces.length; i++) forces[i]!.addForces(ctx, this.f, scratch[i]);
    return this.f;
  }

  /**
   * K ← ∂f/∂q, D ← ∂f/∂u at (q, u); with `frozenInertia` K leaves out the inertial forces' term
   * of J turning with the body (implicit Euler: J frozen at q, as M is; forces/inertial.ts)
   */
  jacobians(q: Float64Array, u: Float64Array, frozenInertia = false): void {
    const ctx = this.bind(q, u);
    for (let i = 0; i < this.inertial.length; i++) this.inertial[i]!.frozenInertia = frozenInertia;
    this.K.zero();
    this.D.zero();
    const forces = this.model.forces, scratch = this.scratch;
    for (let i = 0; i < forces.length; i++) forces[i]!.addJacobians(ctx, this.K, this.D, scratch[i]);
  }

  /** total potential energy at q */
  potentialEnergy(q: Float64Array, u: Float64Array): number {
    const ctx = this.bind(q, u);
    const forces = this.model.forces;
    let V = 0;
    for (let i = 0; i < forces.length; i++) V += forces[i]!.potentialEnergy(ctx, this.scratch[i]);
    return V;
  }

  /**
   * A readout for force `forceIndex` (its index in `model.forces`) with room for its segments, or
   * null when that force is not a path or axial spring. Allocates: make it once, then fill it by
   * `springReadout` as often as needed.
   */
  createSpringReadout(forceIndex: number): SpringReadout | null {
    const f = this.model.forces[forceIndex];
    return f instanceof PathSpring ? { length: 0, rate: 0, tension: 0, segments: new Float64Array(f.n) } : null;
  }

  /**
   * The length, rate, tension and segment lengths of force `forceIndex` at (q, u), into out
   * (`out.segments` receives its first n entries, one per segment); false, and out untouched, when
   * that force is not a path or axial spring. Evaluated in this simulation's workspace.
   */
  springReadout(forceIndex: number, q: Float64Array, u: Float64Array, out: SpringReadout): boolean {
    const f = this.model.forces[forceIndex];
    if (!(f instanceof PathSpring)) return false;
    f.readout(this.readContext(forceIndex, q, u), this.scratch[forceIndex] as PathSpringScratch, out);
    return true;
  }

  /**
   * The wrench frame spring `forceIndex` applies to its body B at (q, u): the force and the torque
   * about B's attachment frame origin, world axes (FrameSpringReadout); false, and out untouched,
   * when that force is not a frame spring.
   */
  frameSpringReadout(forceIndex: number, q: Float64Array, u: Float64Array, out: FrameSpringReadout): boolean {
    const f = this.model.forces[forceIndex];
    if (!(f instanceof FrameSpring)) return false;
    f.readout(this.readContext(forceIndex, q, u), this.scratch[forceIndex] as FrameSpringScratch, out);
    return true;
  }
}

/** the components a readable force's readout reads (its points', its bodies'), null for other forces */
function readComponents(f: ForceEffector): Int32Array | null {
  if (f instanceof PathSpring) {
    return Int32Array.from(f.points.filter((p) => p.component >= 0), (p) => p.component);
  }
  if (f instanceof FrameSpring) {
    return Int32Array.from([f.bodyA, f.bodyB].filter((b) => b !== null), (b) => b.index);
  }
  return null;
}
