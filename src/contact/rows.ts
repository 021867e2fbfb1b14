/**
 * The unilateral and bounded rows of one step (theory.md §14): contact normals, friction, joint
 * limits and motors, as rows w = J u⁺ + b on at most two components, each with a box on its
 * impulse z (the convention of solvers/lcp/types.ts):
 *
 *   normal, limit    lo = 0, hi = ∞:        z ≥ 0 ⊥ w ≥ 0
 *   friction         |z| ≤ μ z_normal:      z at +μθ ⇒ w ≤ 0, at −μθ ⇒ w ≥ 0, inside ⇒ w = 0
 *   motor            |z| ≤ h F_max:         the same box with fixed bounds
 *
 * The generalized impulse of row i on the components is J_iᵀ z_i (the +Nᵀθ of 000 §0.10 with the
 * sign of ERRATA A.1). Rows are rebuilt every step (contacts appear and disappear) into arrays that
 * only grow, so a steady scene allocates nothing.
 *
 * J holds 12 numbers per row, [side A: 6 | side B: 6], each side (v, ω) of a body, or (v, 0, 0, 0)
 * of a particle; a side on the world (component −1) has no columns. A contact's normal row is
 * N = nᵀ(J_B − J_A) at the contact point (001 §3), with J_X = [I, −[p − o_X]] for a body X whose
 * frame origin is o_X (u = (v_o, ω)): n·v_p = n·v_o + (r × n)·ω, r = p − o_X.
 *
 * The offset b of a row (docs/contact.md, "Penetration"): the row may close its gap φ this step
 * (b = φ/h while φ ≥ 0, speculative contact); a penetration is corrected by the fraction
 * `erp` per step (b = erp φ/h); a compliant row (α > 0) takes eq. 0.10 of 000 §0.11,
 * w = N v⁺ + (γα/h²) z + γφ/h with γ = (1/2 + β/h)⁻¹, as a diagonal `reg` and b = γφ/h; Newton
 * restitution replaces b by e·v⁻ (w ≥ 0 ⇔ v⁺ ≥ −e v⁻) when the contact closes this step faster
 * than the threshold speed.
 */

/** a row's kind: how its bounds are set */
export const ROW_NORMAL = 0;
export const ROW_FRICTION = 1;
export const ROW_LIMIT = 2;
export const ROW_MOTOR = 3;

export class UnilateralRows {
  /** rows this step */
  count = 0;
  /** (count) ROW_NORMAL, ROW_FRICTION, ROW_LIMIT or ROW_MOTOR */
  kind: Uint8Array;
  /** (count) component of side A and of side B, −1 for the world */
  compA: Int32Array;
  compB: Int32Array;
  /** (12·count) the row on [u_A (6); u_B (6)], world axes */
  J: Float64Array;
  /** (count) the offset b of w = J u⁺ + b */
  b: Float64Array;
  /** (count) bounds of z (friction rows: set from their normal's impulse by the solvers) */
  lo: Float64Array;
  hi: Float64Array;
  /** (count) a friction row's normal row, else −1 */
  normalOf: Int32Array;
  /** (count) a friction row's μ */
  mu: Float64Array;
  /** (count) diagonal regularization γα/h² of a compliant row (0: hard) */
  reg: Float64Array;
  /** (count) what made the row: a contact index (normal, friction) or a limit or motor index */
  owner: Int32Array;
  /** (count) the impulse z, N·s or N·m·s, after the solve; the warm start before it */
  z: Float64Array;
  /**
   * (3·count) a contact row's direction in world (the normal, or the friction direction on B); a
   * limit row's first entry is +1 for a lower bound, −1 for an upper one
   */
  dir: Float64Array;

  constructor(capacity = 16) {
    this.kind = new Uint8Array(capacity);
    this.compA = new Int32Array(capacity); this.compB = new Int32Array(capacity);
    this.J = new Float64Array(12 * capacity);
    this.b = new Float64Array(capacity); this.lo = new Float64Array(capacity); this.hi = new Float64Array(capacity);
    this.normalOf = new Int32Array(capacity); this.mu = new Float64Array(capacity);
    this.reg = new Float64Array(capacity); this.owner = new Int32Array(capacity); this.z = new Float64Array(capacity);
    this.dir = new Float64Array(3 * capacity);
  }

  get capacity(): number { return this.b.length; }

  /** makes room for n rows, keeping the first `count` */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(n, 2 * this.capacity), k = this.count;
    const grow = <T extends Uint8Array | Int32Array | Float64Array>(a: T, w: number): T => {
      const out = new (a.constructor as { new(n: number): T })(w * cap);
      out.set(a.subarray(0, w * k));
      return out;
    };
    this.kind = grow(this.kind, 1); this.compA = grow(this.compA, 1); this.compB = grow(this.compB, 1);
    this.J = grow(this.J, 12); this.b = grow(this.b, 1); this.lo = grow(this.lo, 1); this.hi = grow(this.hi, 1);
    this.normalOf = grow(this.normalOf, 1); this.mu = grow(this.mu, 1); this.reg = grow(this.reg, 1);
    this.owner = grow(this.owner, 1); this.z = grow(this.z, 1); this.dir = grow(this.dir, 3);
  }

  /** appends a row with a zero Jacobian and returns its index (the caller fills J) */
  add(kind: number, compA: number, compB: number, b: number, lo: number, hi: number, owner: number): number {
    if (this.count === this.capacity) this.reserve(this.count + 1);
    const i = this.count++;
    this.kind[i] = kind; this.compA[i] = compA; this.compB[i] = compB;
    this.b[i] = b; this.lo[i] = lo; this.hi[i] = hi;
    this.normalOf[i] = -1; this.mu[i] = 0; this.reg[i] = 0; this.owner[i] = owner; this.z[i] = 0;
    this.J.fill(0, 12 * i, 12 * i + 12);
    this.dir[3 * i] = 0; this.dir[3 * i + 1] = 0; this.dir[3 * i + 2] = 0;
    return i;
  }

  /** J_i u for the velocity layout u (uOffset and body flag per component) */
  rowVelocity(i: number, u: Float64Array, uOffset: Int32Array, isBody: Uint8Array): number {
    return this.sideVelocity(i, 0, this.compA[i]!, u, uOffset, isBody) + this.sideVelocity(i, 6, this.compB[i]!, u, uOffset, isBody);
  }

  private sideVelocity(i: number, at: number, c: number, u: Float64Array, uOffset: Int32Array, isBody: Uint8Array): number {
    if (c < 0) return 0;
    const J = this.J, o = uOffset[c]!, j = 12 * i + at, n = isBody[c] ? 6 : 3;
    let s = 0;
    for (let k = 0; k < n; k++) s += J[j + k]! * u[o + k]!;
    return s;
  }
}

/**
 * Writes s·[d; r × d] (a body side; r = p − o) or s·d (a particle side) into J at `at`: the row of
 * the point velocity's component along d, times s (−1 on side A)
 */
export function pointRow(J: Float64Array, at: number, isBody: boolean, s: number,
  dx: number, dy: number, dz: number, rx: number, ry: number, rz: number): void {
  J[at] = s * dx; J[at + 1] = s * dy; J[at + 2] = s * dz;
  if (!isBody) return;
  J[at + 3] = s * (ry * dz - rz * dy);
  J[at + 4] = s * (rz * dx - rx * dz);
  J[at + 5] = s * (rx * dy - ry * dx);
}
