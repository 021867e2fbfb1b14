/**
 * The `pgs` contact solve when the step matrix is block diagonal (theory.md §15): no bilateral
 * rows, no force coupling two components, only contact rows. Then W = H M̂⁻¹ Hᵀ needs no solve
 * with the factorization: each component's block of the step matrix M̂ = M − a₀D − a₁K is
 * inverted on its own (6 × 6 or 3 × 3), and projected Gauss-Seidel runs on the contact-frame local
 * dynamics U = B + W R (002; contact/localDynamics.ts, solvers/lcp/pgs.ts) in its velocity form,
 * warm-started from the last step's impulses of the same contacts (matched by feature keys).
 * Δu = M̂⁻¹HᵀR then adds to the free step's velocities directly. Each manifold (a box face on a
 * box: up to four points, one normal) is solved as a block (solvers/lcp/manifoldPgs.ts).
 *
 * The penetrations of manifolds are corrected by split impulses (theory.md §15): the velocity
 * solve sees such a rigid penetrating point with b = 0 (it stops the approach and pushes nothing
 * out), and a position pass finds normal pseudo-impulses for the target erp·φ/h alone; their Δu_p
 * moves the positions by h Δu_p after the advance (`correctPositions`, stage 9) and never enters
 * the velocities. With the push-out in the velocities, a stack's corners took turns at being pushed
 * out by an unconverged solve, and the push-outs' kinetic energy rocked a stack of ten boxes apart.
 * Single-point contacts (spheres) cannot rock: they keep erp·φ/h in the velocity solve.
 */
import type { Workspace } from './workspace.js';
import type { ContactSet } from '../contact/contactSet.js';
import type { UnilateralRows } from '../contact/rows.js';
import { LocalDynamics, type ContactBodies } from '../contact/localDynamics.js';
import { ContactPgs, type FrictionModel } from '../solvers/lcp/pgs.js';
import type { LcpReport } from '../solvers/lcp/types.js';

/** a pivot below this fraction of the block's largest entry: the block is singular (a massless component) */
const SINGULAR_PIVOT = 1e-14;

export class BlockDiagonalPgs {
  private readonly ld = new LocalDynamics();
  private readonly pgs: ContactPgs;
  private readonly bodies: ContactBodies & { dynamic: Uint8Array };
  private readonly blockOf: Int32Array;      // (components) solve block, −1 when none
  private readonly work = new Float64Array(72);
  private bias = new Float64Array(0);
  private reg = new Float64Array(0);
  private R = new Float64Array(0);
  private target = new Float64Array(0);
  /** (nKkt) the last solve's position correction h Δu_p, solve layout; pending until `correctPositions` */
  private readonly shift: Float64Array;
  private pending = false;

  /**
   * @param erp the fraction of a penetration the position pass corrects per step (0: none)
   */
  constructor(private readonly ws: Workspace, friction: FrictionModel, iterations: number, tolerance: number,
    private readonly erp: number) {
    const m = ws.model, nc = m.components.length;
    this.pgs = new ContactPgs({ friction, maxIterations: iterations, tolerance, manifolds: true });
    this.shift = new Float64Array(m.nKkt);
    this.blockOf = new Int32Array(nc).fill(-1);
    m.blockComponent.forEach((c, b) => { this.blockOf[c] = b; });
    this.bodies = {
      kind: ws.bodyFlags, uOffset: ws.uOffsets, origin_W: new Float64Array(3 * nc),
      Minv: new Float64Array(36 * nc), dynamic: Uint8Array.from(this.blockOf, (b) => (b >= 0 ? 1 : 0)),
    };
  }

  /** true when the step matrix of this model is block diagonal (no constraint rows, no coupling blocks) */
  static applies(ws: Workspace): boolean {
    const m = ws.model;
    if (m.nRows > 0) return false;
    let diag = 0;
    for (let b = 0; b < m.blockSize.length; b++) diag += m.blockSize[b]! ** 2;
    return ws.fs.layout.nnz === diag;
  }

  /**
   * x += Δu of the contacts (solve layout) for the free velocities uFree; impulses into rows.z
   * (`normalRow`: each contact's normal row; its friction rows follow it when μ > 0). `warm` holds
   * 3 impulses per contact from the last step (0 for new contacts), `q` the positions the rows
   * were made at.
   */
  solve(contacts: ContactSet, rows: UnilateralRows, normalRow: Int32Array, warm: Float64Array,
    q: Float64Array, uFree: Float64Array, x: Float64Array): LcpReport {
    const n = contacts.count;
    this.reserve(n);
    this.inverseBlocks(q);
    this.ld.build(contacts, this.bodies, uFree, false);
    const split = this.splitBias(contacts, rows, normalRow);
    for (let c = 0; c < n; c++) {
      const i = normalRow[c]!;
      this.reg[c] = rows.reg[i]!;
      this.R[3 * c] = warm[3 * c]!; this.R[3 * c + 1] = warm[3 * c + 1]!; this.R[3 * c + 2] = warm[3 * c + 2]!;
    }
    const rep = this.pgs.solve(this.ld, this.R, this.bias, this.reg);
    this.positionPass(split);
    // impulses into the rows, Δu into x
    for (let c = 0; c < n; c++) {
      const i = normalRow[c]!;
      rows.z[i] = this.R[3 * c]!;
      if (i + 2 < rows.count && rows.normalOf[i + 1] === i) { rows.z[i + 1] = this.R[3 * c + 1]!; rows.z[i + 2] = this.R[3 * c + 2]!; }
    }
    this.addComponents(this.pgs.dv, x);
    return rep;
  }

  /**
   * bias ← each contact's b for the velocity solve, target ← the position pass's: a rigid point
   * of a manifold that penetrates (and does not bounce) moves its erp·φ/h from the first to the
   * second. Returns whether any contact has a target.
   */
  private splitBias(contacts: ContactSet, rows: UnilateralRows, normalRow: Int32Array): boolean {
    let any = false;
    for (let c = 0; c < contacts.count; c++) {
      const i = normalRow[c]!, b = rows.b[i]!;
      const face = (c > 0 && sameManifold(contacts, c - 1, c))
        || (c + 1 < contacts.count && sameManifold(contacts, c, c + 1));
      const moved = face && this.erp > 0 && contacts.gap[c]! < 0 && rows.reg[i] === 0 && !(contacts.restitution[c]! > 0);
      this.bias[c] = moved ? 0 : b;
      this.target[c] = moved ? this.erp * contacts.gap[c]! : 0;
      if (moved) any = true;
    }
    return any;
  }

  /**
   * the position pass for the targets, its displacement kept in `shift` for `correctPositions`.
   * The pass is linear in its targets (no free velocity), so targets erp·φ (not erp·φ/h) give the
   * displacement h Δu_p itself, whatever h is.
   */
  private positionPass(any: boolean): void {
    this.pending = any;
    if (!any) return;
    this.pgs.solvePositions(this.ld, this.target, this.pgs.maxIterations);
    this.shift.fill(0);
    this.addComponents(this.pgs.dvPosition, this.shift);
  }

  /** q ← q ⊕ the displacement of the last solve's position pass, once (stage 9, after the advance) */
  correctPositions(q: Float64Array): void {
    if (!this.pending) return;
    this.pending = false;
    this.ws.displace(q, this.shift);
  }

  /** the impulses of the last solve, 3 per contact (θ, φ₁, φ₂) */
  get impulses(): Float64Array { return this.R; }

  /** x (solve layout) += dv (6 per component) */
  private addComponents(dv: Float64Array, x: Float64Array): void {
    const m = this.ws.model;
    for (let b = 0; b < m.blockComponent.length; b++) {
      const c = m.blockComponent[b]!, s = m.blockStart[b]!, w = m.blockSize[b]!;
      for (let k = 0; k < w; k++) x[s + k] = x[s + k]! + dv[6 * c + k]!;
    }
  }

  /** each dynamic component's origin and the inverse of its block of the factored step matrix */
  private inverseBlocks(q: Float64Array): void {
    const ws = this.ws, m = ws.model, A = ws.stepMatrix(), cb = ws.fs.layout.colBase, B = this.bodies;
    for (let b = 0; b < m.blockComponent.length; b++) {
      const c = m.blockComponent[b]!, w = m.blockSize[b]!, slot = ws.slotDiag[b]!, o = ws.qOffsets[c]!;
      for (let k = 0; k < 3; k++) B.origin_W[3 * c + k] = q[o + k]!;
      // the block, row-major, then its inverse
      for (let j = 0; j < w; j++) for (let i = 0; i < w; i++) this.work[i * w + j] = A[cb[6 * slot + j]! + i]!;
      invertSmall(this.work, w, B.Minv, 36 * c);
    }
  }

  private reserve(n: number): void {
    if (this.bias.length >= n) return;
    const cap = Math.max(n, 2 * this.bias.length);
    this.bias = new Float64Array(cap); this.reg = new Float64Array(cap); this.R = new Float64Array(3 * cap);
    this.target = new Float64Array(cap);
  }
}

/** true when contacts i and j join the same two components with the same normal (points of one manifold) */
function sameManifold(c: ContactSet, i: number, j: number): boolean {
  const n = c.n_W;
  return c.compA[i] === c.compA[j] && c.compB[i] === c.compB[j] && n[3 * i] === n[3 * j]
    && n[3 * i + 1] === n[3 * j + 1] && n[3 * i + 2] === n[3 * j + 2];
}

/**
 * out[at …] ← A⁻¹ for the w × w row-major A (w ≤ 6; A is destroyed), by Gauss-Jordan elimination
 * with partial pivoting, written with a row stride of 6; a singular block gives zeros (no impulse
 * moves that component)
 */
function invertSmall(A: Float64Array, w: number, out: Float64Array, at: number): void {
  // the identity, stride 6, beside A
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) out[at + 6 * i + j] = i === j && i < w ? 1 : 0;
  let scale = 0;
  for (let k = 0; k < w * w; k++) scale = Math.max(scale, Math.abs(A[k]!));
  for (let col = 0; col < w; col++) {
    // the pivot row
    let p = col;
    for (let r = col + 1; r < w; r++) if (Math.abs(A[r * w + col]!) > Math.abs(A[p * w + col]!)) p = r;
    const piv = A[p * w + col]!;
    if (!(Math.abs(piv) > SINGULAR_PIVOT * scale)) { out.fill(0, at, at + 36); return; }
    if (p !== col) swapRows(A, w, out, at, p, col);
    // eliminate the column from every other row
    const inv = 1 / piv;
    for (let j = 0; j < w; j++) { A[col * w + j] = A[col * w + j]! * inv; out[at + 6 * col + j] = out[at + 6 * col + j]! * inv; }
    for (let r = 0; r < w; r++) {
      if (r === col) continue;
      const f = A[r * w + col]!;
      if (f === 0) continue;
      for (let j = 0; j < w; j++) {
        A[r * w + j] = A[r * w + j]! - f * A[col * w + j]!;
        out[at + 6 * r + j] = out[at + 6 * r + j]! - f * out[at + 6 * col + j]!;
      }
    }
  }
}

function swapRows(A: Float64Array, w: number, out: Float64Array, at: number, a: number, b: number): void {
  for (let j = 0; j < w; j++) {
    const t = A[a * w + j]!; A[a * w + j] = A[b * w + j]!; A[b * w + j] = t;
    const s = out[at + 6 * a + j]!; out[at + 6 * a + j] = out[at + 6 * b + j]!; out[at + 6 * b + j] = s;
  }
}
