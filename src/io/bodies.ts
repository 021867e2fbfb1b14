/**
 * A model file's rigid bodies (docs/model-format.md, Rigid bodies): their mass, centre of mass and
 * inertia from `inertia` with `mass`, or from their shapes, and their collision shapes.
 *
 * From shapes. Shape k (volume V_k, centroid c_k and inertia I_k per unit density in its own frame)
 * sits at the pose (p_k, R_k) in body coordinates and has the density ρ_k (its own `density`, else
 * the body's); src/collision/massProperties.ts sums them (`compound`: m = Σ ρ_k V_k, the centre of
 * mass, and the inertia about it by the parallel-axis theorem). With the body's `mass` instead,
 * the densities (all given, or none: uniform) are weights, scaled so that the total is that mass.
 * The centre of mass then comes from the shapes (a `com` in the file is an error). A single
 * primitive `shape` keeps its place on the centre of mass (`com`, default the origin) and its
 * principal axes along the body's; a hull or mesh `shape` has its points in body coordinates.
 */
import type { ModelAssembler, BodySpec } from '../model/assembler.js';
import type { ShapeEntry } from '../model/contactModel.js';
import { ModelError } from '../model/errors.js';
import { formatValue } from '../model/format.js';
import { shapeVolume, shapePrincipalInertia } from '../math/spatial.js';
import {
  compound, hullMassProperties, meshMassProperties, primitiveMassProperties, type InertiaEntries,
  type MassProperties,
} from '../collision/massProperties.js';
import type { BodyJson, BodyShapeJson, ShapeJson } from './schema.js';
import { bodyShapeEntries, givenByPoints, type ShapeContext } from './shapes.js';

/** why a shape's volume or inertia per kilogram is out of range */
const SIZES = '(its sizes overflow or underflow)';

/**
 * Adds body `s` (at JSON path `at`) and its shapes. A derived mass or inertia that is out of range
 * is reported on the field the file gave: the shape(s) when their own volume or inertia is, else
 * `density` or `mass`.
 */
export function addBody(b: ModelAssembler, s: BodyJson, at: string, ctx: ShapeContext): void {
  if (s.shape && s.shapes) throw new ModelError(`${at}.shapes`, 'give either shape or shapes, not both');
  const entries = bodyShapeEntries(s, at, ctx);
  const spec = bodySpec(s, at, entries);
  let index: number;
  try {
    index = b.addBody(spec, at).index;
  } catch (e) {
    // the assembler's inertia checks, on an inertia computed from the shapes
    const derived = s.shape ? 'shape' : s.shapes && !s.inertia ? 'shapes' : undefined;
    if (derived && e instanceof ModelError && e.path === `${at}.inertia`) {
      const whose = derived === 'shape' ? 'its' : 'their';
      throw new ModelError(`${at}.${derived}`, `${whose} inertia: ${e.detail}`);
    }
    throw e;
  }
  entries.forEach((e, k) => {
    b.addShape({ ...e, component: index }, s.shape ? `${at}.shape` : `${at}.shapes[${k}]`);
  });
}

/** the body's fields other than its mass properties */
function placement(s: BodyJson): Omit<BodySpec, 'mass' | 'inertia' | 'com'> {
  return {
    name: s.name, position: [...s.position], orientation: [...s.orientation], velocity: [...s.velocity],
    angularVelocity: [...s.angularVelocity], dynamic: s.dynamic, linearDamping: s.linearDamping,
    angularDamping: s.angularDamping,
  };
}

function bodySpec(s: BodyJson, at: string, entries: readonly ShapeEntry[]): BodySpec {
  if (s.inertia) return givenInertia(s, at);
  if (!s.shape && !s.shapes) {
    throw new ModelError(at, 'a body needs inertia (with mass), or shape or shapes (with density or mass)');
  }
  // the mass properties come from the shapes, with the body's mass or its density
  if (s.mass !== undefined && s.density !== undefined) {
    throw new ModelError(`${at}.density`, 'give either mass or density with a shape, not both');
  }
  if (s.shape && !givenByPoints(s.shape)) return primitiveShape(s, s.shape, at);
  return fromShapes(s, at, entries);
}

/** mass and inertia as the file gives them; shapes (`shapes`) then only collide */
function givenInertia(s: BodyJson, at: string): BodySpec {
  if (s.shape) throw new ModelError(`${at}.inertia`, 'give either inertia or shape, not both');
  if (s.density !== undefined) {
    throw new ModelError(`${at}.density`, 'density needs a shape; with inertia give mass');
  }
  const k = (s.shapes ?? []).findIndex((x) => x.density !== undefined);
  if (k >= 0) {
    const why = 'with the body\'s inertia the shapes only collide: density does nothing';
    throw new ModelError(`${at}.shapes[${k}].density`, why);
  }
  if (s.mass === undefined) {
    throw new ModelError(`${at}.mass`, 'missing required field (a body with inertia needs mass)');
  }
  return { ...placement(s), mass: s.mass, inertia: [...s.inertia!], com: [...(s.com ?? [0, 0, 0])] };
}

/** the total mass from the body's mass or density (a primitive shape of volume `volume`) */
function massOf(s: BodyJson, at: string, volume: () => number, type: string): number {
  if (s.density === undefined && s.mass === undefined) {
    throw new ModelError(`${at}.mass`, 'missing: a body with a shape needs mass or density');
  }
  if (s.density === undefined) return s.mass!;
  const v = volume();
  if (!(v > 0) || !Number.isFinite(v)) {
    const why = `the volume of this ${type} is ${formatValue(v)} m³, not a positive finite number ${SIZES}`;
    throw new ModelError(`${at}.shape`, why);
  }
  const mass = s.density * v;
  if (!(mass > 0) || !Number.isFinite(mass)) {
    const product = `${formatValue(s.density)} × ${formatValue(v)} = ${formatValue(mass)}`;
    throw new ModelError(`${at}.density`, `density × volume = ${product} kg, not a positive finite mass`);
  }
  return mass;
}

/** a primitive `shape` on the centre of mass: diagonal inertia in the body's axes */
function primitiveShape(s: BodyJson, shape: Exclude<ShapeJson, { type: 'hull' | 'mesh' | 'heightfield' }>,
  at: string): BodySpec {
  const type = shape.type;
  const mass = massOf(s, at, () => shapeVolume(shape), type);
  // the inertia per kilogram is the shape's alone; the inertia then scales with the mass
  const perKg = shapePrincipalInertia(shape, 1);
  if (!perKg.every((v) => v > 0 && Number.isFinite(v))) {
    const why = `the inertia of this ${type} per kilogram is ${formatValue(perKg)} kg·m²`;
    throw new ModelError(`${at}.shape`, `${why}, not positive and finite ${SIZES}`);
  }
  const [ixx, iyy, izz] = shapePrincipalInertia(shape, mass);
  if (![ixx, iyy, izz].every((v) => v > 0 && Number.isFinite(v))) {
    const field = s.density !== undefined ? 'density' : 'mass';
    throw new ModelError(`${at}.${field}`, `the inertia of this ${type} with mass ${formatValue(mass)} kg`
      + ` is ${formatValue([ixx, iyy, izz])} kg·m², not positive and finite`);
  }
  return { ...placement(s), mass, inertia: [ixx, iyy, izz, 0, 0, 0], com: [...(s.com ?? [0, 0, 0])] };
}

/** volume, centre of mass and inertia per unit density of one shape object, in its own frame */
function shapeMass(shape: ShapeJson | BodyShapeJson, entry: ShapeEntry, at: string): MassProperties {
  if (!givenByPoints(shape)) return primitiveMassProperties(shape);
  const g = entry.geometry!;
  if (g.type === 'hull') return hullMassProperties(g);
  if (!g.closed) {
    const what = shape.type === 'heightfield' ? 'a height field' : 'an open mesh';
    const how = 'give the body inertia with mass, or close the mesh';
    throw new ModelError(at, `${what} has no volume for mass properties (${how})`);
  }
  return meshMassProperties(g, at);
}

/** the shapes' densities, or weights scaled to the body's mass (docs/model-format.md, Rigid bodies) */
function densities(s: BodyJson, shapes: readonly (ShapeJson | BodyShapeJson)[], at: string,
  path: (k: number) => string): number[] {
  const own = shapes.map((x) => ('density' in x ? x.density : undefined));
  if (s.mass !== undefined) {
    // with the body's mass, the shapes' densities are weights: all given, or none (uniform)
    const k = own.findIndex((d) => d === undefined), j = own.findIndex((d) => d !== undefined);
    if (k >= 0 && j >= 0) {
      const why = 'missing: with the body\'s mass, give every shape a density (weights) or none';
      throw new ModelError(`${path(k)}.density`, why);
    }
    return own.map((d) => d ?? 1);
  }
  return own.map((d, k) => {
    const rho = d ?? s.density;
    if (rho === undefined) {
      throw new ModelError(`${at}.mass`, `missing: give the body mass or density (or ${path(k)} a density)`);
    }
    return rho;
  });
}

/** mass, centre of mass and inertia from the body's shapes (the file comment's sums) */
function fromShapes(s: BodyJson, at: string, entries: readonly ShapeEntry[]): BodySpec {
  const shapes: (ShapeJson | BodyShapeJson)[] = s.shape ? [s.shape] : s.shapes!;
  const path = (k: number) => (s.shape ? `${at}.shape` : `${at}.shapes[${k}]`);
  if (s.com !== undefined) {
    throw new ModelError(`${at}.com`, 'comes from the shapes (give inertia with mass to set it)');
  }
  if (shapes.length === 0) {
    throw new ModelError(`${at}.shapes`, 'empty: give at least one shape, or inertia with mass');
  }
  const rho = densities(s, shapes, at, path);
  const parts = shapes.map((x, k) => {
    const props = shapeMass(x, entries[k]!, path(k));
    if (!(props.volume > 0) || !Number.isFinite(props.volume)) {
      const why = `its volume is ${formatValue(props.volume)} m³, not a positive finite number`;
      throw new ModelError(path(k), `${why} ${SIZES}`);
    }
    return { props, density: rho[k]!, position: entries[k]!.position, orientation: entries[k]!.orientation };
  });
  const what = `${at}.${s.shape ? 'shape' : 'shapes'}`;
  const body = compound(parts, what);
  // the body's mass scales the weights' mass properties (the centre of mass stays)
  const scale = s.mass !== undefined ? s.mass / body.mass : 1;
  if (!(scale > 0) || !Number.isFinite(scale)) {
    const why = `their mass is ${formatValue(body.mass)} kg per unit density, not positive and finite`;
    throw new ModelError(what, `${why} ${SIZES}`);
  }
  const I = body.inertia.map((v) => v * scale) as InertiaEntries;
  return { ...placement(s), mass: body.mass * scale, inertia: I, com: body.com };
}
