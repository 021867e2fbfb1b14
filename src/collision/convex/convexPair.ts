/**
 * The general convex-convex pair (docs/theory.md §17): any two shapes the Convex view holds
 * (sphere, capsule, box, cylinder, ellipsoid, hull, mesh triangle), by GJK on their cores
 * (./gjk.ts) and EPA when the cores overlap (./epa.ts).
 *
 * Each shape is a core swept by its radius r, so with the cores' witness points P (on A) and Q (on
 * B): apart, the normal is n = (Q − P)/|Q − P| and the gap |Q − P| − r_A − r_B; overlapping, EPA's
 * depth δ and normal n give the gap −δ − r_A − r_B (P − Q = δ n). The surface witnesses are
 * P + r_A n and Q − r_B n, the gap apart along n. GJK stops as soon as the cores are known to be
 * farther apart than margin + r_A + r_B, so distant pairs cost a few supports.
 *
 * The contact points come from the manifold builder along that normal (./clip.ts clipManifold):
 * the supporting features of both shapes clipped against each other, at most four points with
 * stable feature ids, or the single witness pair, midway, where a feature is a point or curved;
 * the witness pair joins them when their deepest point is shallower than the signed distance.
 */
import type { ShapeTable } from '../shapes.js';
import type { Manifold } from '../manifold.js';
import { Convex, loadShape } from './convex.js';
import { GjkWorkspace, gjk, GJK_BEYOND, GJK_OVERLAP } from './gjk.js';
import { EpaWorkspace, epa } from './epa.js';
import { ClipWorkspace, clipManifold } from './clip.js';

/** everything one convex pair query needs, made once and reused: no allocation per call */
export class ConvexWorkspace {
  readonly gjk = new GjkWorkspace();
  readonly epa = new EpaWorkspace();
  readonly clip = new ClipWorkspace();
  /** the two shapes of a table pair (convexConvex loads them) */
  readonly A = new Convex();
  readonly B = new Convex();
  /** results of the last `convexDistance`: unit normal A → B, signed gap, witnesses on the two surfaces */
  readonly normal = new Float64Array(3);
  gap = 0;
  readonly pA = new Float64Array(3);
  readonly pB = new Float64Array(3);
  /** true when the last query needed EPA (the cores overlapped) */
  penetrating = false;
}

/**
 * the signed distance of A and B: normal, gap and surface witnesses into ws; false (ws left
 * partly written) when the gap is known to be at least `margin`
 */
export function convexDistance(ws: ConvexWorkspace, A: Convex, B: Convex, margin: number): boolean {
  const ra = A.radius, rb = B.radius, g = ws.gjk, n = ws.normal;
  const status = gjk(g, A, B, margin + ra + rb);
  if (status === GJK_BEYOND) return false;
  ws.penetrating = status === GJK_OVERLAP;
  let px: number, py: number, pz: number, qx: number, qy: number, qz: number;
  if (ws.penetrating) {
    // overlapping cores: EPA's normal, P − Q = δ n
    const e = ws.epa;
    epa(e, A, B, g);
    n[0] = e.normal[0]!; n[1] = e.normal[1]!; n[2] = e.normal[2]!;
    px = e.pA[0]!; py = e.pA[1]!; pz = e.pA[2]!; qx = e.pB[0]!; qy = e.pB[1]!; qz = e.pB[2]!;
    ws.gap = -e.depth - ra - rb;
  } else {
    // apart: the normal along Q − P
    px = g.pA[0]!; py = g.pA[1]!; pz = g.pA[2]!; qx = g.pB[0]!; qy = g.pB[1]!; qz = g.pB[2]!;
    const d = g.distance;
    n[0] = (qx - px) / d; n[1] = (qy - py) / d; n[2] = (qz - pz) / d;
    ws.gap = d - ra - rb;
  }
  // the surface witnesses, P + r_A n and Q − r_B n
  ws.pA[0] = px + ra * n[0]!; ws.pA[1] = py + ra * n[1]!; ws.pA[2] = pz + ra * n[2]!;
  ws.pB[0] = qx - rb * n[0]!; ws.pB[1] = qy - rb * n[1]!; ws.pB[2] = qz - rb * n[2]!;
  return ws.gap < margin;
}

/** appends the contacts of A and B (normal A → B, gap > 0 apart) while the gap is below `margin` */
export function convexPair(ws: ConvexWorkspace, A: Convex, B: Convex, margin: number, m: Manifold): void {
  if (!convexDistance(ws, A, B, margin)) return;
  const n = ws.normal;
  clipManifold(ws.clip, A, B, n[0]!, n[1]!, n[2]!, ws.pA, ws.pB, ws.gap, margin, m);
}

/** the workspace kept on the manifold (one per collider), made on first use */
function scratchOf(m: Manifold): ConvexWorkspace {
  const s = m.convexScratch;
  if (s instanceof ConvexWorkspace) return s;
  const w = new ConvexWorkspace();
  m.convexScratch = w;
  return w;
}

/** the pair function of any two convex kinds of the table (PairFunction of ../pairs.ts) */
export function convexConvex(t: ShapeTable, a: number, b: number, m: Manifold): void {
  const ws = scratchOf(m);
  loadShape(ws.A, t, a);
  loadShape(ws.B, t, b);
  convexPair(ws, ws.A, ws.B, t.margin, m);
}
