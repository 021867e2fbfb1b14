/**
 * How the surface materials of two shapes combine into the material of their contacts
 * (docs/contact.md, "Materials"; the soft unilateral row of 000 §0.11, λ = −α⁻¹(φ + β φ̇)):
 *
 * - friction μ = √(μ_A μ_B), the geometric mean: a frictionless surface makes a frictionless pair,
 *   and two equal surfaces keep their μ;
 * - restitution e = max(e_A, e_B): the bouncier surface decides;
 * - compliance α = α_A + α_B: the two surfaces are springs in series (force equal, deflections add);
 * - damping β (s, the relaxation time of the Kelvin element α⁻¹(φ + β φ̇)) = the compliance-weighted
 *   mean (α_A β_A + α_B β_B)/(α_A + α_B). Two Kelvin elements in series have the compliance
 *   C(s) = Σ α_i/(1 + β_i s) = α (1 − β s) + O(s²) at low frequency s, with exactly this α and β,
 *   so the combined element is the series pair to first order; equal β stay β, and a rigid side
 *   (α = 0) leaves the soft side's β. Between two rigid surfaces (α_A = α_B = 0) β is the larger
 *   of the two, the only value that does not depend on how the two compliances reached zero.
 *
 * Named materials (docs/model-format.md, Contact): between shapes of two named materials a pair
 * override (`materialPairs`) replaces the combined value of each field it gives; the fields it does
 * not give keep the rules above. `MaterialOverrides` holds them as a dense table over the pairs of
 * material ids (a handful of materials: M² entries), NaN where a field is not replaced.
 */
import type { ContactSet, SurfaceMaterial } from '../contact/contactSet.js';

/** the material arrays of a shape table (ShapeTable has them) */
export interface MaterialColumns {
  readonly friction: Float64Array;
  readonly restitution: Float64Array;
  readonly compliance: Float64Array;
  readonly damping: Float64Array;
}

/** μ of a pair: the geometric mean */
export function combineFriction(a: number, b: number): number {
  return Math.sqrt(a * b);
}

/** e of a pair: the larger */
export function combineRestitution(a: number, b: number): number {
  return Math.max(a, b);
}

/** α of a pair: springs in series */
export function combineCompliance(a: number, b: number): number {
  return a + b;
}

/** β of a pair: the compliance-weighted mean, the larger one between rigid surfaces */
export function combineDamping(alphaA: number, betaA: number, alphaB: number, betaB: number): number {
  const alpha = alphaA + alphaB;
  return alpha > 0 ? (alphaA * betaA + alphaB * betaB) / alpha : Math.max(betaA, betaB);
}

/** out = the material of a pair of surfaces; out may alias a or b */
export function combineMaterial(out: SurfaceMaterial, a: SurfaceMaterial, b: SurfaceMaterial): SurfaceMaterial {
  const damping = combineDamping(a.compliance, a.damping, b.compliance, b.damping);
  const friction = combineFriction(a.friction, b.friction);
  const restitution = combineRestitution(a.restitution, b.restitution);
  out.compliance = combineCompliance(a.compliance, b.compliance);
  out.friction = friction; out.restitution = restitution; out.damping = damping;
  return out;
}

/** a pair override between materials a and b (ids from 0); a field left out keeps the combined value */
export interface MaterialOverride {
  readonly a: number;
  readonly b: number;
  readonly friction?: number | undefined;
  readonly restitution?: number | undefined;
  readonly compliance?: number | undefined;
  readonly damping?: number | undefined;
}

/** the pair overrides of named materials, by pair of material ids */
export class MaterialOverrides {
  /** the number of named materials */
  readonly count: number;
  /** (count²) the row of the pair (a, b), −1 for none; symmetric */
  private readonly rowOf: Int32Array;
  /** (rows) the replacing values, NaN where the combined value stays */
  readonly friction: Float64Array;
  readonly restitution: Float64Array;
  readonly compliance: Float64Array;
  readonly damping: Float64Array;

  constructor(count: number, pairs: readonly MaterialOverride[]) {
    this.count = count;
    this.rowOf = new Int32Array(count * count).fill(-1);
    const n = pairs.length, field = (v: number | undefined) => (v === undefined ? NaN : v);
    this.friction = new Float64Array(n); this.restitution = new Float64Array(n);
    this.compliance = new Float64Array(n); this.damping = new Float64Array(n);
    pairs.forEach((p, r) => {
      if (!(p.a >= 0 && p.a < count && p.b >= 0 && p.b < count)) {
        throw new RangeError(`material pair ${r}: no material ${p.a} or ${p.b}`);
      }
      this.rowOf[p.a * count + p.b] = r; this.rowOf[p.b * count + p.a] = r;
      this.friction[r] = field(p.friction); this.restitution[r] = field(p.restitution);
      this.compliance[r] = field(p.compliance); this.damping[r] = field(p.damping);
    });
  }

  /** the override row of materials a and b, −1 when none (or when either has no named material, id < 0) */
  row(a: number, b: number): number {
    return a < 0 || b < 0 ? -1 : this.rowOf[a * this.count + b]!;
  }
}

/**
 * writes the combined material of shapes a and b into contacts [first, end) of out; `row` ≥ 0 is
 * their materials' override row in `o`, whose given fields replace the combined ones
 */
export function combineMaterials(out: ContactSet, first: number, end: number, m: MaterialColumns,
  a: number, b: number, o: MaterialOverrides | null = null, row = -1): void {
  // combine once per pair
  let mu = combineFriction(m.friction[a]!, m.friction[b]!);
  let e = combineRestitution(m.restitution[a]!, m.restitution[b]!);
  let alpha = combineCompliance(m.compliance[a]!, m.compliance[b]!);
  let beta = combineDamping(m.compliance[a]!, m.damping[a]!, m.compliance[b]!, m.damping[b]!);
  // the pair's override, field by field (NaN: not given)
  if (o !== null && row >= 0) {
    const f = o.friction[row]!, r = o.restitution[row]!, c = o.compliance[row]!, d = o.damping[row]!;
    if (!Number.isNaN(f)) mu = f;
    if (!Number.isNaN(r)) e = r;
    if (!Number.isNaN(c)) alpha = c;
    if (!Number.isNaN(d)) beta = d;
  }
  // then copy to each contact of the pair
  for (let i = first; i < end; i++) {
    out.friction[i] = mu; out.restitution[i] = e; out.compliance[i] = alpha; out.damping[i] = beta;
  }
}
