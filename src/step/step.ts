/**
 * One step as its list of named stages (docs/ARCHITECTURE.md; MuJoCo's mj_step, Box2D v3's
 * stages):
 *
 *   1 drive        parametric components take their prescribed motion (none yet)
 *   2 attach       attached components follow their masters (none yet)
 *   3 collide      contacts of the model's shapes (src/collision) into a ContactSet, then the
 *                  unilateral and bounded rows of contacts, limits and motors (src/contact; the
 *                  unilateral part of stage 5, made once, at q_k), warm-started from the last
 *                  step's contacts with the same keys
 *   4-8 integrate  the integrator (src/integrators): forces, constraints, assemble (factor),
 *                  solve (step/solve.ts, the one velocity solve with the rows), advance
 *   9 stabilize    the projection onto the hard bilateral constraints (step/stabilize.ts), then
 *                  the one-sided rows on the final velocity (step/unilateralCorrection.ts)
 *  10 report       Simulation.stepOnce's: divergence checks, warnings, records (src/report); the
 *                  contacts' impulses are remembered for the next step's warm start
 *
 * The unilateral rows are made once per step at the start of the step (the contacts' points,
 * normals and gaps at q_k) and act in every velocity solve of the step.
 */
import type { State } from '../model/state.js';
import type { Workspace } from './workspace.js';
import type { Projection } from './stabilize.js';
import type { Collider } from '../collision/collide.js';
import { ContactSet } from '../contact/contactSet.js';
import { UnilateralRows, ROW_NORMAL } from '../contact/rows.js';
import type { ContactRowBuilder } from '../contact/contactRows.js';
import type { JointRowBuilder } from '../contact/jointRows.js';
import { ContactMemory } from '../contact/warmStart.js';
import { VelocitySolve, type StepContacts } from './solve.js';
import { UnilateralCorrection } from './unilateralCorrection.js';
import { ModelError } from '../model/errors.js';
import { NOT_RK4 } from '../model/contactModel.js';

export interface StepperParts {
  readonly integrate: (st: State, h: number) => void;
  readonly projection: Projection;
  readonly collider: Collider | null;
  readonly contactRows: ContactRowBuilder | null;
  readonly jointRows: JointRowBuilder | null;
  /** rk4: no velocity solve takes the rows, so a contact fails the step (a ModelError naming it) */
  readonly refuseContacts?: boolean;
}

export class Stepper implements StepContacts {
  /** this step's contacts (stage 3) */
  readonly contacts = new ContactSet();
  /** this step's unilateral and bounded rows (stage 5) */
  readonly rows = new UnilateralRows();
  /** the contacts' impulses carried from step to step (warm starts) */
  readonly memory = new ContactMemory();
  /** (contacts) each contact's normal row this step */
  normalRow = new Int32Array(16);
  /** (nq) the positions the rows were made at */
  readonly q: Float64Array;
  private readonly hasRows: boolean;
  readonly solver: VelocitySolve | null = null;
  /** the one-sided rows after the projection (null without rows or without a projection) */
  readonly correction: UnilateralCorrection | null = null;

  constructor(private readonly ws: Workspace, private readonly parts: StepperParts) {
    this.hasRows = (parts.collider !== null && !parts.refuseContacts) || parts.jointRows !== null;
    this.q = new Float64Array(ws.model.nq);
    if (this.hasRows) {
      this.solver = new VelocitySolve(ws, ws.model.contact, this);
      ws.unilateral = { rows: this.rows, solve: this.solver };
      if (UnilateralCorrection.applies(ws)) this.correction = new UnilateralCorrection(ws);
    }
  }

  get warm(): Float64Array { return this.memory.warm; }

  /** stages 1-9 of one step of size h; the state is advanced in place */
  step(st: State, h: number): void {
    this.drive();
    this.attach();
    this.collide(st.q, st.u, h);
    this.unilateralRows(st.q, st.u, h);
    this.parts.integrate(st, h);
    this.stabilize(st, h);
    this.remember();
  }

  /** 1. drive: no parametric components yet */
  private drive(): void {}

  /** 2. attach: no attachments yet */
  private attach(): void {}

  /** 3. collide: the contacts at the start of the step, within the margin widened for fast shapes */
  private collide(q: Float64Array, u: Float64Array, h: number): void {
    this.contacts.count = 0;
    const collider = this.parts.collider;
    if (!collider) return;
    collider.shapes.margin = Math.max(this.ws.model.contact.margin, h * this.fastestShape(collider, u));
    collider.collide(q, this.contacts);
    if (this.parts.refuseContacts) this.refuse();
  }

  /**
   * the largest speed of a shape's point, |v| + |ω| ρ (ρ its bounding radius), m/s: the margin is
   * at least one step of it, so a contact is known, and its row can stop the shape, before the
   * shape would pass into another within the step (a speculative contact)
   */
  private fastestShape(collider: Collider, u: Float64Array): number {
    const t = collider.shapes, uo = this.ws.uOffsets, body = this.ws.bodyFlags;
    let vmax = 0;
    for (let i = 0; i < t.count; i++) {
      const c = t.component[i]!;
      if (c < 0) continue;
      const o = uo[c]!, v = Math.hypot(u[o]!, u[o + 1]!, u[o + 2]!);
      const w = body[c] ? Math.hypot(u[o + 3]!, u[o + 4]!, u[o + 5]!) * t.bound[i]! : 0;
      if (v + w > vmax) vmax = v + w;
    }
    return vmax;
  }

  /** under rk4: the first contact within the margin fails the step */
  private refuse(): void {
    const c = this.contacts;
    if (c.count === 0) return;
    const name = (i: number) => this.ws.model.shapes[i]!.name;
    throw new ModelError('integrator', `rk4 cannot take contacts: ${name(c.shapeA[0]!)} and ${name(c.shapeB[0]!)}`
      + ` come within the contact margin (use ${NOT_RK4}, or "collide": false on shapes that only give inertia)`);
  }

  /** 5 (unilateral part): contact rows warm-started from the last step, then limit and motor rows */
  private unilateralRows(q: Float64Array, u: Float64Array, h: number): void {
    if (!this.hasRows) return;
    this.q.set(q);
    this.rows.count = 0;
    if (this.parts.contactRows) {
      this.parts.contactRows.build(this.rows, this.contacts, q, u, h);
      this.findNormalRows();
      this.memory.recall(this.contacts);
      this.memory.seedRows(this.rows, this.normalRow, this.contacts.count);
    }
    if (this.parts.jointRows) this.parts.jointRows.build(this.rows, q, u, h);
  }

  /** normalRow[c] ← contact c's normal row */
  private findNormalRows(): void {
    const rows = this.rows, n = this.contacts.count;
    if (this.normalRow.length < n) this.normalRow = new Int32Array(Math.max(n, 2 * this.normalRow.length));
    for (let i = 0; i < rows.count; i++) if (rows.kind[i] === ROW_NORMAL) this.normalRow[rows.owner[i]!] = i;
  }

  /** 9. stabilize: project onto the hard bilateral constraints, then the one-sided rows again */
  private stabilize(st: State, h: number): void {
    this.solver?.correctPositions(st.q);
    this.parts.projection.run(st.q, st.u, h);
    if (this.correction !== null && this.rows.count > 0) this.correction.run(this.rows, st.u);
  }

  /** the contacts' impulses for the next step's warm start */
  private remember(): void {
    if (this.parts.contactRows) this.memory.store(this.contacts, this.rows, this.normalRow);
  }
}
