/**
 * Tests of projected Gauss-Seidel: the generic box PGS and the contact PGS converge to the
 * solution that brute-force enumeration of all complementary bases finds (frictionless LCPs with SPD
 * matrices; box friction on a single contact of a random body), exact stick/slip of a particle and
 * a sphere, a box on four vertices (singular W), bias and regularization rows, both solve forms,
 * the warm start (fewer sweeps) and its key matching.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ContactSet } from '../../../src/contact/contactSet.js';
import { LocalDynamics, type ContactBodies } from '../../../src/contact/localDynamics.js';
import {
  ContactPgs, boxPgs, matchWarmStart, WarmStartScratch, type ContactKeys,
} from '../../../src/solvers/lcp/pgs.js';
import { DenseLcpMatrix } from '../../../src/solvers/lcp/types.js';
import { luDense, luSolveDense } from '../../../src/math/dense.js';
import { spatialInertiaInverse, spatialScratch } from '../../../src/math/spatial.js';
import { rng, maxAbs, maxAbsDiff } from '../../helpers/numeric.js';

// ---------- brute force: every complementary basis of a small box LCP ----------

/**
 * All solutions of w = A z + q under types.ts's box conditions, rows with normalOf ≥ 0 bounded by
 * ±mu·z[normalOf]: each row at its lower bound, its upper bound or free, one linear solve per choice.
 */
function enumerate(A: Float64Array, q: Float64Array, lo: number[], hi: number[], normalOf: number[],
  mu: number[]): Float64Array[] {
  const n = q.length, found: Float64Array[] = [], state = new Array<number>(n).fill(0);
  const tol = 1e-9 * (1 + maxAbs(q));
  for (;;) {
    const M = new Float64Array(n * n), b = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = normalOf[i]!, s = state[i]!;
      if (s === 2) { for (let j = 0; j < n; j++) M[i * n + j] = A[i * n + j]!; b[i] = -q[i]!; continue; }
      M[i * n + i] = 1;
      if (k >= 0) M[i * n + k] = s === 0 ? mu[i]! : -mu[i]!;
      else b[i] = s === 0 ? lo[i]! : hi[i]!;
    }
    const f = luDense(M, n);
    const bound = (s: number, i: number): number => (s === 0 ? lo[i]! : s === 1 ? hi[i]! : 0);
    const finite = state.every((s, i) => normalOf[i]! >= 0 || Number.isFinite(bound(s, i)));
    if (f !== null && finite) {
      const z = luSolveDense(new Float64Array(n), f, b);
      const fresh = !found.some((y) => maxAbsDiff(y, z) < 1e-7);
      if (fresh && admissible(A, q, z, state, lo, hi, normalOf, mu, tol)) found.push(z);
    }
    let i = 0;
    while (i < n && ++state[i]! > 2) state[i++] = 0;
    if (i === n) return found;
  }
}

function admissible(A: Float64Array, q: Float64Array, z: Float64Array, state: number[], lo: number[], hi: number[],
  normalOf: number[], mu: number[], tol: number): boolean {
  const n = q.length;
  for (let i = 0; i < n; i++) {
    let w = q[i]!;
    for (let j = 0; j < n; j++) w += A[i * n + j]! * z[j]!;
    const k = normalOf[i]!, l = k >= 0 ? -mu[i]! * z[k]! : lo[i]!, h = k >= 0 ? mu[i]! * z[k]! : hi[i]!;
    if (z[i]! < l - tol || z[i]! > h + tol) return false;
    if (state[i] === 0 && w < -tol) return false;
    if (state[i] === 1 && w > tol) return false;
  }
  return true;
}

// ---------- scenes ----------

const G = 9.81, H = 0.01;

/** one component per entry: a particle (3×3 M⁻¹ = I/m) or a body with the given 6×6 M⁻¹ */
function bodiesOf(parts: { Minv: ArrayLike<number>; origin: number[] }[]): { bodies: ContactBodies; nu: number } {
  const nc = parts.length, kind = new Uint8Array(nc), uOffset = new Int32Array(nc);
  const origin_W = new Float64Array(3 * nc), Minv = new Float64Array(36 * nc);
  let nu = 0;
  parts.forEach((p, c) => {
    const w = p.Minv.length === 36 ? 6 : 3;
    kind[c] = w === 6 ? 1 : 0; uOffset[c] = nu; nu += w;
    origin_W.set(p.origin, 3 * c);
    for (let i = 0; i < w; i++) for (let j = 0; j < w; j++) Minv[36 * c + 6 * i + j] = p.Minv[w * i + j]!;
  });
  return { bodies: { kind, uOffset, origin_W, Minv }, nu };
}

const particleMinv = (m: number): number[] => [1 / m, 0, 0, 0, 1 / m, 0, 0, 0, 1 / m];

/** the M⁻¹ of a random rigid body (mass, inertia and centre-of-mass offset) */
function randomBodyMinv(r: () => number): Float64Array {
  const m = 0.5 + r(), a = 0.1 + r(), b = 0.1 + r(), c = 0.1 + r(), x = 0.2 * (r() - 0.5);
  const J = Float64Array.of(a, x, 0, x, b, 0, 0, 0, c);
  const out = new Float64Array(36);
  spatialInertiaInverse(out, m, Float64Array.of(r() - 0.5, r() - 0.5, r() - 0.5), J, spatialScratch());
  return out;
}

interface OneContact { contacts: ContactSet; bodies: ContactBodies; uFree: Float64Array; mu: number }

/** one contact of a random body with the world, pressed into it, with a random sliding and spinning part */
function randomContact(seed: number): OneContact {
  const r = rng(seed), mu = 0.8 * r(), origin = [r() - 0.5, r() - 0.5, r() - 0.5];
  const { bodies, nu } = bodiesOf([{ Minv: randomBodyMinv(r), origin }]);
  const contacts = new ContactSet(), n = unit([r() - 0.5, r() - 0.5, r() - 0.5]);
  contacts.push(-1, 0, 0, 0, 1, 0, r() - 0.5, r() - 0.5, r() - 0.5, n[0]!, n[1]!, n[2]!, 0);
  contacts.friction[0] = mu;
  const press = 0.5 + r();
  const uFree = Float64Array.from({ length: nu }, (_, k) => (k < 3 ? -press * n[k]! : 0) + 0.6 * (r() - 0.5));
  return { contacts, bodies, uFree, mu };
}

function unit(v: number[]): number[] { const l = Math.hypot(...v); return v.map((x) => x / l); }

interface Solved { u: Float64Array; R: Float64Array; ld: LocalDynamics }

/** solves and returns u⁺ = u_free + Δu and the impulses */
function solveScene(contacts: ContactSet, bodies: ContactBodies, uFree: Float64Array, pgs: ContactPgs,
  bias: Float64Array | null = null, reg: Float64Array | null = null): Solved {
  const ld = new LocalDynamics(), R = new Float64Array(3 * contacts.count);
  ld.build(contacts, bodies, uFree, pgs.form === 'blocks');
  pgs.solve(ld, R, bias, reg);
  const u = uFree.slice();
  pgs.applyVelocityChange(u);
  return { u, R, ld };
}

// ---------- tests ----------

describe('boxPgs', () => {
  it('converges to the unique solution of frictionless LCPs with SPD matrices as sweeps grow', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 7 }), (seed, n) => {
      const r = rng(seed), Gm = Array.from({ length: n * n }, () => 2 * r() - 1), A = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        A[i * n + j] = i === j ? 0.5 : 0;
        for (let k = 0; k < n; k++) A[i * n + j] += Gm[i * n + k]! * Gm[j * n + k]!;
      }
      const q = Float64Array.from({ length: n }, () => 2 * r() - 1);
      const lo = new Array<number>(n).fill(0), hi = new Array<number>(n).fill(Infinity);
      const none = new Array<number>(n).fill(-1);
      const exact = enumerate(A, q, lo, hi, none, none);
      expect(exact.length).toBe(1);
      const err = (sweeps: number): number => {
        const z = new Float64Array(n);
        boxPgs(new DenseLcpMatrix(n, A), q, Float64Array.from(lo), Float64Array.from(hi), null, z,
          { maxIterations: sweeps, tolerance: 0 });
        return maxAbsDiff(z, exact[0]!);
      };
      const e3 = err(3), eMany = err(3000);
      expect(eMany).toBeLessThan(1e-9 * (1 + maxAbs(exact[0]!)));
      expect(eMany).toBeLessThanOrEqual(e3);
    }), { seed: 42, numRuns: 60 });
  });

  it('solves box friction rows with bounds from the current normal impulse', () => {
    const A = Float64Array.of(2, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.8), q = Float64Array.of(-1, 0.4, -2);
    const exact = enumerate(A, q, [0, 0, 0], [Infinity, 0, 0], [-1, 0, 0], [0, 0.5, 0.5]);
    expect(exact.length).toBe(1);
    const z = new Float64Array(3);
    const rep = boxPgs(new DenseLcpMatrix(3, A), q, Float64Array.of(0, 0, 0), Float64Array.of(Infinity, 0, 0),
      { normalOf: Int32Array.of(-1, 0, 0), mu: Float64Array.of(0, 0.5, 0.5) }, z,
      { tolerance: 1e-14, maxIterations: 500 });
    expect(rep.status).toBe('solved');
    expect(maxAbsDiff(z, exact[0]!)).toBeLessThan(1e-10);
    expect(rep.residual).toBeLessThan(1e-12);
  });

  it('reports the iteration limit and a residual that shrinks with sweeps', () => {
    const n = 4, A = Float64Array.of(4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4);
    const q = Float64Array.of(-1, -2, 1, -3), M = new DenseLcpMatrix(n, A);
    const lo = new Float64Array(n), hi = new Float64Array(n).fill(Infinity);
    const a = boxPgs(M, q, lo, hi, null, new Float64Array(n), { maxIterations: 2, tolerance: 0 });
    const b = boxPgs(M, q, lo, hi, null, new Float64Array(n), { maxIterations: 60, tolerance: 1e-12 });
    expect(a.status).toBe('iteration-limit');
    expect(b.status).toBe('solved');
    expect(b.residual).toBeLessThan(1e-11);
    expect(a.residual).toBeGreaterThan(1e3 * b.residual);
  });
});

describe('ContactPgs', () => {
  it('converges to the enumerated solution of frictionless contacts among random bodies, in both forms', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
      const r = rng(seed), m = 2 + Math.floor(4 * r());
      const { bodies, nu } = bodiesOf([0, 1, 2].map((c) => ({
        Minv: c === 2 ? particleMinv(1 + r()) : randomBodyMinv(r),
        origin: [r() - 0.5, r() - 0.5, r() - 0.5] })));
      const contacts = new ContactSet();
      for (let i = 0; i < m; i++) {
        const a = Math.floor(4 * r()) - 1, b = (a + 1 + Math.floor(3 * r())) % 3;
        const n = unit([r() - 0.5, r() - 0.5, r() - 0.5]);
        contacts.push(a, 0, i, b, 1, i, r() - 0.5, r() - 0.5, r() - 0.5, n[0]!, n[1]!, n[2]!, 0);
      }
      const uFree = Float64Array.from({ length: nu }, () => 2 * r() - 1);
      const ld = new LocalDynamics();
      ld.build(contacts, bodies, uFree);
      // the normal rows' LCP, densely, for the enumeration
      const A = new Float64Array(m * m), e = new Float64Array(3 * m), col = new Float64Array(3 * m);
      for (let j = 0; j < m; j++) {
        e.fill(0); e[3 * j] = 1; ld.multiply(e, col);
        for (let i = 0; i < m; i++) A[i * m + j] = col[3 * i]!;
      }
      const q = Float64Array.from({ length: m }, (_, i) => ld.free[3 * i]!);
      const none = new Array<number>(m).fill(-1);
      const exact = enumerate(A, q, new Array<number>(m).fill(0), new Array<number>(m).fill(Infinity), none, none);
      fc.pre(exact.length === 1);
      for (const form of ['velocity', 'blocks'] as const) {
        const R = new Float64Array(3 * m), pgs = new ContactPgs({ maxIterations: 4000, tolerance: 1e-13, form });
        const rep = pgs.solve(ld, R, null, null);
        const theta = Float64Array.from({ length: m }, (_, i) => R[3 * i]!);
        expect(maxAbsDiff(theta, exact[0]!)).toBeLessThan(1e-8 * (1 + maxAbs(exact[0]!)));
        expect(rep.residual).toBeLessThan(1e-9);
      }
    }), { seed: 42, numRuns: 40 });
  });

  it('matches the exact stick or slip answer of box friction on one contact of a random body', () => {
    let slips = 0, sticks = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
      const { contacts, bodies, uFree, mu } = randomContact(seed), ld = new LocalDynamics();
      ld.build(contacts, bodies, uFree);
      const exact = enumerate(ld.diag.slice(0, 9), ld.free.slice(0, 3), [0, 0, 0], [Infinity, 0, 0], [-1, 0, 0],
        [0, mu, mu]);
      fc.pre(exact.length === 1);
      const R = new Float64Array(3);
      const rep = new ContactPgs({ maxIterations: 3000, tolerance: 1e-14 }).solve(ld, R, null, null);
      expect(maxAbsDiff(R, exact[0]!)).toBeLessThan(1e-9 * (1 + maxAbs(exact[0]!)));
      expect(rep.residual).toBeLessThan(1e-10);
      const slip = Math.max(Math.abs(R[1]!), Math.abs(R[2]!)) > mu * R[0]! * (1 - 1e-9);
      if (slip) slips++; else if (R[0]! > 0) sticks++;
    }), { seed: 42, numRuns: 80 });
    expect(slips).toBeGreaterThan(5);
    expect(sticks).toBeGreaterThan(5);
  });

  for (const friction of ['box', 'coulomb'] as const) {
    it(`${friction}: a particle pushed along the floor sticks below μ m g and slides above`, () => {
      const m = 2, mu = 0.4, { bodies } = bodiesOf([{ Minv: particleMinv(m), origin: [0, 0, 0] }]);
      const contacts = new ContactSet();
      contacts.push(-1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0);
      contacts.friction[0] = mu;
      for (const F of [0.5 * mu * m * G, 0.99 * mu * m * G, 1.01 * mu * m * G, 3 * mu * m * G]) {
        const uFree = Float64Array.of(F * H / m, 0, -G * H);
        const pgs = new ContactPgs({ friction, maxIterations: 50, tolerance: 1e-14 });
        const { u, R } = solveScene(contacts, bodies, uFree, pgs);
        expect(R[0]).toBeCloseTo(m * G * H, 14);
        const slide = Math.max(0, (F - mu * m * G) * H / m);
        expect(u[0]).toBeCloseTo(slide, 14);
        expect(Math.abs(u[1]!) + Math.abs(u[2]!)).toBeLessThan(1e-15);
      }
    });
  }

  it('coulomb slides along the push; box friction clamps each axis (anisotropy)', () => {
    const m = 1, mu = 0.5, F = 2 * mu * m * G;
    const { bodies } = bodiesOf([{ Minv: particleMinv(m), origin: [0, 0, 0] }]);
    const contacts = new ContactSet();
    contacts.push(-1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0);
    contacts.friction[0] = mu;
    const dir = [Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)];
    const uFree = Float64Array.of(F * H * dir[0]!, F * H * dir[1]!, -G * H);
    const disc = solveScene(contacts, bodies, uFree,
      new ContactPgs({ friction: 'coulomb', tolerance: 1e-14, maxIterations: 100 })).u;
    expect(disc[0]).toBeCloseTo((F - mu * m * G) * H * dir[0]!, 14);
    expect(disc[1]).toBeCloseTo((F - mu * m * G) * H * dir[1]!, 14);
    const box = solveScene(contacts, bodies, uFree,
      new ContactPgs({ friction: 'box', tolerance: 1e-14, maxIterations: 100 })).u;
    expect(box[0]).toBeCloseTo((F * dir[0]! - mu * m * G) * H, 14);
    expect(box[1]).toBeCloseTo(0, 14);
  });

  it('coulomb: a sphere on a tilted plane sticks or slips exactly, with friction against the slip', () => {
    const r = rng(5), radius = 0.3, m = 1.5, I = 0.4 * m * radius * radius;
    const Minv = new Float64Array(36);
    for (let k = 0; k < 3; k++) { Minv[7 * k] = 1 / m; Minv[7 * (k + 3)] = 1 / I; }
    for (let trial = 0; trial < 20; trial++) {
      const n = unit([r() - 0.5, r() - 0.5, 1]), mu = 0.6 * r();
      const { bodies } = bodiesOf([{ Minv, origin: [0, 0, 0] }]);
      const contacts = new ContactSet();
      contacts.push(-1, 0, 0, 0, 1, 0, -radius * n[0]!, -radius * n[1]!, -radius * n[2]!, n[0]!, n[1]!, n[2]!, 0);
      contacts.friction[0] = mu;
      const uFree = Float64Array.from({ length: 6 }, () => r() - 0.5);
      const pgs = new ContactPgs({ friction: 'coulomb', tolerance: 1e-15, maxIterations: 200 });
      const { R, ld } = solveScene(contacts, bodies, uFree, pgs);
      // decoupled isotropic W: θ = −B_n/W_nn, φ = the sticking impulse or μθ against the slip
      const Bn = ld.free[0]!, bt = [ld.free[1]!, ld.free[2]!], wt = ld.diag[4]!;
      const theta = Math.max(0, -Bn / ld.diag[0]!), stick = [-bt[0]! / wt, -bt[1]! / wt];
      const s = Math.hypot(stick[0]!, stick[1]!);
      const phi = s <= mu * theta ? stick : stick.map((x) => (x * mu * theta) / s);
      expect(maxAbsDiff(R, [theta, ...phi])).toBeLessThan(1e-12);
    }
  });

  it('coulomb on one contact of a random body (anisotropic W_tt): the disc conditions hold', () => {
    let rim = 0, inside = 0;
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
      const { contacts, bodies, uFree, mu } = randomContact(seed);
      const pgs = new ContactPgs({ friction: 'coulomb', maxIterations: 20000, tolerance: 1e-15 });
      const { R, ld } = solveScene(contacts, bodies, uFree, pgs);
      // w = B + W R, then θ ⊥ w_n, |φ| ≤ μθ, and w_t = 0 inside the disc or w_t = −κ φ/|φ| (κ ≥ 0) on its rim
      const w = [0, 1, 2].map((k) => ld.free[k]!
        + ld.diag[3 * k]! * R[0]! + ld.diag[3 * k + 1]! * R[1]! + ld.diag[3 * k + 2]! * R[2]!);
      const th = R[0]!, f = Math.hypot(R[1]!, R[2]!), wt = Math.hypot(w[1]!, w[2]!), tol = 1e-9;
      expect(th).toBeGreaterThanOrEqual(0);
      expect(w[0]!).toBeGreaterThan(-tol);
      expect(Math.min(th, Math.abs(w[0]!))).toBeLessThan(tol);
      expect(f).toBeLessThanOrEqual(mu * th * (1 + 1e-12));
      if (f < mu * th * (1 - 1e-6)) { inside++; expect(wt).toBeLessThan(tol); } else if (th > 0 && mu > 0) {
        rim++;
        expect(Math.hypot(w[1]! + (wt * R[1]!) / f, w[2]! + (wt * R[2]!) / f)).toBeLessThan(tol);
      }
    }), { seed: 42, numRuns: 80 });
    expect(rim).toBeGreaterThan(5);
    expect(inside).toBeGreaterThan(5);
  });

  it('holds a box on its four bottom vertices (singular W): no NaN, Σθ = m g h, at rest', () => {
    const m = 2, hx = 0.2, hy = 0.1, hz = 0.05, yaw = 0.4, c = Math.cos(yaw), s = Math.sin(yaw);
    const J = Float64Array.of(m * (hy * hy + hz * hz) / 3, 0, 0, 0, m * (hx * hx + hz * hz) / 3, 0,
      0, 0, m * (hx * hx + hy * hy) / 3);
    // origin at a top corner: the centre of mass is offset, so M⁻¹ is full
    const corner = [c * hx - s * hy, s * hx + c * hy, 2 * hz], Minv = new Float64Array(36);
    spatialInertiaInverse(Minv, m, Float64Array.of(-corner[0]!, -corner[1]!, -hz), J, spatialScratch());
    for (const friction of ['box', 'coulomb'] as const) {
      const { bodies } = bodiesOf([{ Minv, origin: corner }]);
      const contacts = new ContactSet();
      for (const [sx, sy] of [[-1, -1], [1, -1], [-1, 1], [1, 1]] as const)
        contacts.push(-1, 0, 0, 0, 1, 2 * sx + sy, c * sx * hx - s * sy * hy, s * sx * hx + c * sy * hy, 0,
          0, 0, 1, 0);
      contacts.friction.fill(0.5);
      const uFree = Float64Array.of(0, 0, -G * H, 0, 0, 0);
      const pgs = new ContactPgs({ friction, maxIterations: 5000, tolerance: 1e-15 });
      const { u, R } = solveScene(contacts, bodies, uFree, pgs);
      expect(R.every(Number.isFinite)).toBe(true);
      expect(Math.abs(R[0]! + R[3]! + R[6]! + R[9]! - m * G * H)).toBeLessThan(1e-12 * m * G * H);
      expect(maxAbs(u)).toBeLessThan(1e-12);
    }
  });

  it('applies the bias (a speculative gap) and the regularization of the normal row', () => {
    const m = 0.5, gap = 0.01, { bodies } = bodiesOf([{ Minv: particleMinv(m), origin: [0, 0, gap] }]);
    const contacts = new ContactSet();
    contacts.push(-1, 0, 0, 0, 1, 0, 0, 0, gap / 2, 0, 0, 1, gap);
    for (const v of [0.5, 2]) {
      const uFree = Float64Array.of(0, 0, -v), bias = Float64Array.of(gap / H);
      const { u, R } = solveScene(contacts, bodies, uFree, new ContactPgs(), bias);
      expect(R[0]).toBeCloseTo(v * H < gap ? 0 : m * (v - gap / H), 14);
      expect(u[2]).toBeCloseTo(v * H < gap ? -v : -gap / H, 14);
    }
    const reg = Float64Array.of(3), uFree = Float64Array.of(0, 0, -1);
    const { R } = solveScene(contacts, bodies, uFree, new ContactPgs(), null, reg);
    expect(R[0]).toBeCloseTo(1 / (1 / m + 3), 14);
  });

  it('gives the same iterates in the velocity and the blocks form', () => {
    const { contacts, bodies, uFree } = pile(4, 3, 3, 9);
    for (const friction of ['box', 'coulomb'] as const) {
      const a = solveScene(contacts, bodies, uFree, new ContactPgs({ friction, maxIterations: 7, tolerance: 0 }));
      const b = solveScene(contacts, bodies, uFree,
        new ContactPgs({ friction, maxIterations: 7, tolerance: 0, form: 'blocks' }));
      expect(maxAbsDiff(a.R, b.R)).toBeLessThan(1e-12 * maxAbs(a.R));
      expect(maxAbsDiff(a.u, b.u)).toBeLessThan(1e-12);
    }
  });

  it('needs fewer sweeps when warm-started from the last step\'s impulses', () => {
    const { contacts, bodies, uFree } = pile(6, 6, 6, 3), r = rng(4);
    const ld = new LocalDynamics();
    const pgs = new ContactPgs({ friction: 'coulomb', maxIterations: 2000, tolerance: 1e-6 });
    const R = new Float64Array(3 * contacts.count);
    ld.build(contacts, bodies, uFree, false);
    pgs.solve(ld, R, null, null);
    // the next step: the same pile, slightly different free velocities
    for (let i = 0; i < uFree.length; i++) uFree[i] += 1e-5 * (r() - 0.5);
    ld.build(contacts, bodies, uFree, false);
    const warm = pgs.solve(ld, R, null, null).iterations;
    const cold = pgs.solve(ld, new Float64Array(R.length), null, null).iterations;
    expect(warm).toBeLessThan(cold / 3);
  });
});

/** spheres on a grid (the floor under the lowest layer), each touching its grid neighbours */
function pile(nx: number, ny: number, nz: number, seed: number): Omit<OneContact, 'mu'> {
  const r = rng(seed), rad = 0.05, m = 0.1, I = 0.4 * m * rad * rad;
  const idx = (x: number, y: number, z: number): number => x + nx * (y + ny * z);
  const Minv = new Float64Array(36);
  for (let k = 0; k < 3; k++) { Minv[7 * k] = 1 / m; Minv[7 * (k + 3)] = 1 / I; }
  const parts: { Minv: Float64Array; origin: number[] }[] = [];
  for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++)
    parts.push({ Minv, origin: [2 * rad * x + 1e-3 * r(), 2 * rad * y + 1e-3 * r(), rad + 2 * rad * z] });
  const { bodies, nu } = bodiesOf(parts), contacts = new ContactSet();
  for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) {
    const i = idx(x, y, z), o = parts[i]!.origin;
    if (z === 0) contacts.push(-1, 0, 0, i, 1 + i, 0, o[0]!, o[1]!, 0, 0, 0, 1, 0);
    for (const [dx, dy, dz] of [[1, 0, 0], [0, 1, 0], [0, 0, 1]] as const) {
      if (x + dx >= nx || y + dy >= ny || z + dz >= nz) continue;
      const j = idx(x + dx, y + dy, z + dz), p = parts[j]!.origin;
      const n = unit([p[0]! - o[0]!, p[1]! - o[1]!, p[2]! - o[2]!]);
      const mid = [0, 1, 2].map((k) => (o[k]! + p[k]!) / 2);
      contacts.push(i, 1 + i, 0, j, 1 + j, 0, mid[0]!, mid[1]!, mid[2]!, n[0]!, n[1]!, n[2]!, 0);
    }
  }
  contacts.friction.fill(0.5);
  const uFree = new Float64Array(nu);
  for (let c = 0; c < parts.length; c++) uFree[6 * c + 2] = -G / 60;
  return { contacts, bodies, uFree };
}

describe('matchWarmStart', () => {
  it('carries each impulse to the contact with the same key and zeroes new contacts', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 0, max: 60 }), (seed, n) => {
      const r = rng(seed), key = (): string => [4, 4, 5, 3].map((k) => Math.floor(k * r())).join();
      // distinct keys in random (unsorted) order, and the next step's: some kept, some new
      const prevKeys = [...new Set(Array.from({ length: n }, key))];
      const impulses = prevKeys.flatMap(() => [r(), r(), r()]);
      const nextKeys = [...new Set(Array.from({ length: n }, () => (r() < 0.6 && prevKeys.length > 0
        ? prevKeys[Math.floor(r() * prevKeys.length)]! : key())))];
      const want = nextKeys.flatMap((k) => {
        const a = prevKeys.indexOf(k);
        return a < 0 ? [0, 0, 0] : impulses.slice(3 * a, 3 * a + 3);
      });
      const out = new Float64Array(3 * nextKeys.length).fill(NaN);
      const matched = matchWarmStart(keySet(prevKeys), Float64Array.from(impulses), keySet(nextKeys), out,
        new WarmStartScratch());
      expect([...out]).toEqual(want);
      expect(matched).toBe(nextKeys.filter((k) => prevKeys.includes(k)).length);
    }), { seed: 42, numRuns: 200 });
  });

  it('works on sorted sets and grows its scratch', () => {
    const keys = Array.from({ length: 50 }, (_, i) => `${i >> 3},${i & 7},0,0`), scratch = new WarmStartScratch();
    const out = new Float64Array(150);
    const impulses = Float64Array.from({ length: 150 }, (_, i) => i);
    const matched = matchWarmStart(keySet(keys), impulses, keySet(keys.slice(1)), out, scratch);
    expect(matched).toBe(49);
    expect(out[0]).toBe(3);
    expect(scratch.a.length).toBeGreaterThanOrEqual(50);
  });
});

function keySet(keys: string[]): ContactKeys {
  const k = keys.map((s) => s.split(',').map(Number));
  const col = (c: number): Int32Array => Int32Array.from(k, (x) => x[c]!);
  return { count: k.length, shapeA: col(0), shapeB: col(1), featureA: col(2), featureB: col(3) };
}
