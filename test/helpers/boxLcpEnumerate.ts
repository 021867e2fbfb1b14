/**
 * Brute-force reference for small box LCPs (w = A z + q, lo ≤ z ≤ hi; the conventions of
 * src/solvers/lcp/types.ts): every assignment of each variable to (lo, free, hi), 3ⁿ of them
 * (2ⁿ for a standard LCP, whose hi = +∞ rules the third out), is tried: the bound variables take
 * their bounds, the free ones solve A_FF z_F = −(q_F + A_FB z_B) by LU with partial pivoting
 * (assignments whose A_FF is singular are skipped: when A is PSD and a solution exists, one with
 * a nonsingular A_FF exists too), and the assignment is kept when z and w satisfy the box
 * conditions. For n ≤ 8 only.
 */
import { luDense, luSolveDense } from '../../src/math/dense.js';

/** one solution found by enumeration */
export interface BoxLcpBasis {
  z: Float64Array;
  w: Float64Array;
  /** −1 at lo, 0 free, +1 at hi */
  sets: Int8Array;
}

/** w = A z + q for a dense row-major A */
export function boxLcpSlack(A: Float64Array, q: Float64Array, z: Float64Array): Float64Array {
  const n = q.length, w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = q[i]!;
    for (let j = 0; j < n; j++) s += A[i * n + j]! * z[j]!;
    w[i] = s;
  }
  return w;
}

/**
 * The distance of (z, w) from the box conditions, written case by case (not as the solver's
 * residual is): the smallest, over the cases z = lo with w ≥ 0, lo ≤ z ≤ hi with w = 0, and
 * z = hi with w ≤ 0, of how far each case is from holding; the largest over the rows.
 */
export function boxLcpViolation(
  A: Float64Array, q: Float64Array, lo: Float64Array, hi: Float64Array, z: Float64Array,
): number {
  const n = q.length, w = boxLcpSlack(A, q, z);
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const zi = z[i]!, wi = w[i]!, l = lo[i]!, h = hi[i]!;
    const outside = Math.max(l - zi, zi - h, 0);
    const atLo = l > -Infinity ? Math.abs(zi - l) + Math.max(-wi, 0) : Infinity;
    const inside = outside + Math.abs(wi);
    const atHi = h < Infinity ? Math.abs(zi - h) + Math.max(wi, 0) : Infinity;
    worst = Math.max(worst, Math.min(atLo, inside, atHi));
  }
  return worst;
}

/** every solution over the 3ⁿ assignments whose violation is at most tol·(1 + scale of q and A z) */
export function enumerateBoxLcp(
  A: Float64Array, q: Float64Array, lo: Float64Array, hi: Float64Array, tol = 1e-9,
): BoxLcpBasis[] {
  const n = q.length;
  if (n > 8) throw new Error('enumerateBoxLcp: n ≤ 8');
  const found: BoxLcpBasis[] = [];
  const sets = new Int8Array(n);
  const total = 3 ** n;
  for (let code = 0; code < total; code++) {
    // decode: digit 0 → lo, 1 → free, 2 → hi
    let c = code, ok = true;
    for (let i = 0; i < n; i++, c = Math.floor(c / 3)) {
      const s = (c % 3) - 1;
      sets[i] = s;
      if ((s === -1 && lo[i] === -Infinity) || (s === 1 && hi[i] === Infinity)) ok = false;
      if (lo[i] === hi[i] && s !== -1) ok = false;
    }
    if (!ok) continue;
    const z = solveAssignment(A, q, lo, hi, sets);
    if (!z) continue;
    const w = boxLcpSlack(A, q, z);
    let scale = 1;
    for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(q[i]!), Math.abs(w[i]!), Math.abs(z[i]!));
    if (boxLcpViolation(A, q, lo, hi, z) <= tol * scale) found.push({ z, w, sets: Int8Array.from(sets) });
  }
  return found;
}

/** z for one assignment, or null when its A_FF is singular */
function solveAssignment(
  A: Float64Array, q: Float64Array, lo: Float64Array, hi: Float64Array, sets: Int8Array,
): Float64Array | null {
  const n = q.length, z = new Float64Array(n), free: number[] = [];
  for (let i = 0; i < n; i++) {
    if (sets[i] === 0) free.push(i);
    else z[i] = sets[i] === -1 ? lo[i]! : hi[i]!;
  }
  const m = free.length;
  if (m === 0) return z;
  const Aff = new Float64Array(m * m), b = new Float64Array(m), x = new Float64Array(m);
  for (let a = 0; a < m; a++) {
    const i = free[a]!;
    let s = -q[i]!;
    for (let j = 0; j < n; j++) if (sets[j] !== 0) s -= A[i * n + j]! * z[j]!;
    b[a] = s;
    for (let c = 0; c < m; c++) Aff[a * m + c] = A[i * n + free[c]!]!;
  }
  const f = luDense(Aff, m, 1e-10);
  if (!f) return null;
  luSolveDense(x, f, b);
  for (let a = 0; a < m; a++) z[free[a]!] = x[a]!;
  return z;
}
