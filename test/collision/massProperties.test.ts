/**
 * Mass properties (src/collision/massProperties.ts): the primitives against an independent
 * integration over slices; a box hull against the analytic box; the unit tetrahedron's exact
 * values (which fix the sign of the products of inertia); a 64-sided prism against both the exact
 * prism and the cylinder it approximates (the inscribed polygon's area ratio (N/2π) sin(2π/N)); an
 * icosphere mesh against the spheres inscribed in and circumscribed about it; the errors of open,
 * inside-out and inconsistent meshes; compound bodies by hand and under rigid motions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compound, hullMassProperties, meshMassProperties, primitiveMassProperties, type MassProperties,
} from '../../src/collision/massProperties.js';
import { ConvexHull } from '../../src/collision/hull.js';
import { ModelError } from '../../src/model/errors.js';
import type { Shape } from '../../src/math/spatial.js';
import { quatToMat3 } from '../../src/math/quat.js';
import { arbPoint, arbQuat } from './geometry.js';

/** |a − b| ≤ tol · scale for every entry */
function expectClose(a: readonly number[], b: readonly number[], tol: number, scale = 1): void {
  expect(a.length).toBe(b.length);
  const worst = Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
  expect(worst).toBeLessThanOrEqual(tol * scale);
}

/** volume, com and inertia as one list, for comparisons */
const flat = (p: MassProperties): number[] => [p.volume, ...p.com, ...p.inertia];

/** Simpson's rule of f over [a, b] with n (even) intervals */
function simpson(f: (t: number) => number, a: number, b: number, n = 2000): number {
  const h = (b - a) / n;
  let s = f(a) + f(b);
  for (let k = 1; k < n; k++) s += (k % 2 ? 4 : 2) * f(a + k * h);
  return (s * h) / 3;
}

/** a slice at height z: an ellipse of semi-axes (p, q), or a rectangle of edges (p, q) */
interface Slice { z: number; dz: number; p: number; q: number; rect: boolean }

/**
 * volume and principal inertia per unit density of a solid given by its slices along z (pieces
 * t ↦ slice over [t0, t1], dz = dz/dt): area A, ∫x² and ∫y² of each slice, then
 * Ixx = ∫(∫y² + z² A) dz, Iyy = ∫(∫x² + z² A) dz, Izz = ∫(∫x² + ∫y²) dz
 */
function bySlices(pieces: [(t: number) => Slice, number, number][]): number[] {
  const out = [0, 0, 0, 0];
  for (const [slice, t0, t1] of pieces) {
    const terms = (t: number) => {
      const { z, dz, p, q, rect } = slice(t);
      const A = rect ? p * q : Math.PI * p * q;
      const xx = rect ? (p ** 3 * q) / 12 : (Math.PI * p ** 3 * q) / 4;
      const yy = rect ? (p * q ** 3) / 12 : (Math.PI * p * q ** 3) / 4;
      return [A * dz, (yy + z * z * A) * dz, (xx + z * z * A) * dz, (xx + yy) * dz];
    };
    for (let j = 0; j < 4; j++) out[j] += simpson((t) => terms(t)[j]!, t0, t1);
  }
  return out;
}

/** an ellipsoid cap (or a whole one) along z: z = z0 + c sin t */
const round = (a: number, b: number, c: number, z0: number) => (t: number): Slice =>
  ({ z: z0 + c * Math.sin(t), dz: c * Math.cos(t), p: a * Math.cos(t), q: b * Math.cos(t), rect: false });
/** a straight piece: z = t */
const straight = (p: number, q: number, rect: boolean) => (t: number): Slice => ({ z: t, dz: 1, p, q, rect });

/** the icosahedron subdivided `levels` times and pushed onto the sphere of radius R, outward triangles */
function icosphere(levels: number, R: number): { vertices: number[]; triangles: number[] } {
  const g = (1 + Math.sqrt(5)) / 2;
  const v: number[][] = [[-1, g, 0], [1, g, 0], [-1, -g, 0], [1, -g, 0], [0, -1, g], [0, 1, g], [0, -1, -g], [0, 1, -g],
    [g, 0, -1], [g, 0, 1], [-g, 0, -1], [-g, 0, 1]];
  let t = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6],
    [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10],
    [8, 6, 7], [9, 8, 1]];
  for (let l = 0; l < levels; l++) {
    const mid = new Map<string, number>();
    const m = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      if (!mid.has(key)) { mid.set(key, v.length); v.push(v[a]!.map((x, j) => (x + v[b]![j]!) / 2)); }
      return mid.get(key)!;
    };
    t = t.flatMap(([a, b, c]) => {
      const ab = m(a!, b!), bc = m(b!, c!), ca = m(c!, a!);
      return [[a!, ab, ca], [b!, bc, ab], [c!, ca, bc], [ab, bc, ca]];
    });
  }
  const vertices = v.flatMap((p) => p.map((x) => (R * x) / Math.hypot(...p)));
  // each triangle turned to face away from the centre
  const triangles = t.flatMap(([a, b, c]) => {
    const P = (i: number) => vertices.slice(3 * i, 3 * i + 3);
    const e = P(b!).map((x, j) => x - P(a!)[j]!), f = P(c!).map((x, j) => x - P(a!)[j]!);
    const n = [e[1]! * f[2]! - e[2]! * f[1]!, e[2]! * f[0]! - e[0]! * f[2]!, e[0]! * f[1]! - e[1]! * f[0]!];
    return n[0]! * P(a!)[0]! + n[1]! * P(a!)[1]! + n[2]! * P(a!)[2]! > 0 ? [a!, b!, c!] : [a!, c!, b!];
  });
  return { vertices, triangles };
}

/** R of a quaternion, row-major, as nested rows */
function rows(q: readonly number[]): number[][] {
  const R = quatToMat3(new Float64Array(9), q);
  return [0, 1, 2].map((i) => [R[3 * i]!, R[3 * i + 1]!, R[3 * i + 2]!]);
}

const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

/** the 8 corners (±h_x, ±h_y, ±h_z) */
function corners(h: readonly number[]): number[][] {
  const out: number[][] = [];
  for (const x of [-1, 1]) for (const y of [-1, 1]) for (const z of [-1, 1]) out.push([x * h[0]!, y * h[1]!, z * h[2]!]);
  return out;
}

/** the inertia entries as a symmetric 3×3 */
function tensor(I: readonly number[]): number[][] {
  return [[I[0]!, I[3]!, I[4]!], [I[3]!, I[1]!, I[5]!], [I[4]!, I[5]!, I[2]!]];
}

function errorOf(f: () => unknown): ModelError {
  try { f(); } catch (e) { if (e instanceof ModelError) return e; throw e; }
  throw new Error('no error');
}

describe('mass properties of the primitives', () => {
  const cases: [Shape, [(t: number) => Slice, number, number][]][] = [
    [{ type: 'sphere', radius: 0.7 }, [[round(0.7, 0.7, 0.7, 0), -Math.PI / 2, Math.PI / 2]]],
    [{ type: 'ellipsoid', radii: [0.3, 0.5, 1.1] }, [[round(0.3, 0.5, 1.1, 0), -Math.PI / 2, Math.PI / 2]]],
    [{ type: 'box', size: [0.3, 0.5, 1.1] }, [[straight(0.3, 0.5, true), -0.55, 0.55]]],
    [{ type: 'cylinder', radius: 0.4, length: 1.3 }, [[straight(0.4, 0.4, false), -0.65, 0.65]]],
    [{ type: 'capsule', radius: 0.4, length: 1.3 }, [
      [round(0.4, 0.4, 0.4, -0.65), -Math.PI / 2, 0], [straight(0.4, 0.4, false), -0.65, 0.65],
      [round(0.4, 0.4, 0.4, 0.65), 0, Math.PI / 2]]],
  ];
  for (const [shape, pieces] of cases) {
    it(`${shape.type}: the integral over its slices, centred, no products`, () => {
      const p = primitiveMassProperties(shape), [V, ixx, iyy, izz] = bySlices(pieces);
      expectClose(flat(p), [V!, 0, 0, 0, ixx!, iyy!, izz!, 0, 0, 0], 1e-12, V!);
    });
  }
});

describe('mass properties of polyhedra', () => {
  it('a box hull: the analytic box to 1e-12, off the origin', () => {
    const size: [number, number, number] = [0.3, 0.7, 1.9], c = [0.5, -0.2, 0.1];
    const points = corners(size.map((e) => e / 2)).map((p) => p.map((x, j) => x + c[j]!));
    const got = hullMassProperties(ConvexHull.fromPoints(points, 'box'));
    const box = primitiveMassProperties({ type: 'box', size });
    expect(Math.abs(got.volume / box.volume - 1)).toBeLessThan(1e-12);
    expectClose(got.com, c, 1e-12);
    expectClose(got.inertia, box.inertia, 1e-12, box.inertia[2]);
  });

  it('the unit tetrahedron: V = 1/6, com 1/4, Ixx = 1/80, Ixy = −∫xy = +1/480 (tensor entries)', () => {
    const expected = [1 / 6, 0.25, 0.25, 0.25, 1 / 80, 1 / 80, 1 / 80, 1 / 480, 1 / 480, 1 / 480];
    const hull = ConvexHull.fromPoints([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], 'tetra');
    expectClose(flat(hullMassProperties(hull)), expected, 1e-15);
    const mesh = { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], triangles: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] };
    expectClose(flat(meshMassProperties(mesh, 'tetra')), expected, 1e-15);
  });

  it('a 64-sided prism: the exact prism to 1e-12, the cylinder within the discretization', () => {
    const N = 64, R = 0.4, L = 1.3, th = (2 * Math.PI) / N, points: number[][] = [];
    for (let k = 0; k < N; k++) {
      for (const z of [-L / 2, L / 2]) points.push([R * Math.cos(k * th), R * Math.sin(k * th), z]);
    }
    const got = hullMassProperties(ConvexHull.fromPoints(points, 'prism'));
    // the regular N-gon: area (N/2) R² sin θ, polar moment (N/12) R⁴ sin θ (2 + cos θ), isotropic in the plane
    const A = (N / 2) * R * R * Math.sin(th), J = (N / 12) * R ** 4 * Math.sin(th) * (2 + Math.cos(th));
    const prism = [A * L, 0, 0, 0, (J / 2) * L + (A * L ** 3) / 12, (J / 2) * L + (A * L ** 3) / 12, J * L, 0, 0, 0];
    expectClose(flat(got), prism, 1e-12, A * L);
    // against the cylinder: volume by the area ratio (N/2π) sin θ ≈ 1 − 1.6e-3,
    // Izz by (N/6π) sin θ (2 + cos θ)
    const cyl = primitiveMassProperties({ type: 'cylinder', radius: R, length: L });
    const ratio = (N / (2 * Math.PI)) * Math.sin(th);
    expect(Math.abs(got.volume / cyl.volume - ratio)).toBeLessThan(1e-12);
    expect(1 - ratio).toBeCloseTo(1.6056e-3, 7);
    const polar = (N / (6 * Math.PI)) * Math.sin(th) * (2 + Math.cos(th));
    expect(Math.abs(got.inertia[2] / cyl.inertia[2] - polar)).toBeLessThan(1e-12);
    for (const k of [0, 1, 2]) {
      expect(got.inertia[k]! / cyl.inertia[k]!).toBeLessThan(1);
      expect(got.inertia[k]! / cyl.inertia[k]!).toBeGreaterThan(1 - 2 * 2 * (1 - ratio));
    }
  });

  it('an icosphere mesh: between the inscribed and circumscribed spheres, isotropic, equal to its hull', () => {
    const R = 0.8, mesh = icosphere(3, R), T = mesh.triangles.length / 3;
    expect([mesh.vertices.length / 3, T]).toEqual([642, 1280]);
    const got = meshMassProperties(mesh, 'ball');
    // the inscribed sphere touches the nearest face plane
    let rIn = R, pyramids = 0;
    for (let k = 0; k < T; k++) {
      const P = (i: number) => mesh.vertices.slice(3 * mesh.triangles[3 * k + i]!, 3 * mesh.triangles[3 * k + i]! + 3);
      const [a, b, c] = [P(0), P(1), P(2)], e = b.map((x, j) => x - a[j]!), f = c.map((x, j) => x - a[j]!);
      const n = [e[1]! * f[2]! - e[2]! * f[1]!, e[2]! * f[0]! - e[0]! * f[2]!, e[0]! * f[1]! - e[1]! * f[0]!];
      const h = (n[0]! * a[0]! + n[1]! * a[1]! + n[2]! * a[2]!) / Math.hypot(...n);
      rIn = Math.min(rIn, h);
      pyramids += (Math.hypot(...n) / 2) * h;
    }
    const ball = (r: number) => primitiveMassProperties({ type: 'sphere', radius: r });
    expect(got.volume).toBeGreaterThan(ball(rIn).volume);
    expect(got.volume).toBeLessThan(ball(R).volume);
    for (const k of [0, 1, 2]) {
      expect(got.inertia[k]).toBeGreaterThan(ball(rIn).inertia[k]);
      expect(got.inertia[k]).toBeLessThan(ball(R).inertia[k]);
    }
    // icosahedral symmetry: centred, isotropic inertia
    expectClose([...got.com, ...got.inertia.slice(3)], [0, 0, 0, 0, 0, 0], 1e-15);
    expectClose(got.inertia.slice(0, 3), [got.inertia[0], got.inertia[0], got.inertia[0]], 1e-13, got.inertia[0]);
    // the volume as the sum of the pyramids on the faces from the centre, (1/3) Σ area · height
    expectClose([got.volume], [pyramids / 3], 1e-14, got.volume);
    const hull = ConvexHull.fromPoints(mesh.vertices, 'ball');
    expect([hull.vertexCount, hull.faceCount]).toEqual([642, 1280]);
    expectClose(flat(hullMassProperties(hull)), flat(got), 1e-13, got.volume);
  });

  describe('mesh errors name the shape, on one line', () => {
    const tetra = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
    const vertices = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const cases: [string, number[], RegExp][] = [
      ['open', tetra.slice(0, 9), /the mesh is not closed: edge \(\d, \d\) has no triangle on its other side/],
      ['inside out', [0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2], /the mesh's volume is -0.1666\d* m³, not positive/],
      ['one triangle turned', [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 3, 2], /edge \(\d, \d\) is in two triangles the same way/],
      ['index out of range', [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 4], /triangle 3 has vertex index 4, not in 0..3/],
    ];
    for (const [label, triangles, message] of cases) {
      it(label, () => {
        const e = errorOf(() => meshMassProperties({ vertices, triangles }, 'bodies[1].shapes[0]'));
        expect(e.path).toBe('bodies[1].shapes[0]');
        expect(e.message).toMatch(message);
        expect(e.message).not.toContain('\n');
      });
    }
  });
});

describe('compound bodies', () => {
  const box = (a: number, b: number, c: number) => primitiveMassProperties({ type: 'box', size: [a, b, c] });

  it('two boxes: the parallel-axis theorem by hand', () => {
    // A: unit cube at (−1, 0, 0), ρ 1 → m 1; B: 2×1×1 at (1.5, 0.5, 0), ρ 2 → m 4; M = 5, c = (1, 0.4, 0)
    const got = compound([
      { props: box(1, 1, 1), density: 1, position: [-1, 0, 0], orientation: [1, 0, 0, 0] },
      { props: box(2, 1, 1), density: 2, position: [1.5, 0.5, 0], orientation: [1, 0, 0, 0] },
    ]);
    // offsets from c: d_A = (−2, −0.4, 0), d_B = (0.5, 0.1, 0)
    // Ixx = 1·2/12 + 1·0.16 + 4·2/12 + 4·0.01 = 5/6 + 0.2
    // Iyy = 1·2/12 + 1·4 + 4·5/12 + 4·0.25 = 1/6 + 4 + 5/3 + 1
    // Izz = Iyy's boxes + m(dx² + dy²) = 1/6 + 4.16 + 5/3 + 4·0.26
    // Ixy = −Σ m dx dy = −(1·0.8 + 4·0.05) = −1; Ixz = Iyz = 0
    expect(got.mass).toBe(5);
    expectClose(got.com, [1, 0.4, 0], 1e-15);
    expectClose(got.inertia, [5 / 6 + 0.2, 1 / 6 + 4 + 5 / 3 + 1, 1 / 6 + 4.16 + 5 / 3 + 1.04, -1, 0, 0], 1e-14);
  });

  it('a box turned 90° about z swaps Ixx and Iyy; turned 45° it gets Ixy = (Ixx − Iyy)/2', () => {
    const p = box(0.3, 0.7, 1.9), [A, B, C] = p.inertia, s = Math.SQRT1_2;
    const at = (q: number[]) => compound([{ props: p, density: 3, position: [0.2, 0, 0], orientation: q }]).inertia;
    expectClose(at([s, 0, 0, s]), [3 * B, 3 * A, 3 * C, 0, 0, 0], 1e-15);
    const q45 = [Math.cos(Math.PI / 8), 0, 0, Math.sin(Math.PI / 8)];
    expectClose(at(q45), [1.5 * (A + B), 1.5 * (A + B), 3 * C, 1.5 * (A - B), 0, 0], 1e-15);
    // the same box's corners turned: its hull agrees, products of inertia with the same sign
    const R = rows(q45), turned = corners([0.15, 0.35, 0.95]).map((p) => R.map((r) => dot(r, p)));
    expectClose(hullMassProperties(ConvexHull.fromPoints(turned, 'turned')).inertia.map((x) => 3 * x), at(q45), 1e-14);
  });

  it('a hull moved rigidly: the compound of the hull at that pose equals the hull of the moved points', () => {
    fc.assert(fc.property(fc.array(arbPoint, { minLength: 8, maxLength: 40 }), arbQuat, arbPoint, (pts, q, t) => {
      const points = pts.map((p) => [...p]);
      let base: MassProperties;
      try { base = hullMassProperties(ConvexHull.fromPoints(points, 'cloud')); } catch { return; }
      fc.pre(base.volume > 1e-3);
      const R = rows(q), moved = points.map((p) => R.map((r, i) => t[i]! + dot(r, p)));
      const direct = hullMassProperties(ConvexHull.fromPoints(moved, 'moved'));
      const placed = compound([{ props: base, density: 2, position: t, orientation: q }]);
      expect(Math.abs(placed.mass - 2 * direct.volume)).toBeLessThan(1e-12);
      expectClose(placed.com, direct.com, 1e-12);
      expectClose(placed.inertia, direct.inertia.map((x) => 2 * x), 1e-12);
      // the inertia turns as a tensor: R I Rᵀ
      const I = tensor(base.inertia), J = tensor(direct.inertia);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        let rir = 0;
        for (let k = 0; k < 3; k++) for (let l = 0; l < 3; l++) rir += R[i]![k]! * I[k]![l]! * R[j]![l]!;
        expect(Math.abs(rir - J[i]![j]!)).toBeLessThan(1e-12);
      }
    }), { seed: 42, numRuns: 100 });
  });

  it('a body whose shapes have no mass is an error naming it', () => {
    const part = { props: box(1, 1, 1), density: 0, position: [0, 0, 0], orientation: [1, 0, 0, 0] };
    const e = errorOf(() => compound([part], 'bodies[3]'));
    expect(e.message).toBe('bodies[3]: the mass of its shapes is 0 kg, not positive and finite');
  });
});
