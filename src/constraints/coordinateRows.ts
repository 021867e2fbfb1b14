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
import { linearValue, rowJacobians, rowBiases } from './jointRows.js';
import { mulAtB3 } from '../math/mat3.js';
import { mat3ToRpyInto, omegaToRpyRate, rpyRateMapDerivative } from '../math/rpy.js';
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
  // angles: a with rate a·Ω (in C's axes, s.M[0 … 2]), then ∓R_WC a on the angular columns
  const singular = angularMap(s, c, tol, false);
  angularRow(out12, s.k.RC, s.M, sideA, sideB);
  return singular;
}

/**
 * κ_c = J̇_c u of coordinate k at (ctx.q, ctx.u): c̈ = J_c u̇ + κ_c, the derivative of J_c(q ⊕ εu)·u
 * at fixed u (the bias a second-order scheme's row target uses, as for the bilateral rows). For a
 * translation, the translational row's κ (jointRows.ts); for an angle with ċ = a·Ω = n·(ω_B − ω_A),
 * n = R_WC a, Ω̇ at fixed u is R_WCᵀ((ω_B − ω_A) × ω_A), so κ_c = n·(ω_B × ω_A) + ȧ·Ω, with ȧ the
 * rate of a along q̇_CD = ½ Ω ⋆ q_CD (Ṙ_CD = [Ω] R_CD); for the gimbal ȧ are the row derivatives
 * of 000 §0.4 (rpyRateMapDerivative). Singular and degenerate coordinates (as in `coordinateRow`)
 * give the derivative of their fallback row (0 where the row is 0 or constant).
 */
export function coordinateBias(joint: Joint, ctx: ConstraintContext, s: JointScratch, k: number,
  tol = GIMBAL_SINGULAR_TOL): number {
  const c = coordinateCode(joint, k);
  s.k.positions(ctx);
  s.k.velocities(ctx);
  // translations: the translational row kernel's κ, through s.M
  if (c < ANGLE) {
    rowBiases(s.k.b, 0, AXIS_CODES, c, 1, s.M, 0);
    return s.M[0]!;
  }
  // angles: a (s.M[0 … 2]) and ȧ·Ω (s.M[3]), then n·(ω_B × ω_A) + ȧ·Ω
  angularMap(s, c, tol, true);
  return angularBias(s, ctx.u);
}

/**
 * s.M[0 … 2] ← a of angular coordinate code c (rate a·Ω) and, with `rates` (after velocities),
 * s.M[3] ← ȧ·Ω; returns the singular flag of `coordinateRow`
 */
function angularMap(s: JointScratch, c: number, tol: number, rates: boolean): boolean {
  if (c < UNIVERSAL) return angleMap(s, c - ANGLE, rates);
  if (c < RPY) return universalMap(s, c - UNIVERSAL, rates);
  return rpyMap(s, c - RPY, tol, rates);
}

/** out12 ← [0, −(R a)ᵀ; 0, (R a)ᵀ], a = M[0 … 2]; a world side's entries 0 (R = R_WC, row-major) */
function angularRow(out12: Float64Array, R: Float64Array, M: Float64Array, sideA: boolean, sideB: boolean) {
  const a0 = M[0]!, a1 = M[1]!, a2 = M[2]!;
  const n0 = R[0]! * a0 + R[1]! * a1 + R[2]! * a2;
  const n1 = R[3]! * a0 + R[4]! * a1 + R[5]! * a2;
  const n2 = R[6]! * a0 + R[7]! * a1 + R[8]! * a2;
  out12.fill(0);
  if (sideA) { out12[3] = -n0; out12[4] = -n1; out12[5] = -n2; }
  if (sideB) { out12[9] = n0; out12[10] = n1; out12[11] = n2; }
}

/** n·(ω_B × ω_A) + ȧ·Ω with n = R_WC a, from a = s.M[0 … 2] and ȧ·Ω = s.M[3] */
function angularBias(s: JointScratch, u: Float64Array): number {
  const M = s.M, R = s.k.RC, a0 = M[0]!, a1 = M[1]!, a2 = M[2]!, aU = s.k.aU, bU = s.k.bU;
  const n0 = R[0]! * a0 + R[1]! * a1 + R[2]! * a2;
  const n1 = R[3]! * a0 + R[4]! * a1 + R[5]! * a2;
  const n2 = R[6]! * a0 + R[7]! * a1 + R[8]! * a2;
  // the world side turns with ω = 0
  const ax = aU < 0 ? 0 : u[aU + 3]!, ay = aU < 0 ? 0 : u[aU + 4]!, az = aU < 0 ? 0 : u[aU + 5]!;
  const bx = bU < 0 ? 0 : u[bU + 3]!, by = bU < 0 ? 0 : u[bU + 4]!, bz = bU < 0 ? 0 : u[bU + 5]!;
  return n0 * (by * az - bz * ay) + n1 * (bz * ax - bx * az) + n2 * (bx * ay - by * ax) + M[3]!;
}

/** M[0 … 3] ← 0 (a degenerate map: zero row, zero bias); true */
function degenerate(M: Float64Array): boolean {
  M[0] = 0; M[1] = 0; M[2] = 0; M[3] = 0;
  return true;
}

/**
 * the free angle 2 atan2(v_k, w): s.M[0 … 2] ← a = (w l + v_k v)/den, l = w e_k + v × e_k (the
 * lock row's vector of jointRows.ts, in C), den = w² + v_k²; with `rates`, s.M[3] ← ȧ·Ω from
 * ẇ = −½ Ω·v, v̇ = ½(wΩ + Ω × v); degenerate (zero, true) when den ≤ DEGENERATE_SQ
 */
function angleMap(s: JointScratch, k: number, rates: boolean): boolean {
  const q = s.k.qCD, w = q[0]!, vx = q[1]!, vy = q[2]!, vz = q[3]!, vk = q[1 + k]!, den = w * w + vk * vk;
  const M = s.M;
  if (!(den > DEGENERATE_SQ)) return degenerate(M);
  const lx = k === 0 ? w : k === 1 ? -vz : vy;
  const ly = k === 0 ? vz : k === 1 ? w : -vx;
  const lz = k === 0 ? -vy : k === 1 ? vx : w;
  const a0 = (w * lx + vk * vx) / den, a1 = (w * ly + vk * vy) / den, a2 = (w * lz + vk * vz) / den;
  M[0] = a0; M[1] = a1; M[2] = a2;
  if (!rates) return false;
  // ẇ, v̇; l̇ = ẇ e_k + v̇ × e_k; ȧ = (ẇ l + w l̇ + v̇_k v + v_k v̇ − a·2(w ẇ + v_k v̇_k))/den
  const O = s.k.Om, ox = O[0]!, oy = O[1]!, oz = O[2]!;
  const wd = -0.5 * (ox * vx + oy * vy + oz * vz);
  const vdx = 0.5 * (w * ox + oy * vz - oz * vy), vdy = 0.5 * (w * oy + oz * vx - ox * vz);
  const vdz = 0.5 * (w * oz + ox * vy - oy * vx), vdk = k === 0 ? vdx : k === 1 ? vdy : vdz;
  const ldx = k === 0 ? wd : k === 1 ? -vdz : vdy;
  const ldy = k === 0 ? vdz : k === 1 ? wd : -vdx;
  const ldz = k === 0 ? -vdy : k === 1 ? vdx : wd;
  const dd = 2 * (w * wd + vk * vdk);
  const ad0 = (wd * lx + w * ldx + vdk * vx + vk * vdx - a0 * dd) / den;
  const ad1 = (wd * ly + w * ldy + vdk * vy + vk * vdy - a1 * dd) / den;
  const ad2 = (wd * lz + w * ldz + vdk * vz + vk * vdz - a2 * dd) / den;
  M[3] = ad0 * ox + ad1 * oy + ad2 * oz;
  return false;
}

/**
 * universal angle `index` of R_CD (0: rx = atan2(R₂₁, R₁₁), 1: ry = atan2(R₀₂, R₀₀)): s.M[0 … 2] ← a,
 * with `rates` s.M[3] ← ȧ·Ω from Ṙ_CD = [Ω] R_CD; degenerate when the pair's radius² ≤ DEGENERATE_SQ
 */
function universalMap(s: JointScratch, index: number, rates: boolean): boolean {
  const R = relativeRotation(s), O = s.k.Om, M = s.M;
  if (index === 0) {
    // a = (1, −p m/ρ, −p t/ρ) of column 1 (p, m, t) = (R₀₁, R₁₁, R₂₁), ρ = m² + t²
    const p = R[1]!, m = R[4]!, t = R[7]!, rho = m * m + t * t;
    if (!(rho > DEGENERATE_SQ)) return degenerate(M);
    const a1 = (-p * m) / rho, a2 = (-p * t) / rho;
    M[0] = 1; M[1] = a1; M[2] = a2;
    if (!rates) return false;
    // the column's rate Ω × (p, m, t), then ȧ
    const ox = O[0]!, oy = O[1]!, oz = O[2]!;
    const pd = oy * t - oz * m, md = oz * p - ox * t, td = ox * m - oy * p, rd = 2 * (m * md + t * td);
    M[3] = ((-(pd * m + p * md) - a1 * rd) * oy + (-(pd * t + p * td) - a2 * rd) * oz) / rho;
    return false;
  }
  // a = (0, R₀₀R₂₂ − R₀₂R₂₀, R₀₂R₁₀ − R₀₀R₁₂)/ρ, ρ = R₀₀² + R₀₂²
  const r00 = R[0]!, r10 = R[3]!, r20 = R[6]!, r02 = R[2]!, r12 = R[5]!, r22 = R[8]!;
  const rho = r00 * r00 + r02 * r02;
  if (!(rho > DEGENERATE_SQ)) return degenerate(M);
  const a1 = (r00 * r22 - r02 * r20) / rho, a2 = (r02 * r10 - r00 * r12) / rho;
  M[0] = 0; M[1] = a1; M[2] = a2;
  if (!rates) return false;
  // columns 0 and 2 turn as Ω × column; then ȧ
  const ox = O[0]!, oy = O[1]!, oz = O[2]!;
  const d00 = oy * r20 - oz * r10, d10 = oz * r00 - ox * r20, d20 = ox * r10 - oy * r00;
  const d02 = oy * r22 - oz * r12, d12 = oz * r02 - ox * r22, d22 = ox * r12 - oy * r02;
  const rd = 2 * (r00 * d00 + r02 * d02);
  const ad1 = (d00 * r22 + r00 * d22 - d02 * r20 - r02 * d20 - a1 * rd) / rho;
  const ad2 = (d02 * r10 + r02 * d10 - d00 * r12 - r00 * d12 - a2 * rd) / rho;
  M[3] = ad1 * oy + ad2 * oz;
  return false;
}

/**
 * gimbal angle `index` (θ, φ, ψ): s.M[0 … 2] ← row `index` of A⁻¹(θ, φ) (000 §0.4, eq. 0.2), with
 * `rates` s.M[3] ← that row's derivative (§0.4) times Ω. At |cos φ| < tol the readout's fallback
 * rows (θ: e_z, ψ: 0, constant; φ: (−sθ, cθ, 0) with θ̇ = Ω_z), true for θ and ψ. A⁻¹ is taken at
 * the readout's own tolerance, so that both give the same bits off the singularity.
 */
function rpyMap(s: JointScratch, index: number, tol: number, rates: boolean): boolean {
  const ang = mat3ToRpyInto(s.rpy, relativeRotation(s)), th = ang[0]!, ph = ang[1]!, M = s.M, D = s.Rcd;
  const O = s.k.Om, ox = O[0]!, oy = O[1]!, oz = O[2]!;
  if (Math.abs(Math.cos(ph)) >= tol && omegaToRpyRate(M, th, ph, GIMBAL_SINGULAR_TOL)) {
    // θ̇, φ̇ from A⁻¹ Ω, the row derivatives into D (R_CD no longer needed), then row `index` into M
    const thd = M[0]! * ox + M[1]! * oy + M[2]! * oz, phd = M[3]! * ox + M[4]! * oy + M[5]! * oz;
    const a0 = M[3 * index]!, a1 = M[3 * index + 1]!, a2 = M[3 * index + 2]!;
    if (rates) rpyRateMapDerivative(D, th, ph, thd, phd, GIMBAL_SINGULAR_TOL);
    M[3] = rates ? D[3 * index]! * ox + D[3 * index + 1]! * oy + D[3 * index + 2]! * oz : 0;
    M[0] = a0; M[1] = a1; M[2] = a2;
    return false;
  }
  const st = Math.sin(th), ct = Math.cos(th);
  M[0] = index === 1 ? -st : 0; M[1] = index === 1 ? ct : 0; M[2] = index === 0 ? 1 : 0;
  M[3] = index === 1 ? -oz * (ct * ox + st * oy) : 0;
  return index !== 1;
}
