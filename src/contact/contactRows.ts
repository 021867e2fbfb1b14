/**
 * Stage 5 for contacts: the rows of each contact of the collide stage (theory.md §14; 001 §3;
 * 000 §0.10, §0.11):
 *
 *   normal        N = nᵀ(J_B − J_A) at the contact point; w = N u⁺ + b ≥ 0 ⊥ θ ≥ 0
 *   box friction  T_k = t_kᵀ(J_B − J_A), k = 1, 2 (t₁, t₂ from n, math/basis.ts); |φ_k| ≤ μθ
 *   polyhedral    D_j = d_jᵀ(J_B − J_A), d_j = cos(2πj/K) t₁ + sin(2πj/K) t₂, j < K (Lemke)
 *
 * and the offset b of the normal row (contact/rows.ts): φ/h while the gap is open (the row may
 * close it this step), `erp`·φ/h on a penetration, eq. 0.10 for compliant contacts, e·v⁻ for a
 * contact that closes this step faster than the restitution threshold.
 */
import type { ContactSet } from './contactSet.js';
import { UnilateralRows, ROW_NORMAL, ROW_FRICTION, pointRow } from './rows.js';
import { orthonormalBasis } from '../math/basis.js';
import { polyhedralDirections } from '../solvers/lcp/anitescuStewart.js';

/** how friction is written as rows */
export type FrictionRows = 'box' | 'polyhedral';

/** the settings of contact rows (the model's `contact` entry) */
export interface ContactRowSettings {
  /** fraction of a penetration corrected per step (0 … 1) */
  readonly erp: number;
  /** closing speeds below this have no restitution, m/s */
  readonly restitutionThreshold: number;
  /** 'box': two tangent rows; 'polyhedral': `directions` rows */
  readonly friction: FrictionRows;
  /** friction directions per contact for polyhedral friction */
  readonly directions: number;
}

/** the components as the rows read them: origin in q and offset in u, and whether each is a body */
export interface RowComponents {
  readonly qOffset: Int32Array;
  readonly uOffset: Int32Array;
  readonly body: Uint8Array;
}

export class ContactRowBuilder {
  private readonly t1 = new Float64Array(3);
  private readonly t2 = new Float64Array(3);
  private readonly d: Float64Array;        // (3·K) this contact's friction directions
  private readonly n3 = new Float64Array(3);
  private readonly rA = new Float64Array(3);
  private readonly rB = new Float64Array(3);

  constructor(private readonly comps: RowComponents, private readonly settings: ContactRowSettings) {
    this.d = new Float64Array(3 * Math.max(2, settings.directions));
  }

  /**
   * appends the rows of every contact to `rows`: its normal row, then its friction rows (box
   * friction: none when μ = 0; polyhedral: always K, as the Anitescu-Stewart LCP has them). u is the velocity at the start of the step (restitution reads v⁻ from it).
   */
  build(rows: UnilateralRows, contacts: ContactSet, q: Float64Array, u: Float64Array, h: number): void {
    const k = this.settings.friction === 'box' ? 2 : this.settings.directions;
    rows.reserve(rows.count + contacts.count * (1 + k));
    for (let c = 0; c < contacts.count; c++) {
      this.arms(contacts, c, q);
      const i = this.normalRow(rows, contacts, c, u, h);
      if (contacts.friction[c]! > 0 || this.settings.friction === 'polyhedral') this.frictionRows(rows, contacts, c, i, k);
    }
  }

  /** rA, rB ← contact point − each side's origin (bodies; zero otherwise) */
  private arms(contacts: ContactSet, c: number, q: Float64Array): void {
    const p = contacts.p_W, A = contacts.compA[c]!, B = contacts.compB[c]!;
    for (let k = 0; k < 3; k++) {
      this.rA[k] = A >= 0 && this.comps.body[A] ? p[3 * c + k]! - q[this.comps.qOffset[A]! + k]! : 0;
      this.rB[k] = B >= 0 && this.comps.body[B] ? p[3 * c + k]! - q[this.comps.qOffset[B]! + k]! : 0;
    }
  }

  /** the row of the relative velocity of B to A at the contact point along d (row i's J) */
  private direction(rows: UnilateralRows, i: number, contacts: ContactSet, c: number, dx: number, dy: number, dz: number): void {
    const A = contacts.compA[c]!, B = contacts.compB[c]!, rA = this.rA, rB = this.rB, body = this.comps.body;
    if (A >= 0) pointRow(rows.J, 12 * i, body[A] === 1, -1, dx, dy, dz, rA[0]!, rA[1]!, rA[2]!);
    if (B >= 0) pointRow(rows.J, 12 * i + 6, body[B] === 1, 1, dx, dy, dz, rB[0]!, rB[1]!, rB[2]!);
    rows.dir[3 * i] = dx; rows.dir[3 * i + 1] = dy; rows.dir[3 * i + 2] = dz;
  }

  /** the normal row of contact c with its offset and regularization; returns its index */
  private normalRow(rows: UnilateralRows, contacts: ContactSet, c: number, u: Float64Array, h: number): number {
    const n = contacts.n_W, i = rows.add(ROW_NORMAL, contacts.compA[c]!, contacts.compB[c]!, 0, 0, Infinity, c);
    this.direction(rows, i, contacts, c, n[3 * c]!, n[3 * c + 1]!, n[3 * c + 2]!);
    const phi = contacts.gap[c]!, alpha = contacts.compliance[c]!;
    let b: number;
    if (alpha > 0) {
      // eq. 0.10 of 000 §0.11 (with ERRATA A.3): w = N v⁺ + (γα/h²) z + γφ/h
      const gamma = 1 / (0.5 + contacts.damping[c]! / h);
      rows.reg[i] = (gamma * alpha) / (h * h);
      b = (gamma * phi) / h;
    } else b = phi >= 0 ? phi / h : (this.settings.erp * phi) / h;
    // Newton restitution on a contact that closes this step: v⁺ ≥ −e v⁻
    const e = contacts.restitution[c]!;
    if (e > 0) {
      const vn = rows.rowVelocity(i, u, this.comps.uOffset, this.comps.body);
      if (vn < -this.settings.restitutionThreshold && phi + h * vn <= 0) b = Math.min(b, e * vn);
    }
    rows.b[i] = b;
    return i;
  }

  /** the friction rows of contact c, bounded by μ times normal row i's impulse */
  private frictionRows(rows: UnilateralRows, contacts: ContactSet, c: number, i: number, k: number): void {
    const n = contacts.n_W, t1 = this.t1, t2 = this.t2, d = this.d, mu = contacts.friction[c]!, n3 = this.n3;
    // the basis writes at the offset it reads n from: n is copied to offset 0 first
    n3[0] = n[3 * c]!; n3[1] = n[3 * c + 1]!; n3[2] = n[3 * c + 2]!;
    orthonormalBasis(t1, t2, n3, 0);
    // box friction: t₁ and t₂ themselves; polyhedral: the cone's K edges
    if (k === 2) { d.set(t1); d.set(t2, 3); } else polyhedralDirections(d, t1, t2, k);
    for (let j = 0; j < k; j++) {
      const r = rows.add(ROW_FRICTION, contacts.compA[c]!, contacts.compB[c]!, 0, -Infinity, Infinity, c);
      this.direction(rows, r, contacts, c, d[3 * j]!, d[3 * j + 1]!, d[3 * j + 2]!);
      rows.normalOf[r] = i;
      rows.mu[r] = mu;
    }
  }
}
