/**
 * Exact and nearly exact geometric arithmetic in doubles (docs/theory.md §17, convex hulls): the
 * error-free product and difference of Dekker and Knuth, a cross product of point differences from
 * nearly exact terms, and the exact sign of the orientation determinant (Shewchuk's orient3d: a
 * floating-point filter, then integers when the filter cannot decide).
 */

/** Veltkamp's splitter: a double split into two halves whose products are exact (Dekker's product) */
const SPLIT = 134217729;

/** e with a·b = p + e exactly, for p = a·b rounded (Dekker) */
function productError(a: number, b: number, p: number): number {
  const ca = SPLIT * a, ah = ca - (ca - a), al = a - ah;
  const cb = SPLIT * b, bh = cb - (cb - b), bl = b - bh;
  return al * bl - (((p - ah * bh) - al * bh) - ah * bl);
}

/** e with a − b = s + e exactly, for s = a − b rounded (Knuth's two-sum) */
function differenceError(a: number, b: number, s: number): number {
  const bb = s - a;
  return (a - (s - bb)) - (b + bb);
}

/** a·d − b·c for a = (a, ae), … given as values and their errors, rounded once from nearly exact terms */
function crossTerm(a: number, ae: number, d: number, de: number,
  b: number, be: number, c: number, ce: number): number {
  const p = a * d, q = b * c, s = p - q;
  const low = differenceError(p, q, s) + productError(a, d, p) - productError(b, c, q);
  return s + (low + (a * de + ae * d) - (b * ce + be * c));
}

/**
 * out[o..o+3) = (v − u) × (w − u) from nearly exact terms: the differences as pairs (value, error),
 * each product exact to its second order. A thin triangle's plane then comes out as accurate as its
 * vertices allow; in plain doubles its normal would be off by about ε·length/height.
 */
export function accurateCross(out: number[], o: number, P: Float64Array, u: number, v: number, w: number): void {
  const ax = P[3 * v]! - P[3 * u]!, ay = P[3 * v + 1]! - P[3 * u + 1]!, az = P[3 * v + 2]! - P[3 * u + 2]!;
  const cx = P[3 * w]! - P[3 * u]!, cy = P[3 * w + 1]! - P[3 * u + 1]!, cz = P[3 * w + 2]! - P[3 * u + 2]!;
  const axe = differenceError(P[3 * v]!, P[3 * u]!, ax);
  const aye = differenceError(P[3 * v + 1]!, P[3 * u + 1]!, ay);
  const aze = differenceError(P[3 * v + 2]!, P[3 * u + 2]!, az);
  const cxe = differenceError(P[3 * w]!, P[3 * u]!, cx);
  const cye = differenceError(P[3 * w + 1]!, P[3 * u + 1]!, cy);
  const cze = differenceError(P[3 * w + 2]!, P[3 * u + 2]!, cz);
  out[o] = crossTerm(ay, aye, cz, cze, az, aze, cy, cye);
  out[o + 1] = crossTerm(az, aze, cx, cxe, ax, axe, cz, cze);
  out[o + 2] = crossTerm(ax, axe, cy, cye, ay, aye, cx, cxe);
}

/** Shewchuk's bound on the rounding of orient3d's plain evaluation, relative to its permanent */
const ORIENT_BOUND = (7 + 56 * 2 ** -53) * 2 ** -53;

/**
 * the sign of the volume ((v − u) × (w − u))·(p − u): +1 when point p lies above the plane of
 * (u, v, w) (counter-clockwise seen from above), exactly. Plain doubles decide when the value
 * clears Shewchuk's error bound (1998); otherwise integers do (exactSide).
 */
export function orientationSide(P: Float64Array, u: number, v: number, w: number, p: number): number {
  const px = P[3 * p]!, py = P[3 * p + 1]!, pz = P[3 * p + 2]!;
  const adx = P[3 * u]! - px, ady = P[3 * u + 1]! - py, adz = P[3 * u + 2]! - pz;
  const bdx = P[3 * v]! - px, bdy = P[3 * v + 1]! - py, bdz = P[3 * v + 2]! - pz;
  const cdx = P[3 * w]! - px, cdy = P[3 * w + 1]! - py, cdz = P[3 * w + 2]! - pz;
  const bc = bdy * cdz - bdz * cdy, ca = cdy * adz - cdz * ady, ab = ady * bdz - adz * bdy;
  // orient3d(u, v, w, p) of Shewchuk: positive when p lies below
  const det = adx * bc + bdx * ca + cdx * ab;
  const permanent = (Math.abs(bdy * cdz) + Math.abs(bdz * cdy)) * Math.abs(adx)
    + (Math.abs(cdy * adz) + Math.abs(cdz * ady)) * Math.abs(bdx)
    + (Math.abs(ady * bdz) + Math.abs(adz * bdy)) * Math.abs(cdx);
  if (det > ORIENT_BOUND * permanent) return -1;
  if (-det > ORIENT_BOUND * permanent) return 1;
  return exactSide(P, u, v, w, p);
}

/** side() in integers: every coordinate is m·2^e, scaled by the least e to a BigInt */
function exactSide(P: Float64Array, u: number, v: number, w: number, p: number): number {
  const view = new DataView(new ArrayBuffer(8)), m: bigint[] = [], e: number[] = [];
  for (const i of [u, v, w, p]) for (let j = 0; j < 3; j++) {
    view.setFloat64(0, P[3 * i + j]!);
    const hi = view.getUint32(0), bits = (hi >>> 20) & 0x7ff;
    const mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
    const full = bits === 0 ? mant : mant | (1n << 52n);
    m.push(hi >>> 31 ? -full : full); e.push(bits === 0 ? -1074 : bits - 1075);
  }
  const low = Math.min(...e), x = m.map((mi, k) => mi << BigInt(e[k]! - low));
  const d = (k: number) => [x[k]! - x[9]!, x[k + 1]! - x[10]!, x[k + 2]! - x[11]!];
  const [a, b, c] = [d(0), d(3), d(6)];
  const det = a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) + b[0]! * (c[1]! * a[2]! - c[2]! * a[1]!)
    + c[0]! * (a[1]! * b[2]! - a[2]! * b[1]!);
  return det > 0n ? -1 : det < 0n ? 1 : 0;
}
