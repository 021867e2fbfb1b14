/**
 * The inverse left Jacobian of SO(3): for R = exp([θ]) R₀, the world angular velocity is
 * ω = J_l(θ) θ̇, and
 *
 *   J_l⁻¹(θ) = a I − ½[θ] + c θθᵀ,   a = (φ/2) cot(φ/2),   c = (1 − a)/φ²,   φ = |θ|
 *
 * so J_l⁻¹ ω = ω − ½ θ×ω + c θ×(θ×ω) (using θ×(θ×ω) = θθᵀω − φ²ω and a = 1 − cφ²). It is the
 * U of the frame springs (d(φu)/dt = U ω, theory.md §11) and the dexp⁻¹ of the Runge-Kutta-Munthe-Kaas
 * method (theory.md §3, §5).
 */
import type { Mat3 } from './mat3.js';

/** below this angle (rad) c uses its series 1/12 + φ²/720 + φ⁴/30240 */
export const SO3_SERIES_ANGLE = 0.02;

/** c(φ²) = (1 − (φ/2)cot(φ/2))/φ² */
export function invLeftJacobianCoeff(phi2: number): number {
  if (phi2 < SO3_SERIES_ANGLE * SO3_SERIES_ANGLE) return 1 / 12 + phi2 / 720 + (phi2 * phi2) / 30240;
  const h = 0.5 * Math.sqrt(phi2);
  return (1 - (h * Math.cos(h)) / Math.sin(h)) / phi2;
}

/** out = J_l⁻¹(θ) as a row-major 3×3, θ = th[0..2] (an array: doubles passed to a call are boxed unless it is inlined) */
export function invLeftJacobian(out: Mat3, th: Float64Array): Mat3 {
  const tx = th[0]!, ty = th[1]!, tz = th[2]!;
  const p2 = tx * tx + ty * ty + tz * tz, c = invLeftJacobianCoeff(p2), a = 1 - c * p2;
  out[0] = a + c * tx * tx; out[1] = c * tx * ty + 0.5 * tz; out[2] = c * tx * tz - 0.5 * ty;
  out[3] = c * ty * tx - 0.5 * tz; out[4] = a + c * ty * ty; out[5] = c * ty * tz + 0.5 * tx;
  out[6] = c * tz * tx + 0.5 * ty; out[7] = c * tz * ty - 0.5 * tx; out[8] = a + c * tz * tz;
  return out;
}

/** out[o..o+2] = J_l⁻¹(θ) ω for θ = th[o..o+2], ω = w[wo..wo+2] */
export function invLeftJacobianApply(out: Float64Array, o: number, th: Float64Array, w: Float64Array, wo: number): void {
  const tx = th[o]!, ty = th[o + 1]!, tz = th[o + 2]!, wx = w[wo]!, wy = w[wo + 1]!, wz = w[wo + 2]!;
  const c = invLeftJacobianCoeff(tx * tx + ty * ty + tz * tz);
  // a = θ × ω, b = θ × a
  const ax = ty * wz - tz * wy, ay = tz * wx - tx * wz, az = tx * wy - ty * wx;
  const bx = ty * az - tz * ay, by = tz * ax - tx * az, bz = tx * ay - ty * ax;
  out[o] = wx - 0.5 * ax + c * bx; out[o + 1] = wy - 0.5 * ay + c * by; out[o + 2] = wz - 0.5 * az + c * bz;
}
