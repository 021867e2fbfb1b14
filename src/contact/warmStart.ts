/**
 * The contacts' memory from one step to the next (design notes, "Contact: identity"): each
 * contact's key (shape A, shape B, feature A, feature B) and its impulses (θ, φ₁, φ₂), so the
 * next step's solvers start from the impulses of the same contact point (solvers/lcp/pgs.ts,
 * matchWarmStart). A checkpoint carries it, so a restored run repeats bit for bit.
 */
import type { ContactSet } from './contactSet.js';
import type { UnilateralRows } from './rows.js';
import { ROW_FRICTION } from './rows.js';
import { matchWarmStart, WarmStartScratch, type ContactKeys } from '../solvers/lcp/pgs.js';

export class ContactMemory implements ContactKeys {
  count = 0;
  shapeA = new Int32Array(0);
  shapeB = new Int32Array(0);
  featureA = new Int32Array(0);
  featureB = new Int32Array(0);
  /** (3·count) the impulses of each remembered contact: normal, then the first two friction rows */
  impulse = new Float64Array(0);
  /** (3·contacts) this step's warm start, by `recall` */
  warm = new Float64Array(0);
  private readonly scratch = new WarmStartScratch();

  /** warm ← the remembered impulses of each of this step's contacts (0 for a new one) */
  recall(contacts: ContactSet): Float64Array {
    if (this.warm.length < 3 * contacts.count) this.warm = new Float64Array(Math.max(3 * contacts.count, 2 * this.warm.length));
    matchWarmStart(this, this.impulse, contacts, this.warm, this.scratch);
    return this.warm;
  }

  /** the rows' warm start from `warm`: each contact's normal and first two friction rows */
  seedRows(rows: UnilateralRows, normalRow: Int32Array, ncontacts: number): void {
    for (let c = 0; c < ncontacts; c++) {
      const i = normalRow[c]!;
      rows.z[i] = this.warm[3 * c]!;
      for (let k = 1; k <= 2; k++) {
        if (i + k < rows.count && rows.kind[i + k] === ROW_FRICTION && rows.normalOf[i + k] === i) rows.z[i + k] = this.warm[3 * c + k]!;
      }
    }
  }

  /** remembers this step's contacts and their impulses from the rows */
  store(contacts: ContactSet, rows: UnilateralRows, normalRow: Int32Array): void {
    const n = contacts.count;
    this.reserve(n);
    this.count = n;
    for (let c = 0; c < n; c++) {
      this.shapeA[c] = contacts.shapeA[c]!; this.shapeB[c] = contacts.shapeB[c]!;
      this.featureA[c] = contacts.featureA[c]!; this.featureB[c] = contacts.featureB[c]!;
      const i = normalRow[c]!;
      this.impulse[3 * c] = rows.z[i]!;
      for (let k = 1; k <= 2; k++) {
        const f = i + k < rows.count && rows.kind[i + k] === ROW_FRICTION && rows.normalOf[i + k] === i;
        this.impulse[3 * c + k] = f ? rows.z[i + k]! : 0;
      }
    }
  }

  /** the memory as numbers (a checkpoint's part) */
  save(): Float64Array {
    const n = this.count, out = new Float64Array(1 + 7 * n);
    out[0] = n;
    for (let c = 0; c < n; c++) {
      out[1 + 7 * c] = this.shapeA[c]!; out[2 + 7 * c] = this.shapeB[c]!;
      out[3 + 7 * c] = this.featureA[c]!; out[4 + 7 * c] = this.featureB[c]!;
      for (let k = 0; k < 3; k++) out[5 + 7 * c + k] = this.impulse[3 * c + k]!;
    }
    return out;
  }

  /** the memory ← numbers from `save` */
  load(src: Float64Array): void {
    const n = src[0]!;
    this.reserve(n);
    this.count = n;
    for (let c = 0; c < n; c++) {
      this.shapeA[c] = src[1 + 7 * c]!; this.shapeB[c] = src[2 + 7 * c]!;
      this.featureA[c] = src[3 + 7 * c]!; this.featureB[c] = src[4 + 7 * c]!;
      for (let k = 0; k < 3; k++) this.impulse[3 * c + k] = src[5 + 7 * c + k]!;
    }
  }

  private reserve(n: number): void {
    if (this.shapeA.length >= n) return;
    const cap = Math.max(n, 2 * this.shapeA.length);
    this.shapeA = new Int32Array(cap); this.shapeB = new Int32Array(cap);
    this.featureA = new Int32Array(cap); this.featureB = new Int32Array(cap);
    this.impulse = new Float64Array(3 * cap);
  }
}
