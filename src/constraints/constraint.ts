/**
 * The bilateral-constraint interface (theory.md §6, §7, §9).
 *
 * A constraint g(q) = 0 with m rows acts on one or two components (particles or bodies; the
 * world is not a component). It supplies, at the current state:
 *   - g(q), its violation (m);
 *   - G, the m × (3|6) Jacobian block of each component, such that ġ = Σ_k G_k u_k with the
 *     engine's velocities (particle v; body (v of the origin, ω), both world). For bodies G is
 *     the "Jacobian" of theory.md §1 (a map from velocities, not a gradient in q);
 *   - κ = Ġu, the velocity-product term with g̈ = G u̇ + κ, used by the integrators'
 *     derivative terms (a constraint's "acceleration bias");
 *   - per-row compliance α (0 = hard) and damping β (s) of theory.md §7.
 * After a step the engine stores its multipliers λ (N or N·m per row: the constraint force is
 * +Gᵀλ, theory.md §6) and reports them as the wrench on side A (the reaction when A is the world:
 * src/constraints/report.ts).
 *
 * Position variations follow the engine's convention (docs/ARCHITECTURE.md): δx world, body
 * rotations R ← exp([δθ]) R with δθ world; so G is checked against finite differences of g
 * along q ⊕ ε e_j (test/constraints).
 */
import type { Model } from '../model/model.js';
import type { Kinematics } from '../model/kinematics.js';
import type { BlockMatrix, BlockPattern } from '../assembly/blockSparse.js';
import type { ForceContext } from '../forces/force.js';
import type { StiffnessScratch } from './geometricStiffness.js';

/** one constraint's geometric stiffness on one workspace's pattern (BilateralConstraint.geometricStiffness) */
export interface GeometricStiffnessTerm {
  /**
   * K += ∂(Gᵀλ)/∂q at fixed multipliers lambda[o … o+m) on the blocks registered for it (D is
   * there for a term in u; the ones implemented have none)
   */
  add(ctx: ForceContext, lambda: Float64Array, o: number, K: BlockMatrix, D: BlockMatrix, t: StiffnessScratch): void;
}

/** the state one constraint evaluation reads, with the workspace's body caches */
export interface ConstraintContext {
  readonly model: Model;
  readonly q: Float64Array;     // (nq)
  readonly u: Float64Array;     // (nu)
  readonly kin: Kinematics;     // body caches, up to date with q for the constraint's components (all of them in the step)
}

/**
 * A bilateral constraint of the model. The constraint holds parameters only (bodies, frames
 * fixed in them, masks, compliance) and is never written after the model is built (the Model
 * constructor sets soft rows' compliance and damping once, ./softness.ts). What an evaluation
 * computes lives in a scratch S that each simulation's workspace makes once (`createScratch`,
 * held by its ConstraintSystem) and passes back to every call: two simulations of one model
 * never share numbers.
 */
export interface BilateralConstraint<S = unknown> {
  /** a name for messages and outputs */
  readonly name: string;
  /** number of rows m (1 to 6) */
  readonly rows: number;
  /** indices of the components it acts on (1 or 2), in the order of `jacobian`'s blocks */
  readonly components: readonly number[];
  /** per-row compliance α ≥ 0 (m/N for lengths, rad/(N·m) for angles); 0 = hard */
  readonly compliance: Float64Array;
  /** per-row damping β ≥ 0 (s) of theory.md §7 */
  readonly damping: Float64Array;
  /**
   * Optional softness in physical units: per-row stiffness k > 0 (N/m or N·m/rad) and a damping
   * ratio ζ. The Model constructor turns them into α = 1/k and β = 2ζ √(m_eff/k), with
   * m_eff = 1/(G_i M⁻¹ G_iᵀ) the row's effective mass at q0 (./softness.ts), so the row behaves as
   * a spring-damper of that stiffness and ratio.
   */
  readonly softness?: { readonly stiffness: Float64Array; readonly dampingRatio: number };
  /**
   * the numbers of Float64 scratch (kinematics, Jacobian blocks) it keeps in its workspace's pool,
   * where the ConstraintSystem packs its constraints' scratch back to back, in model order; 0 for none
   */
  readonly scratchSize: number;
  /**
   * a new scratch for one workspace, its Float64 numbers in `pool` (scratchSize numbers, zeroed);
   * called once per workspace (allocates)
   */
  createScratch(pool: Float64Array): S;
  /** g(q) → out[o … o+m) */
  violation(ctx: ConstraintContext, out: Float64Array, o: number, s: S): void;
  /**
   * The Jacobian blocks, one per entry of `components`: block k is m × s_k row-major (s = 3 for
   * a particle, 6 for a body). The returned arrays belong to the scratch s (valid until its next use).
   */
  jacobian(ctx: ConstraintContext, s: S): readonly Float64Array[];
  /**
   * Optional, the geometric stiffness of theory.md §12 (used when the model's `geometricStiffness` is
   * on): registers the pattern blocks the term fills and returns the term that fills them, or
   * null when the constraint has none (a joint without translational rows). Called once per
   * workspace, with that workspace's scratch, before its pattern is built: the term, and the
   * pattern slots it holds, belong to that workspace (two simulations of one model keep their own).
   */
  geometricStiffness?(pattern: BlockPattern, s: S): GeometricStiffnessTerm | null;
  /** κ = Ġ u → out[o … o+m) */
  bias(ctx: ConstraintContext, out: Float64Array, o: number, s: S): void;
  /** world position of the point its wrench is reported about (./report.ts) */
  anchor(ctx: ConstraintContext, out: Float64Array, s: S): Float64Array;
  /** true when side A is the world, so components[0] is side B */
  readonly sideAIsWorld: boolean;
}
