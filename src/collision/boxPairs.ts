/**
 * Narrowphase against boxes: sphere-box, capsule-box and box-box (docs/theory.md §17). A box is
 * centred on its frame with half extents h; its world axes are the columns of its rotation. The
 * normal of every point is from the first shape to the second; each point is midway between the
 * two surfaces and reported while its gap is below the margin (speculative contacts).
 *
 * Sphere-box: the box point closest to the centre c (c clamped to the box in box coordinates); a
 * centre inside the box is pushed out through the nearest face. Capsule-box: the exact distance of
 * the core segment to the box (its ends against the box, the segment against the 12 edges); a core
 * that reaches into the box gets the separating axis of least overlap among the box axes and the
 * products u × e_k; a capsule lying on a face (axis within FACE_SIN of it) gets its core clipped by
 * that face, two points.
 *
 * Box-box: the separating axis test over the 15 axes (3 face normals of each box, the 9 products of
 * their edge directions): the largest separation along an axis is the signed distance when the boxes
 * overlap, and a lower bound of the distance when they are apart. The face axes are preferred:
 * B's face is taken over A's only when it separates more by FACE_BIAS, an edge axis over the
 * faces only when it separates more by EDGE_REL of the face's overlap plus FACE_BIAS, so a resting
 * box keeps its reference face (after Box2D's b2CollidePolygons and ODE's dBoxBox). Face contact:
 * the incident face is the other box's face most anti-parallel to the reference normal, clipped
 * against the reference face (./convex/clip.ts), at most 4 points; boxes apart whose faces do not
 * overlap along the normal get one point at the closest points of the two faces' edges. Edge
 * contact: one point at the closest points of the two edges.
 *
 * Feature ids (./convex/features.ts): a box's vertex k (0..7, bit j set: + along axis j), edge
 * 8 + 4a + bits (along axis a; bits 0 and 1: the signs of axes a+1, a+2) and face 20 + 2a + (s > 0).
 * A face-contact point is named by the feature of each box it lies on or near (./convex/clip.ts):
 * (reference face, incident vertex) for a corner of the upper box inside the lower one's face,
 * (vertex, vertex) for the corners of equal boxes stacked flush, (edge, edge) for crossing edges;
 * these names do not depend on which box is the reference. Sphere-box: (0, the box feature of the
 * closest point: vertex, edge or face). Capsule-box: capsule 0, 1 (ends) or 2 (side) as in
 * ./roundPairs.ts, and the box feature.
 */
import { PARAMS_STRIDE, type ShapeTable } from './shapes.js';
import type { Manifold } from './manifold.js';
import { clipWorkspaceOf, clipFeatures, closestEdges, closestSegments } from './convex/clip.js';
import { BOX_FACE, FACE_SIN, boxEdgeId, boxFace } from './convex/features.js';

/** the preference for face axes, as a fraction of the smallest half extent of the two boxes */
const FACE_BIAS = 1e-3;
/** an edge axis must beat the best face axis by this fraction of the face's overlap (and FACE_BIAS) */
const EDGE_REL = 0.05;
/** below this length of a_i × b_j the edges count as parallel */
const PARALLEL = 1e-6;
/*
 * S, the box pairs' scratch, is the manifold's `work` (no pair function keeps it between calls):
 * [0, 9) C = R_Aᵀ R_B, [9, 12) R_Aᵀ (p_B − p_A), [12, 15) R_Bᵀ (p_B − p_A), [15, 17) the
 * closest-point parameters of two segments, [17, 20) a normal, [20] a separation, [21, 24) a point;
 * the clipping polygons are the manifold's ClipWorkspace (./convex/clip.ts clipWorkspaceOf)
 */

/** the box feature id of the local point x clamped to the box: vertex, edge or face by the clamped axes */
function clampedFeature(cx: boolean, cy: boolean, cz: boolean, x: number, y: number, z: number): number {
  const n = (cx ? 1 : 0) + (cy ? 1 : 0) + (cz ? 1 : 0);
  const v = (x > 0 ? 1 : 0) | (y > 0 ? 2 : 0) | (z > 0 ? 4 : 0);
  if (n === 3) return v;
  if (n === 2) {
    const a = !cx ? 0 : !cy ? 1 : 2;
    return boxEdgeId(v & ~(1 << a), v | (1 << a));
  }
  const a = cx ? 0 : cy ? 1 : 2;
  return BOX_FACE + 2 * a + ((a === 0 ? x : a === 1 ? y : z) > 0 ? 1 : 0);
}

/** sphere a, box b */
export function sphereBox(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const P = t.pos, R = t.rot, o = 9 * b, r = t.params[PARAMS_STRIDE * a]!, k = PARAMS_STRIDE * b;
  const hx = t.params[k]!, hy = t.params[k + 1]!, hz = t.params[k + 2]!;
  const cx = P[3 * a]!, cy = P[3 * a + 1]!, cz = P[3 * a + 2]!;
  const dx = cx - P[3 * b]!, dy = cy - P[3 * b + 1]!, dz = cz - P[3 * b + 2]!;
  // the centre in box coordinates
  const lx = R[o]! * dx + R[o + 3]! * dy + R[o + 6]! * dz;
  const ly = R[o + 1]! * dx + R[o + 4]! * dy + R[o + 7]! * dz;
  const lz = R[o + 2]! * dx + R[o + 5]! * dy + R[o + 8]! * dz;
  let qx = Math.max(-hx, Math.min(hx, lx)), qy = Math.max(-hy, Math.min(hy, ly));
  let qz = Math.max(-hz, Math.min(hz, lz));
  let ex = qx - lx, ey = qy - ly, ez = qz - lz, dist = Math.sqrt(ex * ex + ey * ey + ez * ez), gap = dist - r;
  let feature: number;
  if (dist > 0) {
    // outside: the normal from the centre to the closest point
    if (!(gap < t.margin)) return;
    ex /= dist; ey /= dist; ez /= dist;
    feature = clampedFeature(qx !== lx, qy !== ly, qz !== lz, qx, qy, qz);
  } else {
    // inside: out through the nearest face (the first of equals)
    const fx = hx - Math.abs(lx), fy = hy - Math.abs(ly), fz = hz - Math.abs(lz);
    const axis = fx <= fy && fx <= fz ? 0 : fy <= fz ? 1 : 2;
    const l = axis === 0 ? lx : axis === 1 ? ly : lz, s = l >= 0 ? 1 : -1, depth = axis === 0 ? fx : axis === 1 ? fy : fz;
    ex = axis === 0 ? -s : 0; ey = axis === 1 ? -s : 0; ez = axis === 2 ? -s : 0;
    if (axis === 0) qx = s * hx; else if (axis === 1) qy = s * hy; else qz = s * hz;
    gap = -depth - r; feature = BOX_FACE + 2 * axis + (s > 0 ? 1 : 0);
  }
  // world normal, and the point midway between the box point q and the sphere point c + r n
  const nx = R[o]! * ex + R[o + 1]! * ey + R[o + 2]! * ez;
  const ny = R[o + 3]! * ex + R[o + 4]! * ey + R[o + 5]! * ez;
  const nz = R[o + 6]! * ex + R[o + 7]! * ey + R[o + 8]! * ez;
  const wx = P[3 * b]! + R[o]! * qx + R[o + 1]! * qy + R[o + 2]! * qz;
  const wy = P[3 * b + 1]! + R[o + 3]! * qx + R[o + 4]! * qy + R[o + 5]! * qz;
  const wz = P[3 * b + 2]! + R[o + 6]! * qx + R[o + 7]! * qy + R[o + 8]! * qz;
  m.add(0, feature, 0.5 * (wx + cx + r * nx), 0.5 * (wy + cy + r * ny), 0.5 * (wz + cz + r * nz), nx, ny, nz, gap);
}

/** C = R_Aᵀ R_B and the centre offset in both frames, into S[0 .. 15) */
function relativePose(S: Float64Array, t: ShapeTable, a: number, b: number): void {
  const R = t.rot, oa = 9 * a, ob = 9 * b, P = t.pos;
  const dx = P[3 * b]! - P[3 * a]!, dy = P[3 * b + 1]! - P[3 * a + 1]!, dz = P[3 * b + 2]! - P[3 * a + 2]!;
  for (let i = 0; i < 3; i++) {
    const ax = R[oa + i]!, ay = R[oa + 3 + i]!, az = R[oa + 6 + i]!;
    for (let j = 0; j < 3; j++) S[3 * i + j] = ax * R[ob + j]! + ay * R[ob + 3 + j]! + az * R[ob + 6 + j]!;
    S[9 + i] = ax * dx + ay * dy + az * dz;
    S[12 + i] = R[ob + i]! * dx + R[ob + 3 + i]! * dy + R[ob + 6 + i]! * dz;
  }
}

/** box a, box b */
export function boxBox(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const S = m.work;
  const pr = t.params, ka = PARAMS_STRIDE * a, kb = PARAMS_STRIDE * b, margin = t.margin;
  const a0 = pr[ka]!, a1 = pr[ka + 1]!, a2 = pr[ka + 2]!, b0 = pr[kb]!, b1 = pr[kb + 1]!, b2 = pr[kb + 2]!;
  relativePose(S, t, a, b);
  const c00 = Math.abs(S[0]!), c01 = Math.abs(S[1]!), c02 = Math.abs(S[2]!);
  const c10 = Math.abs(S[3]!), c11 = Math.abs(S[4]!), c12 = Math.abs(S[5]!);
  const c20 = Math.abs(S[6]!), c21 = Math.abs(S[7]!), c22 = Math.abs(S[8]!);
  // A's face axes: |d·a_i| − (h_Ai + Σ_j |C_ij| h_Bj)
  const sa0 = Math.abs(S[9]!) - (a0 + c00 * b0 + c01 * b1 + c02 * b2);
  const sa1 = Math.abs(S[10]!) - (a1 + c10 * b0 + c11 * b1 + c12 * b2);
  const sa2 = Math.abs(S[11]!) - (a2 + c20 * b0 + c21 * b1 + c22 * b2);
  if (sa0 >= margin || sa1 >= margin || sa2 >= margin) return;
  // B's face axes
  const sb0 = Math.abs(S[12]!) - (b0 + c00 * a0 + c10 * a1 + c20 * a2);
  const sb1 = Math.abs(S[13]!) - (b1 + c01 * a0 + c11 * a1 + c21 * a2);
  const sb2 = Math.abs(S[14]!) - (b2 + c02 * a0 + c12 * a1 + c22 * a2);
  if (sb0 >= margin || sb1 >= margin || sb2 >= margin) return;
  const ia = sa0 >= sa1 && sa0 >= sa2 ? 0 : sa1 >= sa2 ? 1 : 2, sA = ia === 0 ? sa0 : ia === 1 ? sa1 : sa2;
  const ib = sb0 >= sb1 && sb0 >= sb2 ? 0 : sb1 >= sb2 ? 1 : 2, sB = ib === 0 ? sb0 : ib === 1 ? sb1 : sb2;
  const bias = FACE_BIAS * Math.min(a0, a1, a2, b0, b1, b2);
  const refIsA = !(sB > sA + bias), sFace = refIsA ? sA : sB;
  // the edge axes a_i × b_j: the best, or none when one separates by the margin
  const edge = bestEdge(S, a0, a1, a2, b0, b1, b2, margin);
  if (edge === -2) return;
  if (edge >= 0 && S[20]! > sFace + EDGE_REL * Math.abs(sFace) + bias) {
    edgeContact(t, a, b, edge, margin, m);
    return;
  }
  faceContact(t, a, b, refIsA, refIsA ? ia : ib, m);
}

/**
 * the edge axis a_i × b_j of the largest separation (index 3i + j, its separation into S[20]); −1 when
 * all are parallel, −2 when one separates by the margin or more
 */
function bestEdge(S: Float64Array, a0: number, a1: number, a2: number, b0: number, b1: number, b2: number, margin: number): number {
  let best = -1, sBest = -Infinity;
  for (let i = 0; i < 3; i++) {
    const i1 = i === 2 ? 0 : i + 1, i2 = i1 === 2 ? 0 : i1 + 1;
    const h1 = i1 === 0 ? a0 : i1 === 1 ? a1 : a2, h2 = i2 === 0 ? a0 : i2 === 1 ? a1 : a2;
    for (let j = 0; j < 3; j++) {
      const j1 = j === 2 ? 0 : j + 1, j2 = j1 === 2 ? 0 : j1 + 1;
      const cij = S[3 * i + j]!, len2 = 1 - cij * cij;
      if (len2 < PARALLEL * PARALLEL) continue;
      const g1 = j1 === 0 ? b0 : j1 === 1 ? b1 : b2, g2 = j2 === 0 ? b0 : j2 === 1 ? b1 : b2;
      // d·(a_i × b_j) and the two boxes' radii along it, over its length
      const dist = Math.abs(S[9 + i2]! * S[3 * i1 + j]! - S[9 + i1]! * S[3 * i2 + j]!);
      const rA = h1 * Math.abs(S[3 * i2 + j]!) + h2 * Math.abs(S[3 * i1 + j]!);
      const rB = g1 * Math.abs(S[3 * i + j2]!) + g2 * Math.abs(S[3 * i + j1]!);
      const sep = (dist - rA - rB) / Math.sqrt(len2);
      if (sep >= margin) return -2;
      if (sep > sBest) { sBest = sep; best = 3 * i + j; }
    }
  }
  S[20] = sBest;
  return best;
}

/** face contact: the reference face of axis `axis` of box a (refIsA) or b, the other box's face clipped */
function faceContact(t: ShapeTable, a: number, b: number, refIsA: boolean, axis: number, m: Manifold): void {
  const S = m.work;
  const WS = clipWorkspaceOf(m);
  const ref = refIsA ? a : b, inc = refIsA ? b : a, R = t.rot, pr = t.params, P = t.pos;
  const or = 9 * ref, oi = 9 * inc;
  // the reference normal toward the other box, the contact normal from a to b
  const dAxis = refIsA ? S[9 + axis]! : S[12 + axis]!, s = dAxis >= 0 ? 1 : -1, sr = refIsA ? s : -s;
  const wx = sr * R[or + axis]!, wy = sr * R[or + 3 + axis]!, wz = sr * R[or + 6 + axis]!;
  const nx = refIsA ? wx : -wx, ny = refIsA ? wy : -wy, nz = refIsA ? wz : -wz;
  // the incident face: the other box's face most anti-parallel to w
  let k = 0, best = -1, dot = 0;
  for (let j = 0; j < 3; j++) {
    const c = wx * R[oi + j]! + wy * R[oi + 3 + j]! + wz * R[oi + 6 + j]!;
    if (Math.abs(c) > best) { best = Math.abs(c); k = j; dot = c; }
  }
  const kr = PARAMS_STRIDE * ref, ki = PARAMS_STRIDE * inc;
  boxFace(WS.fa, P, R, pr[kr]!, pr[kr + 1]!, pr[kr + 2]!, axis, sr, 3 * ref, or);
  boxFace(WS.fb, P, R, pr[ki]!, pr[ki + 1]!, pr[ki + 2]!, k, dot >= 0 ? -1 : 1, 3 * inc, oi);
  // apart with faces side by side (nothing to clip): the closest points of their edges
  if (clipFeatures(WS, WS.fa, WS.fb, refIsA, nx, ny, nz, t.margin, m) === 0) {
    closestEdges(WS, WS.fa, WS.fb, refIsA, t.margin, m);
  }
}

/** the world axis j of shape i, times s, into out[o..o+2] */
function axisOf(out: Float64Array, o: number, t: ShapeTable, i: number, j: number, s: number): void {
  out[o] = s * t.rot[9 * i + j]!; out[o + 1] = s * t.rot[9 * i + 3 + j]!; out[o + 2] = s * t.rot[9 * i + 6 + j]!;
}

/** edge contact along a_i × b_j (edge = 3i + j): one point at the closest points of the two edges */
function edgeContact(t: ShapeTable, a: number, b: number, edge: number, margin: number, m: Manifold): void {
  const S = m.work;
  const i = (edge / 3) | 0, j = edge - 3 * i, R = t.rot, P = t.pos;
  axisOf(S, 21, t, a, i, 1); axisOf(S, 17, t, b, j, 1);
  // the unit axis c = a_i × b_j, from a to b
  let cx = S[22]! * S[19]! - S[23]! * S[18]!, cy = S[23]! * S[17]! - S[21]! * S[19]!, cz = S[21]! * S[18]! - S[22]! * S[17]!;
  const cl = Math.sqrt(cx * cx + cy * cy + cz * cz);
  const dx = P[3 * b]! - P[3 * a]!, dy = P[3 * b + 1]! - P[3 * a + 1]!, dz = P[3 * b + 2]! - P[3 * a + 2]!;
  const sc = dx * cx + dy * cy + dz * cz >= 0 ? 1 / cl : -1 / cl;
  cx *= sc; cy *= sc; cz *= sc;
  // A's edge along a_i at its support vertex along +c, B's along b_j at its support along −c
  const va = supportVertex(t, a, cx, cy, cz), vb = supportVertex(t, b, -cx, -cy, -cz);
  const ha = t.params[PARAMS_STRIDE * a + i]!, hb = t.params[PARAMS_STRIDE * b + j]!;
  const sa = (va >> i) & 1 ? 1 : -1, sb = (vb >> j) & 1 ? 1 : -1;
  // edge A: from the support vertex pA (world) along −2 sa h a_i; edge B likewise
  vertexOf(S, 0, t, a, va); vertexOf(S, 3, t, b, vb);
  const ex = -2 * sa * ha, fx = -2 * sb * hb;
  closestSegments(S, 15, S[0]!, S[1]!, S[2]!, ex * R[9 * a + i]!, ex * R[9 * a + 3 + i]!, ex * R[9 * a + 6 + i]!,
    S[3]!, S[4]!, S[5]!, fx * R[9 * b + j]!, fx * R[9 * b + 3 + j]!, fx * R[9 * b + 6 + j]!);
  const s = S[15]!, u = S[16]!;
  const px = S[0]! + s * ex * R[9 * a + i]!, py = S[1]! + s * ex * R[9 * a + 3 + i]!, pz = S[2]! + s * ex * R[9 * a + 6 + i]!;
  const qx = S[3]! + u * fx * R[9 * b + j]!, qy = S[4]! + u * fx * R[9 * b + 3 + j]!, qz = S[5]! + u * fx * R[9 * b + 6 + j]!;
  const gap = (qx - px) * cx + (qy - py) * cy + (qz - pz) * cz;
  if (!(gap < margin)) return;
  m.add(boxEdgeId(va, va ^ (1 << i)), boxEdgeId(vb, vb ^ (1 << j)),
    0.5 * (px + qx), 0.5 * (py + qy), 0.5 * (pz + qz), cx, cy, cz, gap);
}

/** the id of box i's vertex farthest along the world direction d */
function supportVertex(t: ShapeTable, i: number, dx: number, dy: number, dz: number): number {
  const R = t.rot, o = 9 * i;
  const lx = R[o]! * dx + R[o + 3]! * dy + R[o + 6]! * dz, ly = R[o + 1]! * dx + R[o + 4]! * dy + R[o + 7]! * dz;
  const lz = R[o + 2]! * dx + R[o + 5]! * dy + R[o + 8]! * dz;
  return (lx >= 0 ? 1 : 0) | (ly >= 0 ? 2 : 0) | (lz >= 0 ? 4 : 0);
}

/** the world position of box i's vertex v into out[o..o+2] */
function vertexOf(out: Float64Array, o: number, t: ShapeTable, i: number, v: number): void {
  const R = t.rot, r = 9 * i, k = PARAMS_STRIDE * i, P = t.pos;
  const x = (v & 1 ? 1 : -1) * t.params[k]!, y = (v & 2 ? 1 : -1) * t.params[k + 1]!, z = (v & 4 ? 1 : -1) * t.params[k + 2]!;
  out[o] = P[3 * i]! + R[r]! * x + R[r + 1]! * y + R[r + 2]! * z;
  out[o + 1] = P[3 * i + 1]! + R[r + 3]! * x + R[r + 4]! * y + R[r + 5]! * z;
  out[o + 2] = P[3 * i + 2]! + R[r + 6]! * x + R[r + 7]! * y + R[r + 8]! * z;
}

/**
 * capsule a, box b: the exact distance of the core segment to the box when it stays outside, the
 * separating axis of least overlap when it reaches in; two clipped points for a capsule lying on a face
 */
export function capsuleBox(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const S = m.work;
  const P = t.pos, R = t.rot, o = 9 * b, ka = PARAMS_STRIDE * a, r = t.params[ka]!, h = t.params[ka + 1]!;
  const dx = P[3 * a]! - P[3 * b]!, dy = P[3 * a + 1]! - P[3 * b + 1]!, dz = P[3 * a + 2]! - P[3 * b + 2]!;
  const ux = R[9 * a + 2]!, uy = R[9 * a + 5]!, uz = R[9 * a + 8]!;
  // the segment's centre and axis in box coordinates, into S[0..5]
  S[0] = R[o]! * dx + R[o + 3]! * dy + R[o + 6]! * dz; S[1] = R[o + 1]! * dx + R[o + 4]! * dy + R[o + 7]! * dz;
  S[2] = R[o + 2]! * dx + R[o + 5]! * dy + R[o + 8]! * dz;
  S[3] = R[o]! * ux + R[o + 3]! * uy + R[o + 6]! * uz; S[4] = R[o + 1]! * ux + R[o + 4]! * uy + R[o + 7]! * uz;
  S[5] = R[o + 2]! * ux + R[o + 5]! * uy + R[o + 8]! * uz;
  // the local normal into S[17..19], the segment point into S[21..23], the separation into S[20]
  const features = segmentInBox(S, t, b, h) ? overlapAxis(S, t, b, h) : segmentDistance(S, t, b, h);
  const sep = S[20]!, gap = sep - r;
  if (!(gap < t.margin)) return;
  const lx = S[17]!, ly = S[18]!, lz = S[19]!;
  const nx = R[o]! * lx + R[o + 1]! * ly + R[o + 2]! * lz, ny = R[o + 3]! * lx + R[o + 4]! * ly + R[o + 5]! * lz;
  const nz = R[o + 6]! * lx + R[o + 7]! * ly + R[o + 8]! * lz;
  // lying on a face (the closest box feature is a face, so n is its normal): the core clipped by it
  if (h > 0 && (features & 255) >= BOX_FACE && lyingCapsule(t, a, b, nx, ny, nz, r, h, m)) return;
  // one point: P + ((r + sep)/2) n, P the segment point
  const k = 0.5 * (r + sep), px = S[21]! + k * lx, py = S[22]! + k * ly, pz = S[23]! + k * lz;
  m.add(features >> 8, features & 255, P[3 * b]! + R[o]! * px + R[o + 1]! * py + R[o + 2]! * pz,
    P[3 * b + 1]! + R[o + 3]! * px + R[o + 4]! * py + R[o + 5]! * pz,
    P[3 * b + 2]! + R[o + 6]! * px + R[o + 7]! * py + R[o + 8]! * pz, nx, ny, nz, gap);
}

/** true when the segment (S[0..5], half length h) meets box b (slab test in box coordinates) */
function segmentInBox(S: Float64Array, t: ShapeTable, b: number, h: number): boolean {
  let lo = -h, hi = h;
  for (let k = 0; k < 3; k++) {
    const e = t.params[PARAMS_STRIDE * b + k]!, c = S[k]!, u = S[3 + k]!;
    if (Math.abs(u) < 1e-300) { if (Math.abs(c) > e) return false; continue; }
    let s0 = (-e - c) / u, s1 = (e - c) / u;
    if (s0 > s1) { const x = s0; s0 = s1; s1 = x; }
    if (s0 > lo) lo = s0;
    if (s1 < hi) hi = s1;
    if (lo > hi) return false;
  }
  return true;
}

/**
 * the closest points of the segment (outside the box) and box b: its ends against the box, the
 * segment against the 12 edges; normal, segment point and distance into S; returns the features
 * (capsule << 8 | box)
 */
function segmentDistance(S: Float64Array, t: ShapeTable, b: number, h: number): number {
  const k = PARAMS_STRIDE * b, e0 = t.params[k]!, e1 = t.params[k + 1]!, e2 = t.params[k + 2]!;
  let best = Infinity, features = 0;
  // the two ends
  for (let end = 0; end < 2; end++) {
    const s = end === 0 ? -h : h, x = S[0]! + s * S[3]!, y = S[1]! + s * S[4]!, z = S[2]! + s * S[5]!;
    const qx = Math.max(-e0, Math.min(e0, x)), qy = Math.max(-e1, Math.min(e1, y)), qz = Math.max(-e2, Math.min(e2, z));
    const d2 = (qx - x) ** 2 + (qy - y) ** 2 + (qz - z) ** 2;
    if (d2 < best) {
      best = d2; setClosest(S, x, y, z, qx, qy, qz);
      features = (end << 8) | clampedFeature(qx !== x, qy !== y, qz !== z, qx, qy, qz);
    }
  }
  // the segment against each edge (along axis j, at the signs of the other two)
  for (let j = 0; j < 3; j++) {
    const ej = j === 0 ? e0 : j === 1 ? e1 : e2;
    for (let bits = 0; bits < 4; bits++) {
      const j1 = (j + 1) % 3, j2 = (j + 2) % 3, v = ((bits & 1) << j1) | ((bits >> 1) << j2);
      const vx = (v & 1 ? 1 : -1) * e0, vy = (v & 2 ? 1 : -1) * e1, vz = (v & 4 ? 1 : -1) * e2;
      const sx = j === 0 ? -e0 : vx, sy = j === 1 ? -e1 : vy, sz = j === 2 ? -e2 : vz;
      closestSegments(S, 15, S[0]! - h * S[3]!, S[1]! - h * S[4]!, S[2]! - h * S[5]!, 2 * h * S[3]!, 2 * h * S[4]!, 2 * h * S[5]!,
        sx, sy, sz, j === 0 ? 2 * ej : 0, j === 1 ? 2 * ej : 0, j === 2 ? 2 * ej : 0);
      const s = S[15]!, u = S[16]!;
      const x = S[0]! + (2 * s - 1) * h * S[3]!, y = S[1]! + (2 * s - 1) * h * S[4]!, z = S[2]! + (2 * s - 1) * h * S[5]!;
      const qx = j === 0 ? (2 * u - 1) * ej : sx, qy = j === 1 ? (2 * u - 1) * ej : sy, qz = j === 2 ? (2 * u - 1) * ej : sz;
      const d2 = (qx - x) ** 2 + (qy - y) ** 2 + (qz - z) ** 2;
      if (d2 < best) {
        best = d2; setClosest(S, x, y, z, qx, qy, qz);
        const vb = v & ~(1 << j), fb = u <= 0 ? vb : u >= 1 ? vb | (1 << j) : boxEdgeId(vb, vb | (1 << j));
        features = ((s <= 0 ? 0 : s >= 1 ? 1 : 2) << 8) | fb;
      }
    }
  }
  return features;
}

/** the segment point x and box point q (box coordinates): S[21..23] = x, S[17..19] = unit (q − x), S[20] = |q − x| */
function setClosest(S: Float64Array, x: number, y: number, z: number, qx: number, qy: number, qz: number): void {
  const d = Math.sqrt((qx - x) ** 2 + (qy - y) ** 2 + (qz - z) ** 2);
  S[21] = x; S[22] = y; S[23] = z; S[20] = d;
  if (d > 0) { S[17] = (qx - x) / d; S[18] = (qy - y) / d; S[19] = (qz - z) / d; } else { S[17] = 0; S[18] = 0; S[19] = 1; }
}

/**
 * a segment reaching into box b: the axis of least overlap among the box axes e_k and u × e_k
 * (a face axis unless an edge axis overlaps less by FACE_BIAS of the smallest extent); normal,
 * deepest segment point and separation into S; returns the features (capsule << 8 | box)
 */
function overlapAxis(S: Float64Array, t: ShapeTable, b: number, h: number): number {
  const k = PARAMS_STRIDE * b, e0 = t.params[k]!, e1 = t.params[k + 1]!, e2 = t.params[k + 2]!;
  const bias = FACE_BIAS * Math.min(e0, e1, e2);
  let best = -Infinity, face = true;
  for (let axis = 0; axis < 6; axis++) {
    // the unit axis L in box coordinates
    let Lx = axis === 0 ? 1 : 0, Ly = axis === 1 ? 1 : 0, Lz = axis === 2 ? 1 : 0;
    if (axis >= 3) {
      const j = axis - 3;
      Lx = j === 0 ? 0 : j === 1 ? -S[5]! : S[4]!; Ly = j === 0 ? S[5]! : j === 1 ? 0 : -S[3]!;
      Lz = j === 0 ? -S[4]! : j === 1 ? S[3]! : 0;
      const l = Math.sqrt(Lx * Lx + Ly * Ly + Lz * Lz);
      if (l < PARALLEL) continue;
      Lx /= l; Ly /= l; Lz /= l;
    }
    // the segment's interval [c − h|u·L|, c + h|u·L|] against the box's [−ρ, ρ]
    const c = S[0]! * Lx + S[1]! * Ly + S[2]! * Lz, w = h * Math.abs(S[3]! * Lx + S[4]! * Ly + S[5]! * Lz);
    const rho = e0 * Math.abs(Lx) + e1 * Math.abs(Ly) + e2 * Math.abs(Lz);
    const up = -rho - (c + w), down = (c - w) - rho, sep = up >= down ? up : down, sg = up >= down ? 1 : -1;
    if (axis < 3 ? sep > best : sep > best + bias) {
      best = sep; face = axis < 3; S[17] = sg * Lx; S[18] = sg * Ly; S[19] = sg * Lz;
    }
  }
  // the deepest end along n, and the box feature facing it
  const un = S[3]! * S[17]! + S[4]! * S[18]! + S[5]! * S[19]!, end = un >= 0 ? 1 : 0, s = end === 1 ? h : -h;
  S[21] = S[0]! + s * S[3]!; S[22] = S[1]! + s * S[4]!; S[23] = S[2]! + s * S[5]!; S[20] = best;
  const v = (S[17]! <= 0 ? 1 : 0) | (S[18]! <= 0 ? 2 : 0) | (S[19]! <= 0 ? 4 : 0);
  let fb = v;
  const ax = Math.abs(S[17]!), ay = Math.abs(S[18]!), az = Math.abs(S[19]!);
  if (face) { const j = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2; fb = BOX_FACE + 2 * j + ((v >> j) & 1); }
  else { const j = ax <= ay && ax <= az ? 0 : ay <= az ? 1 : 2; fb = boxEdgeId(v & ~(1 << j), v | (1 << j)); }
  return ((h === 0 ? 0 : Math.abs(un) < 1e-12 ? 2 : end) << 8) | fb;
}

/**
 * a capsule lying on a face of box b (the normal within FACE_SIN of the face's, the axis within
 * FACE_SIN of normal to it): its core, moved r along n, clipped by the face; false when not lying
 */
function lyingCapsule(t: ShapeTable, a: number, b: number, nx: number, ny: number, nz: number,
  r: number, h: number, m: Manifold): boolean {
  const S = m.work;
  const WS = clipWorkspaceOf(m);
  const lx = S[17]!, ly = S[18]!, lz = S[19]!, ax = Math.abs(lx), ay = Math.abs(ly), az = Math.abs(lz);
  const j = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2, nj = j === 0 ? lx : j === 1 ? ly : lz;
  const un = S[3]! * lx + S[4]! * ly + S[5]! * lz;
  if (nj * nj < 1 - FACE_SIN * FACE_SIN || Math.abs(un) > FACE_SIN) return false;
  const k = PARAMS_STRIDE * b, P = t.pos, R = t.rot;
  boxFace(WS.fa, P, R, t.params[k]!, t.params[k + 1]!, t.params[k + 2]!, j, nj > 0 ? -1 : 1, 3 * b, 9 * b);
  // the capsule's near side: the core ends moved r along n
  const f = WS.fb, ux = R[9 * a + 2]!, uy = R[9 * a + 5]!, uz = R[9 * a + 8]!;
  const cx = P[3 * a]! + r * nx, cy = P[3 * a + 1]! + r * ny, cz = P[3 * a + 2]! + r * nz;
  f.count = 2; f.id = 2; f.edgeId[0] = 2; f.vertexId[0] = 0; f.vertexId[1] = 1;
  f.xyz[0] = cx - h * ux; f.xyz[1] = cy - h * uy; f.xyz[2] = cz - h * uz;
  f.xyz[3] = cx + h * ux; f.xyz[4] = cy + h * uy; f.xyz[5] = cz + h * uz;
  return clipFeatures(WS, WS.fa, f, false, nx, ny, nz, t.margin, m) > 0;
}
