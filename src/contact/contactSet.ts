/**
 * The contacts of one step, struct of arrays: what the collide stage produces and the contact rows
 * read (docs/contact.md). Conventions (design notes, "Contact"):
 *
 * - A contact joins side A and side B; each side is a component (particle or body) or the world
 *   (−1). The normal n points from A to B; the gap φ is positive when they are apart, so the normal
 *   row N = nᵀ(J_B − J_A) at the point gives the separating speed and θ ≥ 0 pushes them apart.
 * - The point is midway between the two surfaces, in world coordinates.
 * - Each contact carries a key (shape A, shape B, feature of A, feature of B) so warm starts and
 *   reports follow it from step to step; contacts are stored in a deterministic order: pairs by
 *   shape indices, then points by feature.
 * - The material of the pair is combined once, here (friction μ, restitution e, compliance α in m/N,
 *   damping β in s), by `combineMaterials`.
 *
 * Capacity grows (outside the solver loops) and is never shrunk, so a steady scene allocates nothing.
 */
export class ContactSet {
  /** number of contacts this step */
  count = 0;
  /** (count) component index of side A, −1 for the world */
  compA: Int32Array;
  /** (count) component index of side B, −1 for the world */
  compB: Int32Array;
  /** (count) shape index of side A and of side B (the model's shape table) */
  shapeA: Int32Array;
  shapeB: Int32Array;
  /** (count) feature ids of the two shapes (a vertex, an end sphere, the face …; 0 for smooth shapes) */
  featureA: Int32Array;
  featureB: Int32Array;
  /** (3·count) contact point in world, m */
  p_W: Float64Array;
  /** (3·count) unit normal from A to B, world */
  n_W: Float64Array;
  /** (count) signed gap φ, m: > 0 apart, < 0 penetrating */
  gap: Float64Array;
  /** (count) combined friction coefficient μ ≥ 0 */
  friction: Float64Array;
  /** (count) combined restitution e ∈ [0, 1] */
  restitution: Float64Array;
  /** (count) combined compliance α ≥ 0, m/N (0: a hard contact) */
  compliance: Float64Array;
  /** (count) combined damping β ≥ 0, s (000 §0.11) */
  damping: Float64Array;

  constructor(capacity = 16) {
    this.compA = new Int32Array(capacity); this.compB = new Int32Array(capacity);
    this.shapeA = new Int32Array(capacity); this.shapeB = new Int32Array(capacity);
    this.featureA = new Int32Array(capacity); this.featureB = new Int32Array(capacity);
    this.p_W = new Float64Array(3 * capacity); this.n_W = new Float64Array(3 * capacity);
    this.gap = new Float64Array(capacity); this.friction = new Float64Array(capacity);
    this.restitution = new Float64Array(capacity); this.compliance = new Float64Array(capacity);
    this.damping = new Float64Array(capacity);
  }

  get capacity(): number { return this.gap.length; }

  /** makes room for n contacts, keeping the first `count` (doubling, so growth is amortized) */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(n, 2 * this.capacity), c = this.count;
    this.compA = grown(this.compA, 1, cap, c); this.compB = grown(this.compB, 1, cap, c);
    this.shapeA = grown(this.shapeA, 1, cap, c); this.shapeB = grown(this.shapeB, 1, cap, c);
    this.featureA = grown(this.featureA, 1, cap, c); this.featureB = grown(this.featureB, 1, cap, c);
    this.p_W = grown(this.p_W, 3, cap, c); this.n_W = grown(this.n_W, 3, cap, c);
    this.gap = grown(this.gap, 1, cap, c); this.friction = grown(this.friction, 1, cap, c);
    this.restitution = grown(this.restitution, 1, cap, c); this.compliance = grown(this.compliance, 1, cap, c);
    this.damping = grown(this.damping, 1, cap, c);
  }

  /** appends a contact (after `reserve` or growing here) and returns its index */
  push(compA: number, shapeA: number, featureA: number, compB: number, shapeB: number, featureB: number,
    px: number, py: number, pz: number, nx: number, ny: number, nz: number, gap: number): number {
    if (this.count === this.capacity) this.reserve(this.count + 1);
    const i = this.count++;
    this.compA[i] = compA; this.shapeA[i] = shapeA; this.featureA[i] = featureA;
    this.compB[i] = compB; this.shapeB[i] = shapeB; this.featureB[i] = featureB;
    this.p_W[3 * i] = px; this.p_W[3 * i + 1] = py; this.p_W[3 * i + 2] = pz;
    this.n_W[3 * i] = nx; this.n_W[3 * i + 1] = ny; this.n_W[3 * i + 2] = nz;
    this.gap[i] = gap;
    return i;
  }
}

/** a copy of a with room for `cap` items of k numbers, the first `count` kept */
function grown<T extends Int32Array | Float64Array>(a: T, k: number, cap: number, count: number): T {
  const b = new (a.constructor as { new(n: number): T })(k * cap);
  b.set(a.subarray(0, k * count));
  return b;
}

/** the material of a shape's surface (docs/contact.md, "Materials") */
export interface SurfaceMaterial {
  /** Coulomb friction coefficient μ ≥ 0 */
  friction: number;
  /** Newton restitution e ∈ [0, 1] */
  restitution: number;
  /** compliance α ≥ 0, m/N (0: rigid) */
  compliance: number;
  /** damping β ≥ 0, s */
  damping: number;
}
