/**
 * Box friction bounds as a fixed point (000 §0.10, with the signs of ERRATA A.1): friction row i
 * has bounds ±μ_i θ_k, θ_k the impulse of its normal row k = normalOf[i], which the solve itself
 * produces. With θ ↦ G(θ) the normal impulses of the box LCP solved with the bounds from θ, the
 * solver iterates θ ← G(θ) until the bounds move by at most 1e-12 relative.
 *
 * G is piecewise affine (affine while the sets stay), and the plain iteration converges only
 * linearly, at a rate near μ when friction moves weight between contacts (a row of touching
 * spheres takes ~40 iterations). Anderson acceleration (Walker & Ni, "Anderson acceleration for
 * fixed-point iterations", SIAM J. Numer. Anal. 49, 2011) takes the next θ as
 *   θ⁺ = G(θ) − ΔG γ,   γ = argmin ‖f − ΔF γ‖₂,   f = G(θ) − θ,
 * over the last few differences ΔF, ΔG of f and G; on an affine G it behaves as GMRES on
 * (I − T)θ = c. γ comes from a modified Gram-Schmidt QR of ΔF, dropping columns that are
 * (numerically) dependent. The memory restarts when the sets change (T changes with them) and
 * when ‖f‖ fails to fall, so a bad extrapolation costs at most one plain step. A row of touching
 * spheres (1000 contacts): 42 plain iterations, 14 accelerated.
 */
import { ModelError } from '../../model/errors.js';

/** friction rows: normalOf[i] ≥ 0 names row i's normal row; mu[i] its friction coefficient */
export interface BoxFriction {
  normalOf: Int32Array;
  mu: Float64Array;
}

/** differences kept by the acceleration */
const MEMORY = 5;
/** relative change of the bounds that ends the iteration */
const SETTLED = 1e-12;

/** the fixed-point iteration of the friction bounds over one solve */
export class FrictionBounds {
  /** number of normal rows that some friction row names */
  private p = 0;
  /** (n) index of each normal row in the compact vectors below, −1 for other rows */
  private slot: Int32Array;
  /** (p) rows of the normals */
  private rows: Int32Array;
  /** (p) the θ that sets the bounds of the current solve; its f and G */
  private x: Float64Array;
  private f: Float64Array;
  private g: Float64Array;
  /** (MEMORY · p) ring buffers of differences of f and of G; Q of ΔF's QR */
  private dF: Float64Array;
  private dG: Float64Array;
  private Q: Float64Array;
  private R = new Float64Array(MEMORY * MEMORY);
  private gamma = new Float64Array(MEMORY);
  private used = new Int32Array(MEMORY);
  /** differences stored, the ring's next slot, ‖f‖ of the last step */
  private count = 0;
  private head = 0;
  private fNorm = Infinity;

  constructor(capacity: number) {
    this.slot = new Int32Array(capacity);
    this.rows = new Int32Array(capacity);
    this.x = new Float64Array(capacity); this.f = new Float64Array(capacity); this.g = new Float64Array(capacity);
    this.dF = new Float64Array(MEMORY * capacity); this.dG = new Float64Array(MEMORY * capacity);
    this.Q = new Float64Array(MEMORY * capacity);
  }

  /** checks the rows, lists the normals and takes θ from z (the caller's first estimate) */
  begin(fr: BoxFriction, n: number, z: Float64Array, where: string): void {
    if (fr.normalOf.length < n || fr.mu.length < n) throw new ModelError(where, `friction needs ${n} entries`);
    if (this.slot.length < n) this.grow(n);
    this.slot.fill(-1, 0, n);
    let p = 0;
    for (let i = 0; i < n; i++) {
      const k = fr.normalOf[i]!;
      if (k < 0) continue;
      if (k >= n || fr.normalOf[k]! >= 0 || !(fr.mu[i]! >= 0) || fr.mu[i] === Infinity) {
        throw new ModelError(where, `friction row ${i}: normal row ${k} or μ ${fr.mu[i]} is invalid`);
      }
      if (this.slot[k]! >= 0) continue;
      this.slot[k] = p;
      this.rows[p] = k;
      this.x[p++] = Math.max(z[k]!, 0);
    }
    this.p = p; this.count = 0; this.head = 0; this.fNorm = Infinity;
  }

  /** the upper bound μ_i θ of friction row i (its lower bound is the negative) */
  bound(fr: BoxFriction, i: number): number {
    return fr.mu[i]! * this.x[this.slot[fr.normalOf[i]!]!]!;
  }

  /**
   * after a solve with the current bounds: true when the bounds that z's normal impulses imply
   * are within SETTLED of the current ones; otherwise moves θ to the accelerated next estimate.
   * `setsMoved`: the solve changed the sets, so G's affine piece changed and the differences
   * kept so far no longer describe it: they are dropped.
   */
  next(fr: BoxFriction, n: number, z: Float64Array, setsMoved: boolean): boolean {
    const p = this.p, x = this.x, f = this.f, g = this.g;
    // the change of the bounds, weighted by each normal's largest μ
    let change = 0, size = 0;
    for (let i = 0; i < n; i++) {
      const k = fr.normalOf[i]!;
      if (k < 0) continue;
      const s = this.slot[k]!, gk = Math.max(z[k]!, 0);
      change = Math.max(change, fr.mu[i]! * Math.abs(gk - x[s]!));
      size = Math.max(size, fr.mu[i]! * gk);
    }
    if (change <= SETTLED * size) return true;
    // f = G(θ) − θ, and the new differences against the last step
    const base = this.head * p;
    let norm = 0;
    for (let s = 0; s < p; s++) {
      const gs = Math.max(z[this.rows[s]!]!, 0), fs = gs - x[s]!;
      this.dF[base + s] = fs - f[s]!; this.dG[base + s] = gs - g[s]!;
      f[s] = fs; g[s] = gs;
      norm += fs * fs;
    }
    // new sets or no progress: forget the differences (this step becomes a plain one)
    if (setsMoved || norm >= this.fNorm) this.count = 0;
    else if (this.fNorm < Infinity) { this.count = Math.min(this.count + 1, MEMORY); this.head = (this.head + 1) % MEMORY; }
    this.fNorm = norm;
    this.accelerate();
    return false;
  }

  /** θ ← G − ΔG γ with γ the least-squares fit of f by ΔF; clamped at 0 */
  private accelerate(): void {
    const p = this.p, x = this.x, g = this.g, gamma = this.gamma;
    const kept = this.factorDifferences();
    // γ = R⁻¹ Qᵀ f, by back substitution
    for (let a = kept - 1; a >= 0; a--) {
      let s = 0;
      for (let r = 0; r < p; r++) s += this.Q[a * p + r]! * this.f[r]!;
      for (let b = a + 1; b < kept; b++) s -= this.R[a * MEMORY + b]! * gamma[b]!;
      gamma[a] = s / this.R[a * MEMORY + a]!;
    }
    for (let r = 0; r < p; r++) x[r] = g[r]!;
    for (let a = 0; a < kept; a++) {
      const at = this.used[a]! * p, ga = gamma[a]!;
      for (let r = 0; r < p; r++) x[r] = x[r]! - this.dG[at + r]! * ga;
    }
    for (let r = 0; r < p; r++) x[r] = Math.max(x[r]!, 0);
  }

  /** modified Gram-Schmidt QR of the stored ΔF, newest first; returns the columns kept */
  private factorDifferences(): number {
    const p = this.p, Q = this.Q, R = this.R;
    let kept = 0;
    for (let c = 0; c < this.count; c++) {
      const col = (this.head - 1 - c + 2 * MEMORY) % MEMORY, at = kept * p;
      let n0 = 0;
      for (let r = 0; r < p; r++) { Q[at + r] = this.dF[col * p + r]!; n0 += Q[at + r]! * Q[at + r]!; }
      // orthogonalize against the kept columns
      for (let b = 0; b < kept; b++) {
        let s = 0;
        for (let r = 0; r < p; r++) s += Q[b * p + r]! * Q[at + r]!;
        R[b * MEMORY + kept] = s;
        for (let r = 0; r < p; r++) Q[at + r] = Q[at + r]! - s * Q[b * p + r]!;
      }
      let nn = 0;
      for (let r = 0; r < p; r++) nn += Q[at + r]! * Q[at + r]!;
      // a column (numerically) in the span of the others is dropped
      if (!(nn > 1e-20 * n0)) continue;
      const len = Math.sqrt(nn);
      for (let r = 0; r < p; r++) Q[at + r] = Q[at + r]! / len;
      R[kept * MEMORY + kept] = len;
      this.used[kept++] = col;
    }
    return kept;
  }

  /** room for n rows */
  private grow(n: number): void {
    this.slot = new Int32Array(n); this.rows = new Int32Array(n);
    this.x = new Float64Array(n); this.f = new Float64Array(n); this.g = new Float64Array(n);
    this.dF = new Float64Array(MEMORY * n); this.dG = new Float64Array(MEMORY * n); this.Q = new Float64Array(MEMORY * n);
  }
}
