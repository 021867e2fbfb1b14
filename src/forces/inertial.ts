/**
 * Gyroscopic and fictitious forces of rigid bodies in the velocity convention u = (v, ω):
 * v the world velocity of the frame origin, ω world (docs/ARCHITECTURE.md). With the spatial
 * inertia of theory.md §2 rotated to world (c = R c_B, J = R J_B Rᵀ about the centre of mass), the
 * Newton-Euler equations (theory.md §4) read M(q) u̇ = f_ext + f_in, with
 *
 *   a = ω × c,  b = ω × a
 *   f_in = ( −m b ,  −ω × (J ω) − m c × b )
 *
 * Exact Jacobians (world-left rotation variations δc = −[c]δθ, δJ = [δθ]J − J[δθ]):
 *   ∂f_in/∂ω = ( m([ω][c] + [a]) ;  −[ω]J + [Jω] + m[c]([ω][c] + [a]) )
 *   ∂f_in/∂θ = ( m[ω][ω][c] ;  −[ω](J[ω] − [Jω]) − m([b][c] − [c][ω][ω][c]) )
 * Both are non-symmetric (theory.md §13). M(q) itself is frozen at the start of each step.
 * Implicit Euler freezes J in the gyroscopic torque too (`frozenInertia`: K without the term
 * −[ω](J[ω] − [Jω]) of J turning, δJ = [δθ]J − J[δθ]); for a body whose origin is its centre of
 * mass its rotational step is then implicit Euler of Euler's equations in the body axes of q_k
 * (the step turns the body about ω⁺, which leaves ω⁺ in place). With that term but M frozen, a
 * symmetric thin body turning at ω_t about a transverse axis had its spin s about the axis of the
 * small moment I_s multiplied by 1 − (hω_t)²(I_t − I_s)/I_s per step instead of kept: beyond
 * (hω_t)²(I_t − I_s)/I_s = 2 it grew, alternating in sign (the chains' links at h = 1/60: from
 * ω_t = 24.5 rad/s). The terms of c turning stay: without them the torque-free body of
 * test/numerics/torqueFree.test.ts (offset centre of mass) rose above its initial energy.
 * A body whose origin is its centre of mass (c = 0, so a = b = 0) keeps only
 *   ∂f_in/∂ω = ( 0 ;  −[ω]J + [Jω] ),   ∂f_in/∂θ = ( 0 ;  −[ω]J[ω] + [ω][Jω] ),
 * evaluated entry by entry (`addCentred`): [ω][v] = v ωᵀ − (ω·v) I, and row i of P[ω] is P_i × ω.
 */
import type { ForceEffector, ForceContext } from './force.js';
import type { Component } from '../model/model.js';
import type { BlockPattern, BlockMatrix } from '../assembly/blockSparse.js';
import { skew, mul3, mulVec3 } from '../math/mat3.js';
import { cross3 } from '../math/vec3.js';
import { ComponentTable } from './componentTable.js';

/** one workspace's scratch of InertialForces: diagonal slots and one body's vectors and 3×3 blocks */
export class InertialScratch {
  /** (nComponents) diagonal slot of each dynamic body, −1 otherwise (`setup`) */
  slots: Int32Array = new Int32Array(0);
  readonly c = new Float64Array(3);
  readonly w = new Float64Array(3);
  readonly a = new Float64Array(3);
  readonly b = new Float64Array(3);
  readonly Jw = new Float64Array(3);
  readonly t = new Float64Array(3);
  readonly J = new Float64Array(9);
  readonly Sw = new Float64Array(9);
  readonly Sc = new Float64Array(9);
  readonly Sa = new Float64Array(9);
  readonly Sb = new Float64Array(9);
  readonly SJw = new Float64Array(9);
  readonly T1 = new Float64Array(9);
  readonly T2 = new Float64Array(9);
  readonly X = new Float64Array(9);
  readonly Y = new Float64Array(9);   // a block scaled by m before add3 (scale 1 is a small integer, so the call boxes no double)
  /**
   * leave the part of ∂f_in/∂θ that comes from J turning with the body out of K
   * (ForceSystem.jacobians): implicit Euler keeps M, and so J, frozen at q_k (see above)
   */
  frozenInertia = false;
}

export class InertialForces implements ForceEffector<InertialScratch> {
  readonly name = 'inertial (gyroscopic and fictitious) forces';
  private readonly table: ComponentTable;

  constructor(private readonly comps: readonly Component[]) {
    this.table = new ComponentTable(comps);
  }

  createScratch(): InertialScratch { return new InertialScratch(); }

  setup(pattern: BlockPattern, st: InertialScratch): void {
    st.slots = Int32Array.from(this.comps.map((c) => (c.kind === 'body' && c.block >= 0 ? pattern.couple(c.block, c.block) : -1)));
  }

  /** loads c, ω, J, a = ω×c, b = ω×a, Jω for body i */
  private load(ctx: ForceContext, i: number, uo: number, st: InertialScratch): void {
    const k = ctx.kin;
    st.c[0] = k.cW[3 * i]!; st.c[1] = k.cW[3 * i + 1]!; st.c[2] = k.cW[3 * i + 2]!;
    st.w[0] = ctx.u[uo + 3]!; st.w[1] = ctx.u[uo + 4]!; st.w[2] = ctx.u[uo + 5]!;
    const JW = k.JW;
    for (let r = 0; r < 9; r++) st.J[r] = JW[9 * i + r]!;
    cross3(st.a, st.w, st.c);
    cross3(st.b, st.w, st.a);
    mulVec3(st.Jw, st.J, st.w);
  }

  addForces(ctx: ForceContext, f: Float64Array, st: InertialScratch): void {
    const T = this.table;
    for (let k = 0; k < T.count; k++) {
      if (T.body[k] !== 1 || T.dynamic[k] !== 1) continue;
      const o = T.uOffset[k]!, m = T.mass[k]!;
      this.load(ctx, T.index[k]!, o, st);
      // linear: −m b
      f[o] = f[o]! - m * st.b[0]!; f[o + 1] = f[o + 1]! - m * st.b[1]!; f[o + 2] = f[o + 2]! - m * st.b[2]!;
      // angular: −ω × Jω − m c × b
      cross3(st.t, st.w, st.Jw);
      f[o + 3] = f[o + 3]! - st.t[0]!; f[o + 4] = f[o + 4]! - st.t[1]!; f[o + 5] = f[o + 5]! - st.t[2]!;
      cross3(st.t, st.c, st.b);
      f[o + 3] = f[o + 3]! - m * st.t[0]!; f[o + 4] = f[o + 4]! - m * st.t[1]!; f[o + 5] = f[o + 5]! - m * st.t[2]!;
    }
  }

  addJacobians(ctx: ForceContext, K: BlockMatrix, D: BlockMatrix, st: InertialScratch): void {
    const T = this.table;
    for (let k = 0; k < T.count; k++) {
      const i = T.index[k]!, s = st.slots[i]!;
      if (T.body[k] !== 1 || s < 0) continue;
      const m = T.mass[k]!;
      this.load(ctx, i, T.uOffset[k]!, st);
      if (ctx.kin.centred(i)) { this.addCentred(s, K, D, st); continue; }
      skew(st.Sw, st.w); skew(st.Sc, st.c); skew(st.Sa, st.a); skew(st.Sb, st.b); skew(st.SJw, st.Jw);
      // X = [ω][c] + [a]
      mul3(st.X, st.Sw, st.Sc);
      for (let r = 0; r < 9; r++) st.X[r] = st.X[r]! + st.Sa[r]!;
      // D_vω = m X
      for (let r = 0; r < 9; r++) st.Y[r] = m * st.X[r]!;
      D.add3(s, 0, 3, st.Y, 1);
      // D_ωω = −[ω]J + [Jω] + m[c]X
      mul3(st.T1, st.Sw, st.J);
      mul3(st.T2, st.Sc, st.X);
      for (let r = 0; r < 9; r++) st.T1[r] = -st.T1[r]! + st.SJw[r]! + m * st.T2[r]!;
      D.add3(s, 3, 3, st.T1, 1);
      // K_vθ = m [ω][ω][c]
      mul3(st.T1, st.Sw, st.Sw);
      mul3(st.T2, st.T1, st.Sc);          // T2 = [ω][ω][c]
      for (let r = 0; r < 9; r++) st.Y[r] = m * st.T2[r]!;
      K.add3(s, 0, 3, st.Y, 1);
      // K_ωθ = −[ω](J[ω] − [Jω]) − m([b][c] − [c][ω][ω][c]), its first term (J turning) left out
      // with frozenInertia
      mul3(st.T1, st.Sc, st.T2);           // T1 = [c][ω][ω][c]
      mul3(st.X, st.Sb, st.Sc);            // X = [b][c]
      for (let r = 0; r < 9; r++) st.X[r] = -m * (st.X[r]! - st.T1[r]!);
      if (!st.frozenInertia) {
        mul3(st.T1, st.J, st.Sw);
        for (let r = 0; r < 9; r++) st.T1[r] = st.T1[r]! - st.SJw[r]!;
        mul3(st.T2, st.Sw, st.T1);         // T2 = [ω](J[ω] − [Jω])
        for (let r = 0; r < 9; r++) st.X[r] = st.X[r]! - st.T2[r]!;
      }
      K.add3(s, 3, 3, st.X, 1);
    }
  }

  /** the Jacobian blocks of a body with c = 0 (after `load`): D_ωω = −P + [Jω], K_ωθ = −P[ω] + [ω][Jω], P = [ω]J */
  private addCentred(s: number, K: BlockMatrix, D: BlockMatrix, st: InertialScratch): void {
    const w = st.w, J = st.J, v = st.Jw, T = st.T1, X = st.X;
    const wx = w[0]!, wy = w[1]!, wz = w[2]!, vx = v[0]!, vy = v[1]!, vz = v[2]!, wv = wx * vx + wy * vy + wz * vz;
    for (let j = 0; j < 3; j++) {
      // column j of P = ω × (column j of J)
      const a0 = J[j]!, a1 = J[3 + j]!, a2 = J[6 + j]!;
      T[j] = -(wy * a2 - wz * a1); T[3 + j] = -(wz * a0 - wx * a2); T[6 + j] = -(wx * a1 - wy * a0);
    }
    // X = −P[ω] (row i: −P_i × ω, with −P in T), then + v ωᵀ − (ω·v) I
    for (let i = 0; i < 3; i++) {
      const p0 = T[3 * i]!, p1 = T[3 * i + 1]!, p2 = T[3 * i + 2]!, vi = i === 0 ? vx : i === 1 ? vy : vz;
      X[3 * i] = p1 * wz - p2 * wy + vi * wx;
      X[3 * i + 1] = p2 * wx - p0 * wz + vi * wy;
      X[3 * i + 2] = p0 * wy - p1 * wx + vi * wz;
      X[4 * i] = X[4 * i]! - wv;
    }
    // T = −P + [Jω]
    T[1] = T[1]! - vz; T[2] = T[2]! + vy; T[3] = T[3]! + vz; T[5] = T[5]! - vx; T[6] = T[6]! - vy; T[7] = T[7]! + vx;
    D.add3(s, 3, 3, T, 1);
    if (!st.frozenInertia) K.add3(s, 3, 3, X, 1);
  }

  potentialEnergy(): number { return 0; }
}
