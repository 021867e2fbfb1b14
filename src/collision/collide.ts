/**
 * The collide stage (docs/theory.md §17, ARCHITECTURE "The step" 3): from the positions q, the
 * shapes' world poses and boxes (./shapes.ts), the candidate pairs (./broadphase.ts), each pair's
 * contact points (./pairs.ts) and their combined material (./materials.ts, with the pair overrides
 * of named materials), written into a ContactSet (src/contact/contactSet.ts) in a deterministic
 * order.
 *
 * Sides. Each contact joins side A and side B with the normal from A to B: a plane is side A of
 * its pairs (the normal is the plane's +z), and in every other pair A is the shape of lower index.
 * Pair functions take their shapes in kind-rank order (plane, sphere, capsule, box …); when that
 * order is the reverse of the sides' (a capsule of index 0 with a sphere of index 1), the points
 * are flipped: the normal negated and the features swapped; the point and the gap stay.
 *
 * Order. Pairs by (shape A, shape B), then points by (feature A, feature B): a function of the
 * shapes and their poses only, never of the sort history.
 *
 * Features. Sphere, plane: 0. Capsule: 0 at its −z end, 1 at its +z end, 2 on its side. Box: the
 * vertex index k, with the sign of body axis j positive where bit j of k is set.
 */
import type { ContactSet } from '../contact/contactSet.js';
import { ShapeTable, type ShapeDesc } from './shapes.js';
import { Broadphase } from './broadphase.js';
import { Manifold } from './manifold.js';
import { pairFunction } from './pairs.js';
import { combineMaterials, type MaterialOverrides } from './materials.js';

export class Collider {
  readonly shapes: ShapeTable;
  readonly broadphase: Broadphase;
  private readonly manifold = new Manifold();
  private perm = new Int32Array(8);
  /** component pairs that never collide (components joined by a joint), keyed by `pairKey` */
  private readonly excluded = new Set<number>();
  /** (n) each shape's named material (ShapeDesc.materialId), −1 for none */
  private readonly materialId: Int32Array;

  /**
   * @param shapes the shapes, in shape-index order (their index is the ContactSet's shape index)
   * @param margin detection margin, m: a contact is reported while its gap is below it
   * @param exclude pairs of components that never collide (components joined by a joint)
   * @param overrides the pair overrides of the named materials (./materials.ts), if any
   */
  constructor(shapes: readonly ShapeDesc[], margin: number,
    exclude: readonly (readonly [number, number])[] = [],
    private readonly overrides: MaterialOverrides | null = null) {
    this.shapes = new ShapeTable(shapes, margin);
    this.broadphase = new Broadphase(this.shapes);
    for (const [a, b] of exclude) this.excluded.add(pairKey(a, b));
    this.materialId = Int32Array.from(shapes, (d) => d.materialId ?? -1);
  }

  /** the contacts at positions q into out (its previous contents are dropped) */
  collide(q: Float64Array, out: ContactSet): void {
    this.shapes.updatePoses(q);
    const bp = this.broadphase;
    bp.update();
    out.count = 0;
    for (let k = 0; k < bp.pairCount; k++) this.collidePair(bp.pairA[k]!, bp.pairB[k]!, out);
  }

  /** the contacts of sides a and b, by the pair function of their kinds */
  private collidePair(a: number, b: number, out: ContactSet): void {
    const t = this.shapes, ka = t.kind[a]!, kb = t.kind[b]!, m = this.manifold;
    if (this.excluded.size > 0 && this.excluded.has(pairKey(t.component[a]!, t.component[b]!))) return;
    const flip = ka > kb;
    const f = flip ? pairFunction(kb, ka) : pairFunction(ka, kb);
    if (f === null) return;
    m.count = 0;
    if (flip) f(t, b, a, m); else f(t, a, b, m);
    if (m.count > 0) this.emit(out, a, b, flip);
  }

  /** appends the manifold's points as contacts of sides a and b, sorted by their features */
  private emit(out: ContactSet, a: number, b: number, flip: boolean): void {
    const t = this.shapes, m = this.manifold, n = m.count;
    const fa = flip ? m.featureB : m.featureA, fb = flip ? m.featureA : m.featureB;
    // order the points by (feature A, feature B): insertion sort of a permutation
    if (this.perm.length < n) this.perm = new Int32Array(2 * n);
    const perm = this.perm;
    for (let i = 0; i < n; i++) {
      let j = i - 1;
      while (j >= 0 && (fa[perm[j]!]! > fa[i]! || (fa[perm[j]!] === fa[i] && fb[perm[j]!]! > fb[i]!))) {
        perm[j + 1] = perm[j]!; j--;
      }
      perm[j + 1] = i;
    }
    // append, the normal from side a to side b
    const first = out.count, ca = t.component[a]!, cb = t.component[b]!, s = flip ? -1 : 1;
    const P = m.point, N = m.normal;
    // (reserve only when short: a call allocates its closure context even when it has room)
    if (first + n > out.capacity) out.reserve(first + n);
    for (let k = 0; k < n; k++) {
      const i = perm[k]!, c = first + k;
      out.compA[c] = ca; out.shapeA[c] = a; out.featureA[c] = fa[i]!;
      out.compB[c] = cb; out.shapeB[c] = b; out.featureB[c] = fb[i]!;
      out.p_W[3 * c] = P[3 * i]!; out.p_W[3 * c + 1] = P[3 * i + 1]!; out.p_W[3 * c + 2] = P[3 * i + 2]!;
      out.n_W[3 * c] = s * N[3 * i]!; out.n_W[3 * c + 1] = s * N[3 * i + 1]!;
      out.n_W[3 * c + 2] = s * N[3 * i + 2]!;
      out.gap[c] = m.gap[i]!;
    }
    out.count = first + n;
    // the combined material, or what the pair of named materials replaces it with
    const o = this.overrides, row = o === null ? -1 : o.row(this.materialId[a]!, this.materialId[b]!);
    combineMaterials(out, first, out.count, t, a, b, o, row);
  }
}

/** a key of the unordered pair of components (a, b); −1, the world, included */
function pairKey(a: number, b: number): number {
  const lo = a < b ? a : b, hi = a < b ? b : a;
  return (lo + 1) * 4294967296 + (hi + 1);
}
