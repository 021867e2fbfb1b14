/**
 * Multi-point (via-point) springs (theory.md §10), and axial springs as the two-point case.
 * Points x_0 … x_n, segments i = 0 … n−1 with
 *
 *   u_i = (x_{i+1} − x_i)/l_i,   P_i = I − u_i u_iᵀ,   L = Σ_{i∈A} l_i,   L̇ = Σ_{i∈A} (ẋ_{i+1} − ẋ_i)ᵀ u_i
 *
 * over the active segments A (passive segments carry the tension but add no length). The
 * tension F(L, L̇) comes from an `AxialMaterial`. Forces f_i = F v_i with v_0 = u_0,
 * v_n = −u_{n−1}, v_i = u_i − u_{i−1}. With g_i = ∂L/∂x_i = ∂L̇/∂ẋ_i = [i−1∈A] u_{i−1} − [i∈A] u_i
 * (segments −1 and n are fictitious and passive) and y_i = (F_L̇ / l_i)(ẋ_{i+1} − ẋ_i)ᵀ P_i for
 * i ∈ A (0 otherwise):
 *
 *   ∂F/∂x_j = F_L g_j + y_{j−1} − y_j,            ∂F/∂ẋ_j = F_L̇ g_j
 *   ∂f_i/∂x_j = v_i ∂F/∂x_j + F (∂u_i/∂x_j − ∂u_{i−1}/∂x_j),   ∂u_i/∂x_i = −P_i/l_i, ∂u_i/∂x_{i+1} = P_i/l_i
 *   ∂f_i/∂ẋ_j = F_L̇ v_i g_jᵀ                        (∂L̇/∂ẋ_j, not ∂L̇/∂ẋ_i)
 *
 * For n = 1 these are exactly the axial-spring Jacobians (theory.md §10):
 *   ∂f₁/∂x₁ = −F_l U_n − (F_l̇ / l) u (ẋ₂ − ẋ₁)ᵀ U_p − (F/l) U_p,   ∂f₁/∂ẋ₁ = −F_l̇ U_n.
 * The point Jacobians are mapped onto particles and bodies by pointMap.ts.
 */
import type { ForceEffector, ForceContext } from './force.js';
import type { BlockPattern, BlockMatrix } from '../assembly/blockSparse.js';
import type { PointRef } from '../model/points.js';
import type { AxialMaterial } from './materials.js';
import { ModelError } from '../model/errors.js';

/**
 * What a path (or axial) spring reads at one state of one simulation (`ForceSystem.springReadout`):
 * the caller allocates it (`ForceSystem.createSpringReadout`) and the readout fills it in.
 */
export interface SpringReadout {
  /** L, the length over the active segments (m) */
  length: number;
  /** L̇, its rate (m/s) */
  rate: number;
  /** the tension F(L, L̇) of the material (N; positive pulls the end points together) */
  tension: number;
  /** the length of every segment, active or passive, in path order (m); one entry per segment */
  segments: Float64Array;
}

/** below this segment length (m) the direction is undefined (see addProjection) */
const MIN_SEGMENT = 1e-12;

/**
 * One workspace's scratch of a PathSpring (`createScratch`): its pattern slots and what one
 * evaluation computes, which the Jacobians and readouts read after it (sizes in comments).
 */
export class PathSpringScratch {
  /** ((n+1)²) slot of point pair (i, j), −1 if either is not solved (`setup`) */
  slots: Int32Array = new Int32Array(0);
  readonly X: Float64Array;      // (3(n+1)) positions
  readonly Rl: Float64Array;     // (3(n+1)) lever arms
  readonly V: Float64Array;      // (3(n+1)) velocities
  readonly W: Float64Array;      // (3(n+1)) angular velocity of each point's body
  readonly U: Float64Array;      // (3n) unit segment directions
  readonly l: Float64Array;      // (n) segment lengths
  readonly Vv: Float64Array;     // (3(n+1)) v_i
  readonly G: Float64Array;      // (3(n+1)) g_i
  readonly Y: Float64Array;      // (3n) y_i
  readonly mat = new Float64Array(3);   // [F, F_L, F_L̇]
  /** L and L̇ of the last evaluation */
  L = 0;
  Ld = 0;
  readonly A = new Float64Array(9);
  readonly B = new Float64Array(9);
  readonly w3 = new Float64Array(3);
  readonly r3 = new Float64Array(3);
  readonly p3 = new Float64Array(3);
  readonly f3 = new Float64Array(3);

  /** n: the number of segments */
  constructor(n: number) {
    this.X = new Float64Array(3 * (n + 1)); this.Rl = new Float64Array(3 * (n + 1));
    this.V = new Float64Array(3 * (n + 1)); this.W = new Float64Array(3 * (n + 1));
    this.U = new Float64Array(3 * n); this.l = new Float64Array(n);
    this.Vv = new Float64Array(3 * (n + 1)); this.G = new Float64Array(3 * (n + 1)); this.Y = new Float64Array(3 * n);
  }
}

export class PathSpring implements ForceEffector<PathSpringScratch> {
  readonly n: number;                    // number of segments
  private readonly active: Uint8Array;   // (n) 1 if the segment adds to L

  constructor(
    readonly name: string,
    readonly points: readonly PointRef[],
    readonly material: AxialMaterial,
    readonly restLength: number,
    active?: readonly boolean[],
  ) {
    const n = points.length - 1;
    const path = `spring "${name}"`;
    if (n < 1) throw new ModelError(`${path}.points`, 'a spring needs at least two points');
    if (active && active.length !== n) throw new ModelError(`${path}.active`, `${active.length} flags for ${n} segments`);
    if (active && !active.some((a) => a)) throw new ModelError(`${path}.active`, 'at least one segment must be active');
    if (!(restLength >= 0) || !Number.isFinite(restLength)) throw new ModelError(`${path}.restLength`, `must be finite and non-negative (got ${restLength})`);
    if (material.needsRestLength && !(restLength > 0)) throw new ModelError(`${path}.restLength`, `the ${material.kind} material needs a positive rest length`);
    this.n = n;
    this.active = Uint8Array.from({ length: n }, (_, i) => (active ? (active[i] ? 1 : 0) : 1));
  }

  createScratch(): PathSpringScratch { return new PathSpringScratch(this.n); }

  setup(pattern: BlockPattern, sc: PathSpringScratch): void {
    const m = this.n + 1;
    sc.slots = new Int32Array(m * m).fill(-1);
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) {
      const bi = this.points[i]!.block, bj = this.points[j]!.block;
      if (bi >= 0 && bj >= 0) sc.slots[i * m + j] = pattern.couple(bi, bj);
    }
  }

  /** evaluates positions, directions, L, L̇, F and the v_i, g_i, y_i of theory.md §10 */
  private evaluate(ctx: ForceContext, sc: PathSpringScratch): void {
    const n = this.n, X = sc.X, V = sc.V, U = sc.U, kin = ctx.kin;
    // point positions, lever arms, velocities, and the ω of each point's body
    for (let i = 0; i <= n; i++) {
      const p = this.points[i]!;
      kin.position(sc.p3, p, ctx.q, sc.r3);
      kin.velocity(sc.f3, p, ctx.u, sc.r3);
      for (let k = 0; k < 3; k++) { X[3 * i + k] = sc.p3[k]!; sc.Rl[3 * i + k] = sc.r3[k]!; V[3 * i + k] = sc.f3[k]!; }
      if (p.kind === 2) for (let k = 0; k < 3; k++) sc.W[3 * i + k] = ctx.u[p.uOffset + 3 + k]!;
    }
    // segment directions and lengths; L and L̇ over the active segments
    let L = 0, Ld = 0;
    for (let i = 0; i < n; i++) {
      const dx = X[3 * i + 3]! - X[3 * i]!, dy = X[3 * i + 4]! - X[3 * i + 1]!, dz = X[3 * i + 5]! - X[3 * i + 2]!;
      const li = Math.sqrt(dx * dx + dy * dy + dz * dz);
      sc.l[i] = li;
      const s = li > MIN_SEGMENT ? 1 / li : 0;
      U[3 * i] = dx * s; U[3 * i + 1] = dy * s; U[3 * i + 2] = dz * s;
      if (this.active[i]) {
        L += li;
        Ld += (V[3 * i + 3]! - V[3 * i]!) * U[3 * i]! + (V[3 * i + 4]! - V[3 * i + 1]!) * U[3 * i + 1]! + (V[3 * i + 5]! - V[3 * i + 2]!) * U[3 * i + 2]!;
      }
    }
    sc.L = L;
    sc.Ld = Ld;
    this.material.evaluate(sc.mat, L, Ld, this.restLength);
    const FLd = sc.mat[2]!;
    // v_i, g_i
    for (let i = 0; i <= n; i++) {
      for (let k = 0; k < 3; k++) {
        const ui = i < n ? U[3 * i + k]! : 0, um = i > 0 ? U[3 * i - 3 + k]! : 0;
        sc.Vv[3 * i + k] = ui - um;
        sc.G[3 * i + k] = (i > 0 && this.active[i - 1] ? um : 0) - (i < n && this.active[i] ? ui : 0);
      }
    }
    // y_i = (F_L̇/l_i)(ẋ_{i+1} − ẋ_i)ᵀ P_i = (F_L̇/l_i)(Δv − (Δv·u_i) u_i)
    for (let i = 0; i < n; i++) {
      if (!this.active[i] || FLd === 0 || !(sc.l[i]! > MIN_SEGMENT)) { sc.Y[3 * i] = 0; sc.Y[3 * i + 1] = 0; sc.Y[3 * i + 2] = 0; continue; }
      const ux = U[3 * i]!, uy = U[3 * i + 1]!, uz = U[3 * i + 2]!;
      const ax = V[3 * i + 3]! - V[3 * i]!, ay = V[3 * i + 4]! - V[3 * i + 1]!, az = V[3 * i + 5]! - V[3 * i + 2]!;
      const d = ax * ux + ay * uy + az * uz, s = FLd / sc.l[i]!;
      sc.Y[3 * i] = s * (ax - d * ux); sc.Y[3 * i + 1] = s * (ay - d * uy); sc.Y[3 * i + 2] = s * (az - d * uz);
    }
  }

  addForces(ctx: ForceContext, f: Float64Array, sc: PathSpringScratch): void {
    this.evaluate(ctx, sc);
    const F = sc.mat[0]!;
    for (let i = 0; i <= this.n; i++) {
      for (let k = 0; k < 3; k++) { sc.f3[k] = F * sc.Vv[3 * i + k]!; sc.r3[k] = sc.Rl[3 * i + k]!; }
      ctx.pm.addForce(f, this.points[i]!, sc.f3, sc.r3);
    }
  }

  /**
   * adds sgn·(F/l_s)·P_s to A (the F ∂u_s/∂x_j terms). A segment of zero length has no direction:
   * for a zero rest length its exact limit is the isotropic sgn·F_L·I (F/l → F_L, the stress form
   * of theory.md §10 with r = 0); otherwise the force direction is undefined and the term is left out.
   */
  private addProjection(sc: PathSpringScratch, A: Float64Array, s: number, sgn: number): void {
    const li = sc.l[s]!;
    if (!(li > MIN_SEGMENT)) {
      if (this.restLength === 0 && this.active[s]) { const k = sgn * sc.mat[1]!; A[0] = A[0]! + k; A[4] = A[4]! + k; A[8] = A[8]! + k; }
      return;
    }
    const ux = sc.U[3 * s]!, uy = sc.U[3 * s + 1]!, uz = sc.U[3 * s + 2]!, k = (sgn * sc.mat[0]!) / li;
    A[0] = A[0]! + k * (1 - ux * ux); A[1] = A[1]! - k * ux * uy; A[2] = A[2]! - k * ux * uz;
    A[3] = A[3]! - k * uy * ux; A[4] = A[4]! + k * (1 - uy * uy); A[5] = A[5]! - k * uy * uz;
    A[6] = A[6]! - k * uz * ux; A[7] = A[7]! - k * uz * uy; A[8] = A[8]! + k * (1 - uz * uz);
  }

  addJacobians(ctx: ForceContext, K: BlockMatrix, D: BlockMatrix, sc: PathSpringScratch): void {
    this.evaluate(ctx, sc);
    const n = this.n, m = n + 1, F = sc.mat[0]!, FL = sc.mat[1]!, FLd = sc.mat[2]!;
    for (let i = 0; i <= n; i++) {
      const pi = this.points[i]!;
      for (let j = 0; j <= n; j++) {
        const slot = sc.slots[i * m + j]!;
        if (slot < 0) continue;
        // dF/dx_j = F_L g_j + y_{j−1} − y_j  (a row vector)
        let gx = FL * sc.G[3 * j]!, gy = FL * sc.G[3 * j + 1]!, gz = FL * sc.G[3 * j + 2]!;
        if (j > 0) { gx += sc.Y[3 * j - 3]!; gy += sc.Y[3 * j - 2]!; gz += sc.Y[3 * j - 1]!; }
        if (j < n) { gx -= sc.Y[3 * j]!; gy -= sc.Y[3 * j + 1]!; gz -= sc.Y[3 * j + 2]!; }
        const vx = sc.Vv[3 * i]!, vy = sc.Vv[3 * i + 1]!, vz = sc.Vv[3 * i + 2]!;
        const A = sc.A, B = sc.B;
        A[0] = vx * gx; A[1] = vx * gy; A[2] = vx * gz;
        A[3] = vy * gx; A[4] = vy * gy; A[5] = vy * gz;
        A[6] = vz * gx; A[7] = vz * gy; A[8] = vz * gz;
        // F (∂u_i/∂x_j − ∂u_{i−1}/∂x_j)
        if (i < n) { if (j === i) this.addProjection(sc, A, i, -1); else if (j === i + 1) this.addProjection(sc, A, i, 1); }
        if (i > 0) { if (j === i - 1) this.addProjection(sc, A, i - 1, 1); else if (j === i) this.addProjection(sc, A, i - 1, -1); }
        // ∂f_i/∂ẋ_j = F_L̇ v_i g_jᵀ
        const hx = FLd * sc.G[3 * j]!, hy = FLd * sc.G[3 * j + 1]!, hz = FLd * sc.G[3 * j + 2]!;
        B[0] = vx * hx; B[1] = vx * hy; B[2] = vx * hz;
        B[3] = vy * hx; B[4] = vy * hy; B[5] = vy * hz;
        B[6] = vz * hx; B[7] = vz * hy; B[8] = vz * hz;
        for (let k = 0; k < 3; k++) { sc.r3[k] = sc.Rl[3 * i + k]!; sc.p3[k] = sc.Rl[3 * j + k]!; sc.w3[k] = sc.W[3 * j + k]!; }
        ctx.pm.addPair(K, D, slot, pi, sc.r3, this.points[j]!, sc.p3, sc.w3, A, FLd !== 0 ? B : null);
      }
      // the lever arm of a body point turns with its body
      const sii = sc.slots[i * m + i]!;
      if (sii >= 0) {
        for (let k = 0; k < 3; k++) { sc.f3[k] = F * sc.Vv[3 * i + k]!; sc.r3[k] = sc.Rl[3 * i + k]!; }
        ctx.pm.addLeverArm(K, sii, pi, sc.f3, sc.r3);
      }
    }
  }

  potentialEnergy(ctx: ForceContext, sc: PathSpringScratch): number {
    this.evaluate(ctx, sc);
    return this.material.energy(sc.L, this.restLength);
  }

  /** length, rate, tension and segment lengths at ctx's state into out, evaluated in sc (segments: its first n entries) */
  readout(ctx: ForceContext, sc: PathSpringScratch, out: SpringReadout): void {
    this.evaluate(ctx, sc);
    out.length = sc.L;
    out.rate = sc.Ld;
    out.tension = sc.mat[0]!;
    const m = Math.min(this.n, out.segments.length);
    for (let i = 0; i < m; i++) out.segments[i] = sc.l[i]!;
  }
}

/** an axial spring between two points (theory.md §10): the one-segment path spring */
export class AxialSpring extends PathSpring {
  constructor(name: string, a: PointRef, b: PointRef, material: AxialMaterial, restLength: number) {
    super(name, [a, b], material, restLength);
  }
}
