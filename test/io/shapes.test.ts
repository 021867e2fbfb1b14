/**
 * The collision shapes of the model file (docs/model-format.md, Contact): a body's `shapes` at
 * their poses, hulls, meshes (inline and from files) and height fields everywhere shapes go, the
 * mass properties of compound bodies against hand-computed values, named materials and their pair
 * overrides, collision groups and masks, joints that let their bodies collide, the builder's forms
 * of all of them, and one ModelError line naming the JSON path for every bad input.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { parseModel } from '../../src/io/loader.js';
import { ModelBuilder } from '../../src/api/builder.js';
import { Simulation } from '../../src/index.js';
import type { Model } from '../../src/model/model.js';
import type { TriMeshData } from '../../src/collision/geometry.js';
import { loadModel, meshFileReader } from '../../node/index.js';
import { load, errorOf, text } from '../helpers/modelFile.js';
import { checkMutations } from './mutations.js';

const errorFor = (fields: Record<string, unknown>): string => errorOf(text(fields)).message;

/** the eight corners of a box of half extents h centred at c */
const corners = (h: number[], c = [0, 0, 0]): [number, number, number][] =>
  [0, 1, 2, 3, 4, 5, 6, 7].map((k) => [0, 1, 2].map((j) => c[j]! + ((k >> j) & 1 ? h[j]! : -h[j]!)) as [number, number, number]);
/** a closed tetrahedron, counter-clockwise seen from outside */
const TET = {
  vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
  triangles: [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
};
/** one square of two triangles: an open mesh */
const SQUARE = { vertices: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], triangles: [[0, 1, 2], [0, 2, 3]] };
const HEIGHTS = { size: [2, 1], heights: [[0, 0.1, 0], [0.2, 0.3, 0.2]] };

/** [mass, com, inertia entries] of body i */
const massOf = (m: Model, i = 0): number[] => {
  const b = m.bodies[i]!, J = b.inertia;
  return [b.mass, ...b.com, J[0]!, J[4]!, J[8]!, J[1]!, J[2]!, J[5]!];
};
const expectClose = (got: number[], want: number[], digits = 10): void => {
  expect(got.length).toBe(want.length);
  got.forEach((v, k) => expect(v, `entry ${k}`).toBeCloseTo(want[k]!, digits));
};

describe('shape entries', () => {
  it('a body\'s shapes sit at their poses in body coordinates, named body:<name>.shapes[k], with their fields', () => {
    const q = [Math.SQRT1_2, 0, Math.SQRT1_2, 0];
    const m = load({
      materials: [{ name: 'rubber', friction: 0.9, restitution: 0.4 }],
      bodies: [{ name: 'b', density: 1000, shapes: [
        { type: 'box', size: [1, 2, 3], position: [1, 0, 0], orientation: q, group: 2, mask: 5 },
        { type: 'sphere', radius: 0.5, material: 'rubber', friction: 0.7, collide: false },
        { type: 'hull', points: corners([0.1, 0.1, 0.1]), position: [0, 0, 2], density: 10 },
        { type: 'mesh', ...TET },
      ] }],
    });
    const [box, ball, hull, mesh] = m.shapes;
    expect([box!.name, box!.kind, box!.params, box!.position, box!.group, box!.mask])
      .toEqual(['body:b.shapes[0]', 'box', [0.5, 1, 1.5], [1, 0, 0], 2, 5]);
    box!.orientation.forEach((v, k) => expect(v).toBeCloseTo(q[k]!, 15));
    // the named material, overridden field by field by the shape's own
    expect([ball!.material, ball!.materialName, ball!.collide])
      .toEqual([{ friction: 0.7, restitution: 0.4, compliance: 0, damping: 0 }, 'rubber', false]);
    expect([hull!.kind, hull!.geometry?.type, hull!.position]).toEqual(['hull', 'hull', [0, 0, 2]]);
    expect([mesh!.kind, (mesh!.geometry as TriMeshData).triangleCount, (mesh!.geometry as TriMeshData).closed])
      .toEqual(['mesh', 4, true]);
    expect(box!.materialName).toBeUndefined();
    expect(m.shapes.every((s) => s.component === 0)).toBe(true);
  });

  it('world shapes take hulls, meshes and height fields at a world pose; a height field is a mesh', () => {
    const m = load({ world: { shapes: [
      { type: 'hull', points: corners([1, 1, 1]), position: [0, 0, -1] },
      { type: 'mesh', ...SQUARE, group: 4 },
      { type: 'heightfield', ...HEIGHTS, position: [0, 0, -2] },
    ] } });
    expect(m.shapes.map((s) => [s.kind, s.geometry?.type, s.position])).toEqual([
      ['hull', 'hull', [0, 0, -1]], ['mesh', 'mesh', [0, 0, 0]], ['mesh', 'mesh', [0, 0, -2]],
    ]);
    // the grid: rows along y, columns along x, centred (collision/heightfield.ts)
    const g = m.shapes[2]!.geometry as TriMeshData;
    expect([g.vertexCount, g.triangleCount, g.closed]).toEqual([6, 4, false]);
    expect(Array.from(g.vertices.subarray(9, 18))).toEqual([-1, 0.5, 0.2, 0, 0.5, 0.3, 1, 0.5, 0.2]);
    expect(m.shapes[1]!.group).toBe(4);
  });

  it('a hull or mesh shape has its points in body coordinates: its pose is the identity', () => {
    const m = load({ bodies: [{ name: 'b', density: 1, shape: { type: 'hull', points: corners([1, 1, 1], [3, 0, 0]) } }] });
    expect([m.shapes[0]!.name, m.shapes[0]!.position, m.shapes[0]!.orientation]).toEqual(['body:b', [0, 0, 0], [1, 0, 0, 0]]);
    expect(Array.from(m.bodies[0]!.com)).toEqual([3, 0, 0]);
  });

  it('particles take a named material and a collision filter with their radius', () => {
    const m = load({
      materials: [{ name: 'steel', friction: 0.3, compliance: 1e-7 }],
      particles: [{ name: 'p', mass: 1, position: [0, 0, 1], radius: 0.1, material: 'steel', contactDamping: 0.01, group: 3, mask: 1 }],
    });
    expect(m.shapes[0]).toMatchObject({
      material: { friction: 0.3, restitution: 0, compliance: 1e-7, damping: 0.01 }, materialName: 'steel', group: 3, mask: 1,
    });
  });

  it('materials, material pairs and colliding joints reach the model', () => {
    const m = load({
      materials: [{ name: 'a' }, { name: 'b', friction: 0.1, restitution: 1, compliance: 2e-6, damping: 0.5 }],
      materialPairs: [{ materials: ['a', 'b'], friction: 0.2 }, { materials: ['b', 'b'], restitution: 0.5, damping: 0 }],
      bodies: [{ name: 'x', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }, { name: 'y', mass: 1, inertia: [1, 1, 1, 0, 0, 0] }],
      joints: [
        { type: 'ball', bodyA: 'world', bodyB: 'x', position: [0, 0, 0] },
        { type: 'ball', bodyA: 'x', bodyB: 'y', position: [0, 0, 0], collide: true },
      ],
    });
    expect(m.materials).toEqual([
      { name: 'a', friction: 0.5, restitution: 0, compliance: 0, damping: 0 },
      { name: 'b', friction: 0.1, restitution: 1, compliance: 2e-6, damping: 0.5 },
    ]);
    expect(m.materialPairs).toEqual([{ materials: ['a', 'b'], friction: 0.2 }, { materials: ['b', 'b'], restitution: 0.5, damping: 0 }]);
    expect(m.collidingConstraints).toEqual([1]);
  });
});

describe('mass properties from shapes', () => {
  it('a box and an offset sphere: mass, centre of mass and inertia as computed by hand', () => {
    const rho = 1000, r = 0.5, d = 2;
    const m = load({ bodies: [{ name: 'b', density: rho, shapes: [
      { type: 'box', size: [1, 1, 1] }, { type: 'sphere', radius: r, position: [d, 0, 0] },
    ] }] });
    const mb = rho, ms = rho * (4 / 3) * Math.PI * r ** 3, M = mb + ms, c = (ms * d) / M;
    const ib = mb / 6, is = 0.4 * ms * r * r;
    const ixx = ib + is, iyy = ib + mb * c * c + is + ms * (d - c) ** 2;
    expectClose(massOf(m), [M, c, 0, 0, ixx, iyy, iyy, 0, 0, 0], 9);
  });

  it('a box turned in the body is the box with its edges swapped; a shape\'s density overrides the body\'s', () => {
    const turned = load({ bodies: [{ name: 'b', density: 1, shapes: [
      { type: 'box', size: [2, 1, 0.5], orientation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2], density: 3 },
    ] }] });
    const m = 3 * 1, [a, b, cc] = [1, 2, 0.5];
    expectClose(massOf(turned), [m, 0, 0, 0, (m / 12) * (b * b + cc * cc), (m / 12) * (a * a + cc * cc), (m / 12) * (a * a + b * b), 0, 0, 0], 12);
  });

  it('off-axis parts give products of inertia: two unit cubes at (±1, ±1, 0)', () => {
    // the entries are the tensor's: Ixy = −Σ m x y
    const m = load({ bodies: [{ name: 'b', mass: 4, shapes: [
      { type: 'box', size: [1, 1, 1], position: [1, 1, 0] }, { type: 'box', size: [1, 1, 1], position: [-1, -1, 0] },
    ] }] });
    const own = 2 / 6;
    expectClose(massOf(m), [4, 0, 0, 0, 2 * own + 4, 2 * own + 4, 2 * own + 8, -4, 0, 0], 12);
  });

  it('with the body\'s mass the densities are weights; a hull of a box\'s corners is that box; a closed mesh too', () => {
    const weighted = load({ bodies: [{ name: 'b', mass: 10, shapes: [
      { type: 'box', size: [1, 1, 1], density: 1 }, { type: 'box', size: [1, 1, 1], position: [3, 0, 0], density: 4 },
    ] }] });
    expect(weighted.bodies[0]!.mass).toBeCloseTo(10, 13);
    expect(weighted.bodies[0]!.com[0]).toBeCloseTo(12 / 5, 13);
    const box = load({ bodies: [{ name: 'b', density: 2, shape: { type: 'box', size: [1, 2, 3] }, com: [0.5, 0, 0] }] });
    const hull = load({ bodies: [{ name: 'b', density: 2, shape: { type: 'hull', points: corners([0.5, 1, 1.5], [0.5, 0, 0]) } }] });
    expectClose(massOf(hull), massOf(box), 11);
    const tet = load({ bodies: [{ name: 'b', density: 6, shapes: [{ type: 'mesh', ...TET }] }] });
    // unit right tetrahedron: V = 1/6, centroid 1/4, ∫x² dV = 1/60, ∫xy dV = 1/120
    const V = 1 / 6, mt = 6 * V, c = 0.25, xx = 6 * (1 / 60) - mt * c * c, xy = 6 * (1 / 120) - mt * c * c;
    expectClose(massOf(tet), [mt, c, c, c, 2 * xx, 2 * xx, 2 * xx, -xy, -xy, -xy], 12);
  });

  it('with inertia the shapes only collide, and the com is the file\'s', () => {
    const m = load({ bodies: [{ name: 'b', mass: 2, inertia: [1, 2, 2, 0, 0, 0], com: [0, 0, 1], shapes: [{ type: 'mesh', ...SQUARE }] }] });
    expect(massOf(m)).toEqual([2, 0, 0, 1, 1, 2, 2, 0, 0, 0]);
    expect(m.shapes[0]!.kind).toBe('mesh');
  });
});

describe('bad input: one line naming the JSON path', () => {
  const hull = (points: number[][]) => ({ bodies: [{ name: 'b', density: 1, shapes: [{ type: 'hull', points }] }] });

  it('shape with shapes, com with derived mass, mixed weights, an empty list', () => {
    expect(errorFor({ bodies: [{ name: 'b', density: 1, shape: { type: 'sphere', radius: 1 }, shapes: [] }] }))
      .toBe('bodies[0].shapes: give either shape or shapes, not both');
    expect(errorFor({ bodies: [{ name: 'b', density: 1, com: [0, 0, 0], shapes: [{ type: 'sphere', radius: 1 }] }] }))
      .toBe('bodies[0].com: comes from the shapes (give inertia with mass to set it)');
    expect(errorFor({ bodies: [{ name: 'b', mass: 1, shapes: [{ type: 'sphere', radius: 1, density: 2 }, { type: 'sphere', radius: 1 }] }] }))
      .toBe('bodies[0].shapes[1].density: missing: with the body\'s mass, give every shape a density (weights) or none');
    expect(errorFor({ bodies: [{ name: 'b', shapes: [{ type: 'sphere', radius: 1 }] }] }))
      .toBe('bodies[0].mass: missing: give the body mass or density (or bodies[0].shapes[0] a density)');
    expect(errorFor({ bodies: [{ name: 'b', density: 1, shapes: [] }] }))
      .toBe('bodies[0].shapes: empty: give at least one shape, or inertia with mass');
    expect(errorFor({ bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1, 0, 0, 0], shapes: [{ type: 'sphere', radius: 1, density: 2 }] }] }))
      .toBe('bodies[0].shapes[0].density: with the body\'s inertia the shapes only collide: density does nothing');
  });

  it('a negative size, a plane among a body\'s shapes', () => {
    expect(errorFor({ bodies: [{ name: 'b', density: 1, shapes: [{ type: 'box', size: [1, -1, 1] }] }] }))
      .toBe('bodies[0].shapes[0].size[1]: must be positive (got -1)');
    expect(errorFor({ world: { shapes: [{ type: 'heightfield', size: [0, 1], heights: [[0, 0], [0, 0]] }] } }))
      .toBe('world.shapes[0].size[0]: must be positive (got 0)');
    expect(errorFor({ bodies: [{ name: 'b', density: 1, shapes: [{ type: 'plane' }] }] }))
      .toMatch(/^bodies\[0\]\.shapes\[0\]\.type: unknown type "plane"; .* \(a plane is a world shape: give it in world\.shapes\)$/);
  });

  it('a hull from coplanar points, or too few', () => {
    expect(errorFor(hull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 3, 0]])))
      .toMatch(/^bodies\[0\]\.shapes\[0\]: fewer than 4 non-coplanar points: the 5 points are .*coplanar/);
    expect(errorFor(hull([[0, 0, 0], [1, 0, 0], [0, 1, 0]])))
      .toMatch(/^bodies\[0\]\.shapes\[0\]\.points: /);
  });

  it('an open mesh or a height field asked for mass properties', () => {
    expect(errorFor({ bodies: [{ name: 'b', density: 1, shapes: [{ type: 'mesh', ...SQUARE }] }] }))
      .toBe('bodies[0].shapes[0]: an open mesh has no volume for mass properties (give the body inertia with mass, or close the mesh)');
    expect(errorFor({ bodies: [{ name: 'b', mass: 1, shape: { type: 'heightfield', ...HEIGHTS } }] }))
      .toBe('bodies[0].shape: a height field has no volume for mass properties (give the body inertia with mass, or close the mesh)');
  });

  it('mesh lists: file with vertices, vertices without triangles, a bad index, a degenerate triangle', () => {
    const mesh = (m: Record<string, unknown>) => ({ world: { shapes: [{ type: 'mesh', ...m }] } });
    expect(errorFor(mesh({ ...SQUARE, file: 'a.obj' }))).toBe('world.shapes[0].file: give either file or vertices and triangles, not both');
    expect(errorFor(mesh({ vertices: SQUARE.vertices }))).toBe('world.shapes[0].triangles: missing: a mesh needs triangles with its vertices');
    expect(errorFor(mesh({}))).toBe('world.shapes[0].vertices: missing: a mesh needs vertices and triangles, or file');
    expect(errorFor(mesh({ ...SQUARE, triangles: [[0, 1, 9]] }))).toMatch(/^world\.shapes\[0\]\.triangles\[0\]: index 9 /);
    expect(errorFor(mesh({ vertices: [[0, 0, 0], [1, 0, 0], [2, 0, 0]], triangles: [[0, 1, 2]] })))
      .toBe('world.shapes[0].triangles[0]: degenerate triangle (zero area): [0, 1, 2]');
  });

  it('a mesh file without a reader, and a missing file', () => {
    const model = { world: { shapes: [{ type: 'mesh', file: 'floor.obj' }] } };
    expect(errorFor(model)).toBe('world.shapes[0].file: cannot read mesh file "floor.obj" here (load the model with'
      + ' vinculum/node\'s loadModel, or give vertices and triangles)');
    const dir = mkdtempSync(join(tmpdir(), 'vinculum-shapes-'));
    expect(() => parseModel(text(model), { source: 'm.json', meshFile: meshFileReader(join(dir, 'm.json')) }))
      .toThrow(/^m\.json: world\.shapes\[0\]\.file: mesh file "floor\.obj": cannot read: no such file or directory$/);
  });

  it('unknown materials, a material pair given twice, a duplicate material name', () => {
    const mats = { materials: [{ name: 'ice' }, { name: 'steel' }] };
    expect(errorFor({ ...mats, world: { shapes: [{ type: 'plane', material: 'rubber' }] } }))
      .toBe('world.shapes[0].material: no material named "rubber" (the file\'s materials: "ice", "steel")');
    expect(errorFor({ bodies: [{ name: 'b', density: 1, shapes: [{ type: 'sphere', radius: 1, material: 'x' }] }] }))
      .toBe('bodies[0].shapes[0].material: no material named "x" (the file has no materials)');
    expect(errorFor({ ...mats, materialPairs: [{ materials: ['ice', 'wood'] }] }))
      .toBe('materialPairs[0].materials[1]: no material named "wood" (the file\'s materials: "ice", "steel")');
    expect(errorFor({ ...mats, materialPairs: [{ materials: ['ice', 'steel'] }, { materials: ['steel', 'ice'], friction: 1 }] }))
      .toBe('materialPairs[1].materials: the pair "steel", "ice" is given twice');
    expect(errorFor({ materials: [{ name: 'ice' }, { name: 'ice' }] })).toBe('materials[1].name: duplicate material name "ice"');
    expect(errorFor({ ...mats, materialPairs: [{ materials: ['ice', 'steel'], restitution: 2 }] }))
      .toBe('materialPairs[0].restitution: must be <= 1 (got 2)');
  });

  it('group and mask are 32-bit integers', () => {
    expect(errorFor({ world: { shapes: [{ type: 'plane', group: 1.5 }] } })).toMatch(/^world\.shapes\[0\]\.group: /);
    expect(errorFor({ world: { shapes: [{ type: 'plane', mask: 2 ** 32 }] } })).toMatch(/^world\.shapes\[0\]\.mask: /);
  });
});

describe('vinculum/node', () => {
  it('loadModel reads OBJ files relative to the model file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vinculum-shapes-'));
    writeFileSync(join(dir, 'tet.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n');
    writeFileSync(join(dir, 'm.json'), text({ bodies: [{ name: 'b', density: 6, shapes: [{ type: 'mesh', file: 'tet.obj' }] }] }));
    const m = await loadModel(join(dir, 'm.json'));
    const inline = load({ bodies: [{ name: 'b', density: 6, shapes: [{ type: 'mesh', ...TET }] }] });
    expect(massOf(m)).toEqual(massOf(inline));
    // the builder reads the same file through the reader it is given
    const built = new ModelBuilder().addBody({ name: 'b', density: 6, shapes: [{ type: 'mesh', file: 'tet.obj' }] })
      .build({ meshFile: meshFileReader(join(dir, 'any.json')) });
    expect(massOf(built)).toEqual(massOf(inline));
    await expect(loadModel(join(dir, 'none.json'))).rejects.toThrow(/none\.json: cannot read/);
  });
});

describe('the builder', () => {
  it('takes materials, material pairs, bodies with shapes and world hulls, and words errors as a file would', () => {
    const b = new ModelBuilder()
      .addMaterial({ name: 'rubber', friction: 0.9 })
      .addMaterialPair({ materials: ['rubber', 'rubber'], friction: 2 })
      .addBody({ name: 'b', density: 1, shapes: [{ type: 'sphere', radius: 1, material: 'rubber' }, { type: 'box', size: [1, 1, 1], position: [1, 0, 0] }] })
      .addWorldShape({ type: 'hull', points: corners([1, 1, 1]), group: 2 });
    const m = b.build();
    expect(m.shapes.map((s) => s.name)).toEqual(['world.shapes[0]', 'body:b.shapes[0]', 'body:b.shapes[1]']);
    expect(m.materialPairs).toEqual([{ materials: ['rubber', 'rubber'], friction: 2 }]);
    expect(b.toJSON()).toMatchObject({ materials: [{ name: 'rubber' }], materialPairs: [{ materials: ['rubber', 'rubber'] }] });
    expect(() => new ModelBuilder().addMaterial({ name: 'x', friction: -1 })).toThrow('materials[0].friction: must be non-negative (got -1)');
    expect(() => b.addBody({ name: 'c', density: 1, shapes: [{ type: 'box', size: [1, 0, 1] }] }))
      .toThrow('bodies[1].shapes[0].size[1]: must be positive (got 0)');
    expect(() => new ModelBuilder().addWorldShape({ type: 'mesh', file: 'x.obj' }).build()).toThrow(/^world\.shapes\[0\]\.file: cannot read/);
  });
});

describe('in the step', () => {
  /** a box of `material` sliding at 2 m/s on a plane of ground; its speed after 0.2 s */
  function slide(extra: Record<string, unknown>): number {
    const m = load({
      step: 0.01, contact: { solver: 'pivoting' },
      materials: [{ name: 'rubber', friction: 0.9 }, { name: 'ground', friction: 0.6 }],
      world: { shapes: [{ type: 'plane', material: 'ground' }] },
      bodies: [{ name: 'box', density: 100, shapes: [{ type: 'box', size: [0.2, 0.2, 0.2], material: 'rubber' }],
        position: [0, 0, 0.1], velocity: [2, 0, 0] }],
      ...extra,
    });
    const sim = new Simulation(m);
    sim.step(20);
    return sim.body('box').velocity[0]!;
  }

  it('a material pair override replaces the contact\'s friction: the box slows by μ g t', () => {
    const g = 9.81, t = 0.2;
    expect(slide({})).toBeCloseTo(2 - Math.sqrt(0.9 * 0.6) * g * t, 6);
    expect(slide({ materialPairs: [{ materials: ['ground', 'rubber'], friction: 0.1 }] })).toBeCloseTo(2 - 0.1 * g * t, 6);
    expect(slide({ materialPairs: [{ materials: ['rubber', 'rubber'], friction: 0.1 }] })).toBeCloseTo(2 - Math.sqrt(0.54) * g * t, 6);
  });

  it('collision groups: a ball whose group the floor\'s mask leaves out falls through it', () => {
    const drop = (ball: Record<string, unknown>, floor: Record<string, unknown> = {}): number => {
      const sim = new Simulation(load({
        step: 0.01, world: { shapes: [{ type: 'plane', ...floor }] },
        bodies: [{ name: 'ball', density: 100, shape: { type: 'sphere', radius: 0.1, ...ball }, position: [0, 0, 0.1] }],
      }));
      sim.step(30);
      return sim.body('ball').position[2]!;
    };
    expect(drop({})).toBeCloseTo(0.1, 3);
    expect(drop({ group: 2, mask: 1 })).toBeCloseTo(0.1, 3);
    expect(drop({ group: 2 }, { mask: 1 })).toBeLessThan(0);
    expect(drop({ mask: 2 })).toBeLessThan(0);
    expect(drop({ group: 0 })).toBeLessThan(0);
  });

  it('joined bodies collide only with "collide": true', () => {
    /** two spheres that overlap, joined by a slider along z; the top one falls onto the bottom one fixed to the world */
    const fall = (collide: boolean): number => {
      const m = load({
        step: 0.01, contact: { solver: 'pivoting' },
        bodies: [
          { name: 'low', density: 100, shape: { type: 'sphere', radius: 0.1 }, dynamic: false },
          { name: 'high', density: 100, shape: { type: 'sphere', radius: 0.1 }, position: [0, 0, 0.25] },
        ],
        joints: [{ type: 'slider', bodyA: 'low', bodyB: 'high', position: [0, 0, 0], axis: [0, 0, 1], collide }],
      });
      const sim = new Simulation(m);
      sim.step(50);
      return sim.body('high').position[2]!;
    };
    expect(fall(true)).toBeGreaterThan(0.19);
    expect(fall(false)).toBeLessThan(0);
  });
});

/** the JSON blocks of a section of docs/model-format.md */
function docBlocks(heading: string): string[] {
  const md = readFileSync(new URL('../../docs/model-format.md', import.meta.url), 'utf8');
  const start = md.indexOf(`\n### ${heading}\n`), end = md.indexOf('\n##', start + 5);
  return [...md.slice(start, end).matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('examples', () => {
  it('the examples of docs/model-format.md load', () => {
    const [dumbbell] = docBlocks('Several shapes'), [puck] = docBlocks('Named materials'), [terrain] = docBlocks('World shapes');
    const rubber = [{ name: 'rubber' }];
    const m = load({ materials: rubber, bodies: [JSON.parse(dumbbell!)] });
    expect(m.bodies[0]!.inertia[0]).toBeLessThan(m.bodies[0]!.inertia[4]!);
    expect(load(JSON.parse(puck!)).shapes[1]!.materialName).toBe('rubber');
    const world = JSON.parse(terrain!) as { world: { shapes: Record<string, unknown>[] } };
    const read = (file: string) => { expect(file).toBe('ramp.obj'); reads++; return TET; };
    let reads = 0;
    const t = parseModel(text({ materials: [{ name: 'ground' }], ...world }), { meshFile: read });
    expect(t.shapes.map((s) => s.kind)).toEqual(['mesh', 'mesh', 'hull']);
    // shapes naming one file share its mesh, read once
    const twice = parseModel(text({ world: { shapes: [world.world.shapes[1], world.world.shapes[1]] } }), { meshFile: read });
    expect(twice.shapes[0]!.geometry).toBe(twice.shapes[1]!.geometry);
    expect(reads).toBe(2);
  });

  it('mutations of examples/shapes.json load, or give one ModelError line: never another exception', () => {
    const base = readFileSync(new URL('../../examples/shapes.json', import.meta.url), 'utf8');
    const values = fc.constantFrom<unknown>(-1, 0, 0.5, 2, 2 ** 32, 1e308, null, 'x', 'rubber', 'hull', 'mesh', 'heightfield', [],
      {}, [0, 0, 0], [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], [[0, 1, 2]], [[0, 0], [0]], [1, 0], true, 'a.obj');
    const meshFile = (f: string): typeof TET => { if (f === 'a.obj') throw new Error('no such file'); return TET; };
    checkMutations(base, values, { meshFile });
  });
});
