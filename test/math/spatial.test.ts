/**
 * Tests of the spatial inertia (src/math/spatial.ts) against docs/theory.md §2, and of the 3-vector and
 * 3×3 helpers it is built on (src/math/vec3.ts, src/math/mat3.ts).
 *
 * - M = [[m I, −m[c]], [m[c], J − m[c][c]]]; the closed-form inverse
 *   M⁻¹ = [[I/m − [c]J⁻¹[c], [c]J⁻¹], [−J⁻¹[c], J⁻¹]]; the factor M = G Gᵀ with
 *   G = [[√m I, 0], [√m [c], L]], J = L Lᵀ (M⁻¹ to 2e-15, G Gᵀ to 4e-16). Checked for random
 *   m, c and non-diagonal SPD J: M M⁻¹ = I, G Gᵀ = M, symmetry and positive definiteness, the
 *   closed form against a dense Gauss-Jordan inverse, and the physics: M u is the momentum pair
 *   (m v_c, c × m v_c + J ω) about the origin and ½ uᵀ M u = ½ m |v + ω × c|² + ½ ωᵀ J ω, for
 *   u = (v of the origin, ω).
 * - Primitive solids (uniform density): principal moments about the centre of mass and volumes
 *   against a midpoint-rule integration over a fine regular grid of one octant of the solid
 *   (all shapes are symmetric in the three coordinate planes).
 * - mat3 / vec3 helpers against straightforward references (Leibniz determinant, Gauss-Jordan
 *   inverse, textbook Cholesky, index-sum products, Levi-Civita cross product).
 *
 * Random inputs come from a seeded mulberry32 generator, so every run is identical.
 */
import { describe, expect, it } from 'vitest';
import {
  spatialInertia, spatialInertiaInto, spatialInertiaInverse, spatialInertiaFactor, spatialScratch, shapeVolume, shapePrincipalInertia,
  type Shape,
} from '../../src/math/spatial.js';
import {
  mat3, identity3, copyMat3, skew, mul3, mulABt3, mulAtB3, transpose3, mulVec3, mulTVec3, axpyMat3, scaleMat3, outer3,
  det3, invert3, rotateTensor3, cholesky3,
} from '../../src/math/mat3.js';
import {
  vec3, set3, copy3, store3, add3, sub3, scale3, axpy3, dot3, cross3, norm3, isFinite3,
} from '../../src/math/vec3.js';
import { rng, maxAbsDiff, maxAbs } from '../helpers/numeric.js';

// ---------------------------------------------------------------------------------------------
// independent dense references (row-major n×n as number[])


function matMul(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number[] {
  const out = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += a[n * i + k]! * b[n * k + j]!;
    out[n * i + j] = s;
  }
  return out;
}

function transpose(a: ArrayLike<number>, n: number): number[] {
  const out = new Array<number>(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[n * j + i] = a[n * i + j]!;
  return out;
}

function matVec(a: ArrayLike<number>, v: ArrayLike<number>, n: number): number[] {
  const out = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) out[i]! += a[n * i + k]! * v[k]!;
  return out;
}

function identity(n: number): number[] {
  const out = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) out[n * i + i] = 1;
  return out;
}

/** Gauss-Jordan inverse with partial pivoting; null if singular */
function gaussJordanInverse(a: ArrayLike<number>, n: number): number[] | null {
  const w = Array.from({ length: n }, (_, i) => [...Array.from({ length: n }, (_, j) => a[n * i + j]!), ...identity(n).slice(n * i, n * i + n)]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(w[i]![c]!) > Math.abs(w[p]![c]!)) p = i;
    if (w[p]![c] === 0) return null;
    [w[c], w[p]] = [w[p]!, w[c]!];
    const piv = w[c]![c]!;
    for (let j = 0; j < 2 * n; j++) w[c]![j]! /= piv;
    for (let i = 0; i < n; i++) {
      if (i === c) continue;
      const f = w[i]![c]!;
      for (let j = 0; j < 2 * n; j++) w[i]![j]! -= f * w[c]![j]!;
    }
  }
  return w.flatMap((row) => row.slice(n));
}

/** textbook Cholesky–Banachiewicz; null if a pivot is not positive */
function choleskyRef(a: ArrayLike<number>, n: number): number[] | null {
  const L = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
    let s = a[n * i + j]!;
    for (let k = 0; k < j; k++) s -= L[n * i + k]! * L[n * j + k]!;
    if (i === j) {
      if (!(s > 0)) return null;
      L[n * i + i] = Math.sqrt(s);
    } else L[n * i + j] = s / L[n * j + j]!;
  }
  return L;
}

/** Leibniz determinant of a 3×3: Σ sgn(σ) Π a_{i σ(i)} */
function detLeibniz(a: ArrayLike<number>): number {
  const perms: [number, number, number, number][] = [[0, 1, 2, 1], [1, 2, 0, 1], [2, 0, 1, 1], [0, 2, 1, -1], [2, 1, 0, -1], [1, 0, 2, -1]];
  let d = 0;
  for (const [p0, p1, p2, s] of perms) d += s * a[p0]! * a[3 + p1]! * a[6 + p2]!;
  return d;
}



const skewRef = (c: ArrayLike<number>): number[] => [0, -c[2]!, c[1]!, c[2]!, 0, -c[0]!, -c[1]!, c[0]!, 0];
const crossRef = (a: ArrayLike<number>, b: ArrayLike<number>): number[] =>
  [0, 1, 2].map((i) => { // Levi-Civita: (a × b)_i = ε_ijk a_j b_k
    let s = 0;
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) s += ((i - j) * (j - k) * (k - i)) / 2 * a[j]! * b[k]!;
    return s;
  });

/** random rotation matrix (Gram-Schmidt of random vectors, det +1) */
function randRotation(r: () => number): number[] {
  const a = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1], b = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
  const na = Math.hypot(...a);
  const e1 = a.map((x) => x / na);
  const d = e1[0]! * b[0]! + e1[1]! * b[1]! + e1[2]! * b[2]!;
  const b2 = b.map((x, i) => x - d * e1[i]!);
  const nb = Math.hypot(...b2);
  const e2 = b2.map((x) => x / nb);
  const e3 = crossRef(e1, e2);
  return [e1[0]!, e2[0]!, e3[0]!, e1[1]!, e2[1]!, e3[1]!, e1[2]!, e2[2]!, e3[2]!]; // columns e1, e2, e3
}

/**
 * a random rigid body: mass, centre-of-mass offset and a non-diagonal SPD rotational inertia
 * J = Q diag(I1, I2, I3) Qᵀ with physically admissible principal moments (triangle inequality)
 */
function randBody(r: () => number): { m: number; c: Float64Array; J: Float64Array } {
  const m = 0.2 + 5 * r();
  const c = Float64Array.from([2 * r() - 1, 2 * r() - 1, 2 * r() - 1]);
  // principal moments from positive point-mass second moments a, b, c: (b+c, a+c, a+b)
  const s = [0.05 + r(), 0.05 + r(), 0.05 + r()];
  const D = [s[1]! + s[2]!, 0, 0, 0, s[0]! + s[2]!, 0, 0, 0, s[0]! + s[1]!];
  const Q = randRotation(r);
  const J = Float64Array.from(matMul(matMul(Q, D, 3), transpose(Q, 3), 3));
  for (let i = 0; i < 3; i++) for (let j = 0; j < i; j++) J[3 * j + i] = J[3 * i + j]!; // exact symmetry
  return { m, c, J };
}

/** M assembled directly from the block formula of theory.md §2 */
function spatialRef(m: number, c: ArrayLike<number>, J: ArrayLike<number>): number[] {
  const C = skewRef(c), CC = matMul(C, C, 3);
  const M = new Array<number>(36).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    M[6 * i + j] = i === j ? m : 0;
    M[6 * i + 3 + j] = -m * C[3 * i + j]!;
    M[6 * (3 + i) + j] = m * C[3 * i + j]!;
    M[6 * (3 + i) + 3 + j] = J[3 * i + j]! - m * CC[3 * i + j]!;
  }
  return M;
}

// ---------------------------------------------------------------------------------------------

describe('spatial inertia M, M⁻¹ and M = G Gᵀ (theory.md §2)', () => {
  const s = spatialScratch();
  const M = new Float64Array(36), Mi = new Float64Array(36), G = new Float64Array(36);

  it('M equals the block formula, is symmetric and positive definite; with c = 0 it is diag(m I, J)', () => {
    const r = rng(1);
    for (let k = 0; k < 300; k++) {
      const { m, c, J } = randBody(r);
      expect(Math.abs(J[1]!) + Math.abs(J[2]!) + Math.abs(J[5]!)).toBeGreaterThan(1e-6); // non-diagonal
      spatialInertia(M, m, c, J, s);
      expect(maxAbsDiff(M, spatialRef(m, c, J))).toBeLessThanOrEqual(1e-14 * m);
      expect(maxAbsDiff(M, transpose(M, 6))).toBeLessThanOrEqual(1e-15 * maxAbs(M));
      const L = choleskyRef(M, 6);
      expect(L).not.toBeNull();
      // a well-defined positive minimum: xᵀ M x > 0 for random x
      for (let t = 0; t < 5; t++) {
        const x = Array.from({ length: 6 }, () => 2 * r() - 1);
        const xMx = matVec(M, x, 6).reduce((acc, y, i) => acc + y * x[i]!, 0);
        expect(xMx).toBeGreaterThan(0);
      }
      spatialInertia(M, m, vec3(), J, s);
      const bd = new Array<number>(36).fill(0);
      for (let i = 0; i < 3; i++) { bd[7 * i] = m; for (let j = 0; j < 3; j++) bd[6 * (3 + i) + 3 + j] = J[3 * i + j]!; }
      expect(maxAbsDiff(M, bd)).toBe(0);
    }
  });

  it('spatialInertiaInto writes into a column-major block (the mass stage\'s form) the matrix spatialInertia writes row-major', () => {
    // a 6×6 block at value index 40 of a padded column-major array, columns 9 apart, inputs at offsets
    const r = rng(7), colBase = Int32Array.from({ length: 12 }, (_, k) => (k < 6 ? 0 : 40 + 9 * (k - 6)));
    for (let k = 0; k < 50; k++) {
      const { m, c, J } = randBody(r);
      spatialInertia(M, m, c, J, s);
      const out = new Float64Array(40 + 9 * 6).fill(NaN), cs = new Float64Array(5), Js = new Float64Array(11);
      cs.set(c, 2); Js.set(J, 2);
      spatialInertiaInto(out, colBase, 6, 1, Float64Array.of(0, m), 1, cs, 2, Js, 2);
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(out[40 + 9 * j + i]).toBe(M[6 * i + j]);
      // the padding is untouched
      for (let j = 0; j < 6; j++) for (let i = 6; i < 9 && 40 + 9 * j + i < out.length; i++) expect(out[40 + 9 * j + i]).toBeNaN();
    }
  });

  it('regression: a centre of mass along x leaves J_xx exact (J + m(|c|² − c_x²) summed without cancellation)', () => {
    // summed as J − m c_x² + m|c|², J_xx picked up rounding of m c_x² when |c| is large against J
    const J = mat3(); J[0] = 1e-3; J[4] = 2e-3; J[8] = 3e-3;
    spatialInertia(M, 5, Float64Array.of(12.345, 0, 0), J, s);
    expect(M[6 * 3 + 3]).toBe(1e-3);
    expect(M[6 * 4 + 4]).toBe(2e-3 + 5 * 12.345 * 12.345);
  });

  it('closed-form M⁻¹: M M⁻¹ = M⁻¹ M = I to 1e-12, and equals a dense Gauss-Jordan inverse', () => {
    const r = rng(2);
    for (let k = 0; k < 300; k++) {
      const { m, c, J } = randBody(r);
      spatialInertia(M, m, c, J, s);
      expect(spatialInertiaInverse(Mi, m, c, J, s)).toBe(true);
      expect(maxAbsDiff(matMul(M, Mi, 6), identity(6))).toBeLessThanOrEqual(1e-12);
      expect(maxAbsDiff(matMul(Mi, M, 6), identity(6))).toBeLessThanOrEqual(1e-12);
      const dense = gaussJordanInverse(M, 6)!;
      expect(maxAbsDiff(Mi, dense)).toBeLessThanOrEqual(1e-12 * maxAbs(dense));
      expect(maxAbsDiff(Mi, transpose(Mi, 6))).toBeLessThanOrEqual(1e-14 * maxAbs(Mi));
    }
  });

  it('G Gᵀ = M to 1e-12, G = [[√m I, 0], [√m [c], L]] with L lower triangular, L Lᵀ = J', () => {
    const r = rng(3);
    for (let k = 0; k < 300; k++) {
      const { m, c, J } = randBody(r);
      spatialInertia(M, m, c, J, s);
      expect(spatialInertiaFactor(G, m, c, J, s)).toBe(true);
      expect(maxAbsDiff(matMul(G, transpose(G, 6), 6), M)).toBeLessThanOrEqual(1e-12);
      const rm = Math.sqrt(m), C = skewRef(c);
      const L = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => G[6 * (3 + i) + 3 + j]!));
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        expect(G[6 * i + j]).toBe(i === j ? rm : 0);
        expect(G[6 * i + 3 + j]).toBe(0);
        expect(Math.abs(G[6 * (3 + i) + j]! - rm * C[3 * i + j]!)).toBeLessThanOrEqual(1e-15 * rm);
        if (j > i) expect(L[3 * i + j]).toBe(0);
      }
      expect(maxAbsDiff(matMul(L, transpose(L, 3), 3), J)).toBeLessThanOrEqual(1e-14);
    }
  });

  it('M u is the momentum about the origin: (m v_c, c × m v_c + J ω), v_c = v + ω × c; ½uᵀMu = ½m|v_c|² + ½ωᵀJω', () => {
    const r = rng(4);
    for (let k = 0; k < 300; k++) {
      const { m, c, J } = randBody(r);
      spatialInertia(M, m, c, J, s);
      const v = [4 * r() - 2, 4 * r() - 2, 4 * r() - 2], w = [6 * r() - 3, 6 * r() - 3, 6 * r() - 3];
      const u = [...v, ...w];
      const Mu = matVec(M, u, 6);
      const vc = crossRef(w, c).map((x, i) => x + v[i]!);
      const p = vc.map((x) => m * x);
      const Jw = matVec(J, w, 3);
      const Lo = crossRef(c, p).map((x, i) => x + Jw[i]!);
      expect(maxAbsDiff(Mu, [...p, ...Lo])).toBeLessThanOrEqual(1e-13 * maxAbs(Mu));
      const T = 0.5 * Mu.reduce((acc, y, i) => acc + y * u[i]!, 0);
      const Tref = 0.5 * m * (vc[0]! ** 2 + vc[1]! ** 2 + vc[2]! ** 2) + 0.5 * (w[0]! * Jw[0]! + w[1]! * Jw[1]! + w[2]! * Jw[2]!);
      expect(Math.abs(T - Tref)).toBeLessThanOrEqual(1e-13 * Tref);
    }
  });

  it('reports singular / indefinite J instead of producing garbage', () => {
    const c = vec3(0.1, -0.2, 0.3);
    const singular = Float64Array.from([1, 0, 0, 0, 1, 0, 0, 0, 0]);
    const indefinite = Float64Array.from([1, 0, 0, 0, -1, 0, 0, 0, 1]);
    const notPd = Float64Array.from([1, 2, 0, 2, 1, 0, 0, 0, 1]); // eigenvalues 3, −1, 1
    expect(spatialInertiaInverse(Mi, 1, c, singular, s)).toBe(false);
    expect(spatialInertiaFactor(G, 1, c, singular, s)).toBe(false);
    expect(spatialInertiaFactor(G, 1, c, indefinite, s)).toBe(false);
    expect(spatialInertiaFactor(G, 1, c, notPd, s)).toBe(false);
  });
});

describe('primitive solids: principal inertia and volume against a grid integration', () => {
  /**
   * midpoint rule over an n³ grid of the octant [0, ex]×[0, ey]×[0, ez] of a solid symmetric in the
   * coordinate planes: volume and the mass-normalised moments (∫(y²+z²), ∫(x²+z²), ∫(x²+y²)) / V
   */
  function integrate(inside: (x: number, y: number, z: number) => boolean, ex: number, ey: number, ez: number, n: number) {
    const hx = ex / n, hy = ey / n, hz = ez / n;
    let cnt = 0, sx = 0, sy = 0, sz = 0;
    for (let i = 0; i < n; i++) {
      const x = (i + 0.5) * hx;
      for (let j = 0; j < n; j++) {
        const y = (j + 0.5) * hy;
        for (let k = 0; k < n; k++) {
          const z = (k + 0.5) * hz;
          if (inside(x, y, z)) { cnt++; sx += x * x; sy += y * y; sz += z * z; }
        }
      }
    }
    return { V: 8 * cnt * hx * hy * hz, I: [(sy + sz) / cnt, (sx + sz) / cnt, (sx + sy) / cnt] };
  }

  const cases: { name: string; shape: Shape; inside: (x: number, y: number, z: number) => boolean; ext: [number, number, number] }[] = [
    { name: 'box', shape: { type: 'box', size: [0.3, 0.5, 1.1] }, inside: () => true, ext: [0.15, 0.25, 0.55] },
    { name: 'sphere', shape: { type: 'sphere', radius: 0.7 }, inside: (x, y, z) => x * x + y * y + z * z <= 0.49, ext: [0.7, 0.7, 0.7] },
    {
      name: 'ellipsoid', shape: { type: 'ellipsoid', radii: [0.5, 0.8, 1.3] },
      inside: (x, y, z) => (x / 0.5) ** 2 + (y / 0.8) ** 2 + (z / 1.3) ** 2 <= 1, ext: [0.5, 0.8, 1.3],
    },
    { name: 'long cylinder', shape: { type: 'cylinder', radius: 0.4, length: 1.5 }, inside: (x, y) => x * x + y * y <= 0.16, ext: [0.4, 0.4, 0.75] },
    { name: 'flat cylinder', shape: { type: 'cylinder', radius: 0.6, length: 0.2 }, inside: (x, y) => x * x + y * y <= 0.36, ext: [0.6, 0.6, 0.1] },
    {
      name: 'long capsule', shape: { type: 'capsule', radius: 0.4, length: 1.5 },
      inside: (x, y, z) => x * x + y * y + Math.max(0, z - 0.75) ** 2 <= 0.16, ext: [0.4, 0.4, 1.15],
    },
    {
      name: 'short capsule', shape: { type: 'capsule', radius: 0.5, length: 0.2 },
      inside: (x, y, z) => x * x + y * y + Math.max(0, z - 0.1) ** 2 <= 0.25, ext: [0.5, 0.5, 0.6],
    },
  ];

  for (const cs of cases) {
    it(`${cs.name}: moments and volume within 1e-3 of a 160³ octant grid`, () => {
      const m = 2.5;
      const g = integrate(cs.inside, ...cs.ext, 160);
      const I = shapePrincipalInertia(cs.shape, m);
      for (let a = 0; a < 3; a++) expect(Math.abs(I[a]! / (m * g.I[a]!) - 1)).toBeLessThanOrEqual(1e-3);
      expect(Math.abs(shapeVolume(cs.shape) / g.V - 1)).toBeLessThanOrEqual(1e-3);
      // inertia is linear in the mass
      const I2 = shapePrincipalInertia(cs.shape, 3 * m);
      for (let a = 0; a < 3; a++) expect(Math.abs(I2[a]! - 3 * I[a]!)).toBeLessThanOrEqual(1e-15 * I2[a]!);
    });
  }

  it('limits: a capsule of length 0 is a sphere, an ellipsoid with equal radii is a sphere, a cube is isotropic', () => {
    const sph = shapePrincipalInertia({ type: 'sphere', radius: 0.3 }, 2);
    const cap = shapePrincipalInertia({ type: 'capsule', radius: 0.3, length: 0 }, 2);
    const ell = shapePrincipalInertia({ type: 'ellipsoid', radii: [0.3, 0.3, 0.3] }, 2);
    expect(maxAbsDiff(cap, sph)).toBeLessThanOrEqual(1e-16);
    expect(maxAbsDiff(ell, sph)).toBeLessThanOrEqual(1e-16);
    expect(Math.abs(shapeVolume({ type: 'capsule', radius: 0.3, length: 0 }) - shapeVolume({ type: 'sphere', radius: 0.3 }))).toBeLessThanOrEqual(1e-16);
    const cube = shapePrincipalInertia({ type: 'box', size: [2, 2, 2] }, 3);
    expect(cube).toEqual([2, 2, 2]); // m (a² + a²)/12 = 3 · 8 / 12
  });
});

describe('mat3 helpers against straightforward references', () => {
  const rand3 = (r: () => number, s = 1): Float64Array => Float64Array.from({ length: 9 }, () => s * (2 * r() - 1));

  it('det3 equals the Leibniz sum', () => {
    const r = rng(10);
    for (let k = 0; k < 500; k++) {
      const a = rand3(r, 3);
      expect(Math.abs(det3(a) - detLeibniz(a))).toBeLessThanOrEqual(1e-13);
    }
    expect(det3(identity3(mat3(), 2))).toBe(8);
    expect(det3(Float64Array.from([1, 2, 3, 2, 4, 6, 1, 0, 1]))).toBe(0);
  });

  it('invert3 equals a Gauss-Jordan inverse and reports singular or non-finite input', () => {
    const r = rng(11);
    const out = mat3();
    for (let k = 0; k < 500; k++) {
      const a = rand3(r, 2);
      const ref = gaussJordanInverse(a, 3)!;
      const cond = maxAbs(ref) * maxAbs(a);
      expect(invert3(out, a)).toBe(true);
      expect(maxAbsDiff(out, ref)).toBeLessThanOrEqual(1e-14 * cond * maxAbs(ref));
      expect(maxAbsDiff(matMul(a, out, 3), identity(3))).toBeLessThanOrEqual(1e-14 * cond);
    }
    const before = Float64Array.from(out);
    expect(invert3(out, Float64Array.from([1, 2, 3, 2, 4, 6, 1, 0, 1]))).toBe(false);
    expect(invert3(out, mat3())).toBe(false);
    expect(invert3(out, Float64Array.from([1, 0, 0, 0, NaN, 0, 0, 0, 1]))).toBe(false);
    expect(invert3(out, Float64Array.from([1e300, 0, 0, 0, 1e300, 0, 0, 0, 1e300]))).toBe(false); // det overflows
    expect(Array.from(out)).toEqual(Array.from(before));
  });

  it('cholesky3 equals the textbook Cholesky factor and rejects matrices that are not positive definite', () => {
    const r = rng(12);
    const L = mat3();
    for (let k = 0; k < 500; k++) {
      const B = rand3(r);
      const J = matMul(B, transpose(B, 3), 3).map((x, i) => x + (i % 4 === 0 ? 0.05 : 0));
      const ref = choleskyRef(J, 3)!;
      expect(cholesky3(L, Float64Array.from(J))).toBe(true);
      expect(maxAbsDiff(L, ref)).toBeLessThanOrEqual(1e-13);
      expect(maxAbsDiff(matMul(L, transpose(L, 3), 3), J)).toBeLessThanOrEqual(1e-14 * maxAbs(J));
      expect([L[1], L[2], L[5]]).toEqual([0, 0, 0]);
      for (const d of [L[0]!, L[4]!, L[8]!]) expect(d).toBeGreaterThan(0);
    }
    for (const bad of [[1, 0, 0, 0, -1, 0, 0, 0, 1], [1, 2, 0, 2, 1, 0, 0, 0, 1], [1, 0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0, 1], [1, 0, 0, 0, 1, 0, 0, 0, NaN]]) {
      expect(cholesky3(L, Float64Array.from(bad))).toBe(false);
    }
  });

  it('rotateTensor3 equals Σ_kl R_ik J_kl R_jl and preserves trace and eigen-invariants', () => {
    const r = rng(13);
    const out = mat3(), tmp = mat3();
    for (let k = 0; k < 300; k++) {
      const R = Float64Array.from(randRotation(r));
      const B = rand3(r);
      const J = Float64Array.from(matMul(B, transpose(B, 3), 3));
      rotateTensor3(out, R, J, tmp);
      const ref: number[] = [];
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) s += R[3 * i + a]! * J[3 * a + b]! * R[3 * j + b]!;
        ref.push(s);
      }
      const sc = maxAbs(J);
      expect(maxAbsDiff(out, ref)).toBeLessThanOrEqual(4e-15 * sc);
      expect(Math.abs(out[0]! + out[4]! + out[8]! - (J[0]! + J[4]! + J[8]!))).toBeLessThanOrEqual(1e-14 * sc);
      expect(Math.abs(det3(out) - det3(J))).toBeLessThanOrEqual(1e-14 * sc ** 3);
    }
  });

  it('products, transposes, skew, outer, axpy, scale, identity, copy', () => {
    const r = rng(14);
    const out = mat3(), v = vec3();
    for (let k = 0; k < 200; k++) {
      const a = rand3(r), b = rand3(r), x = Float64Array.from([2 * r() - 1, 2 * r() - 1, 2 * r() - 1]);
      const y = Float64Array.from([2 * r() - 1, 2 * r() - 1, 2 * r() - 1]), s = 2 * r() - 1;
      expect(maxAbsDiff(mul3(out, a, b), matMul(a, b, 3))).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(mulABt3(out, a, b), matMul(a, transpose(b, 3), 3))).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(mulAtB3(out, a, b), matMul(transpose(a, 3), b, 3))).toBeLessThanOrEqual(1e-15);
      expect(Array.from(transpose3(out, a))).toEqual(transpose(a, 3));
      const aa = Float64Array.from(a);
      expect(Array.from(transpose3(aa, aa))).toEqual(transpose(a, 3)); // in place
      expect(maxAbsDiff(mulVec3(v, a, x), matVec(a, x, 3))).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(mulTVec3(v, a, x), matVec(transpose(a, 3), x, 3))).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(matVec(skew(out, x), y, 3), crossRef(x, y))).toBeLessThanOrEqual(1e-15);
      expect(Array.from(skew(out, x))).toEqual(skewRef(x));
      expect(maxAbsDiff(outer3(out, x, y, s), Array.from({ length: 9 }, (_, i) => s * x[Math.floor(i / 3)]! * y[i % 3]!))).toBeLessThanOrEqual(1e-16);
      const ab = Float64Array.from(a);
      expect(maxAbsDiff(axpyMat3(ab, ab, s, b), Array.from(a, (q, i) => q + s * b[i]!))).toBe(0); // out aliases a
      expect(maxAbsDiff(scaleMat3(out, a, s), Array.from(a, (q) => q * s))).toBe(0);
      expect(Array.from(copyMat3(out, a))).toEqual(Array.from(a));
    }
    const I = identity3(Float64Array.from({ length: 9 }, () => 5));
    expect(Array.from(I)).toEqual(identity(3));
    expect(Array.from(identity3(mat3(), -2))).toEqual([-2, 0, 0, 0, -2, 0, 0, 0, -2]);
    expect(Array.from(outer3(mat3(), vec3(1, 2, 3), vec3(4, 5, 6)))).toEqual([4, 5, 6, 8, 10, 12, 12, 15, 18]);
  });
});

describe('vec3 helpers', () => {
  it('arithmetic, dot, norm and the Levi-Civita cross product; documented aliasing', () => {
    const r = rng(20);
    const out = vec3();
    for (let k = 0; k < 200; k++) {
      const a = Float64Array.from([4 * r() - 2, 4 * r() - 2, 4 * r() - 2]), b = Float64Array.from([4 * r() - 2, 4 * r() - 2, 4 * r() - 2]);
      const s = 2 * r() - 1;
      expect(Array.from(add3(out, a, b))).toEqual(Array.from(a, (x, i) => x + b[i]!));
      expect(Array.from(sub3(out, a, b))).toEqual(Array.from(a, (x, i) => x - b[i]!));
      expect(Array.from(scale3(out, a, s))).toEqual(Array.from(a, (x) => x * s));
      expect(Array.from(axpy3(out, a, s, b))).toEqual(Array.from(a, (x, i) => x + s * b[i]!));
      expect(Math.abs(dot3(a, b) - (a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!))).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(norm3(a) - Math.hypot(a[0]!, a[1]!, a[2]!))).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(cross3(out, a, b), crossRef(a, b))).toBeLessThanOrEqual(1e-15);
      // a × b ⟂ a, b
      expect(Math.abs(dot3(cross3(out, a, b), a))).toBeLessThanOrEqual(1e-14);
      // out may alias the inputs of add3 / sub3 / scale3 / axpy3
      const c = Float64Array.from(a);
      add3(c, c, b); sub3(c, c, b);
      expect(maxAbsDiff(c, a)).toBeLessThanOrEqual(1e-15);
      const d = Float64Array.from(a);
      expect(Array.from(axpy3(d, d, s, d))).toEqual(Array.from(a, (x) => x + s * x));
    }
    expect(Array.from(vec3())).toEqual([0, 0, 0]);
    expect(Array.from(vec3(1, 2, 3))).toEqual([1, 2, 3]);
    expect(Array.from(set3(out, 4, 5, 6))).toEqual([4, 5, 6]);
    expect(Array.from(copy3(out, [9, 8, 7, 6, 5], 2))).toEqual([7, 6, 5]);
    const arr = new Float64Array(6);
    store3(arr, 2, vec3(1, 2, 3));
    expect(Array.from(arr)).toEqual([0, 0, 1, 2, 3, 0]);
    expect(isFinite3([1, 2, 3])).toBe(true);
    expect(isFinite3([1, NaN, 3])).toBe(false);
    expect(isFinite3([1, 2, Infinity])).toBe(false);
    expect(Array.from(cross3(out, vec3(1, 0, 0), vec3(0, 1, 0)))).toEqual([0, 0, 1]);
  });
});
