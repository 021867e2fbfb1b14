/**
 * Axial materials: the tension F(l, l̇) of an axial or multi-point spring (theory.md §10), with
 * its exact partial derivatives. Positive F is tension (it pulls the end points together).
 *
 * - `LinearMaterial`: F = k (l − r) + d l̇.
 * - `QuadraticStrainMaterial` (the stress form): σ = k ε with the Green strain
 *   ε = ½ (l² − r²)/r², so F = σ l. Its position Jacobian splits into the material stiffness
 *   −(k/r²) Δx Δxᵀ and the geometric stiffness −σ I (see `stressStiffnessSplit`). Damping d l̇.
 * - `ExponentialLigament`: slack below the rest length, an exponential toe region up to the
 *   strain ε_t, then linear with stiffness k (N/m), C¹ at ε_t: F = A (e^{Bε} − 1) on the toe,
 *   with A = k r / (B e^{Bε_t}), ε = (l − r)/r. Damping d l̇ only while taut, and the tension
 *   is clamped at zero (a ligament never pushes, even when shortening fast).
 */
import { ModelError } from '../model/errors.js';

/** throws a ModelError unless v is finite and ≥ 0 (or > 0 when strict) */
function check(what: string, v: number, strict = false): void {
  if (!Number.isFinite(v) || v < 0 || (strict && v === 0)) throw new ModelError(`material.${what}`, `must be finite and ${strict ? 'positive' : 'non-negative'} (got ${v})`);
}
export interface AxialMaterial {
  readonly kind: string;
  /** true when F is only defined for a positive rest length (strain-based materials) */
  readonly needsRestLength?: boolean;
  /** writes [F, ∂F/∂l, ∂F/∂l̇] into out for length l, rate ldot and rest length r */
  evaluate(out: Float64Array, l: number, ldot: number, r: number): void;
  /** elastic energy stored at length l (J), zero at the rest length; damping excluded */
  energy(l: number, r: number): number;
}

export class LinearMaterial implements AxialMaterial {
  readonly kind = 'linear';
  constructor(readonly stiffness: number, readonly damping = 0) { check('stiffness', stiffness); check('damping', damping); }
  evaluate(out: Float64Array, l: number, ldot: number, r: number): void {
    out[0] = this.stiffness * (l - r) + this.damping * ldot;
    out[1] = this.stiffness;
    out[2] = this.damping;
  }
  energy(l: number, r: number): number { return 0.5 * this.stiffness * (l - r) ** 2; }
}

export class QuadraticStrainMaterial implements AxialMaterial {
  readonly kind = 'quadratic-strain';
  readonly needsRestLength = true;
  constructor(readonly stiffness: number, readonly damping = 0) { check('stiffness', stiffness); check('damping', damping); }
  evaluate(out: Float64Array, l: number, ldot: number, r: number): void {
    const k = this.stiffness, r2 = r * r;
    // F = σ l with σ = k ε, ε = (l² − r²)/(2r²)
    out[0] = (k * l * (l * l - r2)) / (2 * r2) + this.damping * ldot;
    out[1] = (k * (3 * l * l - r2)) / (2 * r2);
    out[2] = this.damping;
  }
  energy(l: number, r: number): number { return (this.stiffness * (l * l - r * r) ** 2) / (8 * r * r); }
}

/**
 * The stress form (theory.md §10): for σ = kε (no rate dependence),
 * ∂f₁/∂x₁ = −(k/r²) Δx Δxᵀ − σ I. Writes the material part into `material` and the geometric part
 * into `geometric` (row-major 3×3).
 */
export function stressStiffnessSplit(material: Float64Array, geometric: Float64Array, k: number, r: number, dx: ArrayLike<number>): void {
  const l2 = dx[0]! * dx[0]! + dx[1]! * dx[1]! + dx[2]! * dx[2]!;
  const sigma = (k * (l2 - r * r)) / (2 * r * r);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    material[3 * i + j] = (-k / (r * r)) * dx[i]! * dx[j]!;
    geometric[3 * i + j] = i === j ? -sigma : 0;
  }
}

export class ExponentialLigament implements AxialMaterial {
  readonly kind = 'exponential-ligament';
  readonly needsRestLength = true;
  /**
   * @param stiffness k: slope dF/dl in the linear region (N/m)
   * @param toeStrain ε_t: strain at the end of the toe region (default 0.03)
   * @param toeShape B: exponential rate in the toe (default 30)
   */
  constructor(readonly stiffness: number, readonly damping = 0, readonly toeStrain = 0.03, readonly toeShape = 30) {
    check('stiffness', stiffness); check('damping', damping); check('toeStrain', toeStrain, true); check('toeShape', toeShape, true);
  }
  evaluate(out: Float64Array, l: number, ldot: number, r: number): void {
    const e = (l - r) / r;
    if (e <= 0) { out[0] = 0; out[1] = 0; out[2] = 0; return; }
    const k = this.stiffness, B = this.toeShape, et = this.toeStrain;
    const A = (k * r) / (B * Math.exp(B * et));
    if (e < et) {
      const x = Math.exp(B * e);
      out[0] = A * (x - 1);
      out[1] = (A * B * x) / r;
    } else {
      const Ft = A * (Math.exp(B * et) - 1);
      out[0] = Ft + k * r * (e - et);
      out[1] = k;
    }
    out[0] = out[0]! + this.damping * ldot;
    out[2] = this.damping;
    // never push
    if (out[0]! < 0) { out[0] = 0; out[1] = 0; out[2] = 0; }
  }
  energy(l: number, r: number): number {
    const e = (l - r) / r;
    if (e <= 0) return 0;
    const k = this.stiffness, B = this.toeShape, et = this.toeStrain;
    const A = (k * r) / (B * Math.exp(B * et));
    // ∫ F dl = r ∫ F dε
    const toe = (x: number) => r * A * ((Math.exp(B * x) - 1) / B - x);
    if (e < et) return toe(e);
    const Ft = A * (Math.exp(B * et) - 1), de = e - et;
    return toe(et) + r * (Ft * de + 0.5 * k * r * de * de);
  }
}
