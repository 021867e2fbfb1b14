/**
 * Tests of the contact-frame local dynamics (002): on random particles, bodies and contacts (world
 * contacts, contacts sharing one or both components, a contact with one component on both sides,
 * components without a solve block), the frame, B = H u_free, the blocks of W, W R and M⁻¹HᵀR
 * equal a dense reference built naively: H row by row from the point velocity v + ω × r, and the
 * dense block-diagonal M⁻¹ (symmetric or not).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ContactSet } from '../../src/contact/contactSet.js';
import { LocalDynamics, type ContactBodies } from '../../src/contact/localDynamics.js';
import { rng, maxAbs, maxAbsDiff } from '../helpers/numeric.js';

interface Scene { contacts: ContactSet; bodies: ContactBodies; uFree: Float64Array; nu: number }

// a random SPD k × k matrix, row-major
function spd(k: number, r: () => number): number[] {
  const a = Array.from({ length: k * k }, () => 2 * r() - 1), out: number[] = [];
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) {
    let s = i === j ? 0.5 : 0;
    for (let l = 0; l < k; l++) s += a[i * k + l]! * a[j * k + l]!;
    out.push(s);
  }
  return out;
}

// nc components (particles and bodies, some without a solve block), m contacts among them and the world
function randomScene(seed: number, nc: number, m: number, pBody = 0.7, pDynamic = 0.85): Scene {
  const r = rng(seed);
  const kind = new Uint8Array(nc), uOffset = new Int32Array(nc), origin_W = new Float64Array(3 * nc);
  const Minv = new Float64Array(36 * nc), dynamic = new Uint8Array(nc);
  let nu = 2;
  for (let c = nc - 1; c >= 0; c--) {
    kind[c] = r() < pBody ? 1 : 0; dynamic[c] = r() < pDynamic ? 1 : 0;
    uOffset[c] = nu; nu += kind[c] === 1 ? 6 : 3;
    for (let k = 0; k < 3; k++) origin_W[3 * c + k] = 2 * r() - 1;
    // SPD, or with a skew part (a step matrix with gyroscopic or follower terms is not symmetric)
    const w = kind[c] === 1 ? 6 : 3, s = spd(w, r), skew = r() < 0.3 ? 0.3 : 0;
    for (let i = 0; i < w; i++) {
      for (let j = 0; j < w; j++) Minv[36 * c + 6 * i + j] = s[i * w + j]! + skew * (i - j);
    }
  }
  const contacts = new ContactSet(2);
  for (let i = 0; i < m; i++) {
    const pick = (): number => (r() < 0.15 ? -1 : Math.floor(r() * nc));
    let a = pick(), b = pick();
    if (i > 0 && r() < 0.25) { a = contacts.compA[i - 1]!; b = contacts.compB[i - 1]!; }
    if (a < 0 && b < 0) b = 0;
    const n = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1], l = Math.hypot(n[0]!, n[1]!, n[2]!);
    contacts.push(a, 1, i, b, 2, i, 2 * r() - 1, 2 * r() - 1, 2 * r() - 1, n[0]! / l, n[1]! / l, n[2]! / l,
      0.01 * r());
    contacts.friction[i] = r();
  }
  const uFree = Float64Array.from({ length: nu }, () => 2 * r() - 1);
  return { contacts, bodies: { kind, uOffset, origin_W, Minv, dynamic }, uFree, nu };
}

// dense H (3m × nu): row (i, k) maps u to d_k · (velocity of B's point − velocity of A's point)
function denseH(sc: Scene, ld: LocalDynamics): Float64Array {
  const { contacts: C, bodies: b, nu } = sc, m = C.count, H = new Float64Array(3 * m * nu);
  for (let i = 0; i < m; i++) for (let k = 0; k < 3; k++) {
    const d = [ld.normal, ld.tangent1, ld.tangent2][k]!.slice(3 * i, 3 * i + 3);
    for (const [c, sign] of [[C.compA[i]!, -1], [C.compB[i]!, 1]] as const) {
      if (c < 0) continue;
      const o = b.uOffset[c]!, r = [0, 1, 2].map((x) => C.p_W[3 * i + x]! - b.origin_W[3 * c + x]!);
      for (let j = 0; j < (b.kind[c] === 1 ? 6 : 3); j++) {
        // point velocity of the unit generalized velocity e_j: v, or ω × r
        const e = [0, 0, 0, 0, 0, 0]; e[j] = 1;
        const pv = [e[0]! + e[4]! * r[2]! - e[5]! * r[1]!, e[1]! + e[5]! * r[0]! - e[3]! * r[2]!,
          e[2]! + e[3]! * r[1]! - e[4]! * r[0]!];
        H[(3 * i + k) * nu + o + j] += sign * (d[0]! * pv[0]! + d[1]! * pv[1]! + d[2]! * pv[2]!);
      }
    }
  }
  return H;
}

// dense block-diagonal M⁻¹ over the dynamic components
function denseMinv(sc: Scene): Float64Array {
  const { bodies: b, nu } = sc, M = new Float64Array(nu * nu);
  for (let c = 0; c < b.kind.length; c++) {
    if (b.dynamic![c] === 0) continue;
    const o = b.uOffset[c]!, w = b.kind[c] === 1 ? 6 : 3;
    for (let i = 0; i < w; i++) for (let j = 0; j < w; j++) M[(o + i) * nu + o + j] = b.Minv[36 * c + 6 * i + j]!;
  }
  return M;
}

function mul(A: Float64Array, B: Float64Array, n: number, k: number, p: number, transB = false): Float64Array {
  const out = new Float64Array(n * p);
  for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) {
    let s = 0;
    for (let l = 0; l < k; l++) s += A[i * k + l]! * (transB ? B[j * k + l]! : B[l * p + j]!);
    out[i * p + j] = s;
  }
  return out;
}

// the dense W = H M⁻¹ Hᵀ, the dense HᵀR mapping and the CSR blocks expanded to a dense matrix
interface Reference { H: Float64Array; W: Float64Array; Wcsr: Float64Array; M: Float64Array }
function reference(sc: Scene, ld: LocalDynamics): Reference {
  const m = sc.contacts.count, nu = sc.nu, H = denseH(sc, ld), M = denseMinv(sc);
  const W = mul(mul(H, M, 3 * m, nu, nu), H, 3 * m, nu, 3 * m, true);
  const Wcsr = new Float64Array(9 * m * m);
  for (let i = 0; i < m; i++) for (let e = ld.rowStart[i]!; e < ld.rowStart[i + 1]!; e++) {
    const j = ld.column[e]!;
    for (let k = 0; k < 3; k++) {
      for (let l = 0; l < 3; l++) Wcsr[(3 * i + k) * 3 * m + 3 * j + l] = ld.block[9 * e + 3 * k + l]!;
    }
  }
  return { H, W, Wcsr, M };
}

describe('LocalDynamics', () => {
  it('builds B = H u_free and the blocks of W = H M⁻¹ Hᵀ of a naive dense reference', () => {
    const ld = new LocalDynamics();
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 12 }),
      (seed, nc, m) => {
        const sc = randomScene(seed, nc, m);
        ld.build(sc.contacts, sc.bodies, sc.uFree);
        const { H, W, Wcsr } = reference(sc, ld);
        const B = mul(H, sc.uFree, 3 * m, sc.nu, 1);
        expect(maxAbsDiff(ld.free.subarray(0, 3 * m), B)).toBeLessThan(1e-12 * (1 + maxAbs(B)));
        expect(maxAbsDiff(Wcsr, W)).toBeLessThan(1e-12 * (1 + maxAbs(W)));
        for (let i = 0; i < m; i++) for (let k = 0; k < 3; k++) for (let l = 0; l < 3; l++)
          expect(ld.diag[9 * i + 3 * k + l]).toBeCloseTo(W[(3 * i + k) * 3 * m + 3 * i + l]!, 12);
      }), { seed: 42, numRuns: 150 });
  });

  it('stores a block exactly where two contacts share a dynamic component, columns ascending', () => {
    const ld = new LocalDynamics();
    const sc = randomScene(7, 5, 30);
    ld.build(sc.contacts, sc.bodies, sc.uFree);
    const C = sc.contacts, dyn = (c: number): boolean => c >= 0 && sc.bodies.dynamic![c] === 1;
    for (let i = 0; i < 30; i++) {
      const want: number[] = [];
      for (let j = 0; j < 30; j++) {
        const ci = [C.compA[i]!, C.compB[i]!].filter(dyn), cj = [C.compA[j]!, C.compB[j]!].filter(dyn);
        if (ci.some((c) => cj.includes(c))) want.push(j);
      }
      expect([...ld.column.subarray(ld.rowStart[i]!, ld.rowStart[i + 1]!)]).toEqual(want);
    }
  });

  it('sums both components\' terms for two contacts between the same pair (errata B, 002)', () => {
    const sc = randomScene(3, 2, 0, 1, 1);
    for (const [x, f] of [[0.3, 5], [-0.4, 6]] as const) sc.contacts.push(0, 1, f, 1, 2, f, x, 0.1, 0.2, 0,
      0.6, 0.8, 0);
    const ld = new LocalDynamics();
    ld.build(sc.contacts, sc.bodies, sc.uFree);
    const { W, Wcsr } = reference(sc, ld);
    expect(maxAbsDiff(Wcsr, W)).toBeLessThan(1e-13 * maxAbs(W));
    // one component's term alone is a different block
    const single = ld.block.slice(9, 18);
    sc.bodies.dynamic![0] = 0;
    ld.build(sc.contacts, sc.bodies, sc.uFree);
    expect(maxAbsDiff(single, ld.block.subarray(9, 18))).toBeGreaterThan(1e-3);
  });

  it('multiplies by W and maps impulses to M⁻¹HᵀR as the dense reference does', () => {
    const ld = new LocalDynamics();
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
      const sc = randomScene(seed, 4, 9), m = 9, r = rng(seed + 1);
      ld.build(sc.contacts, sc.bodies, sc.uFree);
      const { H, W, M } = reference(sc, ld);
      const R = Float64Array.from({ length: 3 * m }, () => 2 * r() - 1), WR = new Float64Array(3 * m);
      ld.multiply(R, WR);
      expect(maxAbsDiff(WR, mul(W, R, 3 * m, 3 * m, 1))).toBeLessThan(1e-12 * (1 + maxAbs(WR)));
      const HtR = new Float64Array(sc.nu);
      for (let j = 0; j < sc.nu; j++) for (let i = 0; i < 3 * m; i++) HtR[j] += H[i * sc.nu + j]! * R[i]!;
      const du = mul(M, HtR, sc.nu, sc.nu, 1), dv = new Float64Array(6 * 4), u = new Float64Array(sc.nu);
      ld.accumulateImpulses(R, dv);
      ld.addComponentVelocities(dv, u);
      expect(maxAbsDiff(u, du)).toBeLessThan(1e-12 * (1 + maxAbs(du)));
    }), { seed: 42, numRuns: 60 });
  });

  it('grows with the contacts and rebuilds the same numbers into reused arrays', () => {
    const ld = new LocalDynamics();
    const big = randomScene(11, 6, 200), small = randomScene(12, 6, 5);
    ld.build(small.contacts, small.bodies, small.uFree);
    const first = ld.block.slice(0, 9 * ld.nnz);
    ld.build(big.contacts, big.bodies, big.uFree);
    const { W, Wcsr } = reference(big, ld);
    expect(maxAbsDiff(Wcsr, W)).toBeLessThan(1e-12 * (1 + maxAbs(W)));
    const arrays = [ld.block, ld.diag, ld.free];
    ld.build(small.contacts, small.bodies, small.uFree);
    expect(ld.block.slice(0, 9 * ld.nnz)).toEqual(first);
    expect(ld.block === arrays[0] && ld.diag === arrays[1]).toBe(true);
  });

  it('builds without coupling blocks, and refuses a product that needs them', () => {
    const sc = randomScene(5, 3, 6), ld = new LocalDynamics();
    ld.build(sc.contacts, sc.bodies, sc.uFree, false);
    const { W } = reference(sc, ld);
    for (let i = 0; i < 6; i++) expect(ld.diag[9 * i + 4]).toBeCloseTo(W[(3 * i + 1) * 18 + 3 * i + 1]!, 12);
    expect(() => ld.multiply(new Float64Array(18), new Float64Array(18))).toThrow(/coupling/);
  });
});
