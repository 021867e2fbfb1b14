/**
 * Projected Gauss-Seidel for contact (000 §0.15, §0.16 with errata A.4, A.5; 002; docs/theory.md §14).
 *
 * Gauss-Seidel on W R = c (000 §0.15) updates one row at a time against the latest values of the
 * others; projecting each update onto the row's admissible set solves the complementarity problem
 * instead. Per contact i of the local dynamics U = B + W R (002), with w = U + bias:
 * - normal: θ ← max(0, θ − (w_n + ρθ)/(W_nn + ρ)), so θ ≥ 0 ⊥ w_n + ρθ ≥ 0 at a fixed point
 *   (ρ: the contact's regularization, its compliance term, added to the normal diagonal);
 * - friction 'box' (§0.16, errata A.5): each tangent row in turn, φ_k ← clamp(φ_k − w_k/W_kk, ±μθ);
 * - friction 'coulomb': the 2-D impulse φ against the disc |φ| ≤ μθ: the exact sticking impulse
 *   φ − W_tt⁻¹w_t when it lies in the disc, else one projected gradient step with step 1/λ_max(W_tt),
 *   whose fixed points are the disc-constrained minimizers (a radial projection of the sticking
 *   impulse would not be, for an anisotropic W_tt).
 * Within a contact the rows see each other's changes through W_ii, so the sweep is Gauss-Seidel
 * row by row. `ContactPgs` keeps Δu = M⁻¹HᵀR per component ('velocity' form: w_i = B_i + H_i Δu,
 * and each update adds its M⁻¹H_iᵀΔR_i), or reads the block rows of W ('blocks' form); both give
 * the same iterates. W may be singular (a box on four vertices): only diagonal entries are inverted.
 *
 * `boxPgs` (boxPgs.ts, re-exported here) is the same sweep on a generic box LCP (types.ts convention)
 * known by its columns: for systems whose matrix comes through a factorization (joints coupled to contacts).
 */
import type { LocalDynamics } from '../../contact/localDynamics.js';
import type { LcpReport } from './types.js';
import { Manifolds, pointNormalVelocity, addPointImpulse } from './manifoldPgs.js';
import { boxRowResidual } from './boxPgs.js';

export { boxPgs, boxRowResidual, type BoxPgsOptions, type BoxFriction } from './boxPgs.js';

/**
 * the position pass stops when a sweep changes no pseudo-impulse by more than this fraction of the
 * largest: it corrects a fraction erp of penetrations of micrometres, so 0.1% of that is plenty
 */
const POSITION_TOLERANCE = 1e-3;

/** the friction law of `ContactPgs` */
export type FrictionModel = 'box' | 'coulomb';

/** settings of a contact solve */
export interface ContactPgsOptions {
  /** 'box': two tangent rows each within ±μθ (000 §0.16); 'coulomb': the disc |φ| ≤ μθ. Default 'box' */
  friction?: FrictionModel;
  /** sweep cap (default 30) */
  maxIterations?: number;
  /** stop when a sweep changes no impulse component by more than tolerance · max |R| (default 1e-4) */
  tolerance?: number;
  /** 'velocity' (default; needs no coupling blocks) or 'blocks' (reads W's block rows) */
  form?: 'velocity' | 'blocks';
  /** measure the complementarity residual after the sweeps (default true; about half a sweep; else NaN) */
  measureResidual?: boolean;
  /**
   * solve each manifold (≤ 4 contacts on the same two components with one normal) as a block: its
   * normals exactly, its friction at its centre with twist (manifoldPgs.ts; velocity form only).
   * Default false: every contact on its own
   */
  manifolds?: boolean;
}

/**
 * Projected Gauss-Seidel on the contact-frame local dynamics, warm-started from the impulses given.
 * Preallocated; grows with the contacts and components, allocates nothing in a steady scene.
 */
export class ContactPgs {
  friction: FrictionModel;
  maxIterations: number;
  tolerance: number;
  form: 'velocity' | 'blocks';
  measureResidual: boolean;
  manifolds: boolean;
  /** (6 per component) Δu of the last position pass (`solvePositions`) */
  dvPosition = new Float64Array(0);
  /** (6 per component) Δu = M⁻¹HᵀR of the last solve: add it to the free velocity for u⁺ */
  dv = new Float64Array(0);
  /** the last solve's report (the same object every solve) */
  readonly report: LcpReport = { status: 'solved', iterations: 0, boundIterations: 0, residual: 0 };
  /** per contact: 1/(W_nn + ρ), 1/W_11, 1/W_22, 1/λ_max(W_tt), W_tt⁻¹ (3 entries) */
  private inv = new Float64Array(0);
  /** frame velocity w of the contact at hand, then its impulse change */
  private readonly w = new Float64Array(3);
  private ld: LocalDynamics | null = null;
  private maxR = 0;
  /** the running sweep's largest impulse change, largest impulse component, largest relative change of a manifold */
  private readonly stats = new Float64Array(3);
  private readonly man = new Manifolds();
  private Rp = new Float64Array(0);

  constructor(options: ContactPgsOptions = {}) {
    this.friction = options.friction ?? 'box';
    this.maxIterations = options.maxIterations ?? 30;
    this.tolerance = options.tolerance ?? 1e-4;
    this.form = options.form ?? 'velocity';
    this.measureResidual = options.measureResidual ?? true;
    this.manifolds = options.manifolds ?? false;
  }

  /**
   * Solves for the impulses R (3 per contact, frame components (θ, φ₁, φ₂); in: warm start, out:
   * the solution) and Δu (`dv`).
   * @param bias (1 per contact, or null) added to the normal velocity: w_n = (B + W R)_n + bias,
   *   e.g. +max(φ, 0)/h lets a speculative contact close its gap this step
   * @param regularization (1 per contact, or null) ρ ≥ 0 added to W_nn (a compliant contact)
   */
  solve(ld: LocalDynamics, R: Float64Array, bias: Float64Array | null,
    regularization: Float64Array | null): LcpReport {
    const blocks = this.form === 'blocks', coulomb = this.friction === 'coulomb';
    if (blocks && !ld.coupled) throw new Error('ContactPgs: the blocks form needs W built with coupling');
    this.prepare(ld, R, regularization);
    // sweeps until the largest impulse change is small against the largest impulse
    let it = 0, done = false;
    while (it < this.maxIterations && !done) {
      const change = this.sweep(ld, R, bias, regularization, coulomb, blocks);
      it++;
      done = change <= this.tolerance * this.maxR;
    }
    // Δu of the blocks form, then the complementarity residual at the final impulses
    if (blocks) { this.dv.fill(0, 0, 6 * ld.components); ld.accumulateImpulses(R, this.dv); }
    const rep = this.report;
    rep.status = done ? 'solved' : 'iteration-limit';
    rep.iterations = it; rep.boundIterations = it;
    rep.residual = this.measureResidual ? this.residual(ld, R, bias, regularization, coulomb, blocks) : NaN;
    return rep;
  }

  /** u (velocity layout) += Δu of the last solve */
  applyVelocityChange(u: Float64Array): void {
    if (this.ld !== null) this.ld.addComponentVelocities(this.dv, u);
  }

  /** inverses of each diagonal block's parts; contacts with nothing dynamic drop their warm start; Δu of R */
  private prepare(ld: LocalDynamics, R: Float64Array, reg: Float64Array | null): void {
    const m = ld.count, W = ld.diag;
    if (this.inv.length < 7 * m) this.inv = new Float64Array(7 * Math.max(m, 2 * this.inv.length / 7));
    if (this.dv.length < 6 * ld.components) this.dv = new Float64Array(6 * ld.components);
    this.ld = ld;
    const inv = this.inv;
    for (let i = 0; i < m; i++) {
      const b = 9 * i, v = 7 * i, nn = W[b]! + (reg === null ? 0 : reg[i]!);
      const a = W[b + 4]!, c = W[b + 8]!, x = 0.5 * (W[b + 5]! + W[b + 7]!);
      inv[v] = W[b]! > 0 && nn > 0 ? 1 / nn : 0;
      inv[v + 1] = a > 0 ? 1 / a : 0; inv[v + 2] = c > 0 ? 1 / c : 0;
      // λ_max of the tangent block, and its inverse when well conditioned (else the gradient step)
      const lmax = 0.5 * (a + c) + Math.sqrt(0.25 * (a - c) * (a - c) + x * x), det = a * c - x * x;
      inv[v + 3] = lmax > 0 ? 1 / lmax : 0;
      const good = det > 1e-12 * lmax * lmax;
      inv[v + 4] = good ? c / det : inv[v + 3]!; inv[v + 5] = good ? -x / det : 0;
      inv[v + 6] = good ? a / det : inv[v + 3]!;
      if (W[b]! <= 0) { R[3 * i] = 0; R[3 * i + 1] = 0; R[3 * i + 2] = 0; }
    }
    this.dv.fill(0, 0, 6 * ld.components);
    ld.accumulateImpulses(R, this.dv);
    if (this.manifolds) this.man.prepare(ld, reg);
  }

  /** one Gauss-Seidel sweep over the contacts in order; returns the largest impulse change */
  private sweep(ld: LocalDynamics, R: Float64Array, bias: Float64Array | null, reg: Float64Array | null,
    coulomb: boolean, blocks: boolean): number {
    const stats = this.stats;
    if (blocks) {
      for (let i = 0; i < ld.count; i++) {
        this.contactVelocity(ld, R, i, bias, true);
        relaxContact(R, i, ld.diag, this.inv, ld.friction, reg, coulomb, this.w, stats);
      }
    } else if (this.manifolds && this.man.blocks > 0) this.sweepManifolds(ld, R, bias, reg, coulomb);
    else sweepVelocity(ld, R, this.dv, this.inv, this.w, bias, reg, coulomb, stats);
    this.maxR = stats[1]!;
    // manifolds: the largest change relative to each manifold's impulses (single contacts: to the largest impulse)
    const manifolds = this.manifolds && this.man.blocks > 0;
    const change = manifolds
      ? Math.max(stats[0]! / Math.max(stats[1]!, Number.MIN_VALUE), stats[2]!) * this.maxR : stats[0]!;
    stats[0] = 0; stats[1] = 0; stats[2] = 0;
    return change;
  }

  /** one sweep over the manifolds: blocks for those of several points, the contact update for single ones */
  private sweepManifolds(ld: LocalDynamics, R: Float64Array, bias: Float64Array | null, reg: Float64Array | null,
    coulomb: boolean): void {
    const man = this.man, stats = this.stats, dv = this.dv;
    for (let k = 0; k < man.count; k++) {
      const s = man.start[k]!, e = man.start[k + 1]!;
      if (e - s === 1) {
        this.contactVelocity(ld, R, s, bias, false);
        if (relaxContact(R, s, ld.diag, this.inv, ld.friction, reg, coulomb, this.w, stats)) {
          addPointImpulse(ld, s, dv, this.w[0]!, this.w[1]!, this.w[2]!);
        }
        continue;
      }
      const change = Math.max(man.solveNormals(ld, k, R, dv, bias, 1), man.solveFriction(ld, k, R, dv, coulomb));
      // the change relative to the manifold's own impulses (a light box on top has small ones)
      let r = 0;
      for (let i = s; i < e; i++) r = Math.max(r, R[3 * i]!, Math.abs(R[3 * i + 1]!), Math.abs(R[3 * i + 2]!));
      if (change > 0 && change > stats[2]! * (r + change)) stats[2] = change / (r + change);
      if (r > stats[1]!) stats[1] = r;
    }
  }

  /**
   * The position pass of split impulses (docs/theory.md §15): normal pseudo-impulses P ≥ 0 with
   * H Δu_p + target ≥ 0 ⊥ P, no free velocity and no friction, from zero, on the manifolds of the
   * last `solve` (same local dynamics). Δu_p into `dvPosition`; the caller moves the positions by
   * h Δu_p and leaves the velocities alone, so correcting a penetration adds no kinetic energy.
   * @param target (1 per contact) e.g. erp·φ/h for a penetration φ < 0, 0 elsewhere
   */
  solvePositions(ld: LocalDynamics, target: Float64Array, sweeps: number): number {
    const m = ld.count, man = this.man;
    if (this.dvPosition.length < 6 * ld.components) this.dvPosition = new Float64Array(6 * ld.components);
    if (this.Rp.length < 3 * m) this.Rp = new Float64Array(Math.max(3 * m, 2 * this.Rp.length));
    const dv = this.dvPosition, P = this.Rp;
    dv.fill(0, 0, 6 * ld.components); P.fill(0, 0, 3 * m);
    if (!this.manifolds) man.prepare(ld, null);
    // sweeps until no pseudo-impulse changes by more than POSITION_TOLERANCE of the largest
    let it = 0;
    while (it < sweeps) {
      let change = 0, maxP = 0;
      for (let k = 0; k < man.count; k++) {
        const s = man.start[k]!, e = man.start[k + 1]!;
        if (e - s > 1) change = Math.max(change, man.solveNormals(ld, k, P, dv, target, 0));
        else {
          const W = ld.diag[9 * s]!, th = P[3 * s]!;
          if (!(W > 0)) continue;
          const thN = Math.max(0, th - pointNormalVelocity(ld, s, dv, target, 0) / W), d = thN - th;
          if (d !== 0) { P[3 * s] = thN; addPointImpulse(ld, s, dv, d, 0, 0); change = Math.max(change, Math.abs(d)); }
        }
        for (let i = s; i < e; i++) if (P[3 * i]! > maxP) maxP = P[3 * i]!;
      }
      it++;
      if (change <= POSITION_TOLERANCE * maxP) break;
    }
    return it;
  }

  /** this.w ← (B + W R)_i + (bias, 0, 0): from Δu (velocity form) or from W's block row */
  private contactVelocity(ld: LocalDynamics, R: Float64Array, i: number, bias: Float64Array | null,
    blocks: boolean): void {
    const w = this.w, B = ld.free;
    let w0 = B[3 * i]! + (bias === null ? 0 : bias[i]!), w1 = B[3 * i + 1]!, w2 = B[3 * i + 2]!;
    if (blocks) {
      const Wb = ld.block, col = ld.column;
      for (let e = ld.rowStart[i]!; e < ld.rowStart[i + 1]!; e++) {
        const j = 3 * col[e]!, o = 9 * e, r0 = R[j]!, r1 = R[j + 1]!, r2 = R[j + 2]!;
        w0 += Wb[o]! * r0 + Wb[o + 1]! * r1 + Wb[o + 2]! * r2;
        w1 += Wb[o + 3]! * r0 + Wb[o + 4]! * r1 + Wb[o + 5]! * r2;
        w2 += Wb[o + 6]! * r0 + Wb[o + 7]! * r1 + Wb[o + 8]! * r2;
      }
      w[0] = w0; w[1] = w1; w[2] = w2;
      return;
    }
    w[0] = w0; w[1] = w1; w[2] = w2;
    const a = ld.sideComp[2 * i]!, b = ld.sideComp[2 * i + 1]!;
    if (a >= 0) addSideVelocity(w, ld, i, 0, this.dv, 6 * a, -1);
    if (b >= 0) addSideVelocity(w, ld, i, 1, this.dv, 6 * b, 1);
  }

  /** the complementarity residual of types.ts at R; ‖W‖ taken as the largest diagonal entry (an SPD W's largest) */
  private residual(ld: LocalDynamics, R: Float64Array, bias: Float64Array | null, reg: Float64Array | null,
    coulomb: boolean, blocks: boolean): number {
    const w = this.w;
    let worst = 0, maxR = 0, maxQ = 0, maxW = 0;
    for (let i = 0; i < ld.count; i++) {
      const bi = bias === null ? 0 : bias[i]!, th = R[3 * i]!, f1 = R[3 * i + 1]!, f2 = R[3 * i + 2]!;
      this.contactVelocity(ld, R, i, bias, blocks);
      const lim = ld.friction[i]! * Math.max(th, 0);
      let r = boxRowResidual(th, w[0]! + (reg === null ? 0 : reg[i]! * th), 0, Infinity);
      if (coulomb) r = Math.max(r, discResidual(f1, f2, w[1]!, w[2]!, lim));
      else r = Math.max(r, boxRowResidual(f1, w[1]!, -lim, lim), boxRowResidual(f2, w[2]!, -lim, lim));
      if (r > worst) worst = r;
      maxR = Math.max(maxR, Math.abs(th), Math.abs(f1), Math.abs(f2));
      const F = ld.free;
      maxQ = Math.max(maxQ, Math.abs(F[3 * i]! + bi), Math.abs(F[3 * i + 1]!), Math.abs(F[3 * i + 2]!));
      maxW = Math.max(maxW, ld.diag[9 * i]!, ld.diag[9 * i + 4]!, ld.diag[9 * i + 8]!);
    }
    return worst / Math.max(1, maxR * maxW, maxQ);
  }
}

/**
 * One contact's projected update (see the file comment). In: w = the contact's frame velocity
 * (bias included). Out: w = the impulse change; stats = (largest change, largest impulse) so far.
 * Returns whether the impulse changed.
 */
function relaxContact(R: Float64Array, i: number, W: Float64Array, inv: Float64Array, friction: Float64Array,
  regularization: Float64Array | null, coulomb: boolean, w: Float64Array, stats: Float64Array): boolean {
  const o = 3 * i, b = 9 * i, v = 7 * i, mu = friction[i]!;
  const reg = regularization === null ? 0 : regularization[i]!;
  const th = R[o]!, f1 = R[o + 1]!, f2 = R[o + 2]!;
  // normal row, then the tangent rows see its change through W_ii
  const thN = Math.max(0, th - (w[0]! + reg * th) * inv[v]!), d0 = thN - th;
  const w1 = w[1]! + W[b + 3]! * d0;
  let w2 = w[2]! + W[b + 6]! * d0, g1: number, g2: number;
  const lim = mu * thN;
  if (!coulomb) {
    // box: each tangent row clamped to ±μθ, the second seeing the first's change
    g1 = Math.min(lim, Math.max(-lim, f1 - w1 * inv[v + 1]!));
    w2 += W[b + 7]! * (g1 - f1);
    g2 = Math.min(lim, Math.max(-lim, f2 - w2 * inv[v + 2]!));
  } else {
    // disc: the sticking impulse, or a projected gradient step when it would leave the disc
    g1 = f1 - (inv[v + 4]! * w1 + inv[v + 5]! * w2); g2 = f2 - (inv[v + 5]! * w1 + inv[v + 6]! * w2);
    if (g1 * g1 + g2 * g2 > lim * lim) {
      g1 = f1 - w1 * inv[v + 3]!; g2 = f2 - w2 * inv[v + 3]!;
      const l = Math.sqrt(g1 * g1 + g2 * g2);
      if (l > lim) { const s = l > 0 ? lim / l : 0; g1 *= s; g2 *= s; }
    }
  }
  R[o] = thN; R[o + 1] = g1; R[o + 2] = g2;
  w[0] = d0; w[1] = g1 - f1; w[2] = g2 - f2;
  // the sweep's largest change and largest impulse
  const d = Math.max(Math.abs(d0), Math.abs(g1 - f1), Math.abs(g2 - f2));
  const r = Math.max(thN, Math.abs(g1), Math.abs(g2));
  if (d > stats[0]!) stats[0] = d;
  if (r > stats[1]!) stats[1] = r;
  return d !== 0;
}

/**
 * One sweep of the velocity form: w_i = B_i + bias + H_{i,B} Δu_B − H_{i,A} Δu_A, the projected
 * update, then Δu_B += M⁻¹H_{i,B}ᵀΔR_i and Δu_A −= M⁻¹H_{i,A}ᵀΔR_i. Written out in one loop so
 * that V8 keeps the frame and the velocities in registers (the helpers exceed its inlining size).
 */
function sweepVelocity(ld: LocalDynamics, R: Float64Array, dv: Float64Array, inv: Float64Array, w: Float64Array,
  bias: Float64Array | null, reg: Float64Array | null, coulomb: boolean, stats: Float64Array): void {
  const sc = ld.sideComp, N = ld.normal, T1 = ld.tangent1, T2 = ld.tangent2, ang = ld.sideAngular;
  const res = ld.sideResponse, B = ld.free;
  for (let i = 0; i < ld.count; i++) {
    const p = 3 * i, a = sc[2 * i]!, b = sc[2 * i + 1]!;
    const nx = N[p]!, ny = N[p + 1]!, nz = N[p + 2]!, sx = T1[p]!, sy = T1[p + 1]!, sz = T1[p + 2]!;
    const tx = T2[p]!, ty = T2[p + 1]!, tz = T2[p + 2]!;
    let w0 = B[p]! + (bias === null ? 0 : bias[i]!), w1 = B[p + 1]!, w2 = B[p + 2]!;
    // side B adds its point's velocity change, side A subtracts its own
    if (b >= 0) {
      const o = 6 * b, g = 18 * i + 9, vx = dv[o]!, vy = dv[o + 1]!, vz = dv[o + 2]!;
      const ox = dv[o + 3]!, oy = dv[o + 4]!, oz = dv[o + 5]!;
      w0 += nx * vx + ny * vy + nz * vz + ang[g]! * ox + ang[g + 1]! * oy + ang[g + 2]! * oz;
      w1 += sx * vx + sy * vy + sz * vz + ang[g + 3]! * ox + ang[g + 4]! * oy + ang[g + 5]! * oz;
      w2 += tx * vx + ty * vy + tz * vz + ang[g + 6]! * ox + ang[g + 7]! * oy + ang[g + 8]! * oz;
    }
    if (a >= 0) {
      const o = 6 * a, g = 18 * i, vx = dv[o]!, vy = dv[o + 1]!, vz = dv[o + 2]!;
      const ox = dv[o + 3]!, oy = dv[o + 4]!, oz = dv[o + 5]!;
      w0 -= nx * vx + ny * vy + nz * vz + ang[g]! * ox + ang[g + 1]! * oy + ang[g + 2]! * oz;
      w1 -= sx * vx + sy * vy + sz * vz + ang[g + 3]! * ox + ang[g + 4]! * oy + ang[g + 5]! * oz;
      w2 -= tx * vx + ty * vy + tz * vz + ang[g + 6]! * ox + ang[g + 7]! * oy + ang[g + 8]! * oz;
    }
    w[0] = w0; w[1] = w1; w[2] = w2;
    if (!relaxContact(R, i, ld.diag, inv, ld.friction, reg, coulomb, w, stats)) continue;
    // Δu of both sides' components: ± M⁻¹H_iᵀ ΔR_i
    if (b >= 0) addSideImpulse(dv, res, 36 * i + 18, 6 * b, 1, w);
    if (a >= 0) addSideImpulse(dv, res, 36 * i, 6 * a, -1, w);
  }
}

/** w += sign · H_{i,s} Δu_c: the frame velocity that side s's component change adds */
function addSideVelocity(w: Float64Array, ld: LocalDynamics, i: number, s: number, dv: Float64Array, o: number,
  sign: number): void {
  const N = ld.normal, T1 = ld.tangent1, T2 = ld.tangent2, ang = ld.sideAngular, a = 18 * i + 9 * s, p = 3 * i;
  const vx = dv[o]!, vy = dv[o + 1]!, vz = dv[o + 2]!, wx = dv[o + 3]!, wy = dv[o + 4]!, wz = dv[o + 5]!;
  w[0] += sign * (N[p]! * vx + N[p + 1]! * vy + N[p + 2]! * vz
    + ang[a]! * wx + ang[a + 1]! * wy + ang[a + 2]! * wz);
  w[1] += sign * (T1[p]! * vx + T1[p + 1]! * vy + T1[p + 2]! * vz
    + ang[a + 3]! * wx + ang[a + 4]! * wy + ang[a + 5]! * wz);
  w[2] += sign * (T2[p]! * vx + T2[p + 1]! * vy + T2[p + 2]! * vz
    + ang[a + 6]! * wx + ang[a + 7]! * wy + ang[a + 8]! * wz);
}

/** Δu_c += sign · M⁻¹H_{i,s}ᵀ d, the response columns at g */
function addSideImpulse(dv: Float64Array, res: Float64Array, g: number, o: number, sign: number,
  d: Float64Array): void {
  const a = sign * d[0]!, b = sign * d[1]!, c = sign * d[2]!;
  for (let k = 0; k < 6; k++) dv[o + k] += res[g + k]! * a + res[g + 6 + k]! * b + res[g + 12 + k]! * c;
}

/** the disc's conditions: |φ| ≤ lim, and w_t = 0 inside or w_t anti-parallel to φ on the rim */
function discResidual(f1: number, f2: number, w1: number, w2: number, lim: number): number {
  const l = Math.sqrt(f1 * f1 + f2 * f2), g = Math.sqrt(w1 * w1 + w2 * w2), out = Math.max(l - lim, 0);
  if (lim <= 0 || g === 0) return out;
  const ux = l > 0 ? f1 / l : 0, uy = l > 0 ? f2 / l : 0;
  const anti = Math.sqrt((w1 + g * ux) * (w1 + g * ux) + (w2 + g * uy) * (w2 + g * uy));
  return Math.max(out, Math.min(g, Math.max(lim - l, anti)));
}

/** the identity fields of a contact set (design notes, "Contact": shape A, shape B, feature A, feature B) */
export interface ContactKeys {
  count: number;
  shapeA: Int32Array;
  shapeB: Int32Array;
  featureA: Int32Array;
  featureB: Int32Array;
}

/** index buffers of `matchWarmStart`, kept between steps so that it allocates nothing */
export class WarmStartScratch {
  a = new Int32Array(0);
  b = new Int32Array(0);
  c = new Int32Array(0);
  d = new Int32Array(0);
  reserve(n: number): void {
    if (this.a.length >= n) return;
    const cap = Math.max(n, 2 * this.a.length);
    this.a = new Int32Array(cap); this.b = new Int32Array(cap);
    this.c = new Int32Array(cap); this.d = new Int32Array(cap);
  }
}

/**
 * out (3 per contact of `next`) ← the impulses of the previous step's contact with the same key,
 * zero for a new contact. Both sets are ordered by key (a stable merge sort, skipped when already
 * sorted) and walked together: O(n log n), deterministic; duplicate keys pair in order.
 * @returns the number of contacts matched
 */
export function matchWarmStart(prev: ContactKeys, prevImpulses: Float64Array, next: ContactKeys,
  out: Float64Array, scratch: WarmStartScratch = new WarmStartScratch()): number {
  scratch.reserve(Math.max(prev.count, next.count));
  const p = sortByKey(prev, scratch.a, scratch.b), q = sortByKey(next, scratch.c, scratch.d);
  let i = 0, j = 0, matched = 0;
  while (j < next.count) {
    const b = q[j]!;
    const c = i < prev.count ? compareKeys(prev, p[i]!, next, b) : 1;
    if (c < 0) { i++; continue; }
    if (c === 0) {
      const a = p[i++]!;
      for (let k = 0; k < 3; k++) out[3 * b + k] = prevImpulses[3 * a + k]!;
      matched++;
    } else { out[3 * b] = 0; out[3 * b + 1] = 0; out[3 * b + 2] = 0; }
    j++;
  }
  return matched;
}

/** the order of the contacts by key, in one of the two buffers (a stable bottom-up merge sort) */
function sortByKey(keys: ContactKeys, order: Int32Array, tmp: Int32Array): Int32Array {
  const n = keys.count;
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && compareKeys(keys, i - 1, keys, i) > 0) sorted = false;
  }
  if (sorted) return order;
  let src = order, dst = tmp;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
      let a = lo, b = mid, k = lo;
      while (a < mid && b < hi) dst[k++] = compareKeys(keys, src[b]!, keys, src[a]!) < 0 ? src[b++]! : src[a++]!;
      while (a < mid) dst[k++] = src[a++]!;
      while (b < hi) dst[k++] = src[b++]!;
    }
    const t = src; src = dst; dst = t;
  }
  return src;
}

/** lexicographic order of (shape A, shape B, feature A, feature B) */
function compareKeys(x: ContactKeys, i: number, y: ContactKeys, j: number): number {
  return (x.shapeA[i]! - y.shapeA[j]!) || (x.shapeB[i]! - y.shapeB[j]!)
    || (x.featureA[i]! - y.featureA[j]!) || (x.featureB[i]! - y.featureB[j]!);
}
