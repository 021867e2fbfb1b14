/**
 * Roll-pitch-yaw angles (theory.md §9): rotation θ about z, then φ about the new y′, then ψ about
 * the final x″. The angular velocity in the base frame is ω = A(θ, φ) (θ̇, φ̇, ψ̇), with
 *
 *   A = [ 0  −sθ  cθ cφ ]        A⁻¹ = [ sφ cθ/cφ   sφ sθ/cφ   1 ]
 *       [ 0   cθ  sθ cφ ]              [ −sθ        cθ         0 ]
 *       [ 1   0   −sφ   ]              [ cθ/cφ      sθ/cφ      0 ]
 *
 * A is singular at cφ = 0 (z and x″ align). The rows of A⁻¹ are the joint-limit wrenches, and
 * their time derivatives are given by `rpyRateMapDerivative`.
 */
import type { Mat3 } from './mat3.js';

/** |cos φ| below which the RPY map is reported as singular */
export const RPY_SINGULAR_TOL = 1e-9;

/** out = A(θ, φ): angle rates (θ̇, φ̇, ψ̇) → world ω */
export function rpyRateToOmega(out: Mat3, theta: number, phi: number): Mat3 {
  const st = Math.sin(theta), ct = Math.cos(theta), sp = Math.sin(phi), cp = Math.cos(phi);
  out[0] = 0; out[1] = -st; out[2] = ct * cp;
  out[3] = 0; out[4] = ct; out[5] = st * cp;
  out[6] = 1; out[7] = 0; out[8] = -sp;
  return out;
}

/** true when cos φ is too small for the inverse map (the singularity of theory.md §9) */
export function rpyIsSingular(phi: number, tol = RPY_SINGULAR_TOL): boolean {
  // written so that a NaN angle counts as singular
  return !(Math.abs(Math.cos(phi)) >= tol);
}

/** out = A⁻¹(θ, φ): ω → angle rates; returns false (out untouched) at the singularity */
export function omegaToRpyRate(out: Mat3, theta: number, phi: number, tol = RPY_SINGULAR_TOL): boolean {
  const cp = Math.cos(phi);
  if (!(Math.abs(cp) >= tol)) return false;
  const st = Math.sin(theta), ct = Math.cos(theta), sp = Math.sin(phi);
  out[0] = (sp * ct) / cp; out[1] = (sp * st) / cp; out[2] = 1;
  out[3] = -st; out[4] = ct; out[5] = 0;
  out[6] = ct / cp; out[7] = st / cp; out[8] = 0;
  return true;
}

/** out = d/dt A⁻¹(θ, φ) for rates θ̇, φ̇ (theory.md §9, the row derivatives); false at the singularity */
export function rpyRateMapDerivative(out: Mat3, theta: number, phi: number, thetaDot: number, phiDot: number, tol = RPY_SINGULAR_TOL): boolean {
  const cp = Math.cos(phi);
  if (!(Math.abs(cp) >= tol)) return false;
  const st = Math.sin(theta), ct = Math.cos(theta), tp = Math.tan(phi);
  out[0] = -st * tp * thetaDot + (1 + tp * tp) * ct * phiDot;
  out[1] = ct * tp * thetaDot + (1 + tp * tp) * st * phiDot;
  out[2] = 0;
  out[3] = -ct * thetaDot; out[4] = -st * thetaDot; out[5] = 0;
  out[6] = (-st * thetaDot + ct * tp * phiDot) / cp;
  out[7] = (ct * thetaDot + st * tp * phiDot) / cp;
  out[8] = 0;
  return true;
}

/** rotation matrix R = Rz(θ) Ry(φ) Rx(ψ) of roll-pitch-yaw angles */
export function rpyToMat3(out: Mat3, theta: number, phi: number, psi: number): Mat3 {
  const st = Math.sin(theta), ct = Math.cos(theta), sp = Math.sin(phi), cp = Math.cos(phi), ss = Math.sin(psi), cs = Math.cos(psi);
  out[0] = ct * cp; out[1] = ct * sp * ss - st * cs; out[2] = ct * sp * cs + st * ss;
  out[3] = st * cp; out[4] = st * sp * ss + ct * cs; out[5] = st * sp * cs - ct * ss;
  out[6] = -sp; out[7] = cp * ss; out[8] = cp * cs;
  return out;
}

/** roll-pitch-yaw angles [θ, φ, ψ] of a rotation matrix (φ ∈ [−π/2, π/2]); at the singularity ψ = 0 */
export function mat3ToRpy(R: Mat3): [number, number, number] {
  const a = mat3ToRpyInto(new Float64Array(3), R);
  return [a[0]!, a[1]!, a[2]!];
}

/** `mat3ToRpy` into out = (θ, φ, ψ), without allocating */
export function mat3ToRpyInto(out: Float64Array, R: Mat3): Float64Array {
  // atan2 keeps cos φ = hypot(R₀₀, R₁₀) resolvable near ±π/2, where asin(−R₂₀) cannot
  const phi = Math.atan2(-R[6]!, Math.hypot(R[0]!, R[3]!));
  out[1] = phi;
  if (rpyIsSingular(phi)) { out[0] = Math.atan2(-R[1]!, R[4]!); out[2] = 0; return out; }
  out[0] = Math.atan2(R[3]!, R[0]!); out[2] = Math.atan2(R[7]!, R[8]!);
  return out;
}
