/**
 * A distance constraint (theory.md §9) between two points (particles, body points/markers, or one
 * world point).
 *
 * With x_1, x_2 the world positions of the points, r = x_2 − x_1 and n = r/|r|:
 *
 *   g = |r| − L                          (L defaults to |r| at set-up)
 *   ġ = n·ṙ = n·(ẋ_2 − ẋ_1)              (= rᵀṙ/|r|, not |ṙ|)
 *
 * and a body point at lever arm ρ from its body's origin moves with ẋ = v + ω × ρ = [I, −[ρ]] u
 * (theory.md §1), so the blocks are
 *
 *   particle: G = ±nᵀ,    body point: G = ±[nᵀ, (ρ × n)ᵀ]     (− for point 1, + for point 2)
 *
 * (−nᵀ[ρ]ω = −n·(ρ × ω) = ω·(ρ × n)). Differentiating ġ = n·ṙ with ṅ = (ṙ − n(n·ṙ))/|r| = ṙ_⊥/|r|
 * and the point accelerations a = v̇ + ω̇ × ρ + ω × (ω × ρ):
 *
 *   g̈ = G u̇ + κ,   κ = n·(ω_2 × (ω_2 × ρ_2) − ω_1 × (ω_1 × ρ_1)) + |ṙ_⊥|²/|r|
 *
 * (the centripetal terms only for body points). Both points on one component (a constant
 * distance), two world points, coincident points at set-up and L ≤ 0 (n undefined on the
 * constraint: use a ball joint) are ModelErrors. Should the points meet during a simulation the
 * last direction n is kept, so G and κ stay finite. Verified against central finite differences
 * in test/constraints/distance.test.ts.
 *
 * Geometric stiffness (theory.md §12): the constraint force on the second point is λ n, the force of
 * an axial spring of tension F = −λ, so ∂(Gᵀλ)/∂q at fixed λ is that spring's exact Jacobian
 * with F_l = F_l̇ = 0 (forces/pathSpring.ts; test/constraints/geometricStiffness.test.ts).
 */
import type { BilateralConstraint, ConstraintContext, GeometricStiffnessTerm } from './constraint.js';
import { type PointRef, POINT_BODY, POINT_PARTICLE, POINT_WORLD, pointAt } from '../model/points.js';
import { ModelError } from '../model/errors.js';
import type { BlockPattern, BlockMatrix } from '../assembly/blockSparse.js';
import type { ForceContext } from '../forces/force.js';
import type { AxialMaterial } from '../forces/materials.js';
import { PathSpring, type PathSpringScratch } from '../forces/pathSpring.js';

/** a constant tension F (N) with no stiffness of its own: the material of the geometric stiffness */
class Tension implements AxialMaterial {
  readonly kind = 'constraint tension';
  F = 0;
  evaluate(out: Float64Array): void { out[0] = this.F; out[1] = 0; out[2] = 0; }
  energy(): number { return 0; }
}

/**
 * K += ∂(Gᵀλ)/∂q at fixed λ = lambda[o]: the Jacobian of the axial spring of tension −λ. The
 * term, its spring, tension and the spring's scratch belong to one workspace.
 */
class AxialStiffness implements GeometricStiffnessTerm {
  constructor(private readonly tension: Tension, private readonly spring: PathSpring,
    private readonly scratch: PathSpringScratch) {}

  add(ctx: ForceContext, lambda: Float64Array, o: number, K: BlockMatrix, D: BlockMatrix): void {
    this.tension.F = -lambda[o]!;
    this.spring.addJacobians(ctx, K, D, this.scratch);
  }
}

export interface DistanceSpec {
  /** the rest length L > 0 (m); default: the distance at set-up */
  length?: number;
  /** compliance α ≥ 0 (m/N); default 0 (hard) */
  compliance?: number;
  /** damping β ≥ 0 (s); default 0 */
  damping?: number;
  /** instead of compliance: stiffness k > 0 (N/m) */
  stiffness?: number;
  /** with stiffness: damping ratio ζ ≥ 0 (default 0) */
  dampingRatio?: number;
}

/** |r| below which the direction of the last evaluation is kept */
const DEGENERATE = 1e-300;

/** one workspace's scratch of a DistanceConstraint: the points' kinematics, n and the Jacobian blocks */
export class DistanceScratch {
  /** per point: its block or null (world) */
  readonly G: readonly (Float64Array | null)[];
  /** the blocks in the order of `components` */
  readonly blocks: readonly Float64Array[];
  readonly x = [new Float64Array(3), new Float64Array(3)];
  readonly rho = [new Float64Array(3), new Float64Array(3)];
  readonly xd = [new Float64Array(3), new Float64Array(3)];
  /** the direction of the last evaluation (the set-up direction before the first) */
  readonly n = new Float64Array(3);
  len = 0;
  /** the kinematics (object and generation) the positions were computed at */
  kinSeen: unknown = null;
  genSeen = -1;

  constructor(pts: readonly PointRef[], n0: Float64Array) {
    this.G = pts.map((p) => (p.kind === POINT_PARTICLE ? new Float64Array(3)
      : p.kind === POINT_BODY ? new Float64Array(6) : null));
    this.blocks = this.G.filter((g): g is Float64Array => g !== null);
    this.n.set(n0);
  }
}

export class DistanceConstraint implements BilateralConstraint<DistanceScratch> {
  readonly rows = 1;
  readonly components: readonly number[];
  readonly compliance = new Float64Array(1);
  readonly damping = new Float64Array(1);
  readonly softness?: { readonly stiffness: Float64Array; readonly dampingRatio: number };
  /** the rest length L (m) */
  readonly length: number;
  /** no pool numbers: its scratch is small (DistanceScratch) */
  readonly scratchSize = 0;
  private readonly pts: readonly PointRef[];
  /** the direction at set-up, kept by a scratch until the points first separate (a parameter) */
  private readonly n0 = new Float64Array(3);

  /** its two points (a world point's `local` is its world position): read-only */
  get points(): readonly PointRef[] { return this.pts; }

  /** true when the first point is a world point (components[0] is then the second point's) */
  get sideAIsWorld(): boolean { return this.pts[0]!.kind === POINT_WORLD; }

  /** the geometric stiffness: an axial spring of tension −λ between the two points, on its blocks of `pattern` */
  geometricStiffness(pattern: BlockPattern): GeometricStiffnessTerm {
    const tension = new Tension();
    const spring = new PathSpring(`${this.name} (geometric stiffness)`, [this.pts[0]!, this.pts[1]!], tension, this.length);
    const scratch = spring.createScratch();
    spring.setup(pattern, scratch);
    return new AxialStiffness(tension, spring, scratch);
  }

  /** world position of the first point (where reaction torques are reported) */
  anchor(ctx: ConstraintContext, out: Float64Array, s: DistanceScratch): Float64Array {
    this.positions(ctx, s);
    out[0] = s.x[0]![0]!; out[1] = s.x[0]![1]!; out[2] = s.x[0]![2]!;
    return out;
  }

  /** p1, p2: the points (at most one in the world); q0: the positions L and the initial n are taken at */
  constructor(readonly name: string, p1: PointRef, p2: PointRef, q0: Float64Array, spec: DistanceSpec = {}) {
    // validation: two different components (or one and the world), valid parameters
    const path = `distance constraint "${name}"`;
    if (p1.kind === POINT_WORLD && p2.kind === POINT_WORLD) throw new ModelError(path, 'both points are world points');
    if (p1.component >= 0 && p1.component === p2.component) throw new ModelError(path, `both points are on the same component ("${p1.name}", "${p2.name}"): their distance cannot change`);
    for (const [key, v] of [['compliance', spec.compliance], ['damping', spec.damping]] as const) {
      if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new ModelError(`${path}.${key}`, `must be finite and non-negative (got ${v})`);
    }
    if (spec.length !== undefined && !(Number.isFinite(spec.length) && spec.length > 0)) {
      throw new ModelError(`${path}.length`, `must be finite and positive (got ${spec.length}); a zero distance is a ball joint`);
    }
    // the initial direction and length
    const x1 = pointAt(p1, q0), x2 = pointAt(p2, q0);
    if (!x1.every(Number.isFinite) || !x2.every(Number.isFinite)) throw new ModelError(path, 'point positions are not finite');
    const r = Float64Array.of(x2[0]! - x1[0]!, x2[1]! - x1[1]!, x2[2]! - x1[2]!);
    const d = Math.hypot(r[0]!, r[1]!, r[2]!);
    if (!(d > 1e-12)) throw new ModelError(path, `the points "${p1.name}" and "${p2.name}" coincide at set-up (direction undefined; use a ball joint)`);
    for (let i = 0; i < 3; i++) this.n0[i] = r[i]! / d;
    this.length = spec.length ?? d;
    this.compliance[0] = spec.compliance ?? 0;
    this.damping[0] = spec.damping ?? 0;
    if (spec.stiffness !== undefined) {
      if (spec.compliance !== undefined || spec.damping !== undefined) throw new ModelError(`${path}.stiffness`, 'give either stiffness (with dampingRatio) or compliance (with damping), not both');
      const zeta = spec.dampingRatio ?? 0;
      if (!(spec.stiffness > 0) || !Number.isFinite(spec.stiffness)) throw new ModelError(`${path}.stiffness`, `must be positive and finite (got ${spec.stiffness})`);
      if (!(zeta >= 0) || !Number.isFinite(zeta)) throw new ModelError(`${path}.dampingRatio`, `must be finite and non-negative (got ${zeta})`);
      this.softness = { stiffness: Float64Array.of(spec.stiffness), dampingRatio: zeta };
    }
    // components and blocks, in point order
    this.pts = [p1, p2];
    this.components = this.pts.filter((p) => p.kind !== POINT_WORLD).map((p) => p.component);
  }

  createScratch(): DistanceScratch { return new DistanceScratch(this.pts, this.n0); }

  /**
   * positions, lever arms, r, |r| and n at q; kept while the positions are unchanged (violation,
   * Jacobian and bias of one evaluation all need them)
   */
  private positions(ctx: ConstraintContext, s: DistanceScratch): void {
    if (s.kinSeen === ctx.kin && s.genSeen === ctx.kin.generation) return;
    s.kinSeen = ctx.kin;
    s.genSeen = ctx.kin.generation;
    const x1 = s.x[0]!, x2 = s.x[1]!;
    ctx.kin.position(x1, this.pts[0]!, ctx.q, s.rho[0]!);
    ctx.kin.position(x2, this.pts[1]!, ctx.q, s.rho[1]!);
    const rx = x2[0]! - x1[0]!, ry = x2[1]! - x1[1]!, rz = x2[2]! - x1[2]!;
    const len = Math.sqrt(rx * rx + ry * ry + rz * rz);
    s.len = len;
    // the direction; the last one is kept when the points meet
    if (len > DEGENERATE) { s.n[0] = rx / len; s.n[1] = ry / len; s.n[2] = rz / len; }
  }


  violation(ctx: ConstraintContext, out: Float64Array, o: number, sc: DistanceScratch): void {
    this.positions(ctx, sc);
    out[o] = sc.len - this.length;
  }

  jacobian(ctx: ConstraintContext, sc: DistanceScratch): readonly Float64Array[] {
    this.positions(ctx, sc);
    const n = sc.n;
    // per point: σ nᵀ, and σ (ρ × n)ᵀ for a body point
    for (let s = 0; s < 2; s++) {
      const G = sc.G[s];
      if (!G) continue;
      const sg = s === 0 ? -1 : 1;
      G[0] = sg * n[0]!; G[1] = sg * n[1]!; G[2] = sg * n[2]!;
      if (G.length === 6) {
        const r = sc.rho[s]!;
        G[3] = sg * (r[1]! * n[2]! - r[2]! * n[1]!);
        G[4] = sg * (r[2]! * n[0]! - r[0]! * n[2]!);
        G[5] = sg * (r[0]! * n[1]! - r[1]! * n[0]!);
      }
    }
    return sc.blocks;
  }

  bias(ctx: ConstraintContext, out: Float64Array, o: number, sc: DistanceScratch): void {
    this.positions(ctx, sc);
    const n = sc.n, u = ctx.u;
    // point velocities and the centripetal accelerations σ ω × (ω × ρ), projected on n
    let an = 0;
    for (let s = 0; s < 2; s++) {
      const p = this.pts[s]!, r = sc.rho[s]!;
      ctx.kin.velocity(sc.xd[s]!, p, u, r);
      if (p.kind !== POINT_BODY) continue;
      const uo = p.uOffset, wx = u[uo + 3]!, wy = u[uo + 4]!, wz = u[uo + 5]!;
      const cx = wy * r[2]! - wz * r[1]!, cy = wz * r[0]! - wx * r[2]!, cz = wx * r[1]! - wy * r[0]!;
      const ax = wy * cz - wz * cy, ay = wz * cx - wx * cz, az = wx * cy - wy * cx;
      an += (s === 0 ? -1 : 1) * (n[0]! * ax + n[1]! * ay + n[2]! * az);
    }
    // |ṙ_⊥|²/|r|
    const v1 = sc.xd[0]!, v2 = sc.xd[1]!;
    const dx = v2[0]! - v1[0]!, dy = v2[1]! - v1[1]!, dz = v2[2]! - v1[2]!;
    const dn = n[0]! * dx + n[1]! * dy + n[2]! * dz;
    const px = dx - dn * n[0]!, py = dy - dn * n[1]!, pz = dz - dn * n[2]!;
    const perp = sc.len > DEGENERATE ? (px * px + py * py + pz * pz) / sc.len : 0;
    out[o] = an + perp;
  }
}
