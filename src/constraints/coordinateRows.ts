/**
 * The velocity rows of a joint's readable coordinates (theory.md §9; 000 §0.4 for the gimbal's
 * roll-pitch-yaw angles): for coordinate k of a joint, its value c(q) and the row J_c with
 * ċ = J_c u exactly, on both sides' six columns (v of the body frame's origin, ω; world axes).
 * Joint limits (unilateral rows c − lower ≥ 0, upper − c ≥ 0) and motors (a bounded row on ċ)
 * are built on them.
 *
 * Derivation (notation of jointRows.ts; Ω = R_WCᵀ(ω_B − ω_A), D's angular velocity relative to C
 * in C's axes):
 *   - a free translation t_k = c_k·d has the rate c_k·(ḋ − ω_A × d), the translational row of
 *     axis k: J_A = [−c_kᵀ, (c_k × s)ᵀ], J_B = [c_kᵀ, (r_D × c_k)ᵀ];
 *   - every angular coordinate has a rate a·Ω, linear in Ω with a (in C's axes) depending on q
 *     only, so J_A = [0, −(R_WC a)ᵀ], J_B = [0, (R_WC a)ᵀ], where
 *       one free angle 2 atan2(v_k, w) of q_CD (q̇_CD = ½ Ω ⋆ q_CD):
 *         a = (w (w e_k + v × e_k) + v_k v)/(w² + v_k²)   (e_k for a pure rotation about k);
 *       universal rx = atan2(R₂₁, R₁₁), ry = atan2(R₀₂, R₀₀) of R_CD, with Ṙ_CD = [Ω] R_CD:
 *         a_rx = (1, −R₀₁R₁₁/ρ, −R₀₁R₂₁/ρ), ρ = R₁₁² + R₂₁²,
 *         a_ry = (0, R₀₀R₂₂ − R₀₂R₂₀, R₀₂R₁₀ − R₀₀R₁₂)/(R₀₀² + R₀₂²);
 *       gimbal (θ, φ, ψ) = RPY of R_CD: a = the rows of A⁻¹(θ, φ) (000 §0.4, eq. 0.2), the
 *         limit wrench directions of §0.4, here for the base frame C.
 * The rows match `Joint.coordinateRates` (the `joints` readout) term for term, singular
 * configurations included: where |cos φ| < tol (default GIMBAL_SINGULAR_TOL, the readout's) θ and
 * ψ are not separately defined, and the rows are the readout's finite fallback (θ: Ω_z, the rate
 * of θ ∓ ψ; ψ: 0) with the singular flag; where an atan2 pair degenerates (w² + v_k² or a universal
 * radius² ≤ 1e-18) the row is zero, flagged. φ's row, the y′ axis (−sθ, cθ, 0), is bounded
 * everywhere and never flagged. Near the singularity the θ and ψ rows grow as 1/cos φ: a caller
 * that limits them passes a larger tol (the simulation's warning uses 1e-2) and drops flagged rows.
 *
 * Values and wrap (`coordinateRange`): the values are the readout's, bit for bit. Translations are
 * unbounded. One free angle lies in (−2π, 2π] and is continuous through ±π (it counts the double
 * cover of q_CD, whose sign follows the state continuously from w ≥ 0 at set-up): a hinge may be
 * limited past a half turn, and its angle wraps only at ±2π. Universal angles and gimbal θ, ψ lie in
 * (−π, π] and jump at ±π; gimbal φ lies in [−π/2, π/2]. A limit row is linearized at the start of
 * the step: c(q_k) + h J_c(q_k) u_{k+1} ≥ lower, with c(q_k) as returned here (no unwrapping
 * across steps); so bounds belong strictly inside the range (|bound| < π for the wrapped angles).
 */
import type { ConstraintContext } from './constraint.js';
import { GIMBAL_SINGULAR_TOL, type Joint, type JointScratch } from './joint.js';
import { linearValue, rowJacobians } from './jointRows.js';
import { mulAtB3 } from '../math/mat3.js';
import { mat3ToRpyInto, omegaToRpyRate } from '../math/rpy.js';
import { ModelError } from '../model/errors.js';

/** w² + v_k² (angle) or a universal pair's radius² at or below which the map degenerates (the readout's) */
const DEGENERATE_SQ = 1e-18;
/** kernel codes of the translational rows, by axis (jointRows.ts: code k is axis k) */
const AXIS_CODES = Int32Array.of(0, 1, 2);
const TWO_PI = 2 * Math.PI;
const HALF_PI = Math.PI / 2;

/** the readable coordinates of a joint, in the order of its `joints` readout and of `k` below */
export function jointCoordinateNames(joint: Joint): readonly string[] {
  return joint.coordinateNames;
}

/**
 * the index k of the coordinate named `name` (a key of a model file's "limits" or "motors");
 * throws ModelError at `path` naming the joint's coordinates when it has no such coordinate
 */
export function coordinateIndex(joint: Joint, name: string, path: string): number {
  const names = joint.coordinateNames, k = names.indexOf(name);
  if (k >= 0) return k;
  const have = names.length > 0 ? `one of ${names.join(', ')}` : 'none: it has no readable coordinates';
  throw new ModelError(path, `joint "${joint.name}" (${joint.type}) has no coordinate "${name}" (${have})`);
}

// coordinate codes (`coordinateCode`): 0 … 2 a translation along axis k, 3 + k the angle about
// free axis k, 6 and 7 the universal rx and ry, 8 + i the gimbal's RPY angle i (θ, φ, ψ)
const ANGLE = 3;
const UNIVERSAL = 6;
const RPY = 8;

/** the code of coordinate k of a joint (above); throws RangeError outside 0 … names − 1 */
function coordinateCode(joint: Joint, k: number): number {
  const L = joint.layout, nLin = L.freeLinear.length;
  if (!(Number.isInteger(k) && k >= 0 && k < L.coordinateNames.length)) {
    throw new RangeError(`joint "${joint.name}" has no coordinate ${k} (it has ${L.coordinateNames.length})`);
  }
  if (k < nLin) return L.freeLinear[k]!;
  // the rotational coordinates follow the translations (jointLayout.ts, coordinateNames)
  if (L.rotation === 'angle') return ANGLE + L.angleAxis;
  return (L.rotation === 'universal' ? UNIVERSAL : RPY) + k - nLin;
}

/**
 * the range of coordinate k's values (m or rad): [−∞, ∞] for a translation, [−2π, 2π] for one free
 * angle, [−π, π] for universal angles and gimbal θ, ψ, [−π/2, π/2] for gimbal φ (the module doc:
 * the wrapped ones jump at the ends, so limits belong strictly inside)
 */
export function coordinateRange(joint: Joint, k: number): readonly [number, number] {
  const c = coordinateCode(joint, k);
  if (c < ANGLE) return [-Infinity, Infinity];
  if (c < UNIVERSAL) return [-TWO_PI, TWO_PI];
  if (c === RPY + 1) return [-HALF_PI, HALF_PI];
  return [-Math.PI, Math.PI];
}

/** true when coordinate k is an angle (rad), false for a translation (m) */
export function coordinateIsAngle(joint: Joint, k: number): boolean {
  return coordinateCode(joint, k) >= ANGLE;
}

/** R_CD = R_WCᵀ R_WD into the scratch's Rcd (after positions) */
function relativeRotation(s: JointScratch): Float64Array {
  return mulAtB3(s.Rcd, s.k.RC, s.k.RD);
}

/**
 * coordinate k of the joint at ctx.q (m or rad), equal bit for bit to the `joints` readout
 * (Joint.coordinates), evaluated in the joint's scratch s (any of the joint's scratches)
 */
export function coordinateValue(joint: Joint, ctx: ConstraintContext, s: JointScratch, k: number): number {
  const c = coordinateCode(joint, k);
  s.k.positions(ctx);
  // the readout's formulas (Joint.coordinates), in its order of operations
  if (c < ANGLE) return linearValue(s.k.b, 0, c);
  if (c < UNIVERSAL) return 2 * Math.atan2(s.k.qCD[1 + c - ANGLE]!, s.k.qCD[0]!);
  const R = relativeRotation(s);
  if (c === UNIVERSAL) return Math.atan2(R[7]!, R[4]!);
  if (c === UNIVERSAL + 1) return Math.atan2(R[2]!, R[0]!);
  return mat3ToRpyInto(s.rpy, R)[c - RPY]!;
}

/**
 * out12 ← the row J_c of coordinate k at ctx.q: [side A: v (3), ω (3); side B: v (3), ω (3)] with
 * ċ = J_c · [u_A; u_B] (world axes, v of each body frame's origin; a world side's six entries are
 * 0). u is not read. Returns true where the coordinate is singular (the gimbal's θ and ψ at
 * |cos φ| < tol, a degenerate angle or universal map): the row is then the readout's finite
 * fallback, never NaN (module doc).
 */
export function coordinateRow(out12: Float64Array, joint: Joint, ctx: ConstraintContext, s: JointScratch,
  k: number, tol = GIMBAL_SINGULAR_TOL): boolean {
  const c = coordinateCode(joint, k), sideA = joint.bodyA !== null, sideB = joint.bodyB !== null;
  s.k.positions(ctx);
  // translations: the translational row kernel of their axis
  if (c < ANGLE) {
    rowJacobians(s.k.b, 0, AXIS_CODES, c, 1, out12, sideA ? 0 : -1, sideB ? 6 : -1);
    if (!sideA) out12.fill(0, 0, 6);
    if (!sideB) out12.fill(0, 6, 12);
    return false;
  }
  // angles: a with rate a·Ω (in C's axes, into out12[9 …]), then ∓R_WC a on the angular columns
  const singular = c < UNIVERSAL ? angleCoefficients(out12, s, c - ANGLE)
    : c < RPY ? universalCoefficients(out12, s, c - UNIVERSAL) : rpyCoefficients(out12, s, c - RPY, tol);
  angularRow(out12, s.k.RC, sideA, sideB);
  return singular;
}

/** out12 ← [0, −(R a)ᵀ; 0, (R a)ᵀ], a = out12[9 …] on entry; a world side's entries 0 (R = R_WC) */
function angularRow(out12: Float64Array, R: Float64Array, sideA: boolean, sideB: boolean): void {
  const a0 = out12[9]!, a1 = out12[10]!, a2 = out12[11]!;
  const n0 = R[0]! * a0 + R[1]! * a1 + R[2]! * a2;
  const n1 = R[3]! * a0 + R[4]! * a1 + R[5]! * a2;
  const n2 = R[6]! * a0 + R[7]! * a1 + R[8]! * a2;
  out12.fill(0);
  if (sideA) { out12[3] = -n0; out12[4] = -n1; out12[5] = -n2; }
  if (sideB) { out12[9] = n0; out12[10] = n1; out12[11] = n2; }
}

/** out12[9 …] ← 0 (a degenerate map's row); true */
function degenerate(out12: Float64Array): boolean {
  out12[9] = 0; out12[10] = 0; out12[11] = 0;
  return true;
}

/**
 * out12[9 …] ← a = (w (w e_k + v × e_k) + v_k v)/(w² + v_k²), the rate of 2 atan2(v_k, w) being a·Ω;
 * zero and true when w² + v_k² ≤ DEGENERATE_SQ
 */
function angleCoefficients(out12: Float64Array, s: JointScratch, k: number): boolean {
  const q = s.k.qCD, w = q[0]!, vx = q[1]!, vy = q[2]!, vz = q[3]!, vk = q[1 + k]!, den = w * w + vk * vk;
  if (!(den > DEGENERATE_SQ)) return degenerate(out12);
  // l = w e_k + v × e_k (the lock row's vector of jointRows.ts, in C)
  const lx = k === 0 ? w : k === 1 ? -vz : vy;
  const ly = k === 0 ? vz : k === 1 ? w : -vx;
  const lz = k === 0 ? -vy : k === 1 ? vx : w;
  out12[9] = (w * lx + vk * vx) / den;
  out12[10] = (w * ly + vk * vy) / den;
  out12[11] = (w * lz + vk * vz) / den;
  return false;
}

/**
 * out12[9 …] ← the universal angle's coefficients (index 0: rx = atan2(R₂₁, R₁₁), 1: ry = atan2(R₀₂, R₀₀))
 * from Ṙ_CD = [Ω] R_CD; zero and true when the pair's radius² ≤ DEGENERATE_SQ
 */
function universalCoefficients(out12: Float64Array, s: JointScratch, index: number): boolean {
  const R = relativeRotation(s);
  if (index === 0) {
    // (R₁₁ Ṙ₂₁ − R₂₁ Ṙ₁₁)/d, Ṙ₂₁ = Ω_x R₁₁ − Ω_y R₀₁, Ṙ₁₁ = Ω_z R₀₁ − Ω_x R₂₁
    const r01 = R[1]!, r11 = R[4]!, r21 = R[7]!, d = r11 * r11 + r21 * r21;
    if (!(d > DEGENERATE_SQ)) return degenerate(out12);
    out12[9] = 1; out12[10] = (-r01 * r11) / d; out12[11] = (-r01 * r21) / d;
    return false;
  }
  // (R₀₀ Ṙ₀₂ − R₀₂ Ṙ₀₀)/d, Ṙ₀₂ = Ω_y R₂₂ − Ω_z R₁₂, Ṙ₀₀ = Ω_y R₂₀ − Ω_z R₁₀
  const r00 = R[0]!, r02 = R[2]!, d = r00 * r00 + r02 * r02;
  if (!(d > DEGENERATE_SQ)) return degenerate(out12);
  out12[9] = 0; out12[10] = (r00 * R[8]! - r02 * R[6]!) / d; out12[11] = (r02 * R[3]! - r00 * R[5]!) / d;
  return false;
}

/**
 * out12[9 …] ← row `index` of A⁻¹(θ, φ) at the RPY angles of R_CD (000 §0.4, eq. 0.2); at |cos φ| < tol
 * the readout's fallback (θ: e_z, φ: (−sθ, cθ, 0), ψ: 0), true for θ and ψ
 */
function rpyCoefficients(out12: Float64Array, s: JointScratch, index: number, tol: number): boolean {
  const ang = mat3ToRpyInto(s.rpy, relativeRotation(s)), th = ang[0]!, ph = ang[1]!, M = s.M;
  // the readout's A⁻¹ (at its own tolerance), so that both give the same bits off the singularity
  if (Math.abs(Math.cos(ph)) >= tol && omegaToRpyRate(M, th, ph, GIMBAL_SINGULAR_TOL)) {
    out12[9] = M[3 * index]!; out12[10] = M[3 * index + 1]!; out12[11] = M[3 * index + 2]!;
    return false;
  }
  out12[9] = index === 1 ? -Math.sin(th) : 0;
  out12[10] = index === 1 ? Math.cos(th) : 0;
  out12[11] = index === 0 ? 1 : 0;
  return index !== 1;
}
