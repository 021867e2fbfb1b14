/**
 * The collision shapes of a model file (docs/model-format.md, Contact): the named surface
 * materials and their pair overrides, the world's fixed shapes, a body's `shape` or `shapes`, and a
 * particle's sphere, each turned into a ShapeEntry of the model with its surface material, its
 * collision filter and, for hulls, meshes and height fields, its geometry (built once here by
 * ConvexHull.fromPoints, TriMesh.from and heightFieldMesh of src/collision). Every error is a
 * ModelError naming the JSON path.
 *
 * Surfaces. A shape with `material` takes that named material's four fields; its own friction,
 * restitution, compliance and damping override them; the defaults fill the rest (friction 0.5, the
 * others 0). Placement. A primitive `shape` sits on the centre of mass with the body's axes; a hull,
 * mesh or height field `shape` has its points in body coordinates (pose the identity); each of a
 * body's `shapes` sits at its own pose in body coordinates; world shapes at their world pose (a
 * plane given by its normal turned by rotationFromZ, ./contact.ts).
 */
import type { ModelAssembler } from '../model/assembler.js';
import type { QuatTuple, Vec3Tuple } from '../model/model.js';
import type { ShapeEntry, ShapeMaterial } from '../model/contactModel.js';
import { ModelError } from '../model/errors.js';
import { quote } from '../model/format.js';
import type { ShapeGeometry } from '../collision/geometry.js';
import { ConvexHull } from '../collision/hull.js';
import { TriMesh } from '../collision/mesh.js';
import { heightFieldMesh } from '../collision/heightfield.js';
import type {
  BodyJson, BodyShapeJson, MaterialPairJson, ParticleJson, ShapeJson, SurfaceMaterialJson, WorldShapeJson,
} from './schema.js';
import { rotationFromZ } from './contact.js';

/** a mesh's vertex and triangle lists, as a mesh file holds them */
export interface MeshArrays {
  /** [[x, y, z], …] or flat x, y, z per vertex */
  readonly vertices: ArrayLike<number> | readonly (readonly number[])[];
  /** [[i, j, k], …] or flat i, j, k per triangle (indices from 0) */
  readonly triangles: ArrayLike<number> | readonly (readonly number[])[];
}

/** reads a mesh file named by a model file (`"file": "floor.obj"`), relative to it; throws on failure */
export type MeshFileReader = (file: string) => MeshArrays;

/** what turning shape objects into entries needs: the named materials and a mesh file reader */
export interface ShapeContext {
  readonly materials: ReadonlyMap<string, ShapeMaterial>;
  readonly meshFile: MeshFileReader | undefined;
  /** the meshes read from files so far, by file name: shapes naming one file share its mesh */
  readonly fileMeshes: Map<string, ShapeGeometry>;
}

/** the surface fields a shape object may give */
interface SurfaceFields {
  material?: string | undefined; friction?: number | undefined; restitution?: number | undefined;
  compliance?: number | undefined; damping?: number | undefined;
}

/** the defaults of a surface without a named material */
const DEFAULT_SURFACE: ShapeMaterial = Object.freeze({
  friction: 0.5, restitution: 0, compliance: 0, damping: 0,
});

/** adds the named materials and their pair overrides; returns the materials by name */
export function addMaterials(b: ModelAssembler, materials: readonly SurfaceMaterialJson[],
  pairs: readonly MaterialPairJson[]): Map<string, ShapeMaterial> {
  const byName = new Map<string, ShapeMaterial>();
  materials.forEach((m, i) => { byName.set(m.name, b.addMaterial({ ...m }, `materials[${i}]`)); });
  pairs.forEach((p, i) => {
    const at = `materialPairs[${i}]`;
    p.materials.forEach((name, k) => {
      if (!byName.has(name)) throw new ModelError(`${at}.materials[${k}]`, unknownMaterial(name, byName));
    });
    b.addMaterialPair({ ...p, materials: [p.materials[0], p.materials[1]] }, at);
  });
  return byName;
}

/** "no material named …", with the names the file gives */
function unknownMaterial(name: string, known: ReadonlyMap<string, unknown>): string {
  const list = [...known.keys()].map((n) => quote(n)).join(', ');
  const given = list ? `the file's materials: ${list}` : 'the file has no materials';
  return `no material named ${quote(name)} (${given})`;
}

/** the surface of a shape object: its named material, overridden field by field by its own */
function surfaceOf(s: SurfaceFields, ctx: ShapeContext, at: string):
Pick<ShapeEntry, 'material' | 'materialName'> {
  let base = DEFAULT_SURFACE;
  if (s.material !== undefined) {
    const named = ctx.materials.get(s.material);
    if (!named) throw new ModelError(`${at}.material`, unknownMaterial(s.material, ctx.materials));
    base = named;
  }
  const material: ShapeMaterial = {
    friction: s.friction ?? base.friction, restitution: s.restitution ?? base.restitution,
    compliance: s.compliance ?? base.compliance, damping: s.damping ?? base.damping,
  };
  return s.material !== undefined ? { material, materialName: s.material } : { material };
}

/** the collision filter of a shape object, when it gives one */
function filterOf(s: { group?: number | undefined; mask?: number | undefined }):
Pick<ShapeEntry, 'group' | 'mask'> {
  const group = s.group !== undefined ? { group: s.group } : {};
  return { ...group, ...(s.mask !== undefined ? { mask: s.mask } : {}) };
}

type AnyShapeJson = ShapeJson | BodyShapeJson | WorldShapeJson;

/** the kind, sizes (ShapeEntry.params) and geometry of a shape object */
function kindAndParams(s: AnyShapeJson, ctx: ShapeContext, at: string):
Pick<ShapeEntry, 'kind' | 'params' | 'geometry'> {
  switch (s.type) {
    case 'sphere': return { kind: 'sphere', params: [s.radius] };
    case 'capsule': return { kind: 'capsule', params: [s.radius, s.length / 2] };
    case 'box': return { kind: 'box', params: [s.size[0] / 2, s.size[1] / 2, s.size[2] / 2] };
    case 'cylinder': return { kind: 'cylinder', params: [s.radius, s.length / 2] };
    case 'ellipsoid': return { kind: 'ellipsoid', params: [...s.radii] };
    case 'plane': return { kind: 'plane', params: [] };
    case 'hull':
      return { kind: 'hull', params: [], geometry: built(at, () => ConvexHull.fromPoints(s.points, at)) };
    case 'mesh': return { kind: 'mesh', params: [], geometry: meshOf(s, ctx, at) };
    case 'heightfield':
      return { kind: 'mesh', params: [], geometry: built(at, () => heightFieldMesh(s, at)) };
  }
}

/** a mesh object's geometry: from its vertices and triangles, or from its file */
function meshOf(s: Extract<AnyShapeJson, { type: 'mesh' }>, ctx: ShapeContext, at: string): ShapeGeometry {
  const lists = s.vertices !== undefined || s.triangles !== undefined;
  if (s.file !== undefined && lists) {
    throw new ModelError(`${at}.file`, 'give either file or vertices and triangles, not both');
  }
  if (s.file === undefined) {
    if (s.vertices === undefined) {
      throw new ModelError(`${at}.vertices`, 'missing: a mesh needs vertices and triangles, or file');
    }
    if (s.triangles === undefined) {
      throw new ModelError(`${at}.triangles`, 'missing: a mesh needs triangles with its vertices');
    }
    const { vertices, triangles } = s;
    return built(at, () => TriMesh.from(vertices, triangles, at));
  }
  const file = s.file;
  if (!ctx.meshFile) {
    const how = 'load the model with vinculum/node\'s loadModel, or give vertices and triangles';
    throw new ModelError(`${at}.file`, `cannot read mesh file ${quote(file)} here (${how})`);
  }
  const known = ctx.fileMeshes.get(file);
  if (known) return known;
  let arrays: MeshArrays;
  try {
    arrays = ctx.meshFile(file);
  } catch (e) {
    const why = e instanceof ModelError ? e.detail : e instanceof Error ? e.message : String(e);
    throw new ModelError(`${at}.file`, `mesh file ${quote(file)}: ${why.split('\n')[0]}`);
  }
  const mesh = built(at, () => TriMesh.from(arrays.vertices, arrays.triangles, at), file);
  ctx.fileMeshes.set(file, mesh);
  return mesh;
}

/**
 * the geometry `make` builds, its errors moved to the JSON path `at`: the builders name the shape
 * `<name>` or `shape "<name>"` (with `name` = at) followed by a field (`.triangles[3]`); for a
 * mesh read from `file`, the message names the file and that field
 */
function built<G extends ShapeGeometry>(at: string, make: () => G, file?: string): G {
  try {
    return make();
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    const prefix = [`shape "${at}"`, at].find((p) => e.path.startsWith(p));
    const rest = prefix !== undefined ? e.path.slice(prefix.length) : '';
    if (file === undefined) throw new ModelError(`${at}${rest}`, e.detail);
    const field = rest.replace(/^\./, '');
    throw new ModelError(`${at}.file`, `mesh file ${quote(file)}${field ? `, ${field}` : ''}: ${e.detail}`);
  }
}

/** adds the world's fixed shapes (`world.shapes`), named by their JSON path */
export function addWorldShapes(b: ModelAssembler, shapes: readonly WorldShapeJson[],
  ctx: ShapeContext): void {
  shapes.forEach((s, i) => {
    const at = `world.shapes[${i}]`;
    let orientation: QuatTuple = s.orientation ? [...s.orientation] : [1, 0, 0, 0];
    // a plane may give its normal instead of an orientation
    if (s.type === 'plane' && s.normal) {
      if (s.orientation) throw new ModelError(`${at}.normal`, 'give either normal or orientation, not both');
      const q = rotationFromZ(s.normal);
      if (!q) throw new ModelError(`${at}.normal`, 'must not be zero');
      orientation = q;
    }
    b.addShape({
      name: at, ...kindAndParams(s, ctx, at), component: -1, position: [...s.position], orientation,
      ...surfaceOf(s, ctx, at), collide: s.collide, ...filterOf(s),
    }, at);
  });
}

/** true when a body's single `shape` has its points in body coordinates (not centred on the com) */
export function givenByPoints<S extends ShapeJson | BodyShapeJson>(s: S):
  s is Extract<S, { type: 'hull' | 'mesh' | 'heightfield' }> {
  return s.type === 'hull' || s.type === 'mesh' || s.type === 'heightfield';
}

/**
 * the entries of a body's shape or shapes (with their geometry), in the file's order, on component
 * −1 until the body exists: the loader reads their geometry for the body's mass properties, then
 * adds them with the body's index
 */
export function bodyShapeEntries(s: BodyJson, at: string, ctx: ShapeContext): ShapeEntry[] {
  if (s.shape) {
    const shape = s.shape, path = `${at}.shape`;
    // a primitive sits on the centre of mass; points are in body coordinates
    const position: Vec3Tuple = givenByPoints(shape) ? [0, 0, 0] : [...(s.com ?? [0, 0, 0])];
    return [{
      name: `body:${s.name}`, ...kindAndParams(shape, ctx, path), component: -1, position,
      orientation: [1, 0, 0, 0], ...surfaceOf(shape, ctx, path), collide: shape.collide, ...filterOf(shape),
    }];
  }
  return (s.shapes ?? []).map((shape, k) => {
    const path = `${at}.shapes[${k}]`;
    return {
      name: `body:${s.name}.shapes[${k}]`, ...kindAndParams(shape, ctx, path), component: -1,
      position: [...shape.position], orientation: [...shape.orientation], ...surfaceOf(shape, ctx, path),
      collide: shape.collide, ...filterOf(shape),
    };
  });
}

/** the surface fields a particle may give with its radius */
const PARTICLE_SURFACE = [
  'friction', 'restitution', 'compliance', 'contactDamping', 'collide', 'material', 'group', 'mask',
] as const;

/** adds the collision sphere of particle `index` when it has a radius */
export function addParticleShape(b: ModelAssembler, p: ParticleJson, index: number, at: string,
  ctx: ShapeContext): void {
  if (p.radius === undefined) {
    // surface fields without a radius would do nothing: most likely the radius was forgotten
    const given = PARTICLE_SURFACE.find((k) => p[k] !== undefined);
    if (given) throw new ModelError(`${at}.${given}`, 'a particle collides only with a radius (give radius)');
    return;
  }
  const surface = surfaceOf({ ...p, damping: p.contactDamping }, ctx, at);
  b.addShape({
    name: `particle:${p.name}`, kind: 'sphere', params: [p.radius], component: index, position: [0, 0, 0],
    orientation: [1, 0, 0, 0], collide: p.collide ?? true, ...surface, ...filterOf(p),
  }, at);
}
