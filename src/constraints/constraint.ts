/**
 * The bilateral-constraint interface (000 §0.5, §0.10, §0.11; 001 §3-4).
 *
 * A constraint g(q) = 0 with m rows acts on one or two components (particles or bodies; the
 * world is not a component). It supplies, at the current state:
 *   - g(q), its violation (m);
 *   - G, the m × (3|6) Jacobian block of each component, such that ġ = Σ_k G_k u_k with the
 *     engine's velocities (particle v; body (v of the origin, ω), both world). For bodies G is
 *     the "Jacobian" of 001 eq. 26 (a map from velocities, not a gradient in q);
 *   - κ = Ġu, the velocity-product term with g̈ = G u̇ + κ, used by the integrators'
 *     derivative terms (a constraint's "acceleration bias");
 *   - per-row compliance α (0 = hard) and damping β (s) of 000 §0.11.
 * After a step the engine stores its multipliers λ (N or N·m per row: the constraint force is
 * +Gᵀλ, ERRATA A.1) and reports them as the wrench on side A (the reaction when A is the world:
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

export interface ConstraintContext {
  readonly model: Model;
  readonly q: Float64Array;     // (nq)
  readonly u: Float64Array;     // (nu)
  readonly kin: Kinematics;     // body caches, up to date with q
}

export interface BilateralConstraint {
  /** a name for messages and outputs */
  readonly name: string;
  /** number of rows m (1 to 6) */
  readonly rows: number;
  /** indices of the components it acts on (1 or 2), in the order of `jacobian`'s blocks */
  readonly components: readonly number[];
  /** per-row compliance α ≥ 0 (m/N for lengths, rad/(N·m) for angles); 0 = hard */
  readonly compliance: Float64Array;
  /** per-row damping β ≥ 0 (s) of 000 §0.11 */
  readonly damping: Float64Array;
  /**
   * Optional softness in physical units: per-row stiffness k > 0 (N/m or N·m/rad) and a damping
   * ratio ζ. The Model constructor turns them into α = 1/k and β = 2ζ √(m_eff/k), with
   * m_eff = 1/(G_i M⁻¹ G_iᵀ) the row's effective mass at q0 (./softness.ts), so the row behaves as
   * a spring-damper of that stiffness and ratio.
   */
  readonly softness?: { readonly stiffness: Float64Array; readonly dampingRatio: number };
  /** g(q) → out[o … o+m) */
  violation(ctx: ConstraintContext, out: Float64Array, o: number): void;
  /**
   * The Jacobian blocks, one per entry of `components`: block k is m × s_k row-major (s = 3 for
   * a particle, 6 for a body). Returned arrays are owned by the constraint (valid until the next call).
   */
  jacobian(ctx: ConstraintContext): readonly Float64Array[];
  /**
   * Optional, the geometric stiffness of seed 003 (used when the model's `geometricStiffness` is
   * on): registers the pattern blocks the term fills and returns the term that fills them, or
   * null when the constraint has none (a joint without translational rows). Called once per
   * workspace, before its pattern is built: the term, and the pattern slots it holds, belong to
   * that workspace (two simulations of one model keep their own).
   */
  geometricStiffness?(pattern: BlockPattern): GeometricStiffnessTerm | null;
  /** κ = Ġ u → out[o … o+m) */
  bias(ctx: ConstraintContext, out: Float64Array, o: number): void;
  /** world position of the point its wrench is reported about (./report.ts) */
  anchor(ctx: ConstraintContext, out: Float64Array): Float64Array;
  /** true when side A is the world, so components[0] is side B */
  readonly sideAIsWorld: boolean;
  /**
   * Optional: the numbers of scratch (frames, kinematics, Jacobian blocks) the constraint can keep
   * in a pool shared by the model's constraints, and the method that moves them there (values
   * kept). The model packs its constraints' scratch back to back in one array (the step
   * evaluates joints from its JointBatch's own copy; this scratch serves queries such as
   * coordinates and reports, and the optional geometric stiffness).
   */
  readonly scratchSize?: number;
  adoptScratch?(pool: Float64Array): void;
}
