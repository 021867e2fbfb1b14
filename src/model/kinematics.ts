/**
 * Per-evaluation kinematic cache of the rigid bodies: rotation R_WB, the centre of mass
 * offset c_W = R_WB c_B and the world inertia about the centre of mass J_W = R_WB J_B R_WBᵀ.
 * Also the evaluation of point positions and velocities. Owned by one simulation.
 *
 * Freshness: `qSeen` holds, component by component, the positions the caches were computed at.
 * `update(q)` compares all of q with it (the step's path: O(nq), as the step's own work is);
 * `updateComponents(q, list)` compares only the listed components' entries (a readout's path:
 * O(1) per joint or spring). Both write qSeen and advance `generation` exactly when a compared
 * entry differs, and refresh the caches of the components they wrote. So, whatever path wrote
 * q (a step, a restore, a user writing the state's array in place), a consumer that updates the
 * components it reads before reading them sees caches computed from q's current values there;
 * no write path needs to announce itself.
 */
import type { Model } from './model.js';
import { type PointRef, POINT_PARTICLE, POINT_BODY } from './points.js';
import { quatToMat3 } from '../math/quat.js';
import { mul3, mulABt3 } from '../math/mat3.js';
import type { Vec3 } from '../math/vec3.js';

export class Kinematics {
  readonly R: Float64Array;      // (9 · nComponents) R_WB, row-major, for bodies (zeros for particles)
  readonly cW: Float64Array;     // (3 · nComponents) centre-of-mass offset in world axes
  private readonly jw: Float64Array;   // (9 · nComponents) storage of JW
  private inertiaFresh = false;        // jw belongs to the positions of the last update
  private readonly tmp = new Float64Array(9);
  private readonly Rb = new Float64Array(9);
  private readonly Jb = new Float64Array(9);
  private readonly qSeen: Float64Array;   // (nq) the positions of the last update
  private fresh = false;                  // qSeen holds the positions the caches were computed at

  private readonly bodyComp: Int32Array;  // (bodies) component index of each body
  private readonly bodyQ: Int32Array;     // (bodies) offset of each body in q
  private readonly comB: Float64Array;    // (3 · bodies) centre of mass in body axes
  private readonly JB: Float64Array[];    // (bodies) inertia about the centre of mass in body axes (3×3)
  private readonly JBd: Float64Array;     // (3 · bodies) its diagonal, read by the principal bodies' pass without touching JB's arrays
  private readonly principal: Uint8Array; // (bodies) 1 when J_B is diagonal (body axes are principal axes)
  private readonly centredAt: Uint8Array; // (nComponents) 1 for a body whose origin is its centre of mass
  private readonly compQ: Int32Array;     // (nComponents) offset of each component in q
  private readonly compNq: Int32Array;    // (nComponents) its number of position coordinates (3 or 7)
  private readonly compBody: Int32Array;  // (nComponents) its index among the bodies, −1 for a particle

  constructor(model: Model) {
    const n = model.components.length;
    this.qSeen = new Float64Array(model.nq);
    // the bodies' constant data, packed once
    const bodies = model.components.filter((c) => c.kind === 'body');
    this.bodyComp = Int32Array.from(bodies, (c) => c.index);
    this.bodyQ = Int32Array.from(bodies, (c) => c.qOffset);
    this.comB = new Float64Array(3 * bodies.length);
    bodies.forEach((c, k) => { if (c.kind === 'body') this.comB.set(c.com, 3 * k); });
    this.JB = bodies.map((c) => Float64Array.from(c.kind === 'body' ? c.inertia : []));
    this.centredAt = Uint8Array.from(model.components, (c) => (c.kind === 'body' && c.com[0] === 0 && c.com[1] === 0 && c.com[2] === 0 ? 1 : 0));
    this.JBd = Float64Array.from({ length: 3 * this.JB.length }, (_, i) => this.JB[Math.floor(i / 3)]![4 * (i % 3)] ?? 0);
    this.principal = Uint8Array.from(this.JB, (J) => (J[1] === 0 && J[2] === 0 && J[3] === 0 && J[5] === 0 && J[6] === 0 && J[7] === 0 ? 1 : 0));
    this.compQ = Int32Array.from(model.components, (c) => c.qOffset);
    this.compNq = Int32Array.from(model.components, (c) => (c.kind === 'body' ? 7 : 3));
    this.compBody = new Int32Array(n).fill(-1);
    bodies.forEach((c, k) => { this.compBody[c.index] = k; });
    this.R = new Float64Array(9 * n);
    this.cW = new Float64Array(3 * n);
    this.jw = new Float64Array(9 * n);
  }

  /**
   * Counts the updates (`update`, `updateComponents`) that changed q: a consumer that derives
   * data from (q, these caches) can skip recomputing while `generation` (and the Kinematics
   * object) is unchanged, provided it updated, before computing, the components it reads. Every
   * change of q reaches the constraints and forces through one of the two.
   */
  generation = 0;

  /**
   * Refreshes the body caches from positions q. Positions equal to those of the last update
   * (compared value by value, whatever array holds them) leave the caches and `generation` as
   * they are: one step binds the same positions several times.
   */
  update(q: Float64Array): void {
    const seen = this.qSeen, nq = seen.length;
    if (this.fresh) {
      let same = true;
      for (let i = 0; i < nq && same; i++) same = q[i] === seen[i];
      if (same) return;
    }
    for (let i = 0; i < nq; i++) seen[i] = q[i]!;
    this.fresh = true;
    this.generation++;
    this.inertiaFresh = false;
    // bodies only, from the packed body data (no component objects touched)
    this.bodyRotations(q, 0, this.bodyComp.length);
  }

  /**
   * Refreshes the caches of the listed components (indices into `model.components`; repeats are
   * harmless) from positions q, comparing only their entries of q with those of the last update:
   * a readout that reads these components alone checks O(its components) numbers, not all of q.
   * Unchanged entries leave everything as it is; a changed one rewrites the listed components'
   * entries of qSeen and their caches (J_W too when it is current) and advances `generation`,
   * so that every cache keyed on the generation recomputes. The other components keep caches
   * that match their own entries of qSeen, which the next `update` compares in full.
   */
  updateComponents(q: Float64Array, components: ArrayLike<number>): void {
    if (!this.fresh) { this.update(q); return; }
    const seen = this.qSeen, { compQ, compNq } = this;
    let same = true;
    for (let j = 0; j < components.length && same; j++) {
      const c = components[j]!, o = compQ[c]!, e = o + compNq[c]!;
      for (let i = o; i < e && same; i++) same = q[i] === seen[i];
    }
    if (same) return;
    this.generation++;
    for (let j = 0; j < components.length; j++) {
      const c = components[j]!, o = compQ[c]!, e = o + compNq[c]!, k = this.compBody[c]!;
      for (let i = o; i < e; i++) seen[i] = q[i]!;
      if (k < 0) continue;
      this.bodyRotations(q, k, k + 1);
      if (this.inertiaFresh) this.bodyInertias(k, k + 1);
    }
  }

  /** R_WB and c_W of bodies k0 … k1 − 1 (indices among the bodies) from q */
  private bodyRotations(q: Float64Array, k0: number, k1: number): void {
    const { bodyComp, bodyQ, comB, R, cW, Rb } = this;
    for (let k = k0; k < k1; k++) {
      const i = bodyComp[k]!, o = 9 * i;
      // R_WB into R at o (quatToMat3 reads q at the quaternion's offset)
      quatToMat3(Rb, q, bodyQ[k]! + 3);
      for (let t = 0; t < 9; t++) R[o + t] = Rb[t]!;
      const cx = comB[3 * k]!, cy = comB[3 * k + 1]!, cz = comB[3 * k + 2]!;
      for (let r = 0; r < 3; r++) cW[3 * i + r] = Rb[3 * r]! * cx + Rb[3 * r + 1]! * cy + Rb[3 * r + 2]! * cz;
    }
  }

  /**
   * (9 · nComponents) J_W = R_WB J_B R_WBᵀ, the inertia about the centre of mass in world axes
   * (zeros for particles), computed on first use after an update: the projection's line search
   * moves the positions several times per step and needs only R. Read it after `update`; the
   * array is the same object throughout, but its values are filled in on the first read after an
   * update, so keep the getter's result only until the next update.
   */
  get JW(): Float64Array {
    if (!this.inertiaFresh) this.worldInertia();
    return this.jw;
  }

  private worldInertia(): void {
    this.bodyInertias(0, this.bodyComp.length);
    this.inertiaFresh = true;
  }

  /** J_W of bodies k0 … k1 − 1 (indices among the bodies) from their R */
  private bodyInertias(k0: number, k1: number): void {
    const { bodyComp, JB, JBd, tmp, Jb, R, Rb, principal } = this, JW = this.jw;
    for (let k = k0; k < k1; k++) {
      const o = 9 * bodyComp[k]!;
      if (principal[k] === 1) {
        // J_W = Σ_k d_k r_k r_kᵀ over the columns r_k of R: each entry once, mirrored
        const d0 = JBd[3 * k]!, d1 = JBd[3 * k + 1]!, d2 = JBd[3 * k + 2]!;
        const a0 = R[o]!, a1 = R[o + 1]!, a2 = R[o + 2]!, b0 = R[o + 3]!, b1 = R[o + 4]!, b2 = R[o + 5]!, c0 = R[o + 6]!, c1 = R[o + 7]!, c2 = R[o + 8]!;
        const ta0 = a0 * d0, ta1 = a1 * d1, ta2 = a2 * d2, tb0 = b0 * d0, tb1 = b1 * d1, tb2 = b2 * d2;
        JW[o] = ta0 * a0 + ta1 * a1 + ta2 * a2;
        JW[o + 4] = tb0 * b0 + tb1 * b1 + tb2 * b2;
        JW[o + 8] = c0 * c0 * d0 + c1 * c1 * d1 + c2 * c2 * d2;
        JW[o + 1] = JW[o + 3] = ta0 * b0 + ta1 * b1 + ta2 * b2;
        JW[o + 2] = JW[o + 6] = ta0 * c0 + ta1 * c1 + ta2 * c2;
        JW[o + 5] = JW[o + 7] = tb0 * c0 + tb1 * c1 + tb2 * c2;
        continue;
      }
      for (let t = 0; t < 9; t++) Rb[t] = R[o + t]!;
      // J_W = R J_B Rᵀ, exactly symmetric (the product leaves a skew part of rounding size)
      mul3(tmp, Rb, JB[k]!);
      mulABt3(Jb, tmp, Rb);
      JW[o] = Jb[0]!; JW[o + 4] = Jb[4]!; JW[o + 8] = Jb[8]!;
      JW[o + 1] = JW[o + 3] = 0.5 * (Jb[1]! + Jb[3]!);
      JW[o + 2] = JW[o + 6] = 0.5 * (Jb[2]! + Jb[6]!);
      JW[o + 5] = JW[o + 7] = 0.5 * (Jb[5]! + Jb[7]!);
    }
  }

  /**
   * true for a body whose frame origin is its centre of mass: c_W is exactly zero, and the
   * inertial, gravity and mass terms that carry c drop out (their short forms use this)
   */
  centred(component: number): boolean { return this.centredAt[component] === 1; }

  /** out = world lever arm r = R_WB p_B of a body point (zero for other points) */
  leverArm(out: Vec3, p: PointRef): Vec3 {
    if (p.kind !== POINT_BODY) { out[0] = 0; out[1] = 0; out[2] = 0; return out; }
    const R = this.R, o = 9 * p.component, l = p.local;
    out[0] = R[o]! * l[0]! + R[o + 1]! * l[1]! + R[o + 2]! * l[2]!;
    out[1] = R[o + 3]! * l[0]! + R[o + 4]! * l[1]! + R[o + 5]! * l[2]!;
    out[2] = R[o + 6]! * l[0]! + R[o + 7]! * l[1]! + R[o + 8]! * l[2]!;
    return out;
  }

  /** out = world position of a point; r receives its lever arm */
  position(out: Vec3, p: PointRef, q: Float64Array, r: Vec3): Vec3 {
    if (p.kind === POINT_PARTICLE) {
      out[0] = q[p.qOffset]!; out[1] = q[p.qOffset + 1]!; out[2] = q[p.qOffset + 2]!;
      r[0] = 0; r[1] = 0; r[2] = 0;
    } else if (p.kind === POINT_BODY) {
      this.leverArm(r, p);
      out[0] = q[p.qOffset]! + r[0]!; out[1] = q[p.qOffset + 1]! + r[1]!; out[2] = q[p.qOffset + 2]! + r[2]!;
    } else {
      out[0] = p.local[0]!; out[1] = p.local[1]!; out[2] = p.local[2]!;
      r[0] = 0; r[1] = 0; r[2] = 0;
    }
    return out;
  }

  /** out = world velocity of a point with lever arm r: v + ω × r for body points */
  velocity(out: Vec3, p: PointRef, u: Float64Array, r: Vec3): Vec3 {
    if (p.kind === POINT_PARTICLE) {
      out[0] = u[p.uOffset]!; out[1] = u[p.uOffset + 1]!; out[2] = u[p.uOffset + 2]!;
    } else if (p.kind === POINT_BODY) {
      const o = p.uOffset, wx = u[o + 3]!, wy = u[o + 4]!, wz = u[o + 5]!;
      out[0] = u[o]! + wy * r[2]! - wz * r[1]!;
      out[1] = u[o + 1]! + wz * r[0]! - wx * r[2]!;
      out[2] = u[o + 2]! + wx * r[1]! - wy * r[0]!;
    } else {
      out[0] = 0; out[1] = 0; out[2] = 0;
    }
    return out;
  }
}
