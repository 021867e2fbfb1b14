/**
 * Contact rows (contact/contactRows.ts; 001 §3): the normal row N = nᵀ(J_B − J_A) against central
 * finite differences of the gap function along the flow q ⊕ εu, and the tangent rows against the
 * relative velocity of the two bodies' material points at the contact, for pairs of bodies,
 * particles and the world at random poses.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Workspace } from '../../src/step/workspace.js';
import { Collider } from '../../src/collision/collide.js';
import { ContactSet } from '../../src/contact/contactSet.js';
import { UnilateralRows, ROW_NORMAL } from '../../src/contact/rows.js';
import { ContactRowBuilder } from '../../src/contact/contactRows.js';
import { shapeDescriptions } from '../../src/step/contactParts.js';
import { withContacts, plane, shapeOf, material } from '../helpers/contactModel.js';
import { flow } from '../helpers/constraints.js';
import type { Model } from '../../src/model/model.js';

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const vec = fc.tuple(unit, unit, unit);

/** two bodies (a sphere and a box) and a particle with radius near a tilted plane, at random poses and velocities */
function scene(p: number[][], w: number[][]): Model {
  const quat = (a: number[]) => { const n = Math.hypot(1, ...a); return [1 / n, a[0]! / n, a[1]! / n, a[2]! / n]; };
  return withContacts({
    version: 1,
    bodies: [
      { name: 'ball', mass: 1, shape: { type: 'sphere', radius: 0.3 }, position: [0.1 * p[0]![0]!, 0.1 * p[0]![1]!, 0.25], orientation: quat(p[1]!), velocity: w[0], angularVelocity: w[1] },
      { name: 'box', mass: 2, shape: { type: 'box', size: [0.4, 0.3, 0.2] }, com: [0.05, 0, 0], position: [0.45 + 0.05 * p[2]![0]!, 0.1 * p[2]![1]!, 0.2], orientation: quat(p[3]!.map((x) => 0.3 * x)), velocity: w[2], angularVelocity: w[3] },
    ],
    particles: [{ name: 'p', mass: 0.5, position: [-0.2, 0.5 + 0.02 * p[4]![0]!, 0.05], velocity: w[4] }],
  }, {
    contact: { margin: 0.2 },
    shapes: [plane([0, 0, 0], [Math.cos(0.05), Math.sin(0.05), 0, 0], material()), shapeOf(0, 'sphere', [0.3]),
      shapeOf(1, 'box', [0.2, 0.15, 0.1], material(), [0.05, 0, 0]), shapeOf(2, 'sphere', [0.06])],
  });
}

/** the gap of each contact of `collider` at q, by feature key */
function gaps(model: Model, collider: Collider, q: Float64Array): Map<string, number> {
  const c = new ContactSet(), out = new Map<string, number>();
  collider.collide(q, c);
  for (let k = 0; k < c.count; k++) out.set(`${c.shapeA[k]}:${c.shapeB[k]}:${c.featureA[k]}:${c.featureB[k]}`, c.gap[k]!);
  void model;
  return out;
}

describe('contact rows', () => {
  it('normal rows match finite differences of the gap; tangent rows the relative velocity', () => {
    fc.assert(fc.property(fc.array(vec, { minLength: 5, maxLength: 5 }), fc.array(vec, { minLength: 5, maxLength: 5 }), (p, w) => {
      const model = scene(p, w), ws = new Workspace(model), q = model.initialQ, u = model.initialU;
      const collider = new Collider(shapeDescriptions(model), model.contact.margin), contacts = new ContactSet();
      collider.collide(q, contacts);
      const rows = new UnilateralRows();
      new ContactRowBuilder({ qOffset: ws.qOffsets, uOffset: ws.uOffsets, body: ws.bodyFlags },
        { erp: 0.2, restitutionThreshold: 0.05, friction: 'box', directions: 8 }).build(rows, contacts, q, u, 0.01);
      expect(contacts.count).toBeGreaterThan(2);
      // central differences of each contact's gap along q ⊕ εu
      const eps = 1e-6, gp = gaps(model, collider, flow(model, q, u, eps)), gm = gaps(model, collider, flow(model, q, u, -eps));
      for (let i = 0; i < rows.count; i++) {
        if (rows.kind[i] !== ROW_NORMAL) continue;
        const c = rows.owner[i]!, key = `${contacts.shapeA[c]}:${contacts.shapeB[c]}:${contacts.featureA[c]}:${contacts.featureB[c]}`;
        const fd = (gp.get(key)! - gm.get(key)!) / (2 * eps), vn = rows.rowVelocity(i, u, ws.uOffsets, ws.bodyFlags);
        expect(Math.abs(vn - fd)).toBeLessThan(1e-6 * (1 + Math.abs(fd)));
        // tangent rows: t·(v_B(p) − v_A(p)) of the material points at the contact
        for (let j = i + 1; j <= i + 2; j++) {
          const rel = [0, 1, 2].map((x) => pointVelocity(model, u, q, contacts.compB[c]!, contacts.p_W, c, x) - pointVelocity(model, u, q, contacts.compA[c]!, contacts.p_W, c, x));
          const t = rows.dir.subarray(3 * j, 3 * j + 3), want = rel[0]! * t[0]! + rel[1]! * t[1]! + rel[2]! * t[2]!;
          expect(Math.abs(rows.rowVelocity(j, u, ws.uOffsets, ws.bodyFlags) - want)).toBeLessThan(1e-12 * (1 + Math.abs(want)));
          expect(Math.abs(t[0]! * contacts.n_W[3 * c]! + t[1]! * contacts.n_W[3 * c + 1]! + t[2]! * contacts.n_W[3 * c + 2]!)).toBeLessThan(1e-14);
        }
      }
    }), { seed: 42, numRuns: 40 });
  });
});

describe('friction directions', () => {
  it('each contact\'s friction rows lie in its own tangent plane (contacts with different normals)', () => {
    // a ball in a corner: the floor's normal +z, the wall's +x, a second ball's along the line of centres
    const model = withContacts({
      version: 1,
      bodies: [{ name: 'a', mass: 1, shape: { type: 'sphere', radius: 0.1 }, position: [0.1, 0, 0.1] },
        { name: 'b', mass: 1, shape: { type: 'sphere', radius: 0.1 }, position: [0.25, 0.13, 0.11] }],
    }, { contact: { margin: 0.05 }, shapes: [plane(), plane([0, 0, 0], [Math.SQRT1_2, 0, Math.SQRT1_2, 0]), shapeOf(0, 'sphere', [0.1]), shapeOf(1, 'sphere', [0.1])] });
    const ws = new Workspace(model), q = model.initialQ, u = model.initialU, contacts = new ContactSet();
    new Collider(shapeDescriptions(model), model.contact.margin).collide(q, contacts);
    const rows = new UnilateralRows();
    new ContactRowBuilder({ qOffset: ws.qOffsets, uOffset: ws.uOffsets, body: ws.bodyFlags },
      { erp: 0.2, restitutionThreshold: 0.05, friction: 'box', directions: 8 }).build(rows, contacts, q, u, 0.01);
    const normals = new Set<string>();
    for (let i = 0; i < rows.count; i++) {
      const c = rows.owner[i]!, n = contacts.n_W.subarray(3 * c, 3 * c + 3), d = rows.dir.subarray(3 * i, 3 * i + 3);
      normals.add(Array.from(n, (x) => x.toFixed(3)).join());
      const dn = d[0]! * n[0]! + d[1]! * n[1]! + d[2]! * n[2]!;
      if (rows.kind[i] === ROW_NORMAL) expect(dn).toBeCloseTo(1, 14);
      else expect(Math.abs(dn)).toBeLessThan(1e-14);
    }
    expect(normals.size).toBeGreaterThanOrEqual(3);
  });
});

/** component x of the velocity of component c's material point at contact k's point (0 for the world) */
function pointVelocity(model: Model, u: Float64Array, q: Float64Array, c: number, p: Float64Array, k: number, x: number): number {
  if (c < 0) return 0;
  const comp = model.components[c]!, o = comp.uOffset;
  if (comp.kind === 'particle') return u[o + x]!;
  const r = [0, 1, 2].map((i) => p[3 * k + i]! - q[comp.qOffset + i]!), w = [u[o + 3]!, u[o + 4]!, u[o + 5]!];
  const cross = [w[1]! * r[2]! - w[2]! * r[1]!, w[2]! * r[0]! - w[0]! * r[2]!, w[0]! * r[1]! - w[1]! * r[0]!];
  return u[o + x]! + cross[x]!;
}
