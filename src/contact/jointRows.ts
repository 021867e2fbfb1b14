/**
 * Stage 5 for joint limits and motors (theory.md §16; 000 §0.4): rows on a joint coordinate c
 * with ċ = J_c u (constraints/coordinateRows.ts).
 *
 *   lower limit   c + h J_c u⁺ ≥ lower:   w =  J_c u⁺ + (c − lower)/h ≥ 0 ⊥ z ≥ 0
 *   upper limit   c + h J_c u⁺ ≤ upper:   w = −J_c u⁺ + (upper − c)/h ≥ 0 ⊥ z ≥ 0
 *   motor         w = J_c u⁺ − v*, |z| ≤ h F_max (a box row: inside the box ċ = v*)
 *
 * linearized at the start of the step, like contacts (contact/contactRows.ts): an open limit may
 * close this step, a violated one is corrected by `erp` per step, a compliant one takes eq. 0.10,
 * and restitution e gives ċ⁺ ≥ −e ċ⁻ on a limit that closes this step faster than the threshold. A
 * position motor's target rate is v* = (target − c)/τ (τ = its `time`, else h). A limit row is
 * made only when the limit is within reach this step (its gap less than the margin plus twice the
 * distance the coordinate travels in a step), so a chain with limits on every joint carries only
 * the rows that may act.
 */
import type { Model } from '../model/model.js';
import type { JointLimit, JointMotor } from '../model/contactModel.js';
import type { ConstraintSystem } from '../assembly/constraintSystem.js';
import { UnilateralRows, ROW_LIMIT, ROW_MOTOR } from './rows.js';

export interface JointRowSettings {
  readonly erp: number;
  readonly margin: number;
  readonly restitutionThreshold: number;
}

export class JointRowBuilder {
  private readonly row = new Float64Array(12);
  private readonly limits: readonly JointLimit[];
  private readonly motors: readonly JointMotor[];

  constructor(model: Model, private readonly cs: ConstraintSystem, private readonly settings: JointRowSettings) {
    this.limits = model.limits;
    this.motors = model.motors;
  }

  /** appends the rows of the limits within reach, then one row per motor */
  build(rows: UnilateralRows, q: Float64Array, u: Float64Array, h: number): void {
    for (let i = 0; i < this.limits.length; i++) this.limitRows(rows, i, q, u, h);
    for (let i = 0; i < this.motors.length; i++) this.motorRow(rows, i, q, u, h);
  }

  /** the rows of limit i whose bound is within reach */
  private limitRows(rows: UnilateralRows, i: number, q: Float64Array, u: Float64Array, h: number): void {
    const L = this.limits[i]!, row = this.row;
    const c = this.cs.coordinateRow(row, L.constraint, L.coordinate, q, u);
    if (Number.isNaN(c)) return;
    const rate = this.rate(row, L.constraint, u), reach = this.settings.margin + 2 * h * Math.abs(rate);
    if (c - L.lower <= reach) this.limitRow(rows, i, 1, c - L.lower, rate, h);
    if (L.upper - c <= reach) this.limitRow(rows, i, -1, L.upper - c, -rate, h);
  }

  /** a limit row with sign s (+1 lower, −1 upper), gap φ and closing rate v = s·ċ */
  private limitRow(rows: UnilateralRows, i: number, s: number, phi: number, v: number, h: number): void {
    const L = this.limits[i]!, r = rows.add(ROW_LIMIT, this.sideA(L.constraint), this.sideB(L.constraint), 0, 0, Infinity, i);
    for (let k = 0; k < 12; k++) rows.J[12 * r + k] = s * this.row[k]!;
    rows.dir[3 * r] = s;
    let b: number;
    if (L.compliance > 0) {
      const gamma = 1 / (0.5 + L.damping / h);
      rows.reg[r] = (gamma * L.compliance) / (h * h);
      b = (gamma * phi) / h;
    } else b = phi >= 0 ? phi / h : (this.settings.erp * phi) / h;
    if (L.restitution > 0 && v < -this.settings.restitutionThreshold && phi + h * v <= 0) b = Math.min(b, L.restitution * v);
    rows.b[r] = b;
  }

  /** the box row of motor i */
  private motorRow(rows: UnilateralRows, i: number, q: Float64Array, u: Float64Array, h: number): void {
    const M = this.motors[i]!, row = this.row;
    const c = this.cs.coordinateRow(row, M.constraint, M.coordinate, q, u);
    if (Number.isNaN(c)) return;
    const target = M.mode === 'velocity' ? M.target : (M.target - c) / (M.time ?? h), f = h * M.maxForce;
    const r = rows.add(ROW_MOTOR, this.sideA(M.constraint), this.sideB(M.constraint), -target, -f, f, i);
    for (let k = 0; k < 12; k++) rows.J[12 * r + k] = row[k]!;
  }

  /** ċ = J_c u for the row in `row` */
  private rate(row: Float64Array, ci: number, u: Float64Array): number {
    const A = this.sideA(ci), B = this.sideB(ci), uo = this.cs.model.components;
    let s = 0;
    if (A >= 0) { const o = uo[A]!.uOffset; for (let k = 0; k < 6; k++) s += row[k]! * u[o + k]!; }
    if (B >= 0) { const o = uo[B]!.uOffset; for (let k = 0; k < 6; k++) s += row[6 + k]! * u[o + k]!; }
    return s;
  }

  private sideA(ci: number): number { return this.cs.jointSides[2 * ci]!; }
  private sideB(ci: number): number { return this.cs.jointSides[2 * ci + 1]!; }
}
