/**
 * Contact-frame local dynamics U = B + W R (002 eq. 62-70; docs/theory.md §14).
 *
 * Each contact i has the frame (n, t₁, t₂): n from side A to side B (the contact set's normal),
 * the tangents from `orthonormalBasis`. For a side whose component has its origin at o, the
 * contact point p and r = p − o, the velocity of the material point at p is v + ω × r, so the
 * frame's rows of that side's Jacobian are H_k = [d_kᵀ, (r × d_k)ᵀ] (a particle: [d_kᵀ]). With the
 * master/slave signs of 002 (A negative, B positive):
 *   U_i = H_{i,B} u_B − H_{i,A} u_A      (the velocity of B relative to A in the contact frame),
 *   B_i = H_{i,B} u_B^free − H_{i,A} u_A^free,
 *   W_ij = Σ over the components c that i and j share, of s_i(c) s_j(c) H_{i,c} M_c⁻¹ H_{j,c}ᵀ,
 * with s_i(c) = +1 where c is side B of contact i and −1 where it is side A. Two contacts that share
 * both components take the sum of both terms (errata B, 002); a contact whose two sides are the same
 * component takes all four. R holds impulses, and M⁻¹ is the inverse of the component's block of
 * the step matrix, so W carries the h of 002 (64) already (errata B).
 *
 * Storage is struct of arrays: per side the angular rows r × d_k and the response M⁻¹H_kᵀ (the
 * component's velocity change per unit impulse along d_k), so Δu = M⁻¹HᵀR and W blocks are dot
 * products of stored rows. The coupling blocks W_ij (i ≠ j) are optional: block-sparse rows (CSR
 * of 3 × 3 blocks, columns ascending, the diagonal included) over the contacts that share a
 * dynamic component (002, "The W matrix"). A component without a solve block counts as the world
 * for W and Δu; its velocity still enters B. W is singular whenever the rows of H are dependent (a
 * box resting on four vertices): nothing here inverts it.
 *
 * Arrays grow (doubling) before the loops and never shrink: a steady scene allocates nothing.
 */
import type { ContactSet } from './contactSet.js';
import { orthonormalBasis } from '../math/basis.js';

/** the components as the local dynamics reads them: one entry per component, in model order */
export interface ContactBodies {
  /** 0 particle (u = v, 3 wide), 1 body (u = (v of the frame origin, ω), 6 wide, world axes) */
  kind: Uint8Array;
  /** offset of the component's velocity in u */
  uOffset: Int32Array;
  /** (3 per component) world position of the body frame's origin; a particle's position */
  origin_W: Float64Array;
  /**
   * (36 per component) row-major world inverse of the component's block of the step matrix;
   * a particle's is its top-left 3 × 3
   */
  Minv: Float64Array;
  /** optional (1 per component): 0 for a component without a solve block, which no impulse moves */
  dynamic?: Uint8Array;
}

/** the contact-frame local dynamics of one step; build once per step, into preallocated arrays */
export class LocalDynamics {
  /** number of contacts */
  count = 0;
  /** number of components */
  components = 0;
  /** (3·count) frame normal n (A to B), first tangent t₁, second tangent t₂, world */
  normal = new Float64Array(0);
  tangent1 = new Float64Array(0);
  tangent2 = new Float64Array(0);
  /** (3·count) the contact point, world */
  point = new Float64Array(0);
  /** (count) friction coefficient μ of each contact */
  friction = new Float64Array(0);
  /** (2·count) the dynamic component of side A (at 2i) and side B (2i + 1); −1: world or no solve block */
  sideComp = new Int32Array(0);
  /** (18·count) angular rows of the sides' Jacobians: r × d_k at 18i + 9s + 3k (s: 0 A, 1 B; k: n, t₁, t₂) */
  sideAngular = new Float64Array(0);
  /** (36·count) response M_c⁻¹ [d_k; r × d_k] of each side's component, at 36i + 18s + 6k (6 wide) */
  sideResponse = new Float64Array(0);
  /** (3·count) free velocity B, in (n, t₁, t₂) */
  free = new Float64Array(0);
  /** (9·count) diagonal blocks W_ii, row-major in (n, t₁, t₂) */
  diag = new Float64Array(0);
  /** true when the last build assembled the coupling blocks */
  coupled = false;
  /** (count + 1) start of each contact's block row in `column` and `block` */
  rowStart = new Int32Array(1);
  /** (nnz) block column (contact index), ascending within a row */
  column = new Int32Array(0);
  /** (9·nnz) the blocks W_ij, row-major */
  block = new Float64Array(0);
  /** number of stored blocks */
  nnz = 0;
  /** the velocity layout of the last build: kind and offset per component */
  kind: Uint8Array = new Uint8Array(0);
  uOffset: Int32Array = new Int32Array(0);
  private compStart = new Int32Array(1);
  private compCursor = new Int32Array(0);
  private compContacts = new Int32Array(0);

  /**
   * Builds frames, Jacobians, responses, B and the diagonal blocks; with `coupling`, also the
   * off-diagonal blocks of W (needed by a block-form solve, not by the velocity form).
   * @param contacts this step's contacts (their compA, compB index `bodies`)
   * @param bodies the components: kind, velocity offset, origin, inverse mass block
   * @param uFree free velocity, velocity layout (nu)
   */
  build(contacts: ContactSet, bodies: ContactBodies, uFree: Float64Array, coupling = true): void {
    const m = contacts.count, nc = bodies.kind.length;
    this.reserve(m, nc);
    this.count = m; this.components = nc;
    this.kind = bodies.kind; this.uOffset = bodies.uOffset;
    // frames and the sides' rows, responses and free velocities
    const N = this.normal, nW = contacts.n_W;
    for (let i = 0; i < 3 * m; i++) { N[i] = nW[i]!; this.point[i] = contacts.p_W[i]!; }
    for (let i = 0; i < m; i++) this.friction[i] = contacts.friction[i]!;
    this.free.fill(0, 0, 3 * m);
    for (let i = 0; i < m; i++) {
      orthonormalBasis(this.tangent1, this.tangent2, N, 3 * i);
      this.side(i, 0, contacts.compA[i]!, contacts.p_W, bodies, uFree);
      this.side(i, 1, contacts.compB[i]!, contacts.p_W, bodies, uFree);
    }
    // diagonal blocks
    for (let i = 0; i < m; i++) this.diagonal(i);
    this.coupled = coupling;
    if (coupling) this.assembleCoupling();
  }

  /** one side s of contact i on component c (−1: the world): angular rows, response, B */
  private side(i: number, s: number, c: number, p_W: Float64Array, bodies: ContactBodies,
    uFree: Float64Array): void {
    const ao = 18 * i + 9 * s, ro = 36 * i + 18 * s, ang = this.sideAngular, res = this.sideResponse;
    const dyn = c >= 0 && (bodies.dynamic === undefined || bodies.dynamic[c] !== 0);
    this.sideComp[2 * i + s] = dyn ? c : -1;
    if (!dyn) res.fill(0, ro, ro + 18);
    if (c < 0) { ang.fill(0, ao, ao + 9); return; }
    const body = bodies.kind[c] === 1, o = bodies.uOffset[c]!, sign = s === 0 ? -1 : 1, B = this.free;
    const O = bodies.origin_W, M = bodies.Minv, rx = p_W[3 * i]! - O[3 * c]!;
    const ry = p_W[3 * i + 1]! - O[3 * c + 1]!, rz = p_W[3 * i + 2]! - O[3 * c + 2]!;
    const vx = uFree[o]!, vy = uFree[o + 1]!, vz = uFree[o + 2]!;
    const wx = body ? uFree[o + 3]! : 0, wy = body ? uFree[o + 4]! : 0, wz = body ? uFree[o + 5]! : 0;
    for (let k = 0; k < 3; k++) {
      const d = k === 0 ? this.normal : k === 1 ? this.tangent1 : this.tangent2, a = ao + 3 * k, g = ro + 6 * k;
      const dx = d[3 * i]!, dy = d[3 * i + 1]!, dz = d[3 * i + 2]!;
      // angular row r × d (zero for a particle), and the side's signed free velocity along d
      const ax = body ? ry * dz - rz * dy : 0, ay = body ? rz * dx - rx * dz : 0;
      const az = body ? rx * dy - ry * dx : 0;
      ang[a] = ax; ang[a + 1] = ay; ang[a + 2] = az;
      B[3 * i + k] += sign * (dx * vx + dy * vy + dz * vz + ax * wx + ay * wy + az * wz);
      if (!dyn) continue;
      // response M⁻¹ [d; r × d]: a body's six rows, a particle's three (its angular rows stay zero)
      if (body) {
        for (let r = 0, mr = 36 * c; r < 6; r++, mr += 6) {
          res[g + r] = M[mr]! * dx + M[mr + 1]! * dy + M[mr + 2]! * dz
            + M[mr + 3]! * ax + M[mr + 4]! * ay + M[mr + 5]! * az;
        }
      } else {
        for (let r = 0, mr = 36 * c; r < 3; r++, mr += 6) {
          res[g + r] = M[mr]! * dx + M[mr + 1]! * dy + M[mr + 2]! * dz;
        }
        res[g + 3] = 0; res[g + 4] = 0; res[g + 5] = 0;
      }
    }
  }

  /** W_ii = Σ_s H_{i,s} M⁻¹ H_{i,s}ᵀ (a contact with both sides on one component: blockOf's four terms) */
  private diagonal(i: number): void {
    const sc = this.sideComp, a = sc[2 * i]!, b = sc[2 * i + 1]!, D = this.diag, o = 9 * i;
    if (a >= 0 && a === b) { this.blockOf(D, o, i, i); return; }
    const N = this.normal, T1 = this.tangent1, T2 = this.tangent2, p = 3 * i;
    const ang = this.sideAngular, res = this.sideResponse;
    const nx = N[p]!, ny = N[p + 1]!, nz = N[p + 2]!, sx = T1[p]!, sy = T1[p + 1]!, sz = T1[p + 2]!;
    const tx = T2[p]!, ty = T2[p + 1]!, tz = T2[p + 2]!;
    for (let k = 0; k < 9; k++) D[o + k] = 0;
    for (let s = 0; s < 2; s++) {
      if (sc[2 * i + s]! < 0) continue;
      // rows (d_k, r × d_k) of H against each response column l
      const h = 18 * i + 9 * s;
      for (let l = 0, g = 36 * i + 18 * s; l < 3; l++, g += 6) {
        const x = res[g]!, y = res[g + 1]!, z = res[g + 2]!, u = res[g + 3]!, v = res[g + 4]!, w = res[g + 5]!;
        D[o + l] += nx * x + ny * y + nz * z + ang[h]! * u + ang[h + 1]! * v + ang[h + 2]! * w;
        D[o + 3 + l] += sx * x + sy * y + sz * z + ang[h + 3]! * u + ang[h + 4]! * v + ang[h + 5]! * w;
        D[o + 6 + l] += tx * x + ty * y + tz * z + ang[h + 6]! * u + ang[h + 7]! * v + ang[h + 8]! * w;
      }
    }
  }

  /** out[o … o+8] ← W_ij: the sum over the side pairs of i and j on one dynamic component */
  private blockOf(out: Float64Array, o: number, i: number, j: number): void {
    for (let k = 0; k < 9; k++) out[o + k] = 0;
    const sc = this.sideComp, ang = this.sideAngular, res = this.sideResponse;
    const N = this.normal, T1 = this.tangent1, T2 = this.tangent2;
    for (let s = 0; s < 2; s++) {
      const c = sc[2 * i + s]!;
      if (c < 0) continue;
      for (let t = 0; t < 2; t++) {
        if (sc[2 * j + t] !== c) continue;
        // s_i s_j H_{i,s} M⁻¹ H_{j,t}ᵀ
        const sg = s === t ? 1 : -1, ao = 18 * i + 9 * s, go = 36 * j + 18 * t;
        for (let k = 0; k < 3; k++) {
          const d = k === 0 ? N : k === 1 ? T1 : T2;
          const dx = d[3 * i]!, dy = d[3 * i + 1]!, dz = d[3 * i + 2]!;
          const ax = ang[ao + 3 * k]!, ay = ang[ao + 3 * k + 1]!, az = ang[ao + 3 * k + 2]!;
          for (let l = 0; l < 3; l++) {
            const g = go + 6 * l;
            out[o + 3 * k + l] += sg * (dx * res[g]! + dy * res[g + 1]! + dz * res[g + 2]!
              + ax * res[g + 3]! + ay * res[g + 4]! + az * res[g + 5]!);
          }
        }
      }
    }
  }

  /** the block rows of W: contacts by component (counting sort), merged per row, then the values */
  private assembleCoupling(): void {
    const m = this.count, nc = this.components, sc = this.sideComp, start = this.compStart;
    // contacts of each dynamic component, ascending
    start.fill(0, 0, nc + 1);
    for (let i = 0; i < m; i++) {
      const a = sc[2 * i]!, b = sc[2 * i + 1]!;
      if (a >= 0) start[a + 1]!++;
      if (b >= 0 && b !== a) start[b + 1]!++;
    }
    for (let c = 0; c < nc; c++) start[c + 1]! += start[c]!;
    for (let c = 0; c < nc; c++) this.compCursor[c] = start[c]!;
    for (let i = 0; i < m; i++) {
      const a = sc[2 * i]!, b = sc[2 * i + 1]!;
      if (a >= 0) this.compContacts[this.compCursor[a]!++] = i;
      if (b >= 0 && b !== a) this.compContacts[this.compCursor[b]!++] = i;
    }
    // row sizes, then columns and blocks
    this.rowStart[0] = 0;
    for (let i = 0; i < m; i++) this.rowStart[i + 1] = this.rowStart[i]! + this.mergeRow(i, 0, false);
    this.nnz = this.rowStart[m]!;
    if (this.column.length < this.nnz) {
      const cap = Math.max(this.nnz, 2 * this.column.length);
      this.column = new Int32Array(cap); this.block = new Float64Array(9 * cap);
    }
    for (let i = 0; i < m; i++) {
      this.mergeRow(i, this.rowStart[i]!, true);
      for (let e = this.rowStart[i]!; e < this.rowStart[i + 1]!; e++) {
        this.blockOf(this.block, 9 * e, i, this.column[e]!);
      }
    }
  }

  /** the union of the contact lists of i's two components, ascending; written at `at` when `write` */
  private mergeRow(i: number, at: number, write: boolean): number {
    const a = this.sideComp[2 * i]!, b = this.sideComp[2 * i + 1]!;
    const start = this.compStart, list = this.compContacts;
    let p = a >= 0 ? start[a]! : 0;
    const pe = a >= 0 ? start[a + 1]! : 0;
    let q = b >= 0 && b !== a ? start[b]! : 0;
    const qe = b >= 0 && b !== a ? start[b + 1]! : 0;
    let n = 0;
    while (p < pe || q < qe) {
      const x = p < pe ? list[p]! : 0x7fffffff, y = q < qe ? list[q]! : 0x7fffffff;
      const j = x < y ? x : y;
      if (x === j) p++;
      if (y === j) q++;
      if (write) this.column[at + n] = j;
      n++;
    }
    return n;
  }

  /** out ← W R (3 per contact) from the block rows; needs a build with coupling */
  multiply(R: Float64Array, out: Float64Array): void {
    if (!this.coupled) throw new Error('LocalDynamics.multiply: built without coupling blocks');
    const W = this.block, col = this.column;
    for (let i = 0; i < this.count; i++) {
      let x = 0, y = 0, z = 0;
      for (let e = this.rowStart[i]!; e < this.rowStart[i + 1]!; e++) {
        const j = 3 * col[e]!, w = 9 * e, r0 = R[j]!, r1 = R[j + 1]!, r2 = R[j + 2]!;
        x += W[w]! * r0 + W[w + 1]! * r1 + W[w + 2]! * r2;
        y += W[w + 3]! * r0 + W[w + 4]! * r1 + W[w + 5]! * r2;
        z += W[w + 6]! * r0 + W[w + 7]! * r1 + W[w + 8]! * r2;
      }
      out[3 * i] = x; out[3 * i + 1] = y; out[3 * i + 2] = z;
    }
  }

  /** dv (6 per component) += M⁻¹HᵀR: each contact's impulse R_i (frame components) on both sides */
  accumulateImpulses(R: Float64Array, dv: Float64Array): void {
    const sc = this.sideComp, res = this.sideResponse;
    for (let i = 0; i < this.count; i++) {
      const r0 = R[3 * i]!, r1 = R[3 * i + 1]!, r2 = R[3 * i + 2]!;
      for (let s = 0; s < 2; s++) {
        const c = sc[2 * i + s]!;
        if (c < 0) continue;
        const g = 36 * i + 18 * s, sg = s === 0 ? -1 : 1;
        for (let k = 0; k < 6; k++) {
          dv[6 * c + k] += sg * (res[g + k]! * r0 + res[g + 6 + k]! * r1 + res[g + 12 + k]! * r2);
        }
      }
    }
  }

  /** u (velocity layout) += dv (6 per component): 3 entries for a particle, 6 for a body */
  addComponentVelocities(dv: Float64Array, u: Float64Array): void {
    for (let c = 0; c < this.components; c++) {
      const o = this.uOffset[c]!, w = this.kind[c] === 1 ? 6 : 3;
      for (let k = 0; k < w; k++) u[o + k] += dv[6 * c + k]!;
    }
  }

  /** room for m contacts and nc components (doubling; contents are rebuilt) */
  private reserve(m: number, nc: number): void {
    if (this.free.length < 3 * m) {
      const cap = Math.max(m, 2 * (this.free.length / 3), 16);
      this.normal = new Float64Array(3 * cap); this.tangent1 = new Float64Array(3 * cap);
      this.tangent2 = new Float64Array(3 * cap); this.friction = new Float64Array(cap);
      this.point = new Float64Array(3 * cap);
      this.sideComp = new Int32Array(2 * cap); this.sideAngular = new Float64Array(18 * cap);
      this.sideResponse = new Float64Array(36 * cap); this.free = new Float64Array(3 * cap);
      this.diag = new Float64Array(9 * cap); this.rowStart = new Int32Array(cap + 1);
      this.compContacts = new Int32Array(2 * cap);
    }
    if (this.compCursor.length < nc) {
      this.compStart = new Int32Array(nc + 1); this.compCursor = new Int32Array(nc);
    }
  }
}
