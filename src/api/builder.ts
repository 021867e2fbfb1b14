/**
 * The public model builder: a model in code, with the options of the model file. Each `add…`
 * takes the entry a model file would hold in that section (docs/model-format.md) and checks it
 * against the same zod schema at once, so a wrong option fails at the call that gave it, with the
 * message a file would get (`bodies[1].inertia: expected an array, got number 2`); `addWorldShape`
 * appends to `world.shapes` and `setContact` sets `contact` the same way. `build()` then runs the
 * model-file loader on the collected document: references, shapes, joints with their limits and
 * motors, the stabilization and the contact settings are checked and built by one code path,
 * whether the model came from a file or from code.
 */
import type * as z from 'zod';
import type { Model } from '../model/model.js';
import {
  ParticleSchema, BodySchema, MarkerSchema, ForceSchema, JointEntrySchema, ModelFileSchema, MODEL_FORMAT_VERSION,
  WorldShapeSchema, ContactSchema, SurfaceMaterialSchema, MaterialPairSchema,
} from '../io/schema.js';
import { parseModel, type ParseOptions } from '../io/loader.js';
import { ModelError } from '../model/errors.js';

/** a particle: the entry of the model file's `particles` section (with `radius`, it collides as a sphere) */
export type ParticleOptions = z.input<typeof ParticleSchema>;
/**
 * a rigid body: the entry of `bodies` (inertia with mass, or a shape or shapes with density or mass; the
 * shapes collide)
 */
export type BodyOptions = z.input<typeof BodySchema>;
/** a named point fixed on a body: the entry of `markers` */
export type MarkerOptions = z.input<typeof MarkerSchema>;
/** a force element selected by `type`: the entry of `forces` */
export type ForceOptions = z.input<typeof ForceSchema>;
/** a joint or distance constraint selected by `type`: the entry of `joints` (a joint's `limits` and `motors` included) */
export type JointOptions = z.input<typeof JointEntrySchema>;
/** a shape fixed in the world (a plane, or a solid at a world pose): the entry of `world.shapes` */
export type WorldShapeOptions = z.input<typeof WorldShapeSchema>;
/** the contact solver's settings: the model file's `contact` */
export type ContactOptions = z.input<typeof ContactSchema>;
/** a named surface material: the entry of `materials` */
export type SurfaceMaterialOptions = z.input<typeof SurfaceMaterialSchema>;
/** what replaces the combined material of two named materials: the entry of `materialPairs` */
export type MaterialPairOptions = z.input<typeof MaterialPairSchema>;
/** the model-wide settings of a model file: gravity, integrator, step, stabilization, contact, … */
export type ModelOptions = Omit<z.input<typeof ModelFileSchema>,
  'version' | Section | 'world' | '$schema'>;
/** how `build` reads the mesh files that shapes name (`{"type": "mesh", "file": …}`) */
export type BuildOptions = Pick<ParseOptions, 'meshFile'>;

type Section = 'particles' | 'bodies' | 'markers' | 'forces' | 'joints' | 'materials' | 'materialPairs';

/**
 * Builds a {@link Model} in code from the entries a model file would hold.
 *
 * @example
 * ```ts
 * const model = new ModelBuilder({ gravity: [0, 0, -9.81], step: 0.005 })
 *   .addBody({ name: 'bar', shape: { type: 'box', size: [1, 0.05, 0.05] }, density: 1000, position: [0.5, 0, 0] })
 *   .addJoint({ type: 'hinge', name: 'pivot', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0],
 *     limits: { rz: [-0.5, 0.5] } })
 *   .addWorldShape({ type: 'plane', position: [0, 0, -1], friction: 0.8 })
 *   .setContact({ solver: 'pivoting' })
 *   .build();
 * ```
 */
export class ModelBuilder {
  private readonly doc: Partial<Record<Section, unknown[]>> & Record<string, unknown>;

  /** @param options the model-wide settings (`contact` among them); every one has the model file's default */
  constructor(options: ModelOptions = {}) {
    this.doc = { version: MODEL_FORMAT_VERSION, ...structuredCopy(options), particles: [], bodies: [], markers: [], forces: [], joints: [] };
    // a wrong setting fails here, as it would at the top of a file
    if (!ModelFileSchema.safeParse(this.doc).success) parseModel(this.doc);
  }

  /** adds a particle (point mass) */
  addParticle(options: ParticleOptions): this { return this.add('particles', ParticleSchema, options); }

  /**
   * adds a rigid body: with `inertia` and `mass`, or with a `shape` or `shapes` (each at a pose in body
   * coordinates: primitives, hulls, meshes, height fields) that give its mass properties
   */
  addBody(options: BodyOptions): this { return this.add('bodies', BodySchema, options); }

  /** adds a named surface material, which shapes then name as `material` */
  addMaterial(options: SurfaceMaterialOptions): this {
    return this.add('materials', SurfaceMaterialSchema, options);
  }

  /**
   * sets what replaces the combined material (friction, restitution, compliance, damping) of contacts
   * between two named materials
   */
  addMaterialPair(options: MaterialPairOptions): this {
    return this.add('materialPairs', MaterialPairSchema, options);
  }

  /** adds a marker: a named point fixed on a body, usable as a spring's or distance joint's point */
  addMarker(options: MarkerOptions): this { return this.add('markers', MarkerSchema, options); }

  /** adds a force element: an axial spring, a multi-point (via-point) spring or a frame spring */
  addForce(options: ForceOptions): this { return this.add('forces', ForceSchema, options); }

  /**
   * adds a joint (ball, hinge, slider, …, weld), with its coordinates' `limits` and `motors`, or a
   * distance constraint
   */
  addJoint(options: JointOptions): this { return this.add('joints', JointEntrySchema, options); }

  /**
   * adds a shape fixed in the world: a plane (the half-space below its frame's x-y plane, placed by
   * `position` and `orientation` or `normal`), a solid primitive, a hull, a mesh or a height field,
   * with its surface material and collision filter
   */
  addWorldShape(options: WorldShapeOptions): this {
    // `world` appears in the document with its first shape
    const world = (this.doc.world ??= {}) as { shapes?: unknown[] };
    return this.addTo(world.shapes ??= [], 'world.shapes', WorldShapeSchema, options);
  }

  /** sets the contact solver's settings (the file's `contact`), replacing those given before */
  setContact(options: ContactOptions): this {
    const before = this.doc.contact;
    this.doc.contact = structuredCopy(options);
    if (ContactSchema.safeParse(this.doc.contact).success) return this;
    // the loader words the first problem as it would for a file; the settings before stay
    try {
      parseModel(this.doc);
    } finally {
      if (before === undefined) delete this.doc.contact;
      else this.doc.contact = before;
    }
    throw new ModelError('contact', 'not a valid entry');
  }

  /**
   * Builds the model: checks the references between entries (a joint's bodies, a spring's points)
   * and everything else a model file is checked for. Throws a `ModelError` naming the entry
   * (`joints[0] (hinge "pivot").bodyB: no body named "bar"`). May be called again after more
   * entries are added; each call makes a new, independent Model. A mesh given by `file` needs
   * `options.meshFile`: vinculum/node's `meshFileReader(path)` reads files relative to the folder of
   * the model file `path`; in a browser give the mesh's vertices and triangles instead.
   */
  build(options: BuildOptions = {}): Model {
    return parseModel(this.doc, options);
  }

  /** the model-file document collected so far (a copy): `JSON.stringify` it to save the model */
  toJSON(): Record<string, unknown> {
    return structuredCopy(this.doc);
  }

  private add(section: Section, schema: z.ZodType, entry: unknown): this {
    // `materials` and `materialPairs` appear in the document with their first entry
    return this.addTo(this.doc[section] ??= [], section, schema, entry);
  }

  /** appends a copy of `entry` to `list` (the document's array at `path`) if the schema takes it */
  private addTo(list: unknown[], path: string, schema: z.ZodType, entry: unknown): this {
    const at = list.length;
    list.push(structuredCopy(entry));
    if (schema.safeParse(list[at]).success) return this;
    // the loader words the first problem as it would for a file, with the entry's path
    try {
      parseModel(this.doc);
    } finally {
      list.pop();
    }
    throw new ModelError(`${path}[${at}]`, 'not a valid entry');
  }
}

/**
 * A copy of the plain data in v (arrays and plain objects, to any depth), so that later changes to
 * the caller's arrays do not reach the builder. Anything else (a class instance, a function, a
 * value seen twice on one path: a cycle) is kept as it is, for the schema to reject with its path.
 */
function structuredCopy<T>(v: T): T {
  return copyData(v, new Set()) as T;
}

function copyData(v: unknown, path: Set<object>): unknown {
  if (typeof v !== 'object' || v === null || path.has(v)) return v;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return v;
  path.add(v);
  const out: unknown = Array.isArray(v)
    ? v.map((x) => copyData(x, path))
    : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copyData(x, path)]));
  path.delete(v);
  return out;
}
