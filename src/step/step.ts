/**
 * One step as its list of named stages (docs/ARCHITECTURE.md; MuJoCo's mj_step, Box2D v3's
 * stages):
 *
 *   1 drive        parametric components take their prescribed motion (none yet)
 *   2 attach       attached components follow their masters (none yet)
 *   3 collide      contacts of the model's shapes (src/collision) into a ContactSet
 *   5 rows         the unilateral and bounded rows of contacts, limits and motors (src/contact)
 *   4-8 integrate  the integrator (src/integrators): forces, constraints, assemble (factor),
 *                  solve (step/solve.ts, the one velocity solve with the rows), advance
 *   9 stabilize    the projection onto the hard bilateral constraints (step/stabilize.ts)
 *  10 report       the simulation's: divergence checks, warnings, records (src/report)
 *
 * The unilateral rows are made once per step at the start of the step (the contacts' points,
 * normals and gaps at q_k) and act in every velocity solve of the step.
 */
import type { State } from '../model/state.js';
import type { Workspace } from './workspace.js';
import type { Projection } from './stabilize.js';
import { ContactSet } from '../contact/contactSet.js';
import { UnilateralRows } from '../contact/rows.js';
import { ContactRowBuilder } from '../contact/contactRows.js';
import { VelocitySolve, type ContactSolverSettings } from './solve.js';

/** the collide stage as the stepper sees it */
export interface CollideStage {
  /** out ← the contacts at positions q (out.count reset first) */
  collide(q: Float64Array, out: ContactSet): void;
}

/** the rows of joint limits and motors, as the stepper sees them */
export interface JointRowStage {
  /** appends the rows of the limits within reach and of every motor at (q, u) */
  build(rows: UnilateralRows, q: Float64Array, u: Float64Array, h: number): void;
}

export interface StepperParts {
  readonly integrate: (st: State, h: number) => void;
  readonly projection: Projection;
  readonly collider: CollideStage | null;
  readonly jointRows: JointRowStage | null;
  readonly contactRows: ContactRowBuilder | null;
  readonly solver: ContactSolverSettings;
}

export class Stepper {
  /** this step's contacts (stage 3) */
  readonly contacts = new ContactSet();
  /** this step's unilateral and bounded rows (stage 5) */
  readonly rows = new UnilateralRows();
  private readonly hasRows: boolean;

  constructor(private readonly ws: Workspace, private readonly parts: StepperParts) {
    this.hasRows = parts.collider !== null || parts.jointRows !== null;
    if (this.hasRows) ws.unilateral = { rows: this.rows, solve: new VelocitySolve(ws, parts.solver) };
  }

  /** stages 1-9 of one step of size h; the state is advanced in place */
  step(st: State, h: number): void {
    this.drive();
    this.attach();
    this.collide(st.q);
    this.unilateralRows(st.q, st.u, h);
    this.parts.integrate(st, h);
    this.stabilize(st, h);
  }

  /** 1. drive: no parametric components yet */
  private drive(): void {}

  /** 2. attach: no attachments yet */
  private attach(): void {}

  /** 3. collide: the contacts at the start of the step */
  private collide(q: Float64Array): void {
    this.contacts.count = 0;
    if (this.parts.collider) this.parts.collider.collide(q, this.contacts);
  }

  /** 5 (unilateral part): contact rows, then limit and motor rows */
  private unilateralRows(q: Float64Array, u: Float64Array, h: number): void {
    if (!this.hasRows) return;
    this.rows.count = 0;
    if (this.parts.contactRows) this.parts.contactRows.build(this.rows, this.contacts, q, u, h);
    if (this.parts.jointRows) this.parts.jointRows.build(this.rows, q, u, h);
  }

  /** 9. stabilize: project onto the hard bilateral constraints */
  private stabilize(st: State, h: number): void {
    this.parts.projection.run(st.q, st.u, h);
  }

  /** the last velocity solve's report with rows, or null */
  get contactReport() { return this.ws.unilateral?.solve.report ?? null; }
}
