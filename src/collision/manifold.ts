/**
 * The contact points of one shape pair, as a narrowphase pair function writes them: for each point
 * its two feature ids, the point midway between the surfaces, the unit normal from the function's
 * first shape to its second, and the gap (> 0 apart). The collide stage (./collide.ts) turns them
 * into contacts, flipping them when the function's first shape is side B of the pair. A reused
 * scratch: it grows, never shrinks, so a steady scene allocates nothing (docs/theory.md §17).
 */
export class Manifold {
  count = 0;
  featureA: Int32Array;
  featureB: Int32Array;
  /** (3·count) points and normals */
  point: Float64Array;
  normal: Float64Array;
  gap: Float64Array;
  /** scratch numbers a pair function may use (closest-point parameters and the like) */
  readonly work = new Float64Array(24);
  /** the general convex pair's workspace, made on its first use (convex/convexPair.ts) */
  convexScratch: unknown = null;
  /** the clipping polygons and the reduction's scratch, made on first use (convex/clip.ts) */
  clipScratch: unknown = null;
  reduceScratch: unknown = null;
  /** the mesh pairs' scratch, made on first use (meshPairs.ts) */
  meshScratch: unknown = null;

  constructor(capacity = 8) {
    this.featureA = new Int32Array(capacity); this.featureB = new Int32Array(capacity);
    this.point = new Float64Array(3 * capacity); this.normal = new Float64Array(3 * capacity);
    this.gap = new Float64Array(capacity);
  }

  /** appends a point, growing the arrays when full */
  add(fa: number, fb: number, px: number, py: number, pz: number,
    nx: number, ny: number, nz: number, gap: number): void {
    if (this.count === this.gap.length) this.grow();
    const i = this.count++;
    this.featureA[i] = fa; this.featureB[i] = fb; this.gap[i] = gap;
    this.point[3 * i] = px; this.point[3 * i + 1] = py; this.point[3 * i + 2] = pz;
    this.normal[3 * i] = nx; this.normal[3 * i + 1] = ny; this.normal[3 * i + 2] = nz;
  }

  private grow(): void {
    const cap = 2 * this.gap.length;
    const fa = new Int32Array(cap), fb = new Int32Array(cap), g = new Float64Array(cap);
    const p = new Float64Array(3 * cap), n = new Float64Array(3 * cap);
    fa.set(this.featureA); fb.set(this.featureB); g.set(this.gap); p.set(this.point); n.set(this.normal);
    this.featureA = fa; this.featureB = fb; this.gap = g; this.point = p; this.normal = n;
  }
}
