/**
 * The contact part of a Model (docs/model-format.md, "Contact"): the contact solver's settings,
 * the collision shapes, and the joints' limits and motors. Plain read-only data, made by the
 * loader or the builder; the step turns them into rows (src/contact).
 */
import type { ShapeGeometry } from '../collision/geometry.js';

/** the model's `contact` entry, defaults filled in */
export interface ContactSettings {
  /** the complementarity solver: 'auto' picks by the number of rows (docs/contact.md) */
  readonly solver: 'auto' | 'pivoting' | 'lemke' | 'pgs';
  /** detection margin, m: contacts are known this far before they touch */
  readonly margin: number;
  /** fraction of a penetration corrected per step */
  readonly erp: number;
  /** closing speeds below this bounce without restitution, m/s */
  readonly restitutionThreshold: number;
  /** pgs's friction law: 'box' (two directions) or 'coulomb' (the friction disc) */
  readonly friction: 'box' | 'coulomb';
  /** lemke's polyhedral friction directions per contact */
  readonly directions: number;
  /** pgs's sweeps at most */
  readonly iterations: number;
  /** pgs's relative tolerance */
  readonly tolerance: number;
}

/** the contact settings of a model file without a `contact` entry */
export const DEFAULT_CONTACT: ContactSettings = Object.freeze({
  solver: 'auto', margin: 0.01, erp: 0.2, restitutionThreshold: 0.05, friction: 'coulomb',
  directions: 8, iterations: 30, tolerance: 1e-5,
});

/** the integrators that take contacts, limits and motors, for messages */
export const NOT_RK4 = 'implicit-euler, trapezoidal, symplectic-euler or bridson-marino';

/** a surface's material */
export interface ShapeMaterial {
  /** Coulomb friction coefficient μ ≥ 0 */
  readonly friction: number;
  /** Newton restitution e ∈ [0, 1] */
  readonly restitution: number;
  /** compliance α ≥ 0, m/N (0: rigid) */
  readonly compliance: number;
  /** damping β ≥ 0, s (000 §0.11) */
  readonly damping: number;
}

/** a named surface material (model file `materials`) */
export interface NamedMaterial extends ShapeMaterial {
  /** the name shapes give as `material` */
  readonly name: string;
}

/** what replaces the combined material of contacts between two named materials (`materialPairs`) */
export interface MaterialPair {
  /** the two materials' names (one name twice: a material against itself) */
  readonly materials: readonly [string, string];
  /** the pair's friction coefficient μ, replacing the combined one */
  readonly friction?: number;
  /** the pair's restitution e ∈ [0, 1] */
  readonly restitution?: number;
  /** the pair's compliance α ≥ 0, m/N */
  readonly compliance?: number;
  /** the pair's damping β ≥ 0, s */
  readonly damping?: number;
}

/** a collision shape of the model */
export interface ShapeEntry {
  /**
   * "body:<name>", "body:<name>.shapes[i]", "particle:<name>" or "world.shapes[i]", for messages and
   * reports
   */
  readonly name: string;
  /** the shape's type (a height field is a mesh) */
  readonly kind: 'sphere' | 'capsule' | 'box' | 'plane' | 'cylinder' | 'ellipsoid' | 'hull' | 'mesh';
  /** the component it is fixed to, −1 for the world */
  readonly component: number;
  /** sphere [r], capsule [r, half length of the cylinder], box [hx, hy, hz], cylinder [r, half length], ellipsoid [rx, ry, rz], plane [] */
  readonly params: readonly number[];
  /** position in the component's frame (world for world shapes), m */
  readonly position: readonly [number, number, number];
  /** orientation [w, x, y, z] in the component's frame (world for world shapes) */
  readonly orientation: readonly [number, number, number, number];
  /** the surface's material */
  readonly material: ShapeMaterial;
  /** false: the shape takes part in no contact */
  readonly collide: boolean;
  /** a hull's or a mesh's data (required for those kinds, absent otherwise) */
  readonly geometry?: ShapeGeometry;
  /** collision group bits (default 1) */
  readonly group?: number;
  /** the groups it pairs with (default all, 0xffffffff): a pair needs (g_A & m_B) and (g_B & m_A) */
  readonly mask?: number;
  /** its named material (Model.materials), whose pair overrides apply to its contacts */
  readonly materialName?: string;
}

/** a limit on a joint coordinate */
export interface JointLimit {
  /** the joint's index in model.constraints */
  readonly constraint: number;
  /** the joint's name */
  readonly joint: string;
  /** the coordinate's index in the joint's readout coordinates */
  readonly coordinate: number;
  /** the coordinate's name (a hinge's "rz", …) */
  readonly coordinateName: string;
  /** the lower bound, m or rad (−Infinity for none) */
  readonly lower: number;
  /** the upper bound, m or rad (+Infinity for none) */
  readonly upper: number;
  /** Newton restitution e ∈ [0, 1] at the bounds */
  readonly restitution: number;
  /** compliance α ≥ 0 of the limit rows, m/N or rad/(N·m) (0: hard) */
  readonly compliance: number;
  /** damping β ≥ 0 of compliant limit rows, s */
  readonly damping: number;
}

/** a motor on a joint coordinate: a row whose impulse is bounded by h·maxForce */
export interface JointMotor {
  /** the joint's index in model.constraints */
  readonly constraint: number;
  /** the joint's name */
  readonly joint: string;
  /** the coordinate's index in the joint's readout coordinates */
  readonly coordinate: number;
  /** the coordinate's name */
  readonly coordinateName: string;
  /** 'velocity': ċ → target; 'position': ċ → (target − c)/time */
  readonly mode: 'velocity' | 'position';
  /** the target rate (m/s, rad/s) or position (m, rad) */
  readonly target: number;
  /** a position motor's time constant τ, s (null: one step) */
  readonly time: number | null;
  /** the largest force or torque, N or N·m */
  readonly maxForce: number;
}

/**
 * true when two of the model's shapes can touch: a collidable shape on a dynamic component, and
 * another collidable one
 */
export function canTouch(shapes: readonly ShapeEntry[], dynamic: (component: number) => boolean): boolean {
  const live = shapes.filter((s) => s.collide);
  return live.length > 1 && live.some((s) => s.component >= 0 && dynamic(s.component));
}
