/**
 * Narrowphase between round shapes: sphere-sphere, sphere-capsule and capsule-capsule
 * (docs/theory.md §17). A capsule is the segment c + s u, s ∈ [−h, h] (u its z axis), swept by r; a
 * sphere is a segment of length zero. Two such shapes touch where their cores are closest: for the
 * closest points P on core A and Q on core B, the normal is n = (Q − P)/|Q − P| (from A to B), the
 * gap φ = |Q − P| − r_A − r_B, and the contact point is midway between the surface points P + r_A n
 * and Q − r_B n. When the cores meet (|Q − P| ≤ 1e-100 m) the normal is any unit vector normal to both:
 * +z for two spheres, the first Duff-Frisvad tangent of the axis for a sphere on a capsule,
 * u_A × u_B (or a tangent of u_A for parallel axes) for two capsules.
 *
 * Features of a capsule: 0 where the closest point is its −h end, 1 at its +h end, 2 on the side
 * (between the ends); a sphere's feature is 0.
 *
 * Closest points of two segments: minimizing |r + s u_A − t u_B|², r = c_A − c_B, gives
 * s = t b − c and t = s b + f (b = u_A·u_B, c = u_A·r, f = u_B·r); the unconstrained solution
 * s = (b f − c)/(1 − b²) is clamped to A, t follows and is clamped to B, and s is recomputed from a
 * clamped t (Ericson, Real-Time Collision Detection §5.1.9).
 *
 * Nearly parallel capsules (sin² of their angle below 1e-4) lie along each other: they get one
 * contact at each end of the overlap of their segments (projected on A's axis), each the closest
 * pair of that segment end and the other segment, so a capsule lying on a capsule has two supports
 * whose features tell them apart. The closest pair of the two segments is added as a third point
 * when it is deeper than both ends by more than 1e-6 (r_A + r_B) (a shallow crossing), so the
 * smallest reported gap is the true one to that bound.
 */
import { PARAMS_STRIDE, type ShapeTable } from './shapes.js';
import type { Manifold } from './manifold.js';

/** below this sin² of the angle between two capsule axes they count as parallel */
const PARALLEL_SIN2 = 1e-4;
/** an overlap shorter than this fraction of the two half lengths is a single point */
const OVERLAP_EPS = 1e-9;
/** the crossing point of parallel capsules is added when deeper than both ends by this × (r_A + r_B) */
const CROSSING_DEPTH = 1e-6;

/**
 * Manifold.work layout of the capsule pair: [0, 8) segment A and [8, 16) segment B (centre, axis,
 * half length, radius), [16, 19) the normal for meeting cores, 19 and 20 the gaps of the overlap
 * ends, GAP the gap of the last point measured (returned through memory: a returned double would be
 * boxed on the heap)
 */
const GAP = 23;

/**
 * adds the contact between the spheres (P, ra) of feature fa and (Q, rb) of feature fb when the gap
 * is below the margin; (fx, fy, fz) is the normal to use when P = Q. The gap goes to m.work[GAP].
 */
function addSpheres(m: Manifold, margin: number, fa: number, ax: number, ay: number, az: number, ra: number,
  fb: number, bx: number, by: number, bz: number, rb: number, fx: number, fy: number, fz: number): void {
  const dx = bx - ax, dy = by - ay, dz = bz - az;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const gap = dist - ra - rb;
  m.work[GAP] = gap;
  if (!(gap < margin)) return;
  // unit normal from A to B, or the given one when the centres coincide (closer than 1e-100 m, where
  // squares of the components would lose precision in subnormal numbers)
  let nx = fx, ny = fy, nz = fz;
  if (dist > 1e-100) { nx = dx / dist; ny = dy / dist; nz = dz / dist; }
  // midway between the surface points A + ra n and B − rb n
  const s = 0.5 * (ra - rb);
  m.add(fa, fb, 0.5 * (ax + bx) + s * nx, 0.5 * (ay + by) + s * ny, 0.5 * (az + bz) + s * nz, nx, ny, nz, gap);
}

/** the first Duff-Frisvad tangent of the unit vector (x, y, z), into w[o..o+2] */
function tangent(w: Float64Array, o: number, x: number, y: number, z: number): void {
  const sign = z >= 0 ? 1 : -1, a = -1 / (sign + z);
  w[o] = 1 + sign * x * x * a; w[o + 1] = sign * x * y * a; w[o + 2] = -sign * x;
}

function clamp(v: number, h: number): number {
  return v < -h ? -h : v > h ? h : v;
}

/** the capsule feature of segment parameter s on [−h, h] */
function segmentFeature(s: number, h: number): number {
  return s <= -h ? 0 : s >= h ? 1 : 2;
}

/** sphere a, sphere b */
export function sphereSphere(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const P = t.pos, ra = t.params[PARAMS_STRIDE * a]!, rb = t.params[PARAMS_STRIDE * b]!;
  addSpheres(m, t.margin, 0, P[3 * a]!, P[3 * a + 1]!, P[3 * a + 2]!, ra,
    0, P[3 * b]!, P[3 * b + 1]!, P[3 * b + 2]!, rb, 0, 0, 1);
}

/** sphere a, capsule b: the sphere against the closest point of b's segment */
export function sphereCapsule(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const P = t.pos, R = t.rot, w = m.work;
  const ra = t.params[PARAMS_STRIDE * a]!, rb = t.params[PARAMS_STRIDE * b]!;
  const hb = t.params[PARAMS_STRIDE * b + 1]!;
  const ax = P[3 * a]!, ay = P[3 * a + 1]!, az = P[3 * a + 2]!;
  const bx = P[3 * b]!, by = P[3 * b + 1]!, bz = P[3 * b + 2]!;
  const ux = R[9 * b + 2]!, uy = R[9 * b + 5]!, uz = R[9 * b + 8]!;
  // closest point of the segment to the sphere's centre
  const s = clamp(ux * (ax - bx) + uy * (ay - by) + uz * (az - bz), hb);
  tangent(w, 0, ux, uy, uz);
  addSpheres(m, t.margin, 0, ax, ay, az, ra,
    segmentFeature(s, hb), bx + s * ux, by + s * uy, bz + s * uz, rb, w[0]!, w[1]!, w[2]!);
}

/** capsule i's segment into w[o..o+7]: centre, unit axis, half length, radius */
function loadSegment(w: Float64Array, o: number, t: ShapeTable, i: number): void {
  const P = t.pos, R = t.rot;
  w[o] = P[3 * i]!; w[o + 1] = P[3 * i + 1]!; w[o + 2] = P[3 * i + 2]!;
  w[o + 3] = R[9 * i + 2]!; w[o + 4] = R[9 * i + 5]!; w[o + 5] = R[9 * i + 8]!;
  w[o + 6] = t.params[PARAMS_STRIDE * i + 1]!; w[o + 7] = t.params[PARAMS_STRIDE * i]!;
}

/**
 * the contact of the segment points A(s) and B(u) of the capsules loaded in w[0..15], added when its
 * gap is below `margin` (−∞: only measured); the gap goes to w[GAP]
 */
function addSegmentPoints(m: Manifold, margin: number, s: number, u: number): void {
  const w = m.work;
  const uax = w[3]!, uay = w[4]!, uaz = w[5]!, ubx = w[11]!, uby = w[12]!, ubz = w[13]!;
  // the normal when the cores meet: normal to both axes
  const cx = uay * ubz - uaz * uby, cy = uaz * ubx - uax * ubz, cz = uax * uby - uay * ubx;
  const cn = Math.sqrt(cx * cx + cy * cy + cz * cz);
  if (cn > 1e-12) { w[16] = cx / cn; w[17] = cy / cn; w[18] = cz / cn; } else tangent(w, 16, uax, uay, uaz);
  addSpheres(m, margin, segmentFeature(s, w[6]!), w[0]! + s * uax, w[1]! + s * uay, w[2]! + s * uaz, w[7]!,
    segmentFeature(u, w[14]!), w[8]! + u * ubx, w[9]! + u * uby, w[10]! + u * ubz, w[15]!,
    w[16]!, w[17]!, w[18]!);
}

/** capsule a, capsule b */
export function capsuleCapsule(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const w = m.work;
  loadSegment(w, 0, t, a);
  loadSegment(w, 8, t, b);
  // b = u_A·u_B, c = u_A·r, f = u_B·r with r = c_A − c_B
  const rx = w[0]! - w[8]!, ry = w[1]! - w[9]!, rz = w[2]! - w[10]!;
  const bd = w[3]! * w[11]! + w[4]! * w[12]! + w[5]! * w[13]!;
  const c = w[3]! * rx + w[4]! * ry + w[5]! * rz, f = w[11]! * rx + w[12]! * ry + w[13]! * rz;
  const ha = w[6]!, hb = w[14]!;
  // the closest pair of the two segments
  const den = 1 - bd * bd;
  let s = den > 1e-12 ? clamp((bd * f - c) / den, ha) : clamp(-c, ha);
  let u = bd * s + f;
  if (u < -hb) { u = -hb; s = clamp(-hb * bd - c, ha); }
  else if (u > hb) { u = hb; s = clamp(hb * bd - c, ha); }
  // nearly parallel with an overlap: both ends of the overlap, and the closest pair if deeper
  if (den < PARALLEL_SIN2 && parallelEnds(m, t.margin, ha, hb, bd, c, f)) {
    addSegmentPoints(m, -Infinity, s, u);
    const g = w[GAP]!, depth = CROSSING_DEPTH * (w[7]! + w[15]!);
    if (g < w[19]! - depth && g < w[20]! - depth) addSegmentPoints(m, t.margin, s, u);
    return;
  }
  addSegmentPoints(m, t.margin, s, u);
}

/**
 * the contacts at both ends of the overlap of nearly parallel segments (their gaps into w[19], w[20]);
 * false, adding nothing, when the overlap is a point or empty
 */
function parallelEnds(m: Manifold, margin: number, ha: number, hb: number,
  bd: number, c: number, f: number): boolean {
  // B's ends projected on A's axis (relative to A's centre): −c + u b for u = ±h_B
  const sign = bd >= 0 ? 1 : -1, lo = -c - hb * sign * bd, hi = -c + hb * sign * bd;
  if (!(Math.min(ha, hi) - Math.max(-ha, lo) > OVERLAP_EPS * (ha + hb))) return false;
  // lower end: A's −h end if B reaches past it, else B's end that projects lowest
  if (-ha >= lo) addSegmentPoints(m, margin, -ha, clamp(f - ha * bd, hb));
  else addSegmentPoints(m, margin, clamp(-c - sign * hb * bd, ha), -sign * hb);
  m.work[19] = m.work[GAP]!;
  // upper end, likewise
  if (ha <= hi) addSegmentPoints(m, margin, ha, clamp(f + ha * bd, hb));
  else addSegmentPoints(m, margin, clamp(-c + sign * hb * bd, ha), sign * hb);
  m.work[20] = m.work[GAP]!;
  return true;
}
