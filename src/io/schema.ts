/**
 * The JSON model format, version 1, as a zod 4 schema (docs/model-format.md). Objects are
 * strict: an unknown field is an error. Numbers must be finite (zod 4's `z.number()` rejects
 * ±Infinity, which is what JSON.parse makes of literals like 1e400). Cross-field rules (inertia
 * or shape, mass or density, references between components, a plane's normal or orientation, a
 * motor's velocity or position, a solver's own fields) are checked by the loader, which
 * knows the whole model; the JSON Schema generated from this file (src/io/jsonSchema.ts) covers
 * everything else. Field descriptions live in the local `modelDocs` registry so that they end up
 * in the JSON Schema without touching zod's global registry.
 */
import * as z from 'zod';
import { INTEGRATORS } from '../integrators/names.js';
import { DEFAULT_SETTINGS, STABILIZATION_DEFAULTS as SD } from '../model/model.js';
import { DEFAULT_CONTACT as DC } from '../model/contactModel.js';
import type { JointType } from '../constraints/jointLayout.js';
import {
  doc, ONLY_ON_ITS_TYPE, name, reference, positive, nonNegative, unit, vec3, quat, flag,
} from './schemaParts.js';
import {
  bits, MATERIAL_DOCS, ShapeSchema, BodyShapeSchema, WorldSchema, SurfaceMaterialSchema,
  MaterialPairSchema,
} from './shapeSchema.js';

export { modelDocs, NAME_PATTERN, type DocMeta } from './schemaParts.js';
export {
  ShapeSchema, BodyShapeSchema, WorldShapeSchema, WorldSchema, SurfaceMaterialSchema, MaterialPairSchema,
  type ShapeJson, type BodyShapeJson, type WorldShapeJson, type SurfaceMaterialJson, type MaterialPairJson,
} from './shapeSchema.js';

/** the format version this loader reads */
export const MODEL_FORMAT_VERSION = 1;

/**
 * The smallest step a model file may give (s). Time and coordinates are doubles: below this a
 * step's increment to a time or coordinate of order 1 keeps fewer than 4 digits (2.2e-16 / 1e-12),
 * one simulated second takes 1e12 steps, and no mechanics in the engine's scope (up to GHz
 * vibrations, h ≈ 1e-10 s) needs it. docs/model-format.md, Limits.
 */
export const MIN_STEP = 1e-12;
export const STEP_RULE = `below ${MIN_STEP} s a step is lost in the rounding of the time and coordinates`
  + ' (docs/model-format.md, Limits)';

/** the rules whose message the loader adds to its wording of a bound (`must be >= 1e-12 (got 1e-300): …`) */
export const EXPLAINED_RULES: ReadonlySet<string> = new Set([STEP_RULE]);

// point references: a particle or marker name, or a fixed world point
const worldPoint = doc(z.tuple([z.literal('world'), vec3('world position, m')]), 'a fixed world point ["world", [x, y, z]] (m)');
export const PointRefSchema = doc(
  z.union([reference('a particle or marker name'), worldPoint], { error: 'expected a particle or marker name, or ["world", [x, y, z]]' }),
  'a point: the name of a particle or marker, or ["world", [x, y, z]] for a fixed world point',
  'PointRef',
);

// axial materials
export const MATERIAL_NAMES = ['linear', 'quadratic-strain', 'exponential-ligament'] as const;
const materialObject = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('linear') }),
  z.strictObject({ type: z.literal('quadratic-strain') }),
  z.strictObject({
    type: z.literal('exponential-ligament'),
    toeStrain: positive('strain ε_t at the end of the exponential toe region (dimensionless)').default(0.03),
    toeShape: positive('exponential rate B in the toe region (dimensionless)').default(30),
  }),
]);
export const MaterialSchema = doc(
  z.union([z.enum(MATERIAL_NAMES), materialObject], {
    error: 'expected "linear", "quadratic-strain", "exponential-ligament" or an object {"type": …}',
  }),
  'tension law F(l, l̇) of the spring: a material name, or an object with "type" and its parameters',
  'Material',
);

export const ParticleSchema = doc(z.strictObject({
  name: name('unique name (particles, bodies and markers share one namespace)'),
  mass: positive('mass, kg'),
  position: vec3('initial position in world, m'),
  velocity: vec3('initial velocity in world, m/s').default([0, 0, 0]),
  dynamic: flag('false: the particle stays where it is (a fixed anchor)').default(true),
  damping: nonNegative('linear damping coefficient d, N·s/m (f = −d v)').default(0),
  radius: positive('collision radius, m: the particle then collides as a sphere'
    + ' (default: it does not collide)').optional(),
  friction: nonNegative(`with radius: ${MATERIAL_DOCS.friction}`).optional(),
  restitution: unit(`with radius: ${MATERIAL_DOCS.restitution}`).optional(),
  compliance: nonNegative(`with radius: ${MATERIAL_DOCS.compliance}`).optional(),
  contactDamping: nonNegative(`with radius: ${MATERIAL_DOCS.damping}`).optional(),
  collide: flag(`with radius: ${MATERIAL_DOCS.collide}`).optional(),
  material: reference('with radius: the name of an entry of `materials`; the particle\'s own surface fields'
    + ' override its fields').optional(),
  group: bits('with radius: collision group bits (default 1)').optional(),
  mask: bits('with radius: the groups it pairs with (default all)').optional(),
}), 'a point mass; with a radius it collides as a sphere', 'Particle');

export const BodySchema = doc(z.strictObject({
  name: name('unique name (particles, bodies and markers share one namespace)'),
  mass: positive('mass, kg (with shapes and no density: the shapes\' mass properties scaled to this mass)')
    .optional(),
  density: positive('density, kg/m³, with a shape or shapes: mass = density × volume (a shape\'s own density'
    + ' overrides it)').optional(),
  inertia: doc(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()]),
    '[Ixx, Iyy, Izz, Ixy, Ixz, Iyz], kg·m²: inertia tensor entries about the centre of mass in body axes'
    + ' (not with shape; with shapes, the shapes only collide)').optional(),
  shape: ShapeSchema.optional(),
  shapes: doc(z.array(BodyShapeSchema),
    'several shapes, each at a pose in body coordinates (instead of shape)')
    .optional(),
  com: vec3('centre of mass in body coordinates, m (default [0, 0, 0]; with shapes or a hull or mesh shape it'
    + ' comes from them, unless inertia is given)').optional(),
  position: vec3('initial position of the body frame origin in world, m').default([0, 0, 0]),
  orientation: quat('initial orientation [w, x, y, z] (body → world), normalised on load').default([1, 0, 0, 0]),
  velocity: vec3('initial world velocity of the frame origin, m/s').default([0, 0, 0]),
  angularVelocity: vec3('initial angular velocity in world axes, rad/s').default([0, 0, 0]),
  dynamic: flag('false: the body stays where it is').default(true),
  linearDamping: nonNegative('damping of the centre-of-mass velocity, N·s/m').default(0),
  angularDamping: nonNegative('damping of the angular velocity, N·m·s/rad').default(0),
}), 'a rigid body: give inertia with mass, or a shape or shapes with density or mass', 'Body');

export const MarkerSchema = doc(z.strictObject({
  name: name('unique name (particles, bodies and markers share one namespace)'),
  body: reference('the body it is fixed to'),
  location: vec3('position in body coordinates, m'),
}), 'a named point fixed on a body, usable as a point reference', 'Marker');

// forces
const springParameters = {
  name: name('name, unique among forces (default "<type>#<index>")').optional(),
  stiffness: nonNegative('stiffness k, N/m'),
  damping: nonNegative('damping d, N·s/m (F = … + d l̇)').default(0),
  restLength: nonNegative('rest length, m (default: the initial length)').optional(),
  material: MaterialSchema.default('linear'),
};
export const AxialSpringSchema = doc(z.strictObject({
  type: z.literal('axial-spring'),
  points: doc(z.tuple([PointRefSchema, PointRefSchema]), 'the two end points'),
  ...springParameters,
}), 'a spring between two points', 'AxialSpring');

export const MultipointSpringSchema = doc(z.strictObject({
  type: z.literal('multipoint-spring'),
  points: doc(z.array(PointRefSchema).min(2, ONLY_ON_ITS_TYPE), 'the path: end, via points…, end (segment i runs from points[i] to points[i+1])'),
  ...springParameters,
  passive: doc(z.array(z.number().int().nonnegative()),
    'indices of segments that carry the tension but add no length (default: none)').optional(),
}), 'a spring along a path of via points; its length is the sum of the active segments', 'MultipointSpring');

export const FrameSpringSchema = doc(z.strictObject({
  type: z.literal('frame-spring'),
  name: name('name, unique among forces (default "<type>#<index>")').optional(),
  bodyA: reference('body name, or "world"'),
  bodyB: reference('body name, or "world"'),
  frame: doc(z.strictObject({
    position: vec3('origin of the spring frame in world at load time, m'),
    orientation: quat('orientation [w, x, y, z] of the spring frame in world at load time').default([1, 0, 0, 0]),
  }), 'the frame where the spring sits, in world at load time; it is fixed to both bodies there'),
  translationalStiffness: nonNegative('k_t, N/m'),
  rotationalStiffness: nonNegative('k_r, N·m/rad'),
  translationalDamping: nonNegative('d_t, N·s/m').default(0),
  rotationalDamping: nonNegative('d_r, N·m·s/rad').default(0),
}), 'a 6-DOF bushing between two bodies (or a body and the world)', 'FrameSpring');

export const FORCE_TYPES = ['axial-spring', 'multipoint-spring', 'frame-spring'] as const;
export const ForceSchema = doc(z.discriminatedUnion('type', [AxialSpringSchema, MultipointSpringSchema, FrameSpringSchema]),
  'a force element, selected by "type"', 'Force');

// joints: bilateral constraints between two bodies (or a body and the world), or between two points
export const JOINT_TYPES = ['ball', 'hinge', 'slider', 'cylindrical', 'universal', 'gimbal', 'planar', 'point-on-plane', 'point-on-line', 'weld'] as const satisfies readonly JointType[];
// every preset of src/constraints/jointLayout.ts is listed, and nothing else
type MissingJointType = Exclude<JointType, (typeof JOINT_TYPES)[number]>;
const jointTypesComplete: [MissingJointType] extends [never] ? true : false = true;
void jointTypesComplete;

const perRow = (d: string, positive = false) => {
  const n = positive ? z.number().positive() : z.number().nonnegative();
  return doc(z.union([n, z.array(n).min(1, ONLY_ON_ITS_TYPE)], { error: 'expected a number, or an array with one number per row' }), d);
};

/** a joint frame fixed in one side: position and orientation in that body's coordinates */
const bodyFrame = (d: string) => doc(z.strictObject({
  position: vec3('origin of the frame in the body\'s coordinates, m').default([0, 0, 0]),
  orientation: quat('orientation [w, x, y, z] of the frame in the body\'s coordinates').default([1, 0, 0, 0]),
}), d);

// joint limits and motors, keyed by coordinate name (docs/model-format.md, Limits and motors)
const bound = (d: string) => doc(z.number().nullable(), d);
const bounds = () => z.tuple([bound('lower bound, m or rad; null: none'),
  bound('upper bound, m or rad; null: none')]);
const range = () => doc(bounds(),
  '[lower, upper] on the coordinate (m or rad; null for no bound), lower ≤ upper');
export const LimitSchema = doc(z.union([
  range(),
  z.strictObject({
    range: range(),
    restitution: unit('Newton restitution e ∈ [0, 1] when the coordinate hits a bound (default 0)').default(0),
    compliance: nonNegative('compliance α ≥ 0 of the limit, m/N or rad/(N·m) (default 0: hard)').default(0),
    damping: nonNegative('damping β ≥ 0 of a compliant limit, s (default 0)').default(0),
  }),
], { error: 'expected [lower, upper] or {"range": [lower, upper], …}' }),
'a limit on one joint coordinate: [lower, upper], or an object with range and its restitution, compliance'
  + ' and damping',
'Limit');

export const MotorSchema = doc(z.strictObject({
  velocity: doc(z.number(),
    'a velocity motor: the target rate of the coordinate, m/s or rad/s (give velocity or position)').optional(),
  position: doc(z.number(),
    'a position motor: the target value of the coordinate, m or rad (give velocity or position)').optional(),
  time: positive('a position motor\'s time constant τ, s: it drives at the rate (target − c)/τ'
    + ' (default: one step)').optional(),
  maxForce: positive('the largest force or torque the motor applies, N or N·m'),
}), 'a motor on one joint coordinate: a velocity or a position target, within ±maxForce', 'Motor');

export const FrameJointSchema = doc(z.strictObject({
  type: doc(z.enum(JOINT_TYPES), 'the joint type (docs/model-format.md, Joints)'),
  name: name('name, unique among joints (default "<type>#<index>")').optional(),
  bodyA: reference('body name, or "world"'),
  bodyB: reference('body name, or "world"'),
  frame: doc(z.strictObject({
    position: vec3('origin of the joint frame in world at load time, m'),
    orientation: quat('orientation [w, x, y, z] of the joint frame in world at load time (default [1, 0, 0, 0])').optional(),
  }), 'the joint frame in world at load time; it is fixed to both bodies there (give frame, or position with axis)').optional(),
  position: vec3('origin of the joint frame in world at load time, m (instead of frame)').optional(),
  axis: vec3('direction in world of the joint frame\'s z axis at load time: the hinge, slider or cylinder axis (instead of frame.orientation)').optional(),
  frameA: bodyFrame('frame C fixed in bodyA, in bodyA\'s coordinates (in world for "world"); with frameB, instead of frame: the joint then need not hold at load time').optional(),
  frameB: bodyFrame('frame D fixed in bodyB, in bodyB\'s coordinates (in world for "world"); with frameA, instead of frame').optional(),
  collide: flag('true: the two components it joins may collide (default false: joined components do not)')
    .default(false),
  compliance: perRow('compliance α ≥ 0 per row (m/N for translational rows, rad/(N·m) for rotational ones): one value for all rows, or one per row; default 0 (hard)').optional(),
  damping: perRow('damping β ≥ 0 (s) of the compliant rows: one value (the compliant rows\' when the joint has any, else every row\'s), or one per row (0 on hard rows, except under stabilization "spook" without rk4, where it is a hard row\'s relaxation d = β/h); default 0').optional(),
  stiffness: perRow('instead of compliance: stiffness k > 0 per row (N/m, N·m/rad): one value or one per row', true).optional(),
  dampingRatio: nonNegative('with stiffness: the damping ratio ζ of each row (default 0)').optional(),
  limits: doc(z.record(z.string(), LimitSchema),
    'limits on the joint\'s coordinates, by name ("rz": [-0.5, 0.5]); default none').optional(),
  motors: doc(z.record(z.string(), MotorSchema),
    'motors on the joint\'s coordinates, by name; default none').optional(),
}), 'a joint between two bodies, or a body and the world, at a frame given in world at load time (or at one frame fixed in each side)', 'Joint');

export const DistanceJointSchema = doc(z.strictObject({
  type: z.literal('distance'),
  name: name('name, unique among joints (default "distance#<index>")').optional(),
  points: doc(z.tuple([PointRefSchema, PointRefSchema]), 'the two points whose distance is held'),
  length: positive('the distance to hold, m (default: the initial distance)').optional(),
  compliance: nonNegative('compliance α ≥ 0, m/N; default 0 (hard)').optional(),
  damping: nonNegative('damping β ≥ 0, s, with compliance (on a hard constraint only under stabilization "spook" without rk4, as its relaxation d = β/h); default 0').optional(),
  stiffness: positive('instead of compliance: stiffness k > 0, N/m').optional(),
  collide: flag('true: the two components it joins may collide (default false: joined components do not)')
    .default(false),
  dampingRatio: nonNegative('with stiffness: the damping ratio ζ (default 0)').optional(),
}), 'a distance constraint between two points (particles, markers or a fixed world point)', 'DistanceJoint');

export const JOINT_KINDS = [...JOINT_TYPES, 'distance'] as const;
export const JointEntrySchema = doc(z.discriminatedUnion('type', [FrameJointSchema, DistanceJointSchema]),
  'a joint or distance constraint, selected by "type"', 'JointEntry');

export const STABILIZATION_METHODS = ['projection', 'baumgarte', 'spook'] as const;
export const StabilizationSchema = doc(z.strictObject({
  method: doc(z.enum(STABILIZATION_METHODS), 'how constraints are kept: projection after each step, Baumgarte feedback, or SPOOK').default('projection'),
  alpha: nonNegative(`Baumgarte α, 1/s (default ${SD.alpha}); baumgarte only`).optional(),
  beta: nonNegative(`Baumgarte β, 1/s² (default ${SD.beta}); baumgarte only`).optional(),
  relaxation: positive(`SPOOK relaxation d, steps (default ${SD.relaxation}); spook only`).optional(),
  compliance: nonNegative(`SPOOK compliance ε of hard rows, m/N or rad/(N·m) (default ${SD.compliance}); spook only`).optional(),
  velocityMetric: doc(z.enum(['projection', 'mass']), `the metric of the velocity projection: the position projection's (M plus the joints' curvature, or M alone with positionMetric "mass") or M alone at the final positions, as in docs/theory.md §8 (default "${SD.velocityMetric}"); projection only`).optional(),
  positionMetric: doc(z.enum(['projection', 'mass']), `the metric of the position projection: M plus the joints' curvature (converges in fewer factorizations on long chains) or M alone, each Newton step the mass-weighted step of docs/theory.md §8 (default "${SD.positionMetric}"); projection only`).optional(),
}), 'constraint stabilization (default: projection)', 'Stabilization');

// the contact solver (docs/model-format.md, Contact; docs/contact.md)
export const CONTACT_SOLVERS = ['auto', 'pivoting', 'lemke', 'pgs'] as const;
export const ContactSchema = doc(z.strictObject({
  solver: doc(z.enum(CONTACT_SOLVERS),
    'the complementarity solver of contacts, limits and motors: "auto" chooses by the number of rows'
    + ' (docs/contact.md)')
    .default(DC.solver),
  margin: nonNegative('detection margin, m: contacts are known this far before they touch').default(DC.margin),
  erp: unit('the fraction of a penetration (or of a limit\'s violation) corrected per step, 0 … 1').default(DC.erp),
  restitutionThreshold: nonNegative('closing speed below which a contact or limit does not bounce, m/s')
    .default(DC.restitutionThreshold),
  friction: doc(z.enum(['box', 'coulomb']), `pgs's friction law: "box" (two directions) or "coulomb"`
    + ` (the friction disc) (default "${DC.friction}"); pgs and auto only (pivoting always uses box friction,`
    + ' lemke polyhedral cones)').optional(),
  directions: doc(z.number().int().min(3), `lemke's friction directions per contact, an integer ≥ 3`
    + ` (default ${DC.directions}); lemke and auto only`).optional(),
  iterations: doc(z.number().int().min(1), `pgs's sweeps at most, an integer ≥ 1 (default ${DC.iterations});`
    + ' pgs and auto only').optional(),
  tolerance: positive(`pgs's relative residual tolerance (default ${DC.tolerance}); pgs and auto only`).optional(),
}), `contact solver settings (default: solver "${DC.solver}")`, 'Contact');

export const ModelFileSchema = doc(z.strictObject({
  $schema: doc(z.string(), 'optional JSON Schema reference for editors; ignored').optional(),
  version: doc(z.literal(MODEL_FORMAT_VERSION), 'format version, currently 1'),
  description: doc(z.string(), 'free text; ignored').optional(),
  gravity: vec3('gravitational acceleration, m/s²').default([...DEFAULT_SETTINGS.gravity]),
  integrator: doc(z.enum(INTEGRATORS), 'time integrator').default(DEFAULT_SETTINGS.integrator),
  step: doc(z.number().positive({ abort: true }).min(MIN_STEP, { error: STEP_RULE }),
    `step size h, s (at least ${MIN_STEP})`).default(DEFAULT_SETTINGS.step),
  duration: positive('default simulated time for `vinculum run`, s (default 5)').optional(),
  particles: z.array(ParticleSchema).default([]),
  bodies: z.array(BodySchema).default([]),
  markers: z.array(MarkerSchema).default([]),
  forces: z.array(ForceSchema).default([]),
  joints: z.array(JointEntrySchema).default([]),
  stabilization: StabilizationSchema.optional(),
  contact: ContactSchema.optional(),
  world: WorldSchema.optional(),
  materials: doc(z.array(SurfaceMaterialSchema), 'named surface materials, which shapes give as "material"'
    + ' (default none)').default([]),
  materialPairs: doc(z.array(MaterialPairSchema), 'per pair of named materials, the fields that replace their'
    + ' contacts\' combined material (default none)').default([]),
  geometricStiffness: doc(z.boolean(), 'add the geometric stiffness of distance constraints and of joints\' translational rows to the implicit integrators (default false)').default(false),
}), 'a vinculum model file (docs/model-format.md)');

/** a model file after validation, with the defaults filled in */
export type ModelFile = z.output<typeof ModelFileSchema>;
export type PointRefJson = z.output<typeof PointRefSchema>;
export type MaterialJson = z.output<typeof MaterialSchema>;
export type ForceJson = z.output<typeof ForceSchema>;
export type BodyJson = z.output<typeof BodySchema>;
export type JointJson = z.output<typeof JointEntrySchema>;
export type StabilizationJson = z.output<typeof StabilizationSchema>;
export type ParticleJson = z.output<typeof ParticleSchema>;
export type ContactJson = z.output<typeof ContactSchema>;
export type LimitJson = z.output<typeof LimitSchema>;
export type MotorJson = z.output<typeof MotorSchema>;
export type FrameJointJson = z.output<typeof FrameJointSchema>;
