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

/** writes the combined material of shapes a and b into contacts [first, end) of out */
export function combineMaterials(out: ContactSet, first: number, end: number, m: MaterialColumns,
  a: number, b: number): void {
  // combine once per pair
  const mu = combineFriction(m.friction[a]!, m.friction[b]!);
  const e = combineRestitution(m.restitution[a]!, m.restitution[b]!);
  const alpha = combineCompliance(m.compliance[a]!, m.compliance[b]!);
  const beta = combineDamping(m.compliance[a]!, m.damping[a]!, m.compliance[b]!, m.damping[b]!);
  // then copy to each contact of the pair
  for (let i = first; i < end; i++) {
    out.friction[i] = mu; out.restitution[i] = e; out.compliance[i] = alpha; out.damping[i] = beta;
  }
}
