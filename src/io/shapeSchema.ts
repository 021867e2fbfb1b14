/**
 * The collision part of the model file's zod schema (docs/model-format.md, Contact): shape
 * objects (solid primitives, convex hulls, triangle meshes, height fields, planes) in their three
 * places (a body's `shape`, a body's `shapes[]` with a pose in body coordinates, `world.shapes[]`
 * at a world pose), their surface fields and collision filter, and the named surface materials
 * with their per-pair overrides. Cross-field rules (a mesh's vertices or file, a material's name
 * being known, a hull's points spanning a volume) are the loader's (src/io/shapes.ts).
 */
import * as z from 'zod';
import {
  doc, ONLY_ON_ITS_TYPE, name, reference, positive, nonNegative, unit, vec3, positive3, quat, flag,
} from './schemaParts.js';

// surface materials of collision shapes (how two combine: docs/contact.md)
export const MATERIAL_DOCS = {
  friction: 'Coulomb friction coefficient μ ≥ 0 of the surface (default 0.5)',
  restitution: 'Newton restitution e ∈ [0, 1] of the surface (default 0)',
  compliance: 'contact compliance α ≥ 0 of the surface, m/N (default 0: rigid)',
  damping: 'contact damping β ≥ 0 of the surface, s (default 0; acts with compliance)',
  collide: 'false: the shape takes part in no contact (default true)',
} as const;

/** the largest collision group or mask: 32 bits */
const ALL_GROUPS = 0xffffffff;
/** a collision group or mask: an integer of 32 bits */
export const bits = (d: string) => doc(z.number().int().min(0).max(ALL_GROUPS), d);

/** the surface fields, named material and collision filter of a shape object */
const surface = () => ({
  material: reference('the name of an entry of the top-level `materials`: the surface takes its fields;'
    + ' the shape\'s own friction, restitution, compliance and damping override them').optional(),
  friction: nonNegative(MATERIAL_DOCS.friction).optional(),
  restitution: unit(MATERIAL_DOCS.restitution).optional(),
  compliance: nonNegative(MATERIAL_DOCS.compliance).optional(),
  damping: nonNegative(MATERIAL_DOCS.damping).optional(),
  collide: flag(MATERIAL_DOCS.collide).default(true),
  group: bits('collision group bits, an integer in [0, 4294967295] (default 1); two shapes pair only when'
    + ' each one\'s group shares a bit with the other\'s mask').optional(),
  mask: bits('the groups this shape pairs with, an integer of bits in [0, 4294967295] (default 4294967295:'
    + ' all)').optional(),
});

/** the five solid primitives (cylinder and capsule axes along z), each with the fields `extra` */
function solids<E extends z.ZodRawShape>(extra: () => E) {
  return [
    z.strictObject({ type: z.literal('box'), size: positive3('edge lengths along x, y, z, m'), ...extra() }),
    z.strictObject({ type: z.literal('sphere'), radius: positive('radius, m'), ...extra() }),
    z.strictObject({
      type: z.literal('cylinder'), radius: positive('radius, m'), length: positive('length along z, m'),
      ...extra(),
    }),
    z.strictObject({
      type: z.literal('capsule'), radius: positive('radius, m'),
      length: nonNegative('length of the cylindrical part along z, m'), ...extra(),
    }),
    z.strictObject({
      type: z.literal('ellipsoid'), radii: positive3('semi-axes along x, y, z, m'), ...extra(),
    }),
  ] as const;
}

const vertexIndex = () => z.number().int().nonnegative();

/** the shapes given by their points: convex hull, triangle mesh, height field, each with `extra` */
function pointShapes<E extends z.ZodRawShape>(extra: () => E) {
  return [
    z.strictObject({
      type: z.literal('hull'),
      points: doc(z.array(vec3('a point, m')).min(4, ONLY_ON_ITS_TYPE),
        'points in the shape\'s frame, m: the shape is their convex hull (at least 4, not all in one plane)'),
      ...extra(),
    }),
    z.strictObject({
      type: z.literal('mesh'),
      vertices: doc(z.array(vec3('a vertex, m')),
        'vertex positions in the shape\'s frame, m (with triangles; or give file)').optional(),
      triangles: doc(z.array(z.tuple([vertexIndex(), vertexIndex(), vertexIndex()])), 'each triangle\'s vertex'
        + ' indices (from 0), counter-clockwise seen from outside or from above').optional(),
      file: doc(z.string().min(1, ONLY_ON_ITS_TYPE), 'instead of vertices and triangles: an OBJ or STL file,'
        + ' its path relative to the model file (read by vinculum/node)').optional(),
      ...extra(),
    }),
    z.strictObject({
      type: z.literal('heightfield'),
      size: doc(z.tuple([z.number().positive(), z.number().positive()]),
        '[Lx, Ly]: the grid spans [−Lx/2, Lx/2] × [−Ly/2, Ly/2] of the shape\'s x-y plane, m'),
      heights: doc(z.array(z.array(z.number()).min(2, ONLY_ON_ITS_TYPE)).min(2, ONLY_ON_ITS_TYPE),
        'heights z, m: heights[j][i] at x = −Lx/2 + i Lx/(nx − 1), y = −Ly/2 + j Ly/(ny − 1): ny ≥ 2 rows'
        + ' (along y) of nx ≥ 2 numbers each (along x)'),
      ...extra(),
    }),
  ] as const;
}

// a body's `shape`: a primitive centred on the centre of mass, or points in body coordinates
export const ShapeSchema = doc(z.discriminatedUnion('type', [...solids(surface), ...pointShapes(surface)]),
  'a body\'s shape: a solid primitive centred on the centre of mass with the body\'s axes, or a hull, mesh or'
  + ' height field with its points in body coordinates; it gives the mass properties and collides', 'Shape');

// one of a body's `shapes`: at a pose in body coordinates, with its own density
const bodyPose = () => ({
  position: vec3('origin of the shape\'s frame in body coordinates, m').default([0, 0, 0]),
  orientation: quat('orientation [w, x, y, z] of the shape\'s frame in body coordinates, normalised on load')
    .default([1, 0, 0, 0]),
  density: positive('density of this shape, kg/m³ (default: the body\'s density)').optional(),
  ...surface(),
});
export const BodyShapeSchema = doc(
  z.discriminatedUnion('type', [...solids(bodyPose), ...pointShapes(bodyPose)]),
  'one of a body\'s shapes, at a pose in body coordinates; without the body\'s inertia the shapes give its'
  + ' mass, centre of mass and inertia', 'BodyShape');

// a fixed shape of the world: a plane or any solid, at a world pose
const worldPose = () => ({
  position: vec3('origin of the shape\'s frame in world, m').default([0, 0, 0]),
  orientation: quat('orientation [w, x, y, z] of the shape\'s frame in world, normalised on load'
    + ' (default [1, 0, 0, 0])').optional(),
  ...surface(),
});
export const WorldShapeSchema = doc(z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('plane'),
    normal: vec3('instead of orientation: the outward normal in world (the frame\'s +z); need not be unit,'
      + ' not zero').optional(),
    ...worldPose(),
  }),
  ...solids(worldPose),
  ...pointShapes(worldPose),
]), 'a shape fixed in the world: a plane (the half-space below its frame\'s x-y plane), a solid primitive,'
+ ' a hull, a mesh or a height field', 'WorldShape');

export const WorldSchema = doc(z.strictObject({
  shapes: doc(z.array(WorldShapeSchema), 'the fixed shapes (default none)').default([]),
}), 'the fixed world: its collision shapes', 'World');

// named surface materials, and what replaces the combined material of two of them
export const SurfaceMaterialSchema = doc(z.strictObject({
  name: name('unique name among the materials; shapes refer to it as "material"'),
  friction: nonNegative(MATERIAL_DOCS.friction).default(0.5),
  restitution: unit(MATERIAL_DOCS.restitution).default(0),
  compliance: nonNegative(MATERIAL_DOCS.compliance).default(0),
  damping: nonNegative(MATERIAL_DOCS.damping).default(0),
}), 'a named surface material (not a spring\'s "material", which is its tension law)', 'SurfaceMaterial');

export const MaterialPairSchema = doc(z.strictObject({
  materials: doc(z.tuple([reference('a material name'), reference('a material name')]),
    'the two materials (names in `materials`; one name twice for a material against itself)'),
  friction: nonNegative('μ of their contacts, instead of the combined value').optional(),
  restitution: unit('e of their contacts, instead of the combined value').optional(),
  compliance: nonNegative('α of their contacts, m/N, instead of the combined value').optional(),
  damping: nonNegative('β of their contacts, s, instead of the combined value').optional(),
}), 'the material of contacts between shapes of two named materials: each field given replaces the combined'
+ ' value', 'MaterialPair');

export type ShapeJson = z.output<typeof ShapeSchema>;
export type BodyShapeJson = z.output<typeof BodyShapeSchema>;
export type WorldShapeJson = z.output<typeof WorldShapeSchema>;
export type SurfaceMaterialJson = z.output<typeof SurfaceMaterialSchema>;
export type MaterialPairJson = z.output<typeof MaterialPairSchema>;
