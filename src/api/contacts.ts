/**
 * Contact readouts of the last step (docs/contact.md, "Reported results"): each contact's shapes,
 * point, normal, gap and forces in N (the impulses over h), and the solve's report.
 */
import type { Model } from '../model/model.js';
import type { Stepper } from '../step/step.js';
import { ROW_FRICTION, ROW_LIMIT, ROW_MOTOR } from '../contact/rows.js';

import type { Vec3Tuple } from '../model/model.js';

/** one contact of the last step */
export interface ContactReport {
  /** side A's shape ("world.shapes[0]", "body:<name>", "particle:<name>") */
  shapeA: string;
  /** side B's shape; the normal points from A to B */
  shapeB: string;
  /** the feature of shape A (a box's vertex, a capsule's end …; 0 for smooth shapes) */
  featureA: number;
  /** the feature of shape B */
  featureB: number;
  /** the point midway between the surfaces at the start of the step, world, m */
  point: Vec3Tuple;
  /** unit normal from A to B, world */
  normal: Vec3Tuple;
  /** the gap at the start of the step, m (< 0: penetration) */
  gap: number;
  /** the normal force on B over the step, N (≥ 0) */
  normalForce: number;
  /** the friction force on B over the step, world, N */
  frictionForce: Vec3Tuple;
}

/** the contacts of the last step with their forces (h: the step size) */
export function contactReports(model: Model, st: Stepper, h: number): ContactReport[] {
  const c = st.contacts, rows = st.rows, out: ContactReport[] = [];
  for (let k = 0; k < c.count; k++) {
    const i = st.normalRow[k]!, f: Vec3Tuple = [0, 0, 0];
    // the friction rows of this contact follow its normal row
    for (let j = i + 1; j < rows.count && rows.kind[j] === ROW_FRICTION && rows.normalOf[j] === i; j++) {
      for (let x = 0; x < 3; x++) f[x] += (rows.z[j]! * rows.dir[3 * j + x]!) / h;
    }
    out.push({
      shapeA: model.shapes[c.shapeA[k]!]!.name, shapeB: model.shapes[c.shapeB[k]!]!.name,
      featureA: c.featureA[k]!, featureB: c.featureB[k]!,
      point: [c.p_W[3 * k]!, c.p_W[3 * k + 1]!, c.p_W[3 * k + 2]!],
      normal: [c.n_W[3 * k]!, c.n_W[3 * k + 1]!, c.n_W[3 * k + 2]!],
      gap: c.gap[k]!, normalForce: rows.z[i]! / h, frictionForce: f,
    });
  }
  return out;
}

/**
 * the force or torque (N or N·m) of joint ci's limit rows (`kind` ROW_LIMIT: positive pushes the
 * coordinate up, away from its lower bound) or motor rows (ROW_MOTOR) on coordinate k over the last step
 */
export function jointRowForce(model: Model, st: Stepper, h: number, ci: number, k: number, kind: 'limit' | 'motor'): number {
  const rows = st.rows, code = kind === 'limit' ? ROW_LIMIT : ROW_MOTOR, list = kind === 'limit' ? model.limits : model.motors;
  let f = 0;
  for (let i = 0; i < rows.count; i++) {
    if (rows.kind[i] !== code) continue;
    const e = list[rows.owner[i]!]!;
    if (e.constraint !== ci || e.coordinate !== k) continue;
    // an upper limit's row is −J_c: its impulse pushes the coordinate down
    const sign = kind === 'limit' ? rows.dir[3 * i]! : 1;
    f += (sign * rows.z[i]!) / h;
  }
  return f;
}
