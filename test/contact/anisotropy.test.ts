/**
 * The friction laws' anisotropy, measured by the stopping distance of a box sliding on a plane
 * from v₀ in a direction at angle a to the contact frames' first tangent t₁ (for n = +z, t₁ = x):
 *
 *   Coulomb (pgs, the disc)        d = v₀²/(2μg) at every a
 *   box friction (pivoting)        each tangent impulse saturates at μθ: at a = 45° the friction
 *                                  force is √2 μ m g along −v, d = v₀²/(2√2 μg)
 *   polyhedral, K directions       the cone's edge nearest −v: at worst, half-way between two
 *   (lemke)                        edges, the force along −v is μ m g cos(π/K): d = v₀²/(2μg cos(π/K))
 */
import { describe, it, expect } from 'vitest';
import { Simulation } from '../../src/simulation.js';
import { withContacts, plane, shapeOf, material } from '../helpers/contactModel.js';
import type { ContactSettings } from '../../src/model/contactModel.js';

const g = 9.81, mu = 0.4, v0 = 2;

function stoppingDistance(angle: number, contact: Partial<ContactSettings>): number {
  const v = [v0 * Math.cos(angle), v0 * Math.sin(angle), 0];
  const sim = new Simulation(withContacts({
    version: 1, step: 1e-3, gravity: [0, 0, -g],
    bodies: [{ name: 'box', mass: 1, shape: { type: 'box', size: [0.2, 0.2, 0.2] }, position: [0, 0, 0.1], velocity: v }],
  }, { contact, shapes: [plane([0, 0, 0], [1, 0, 0, 0], material(mu)), shapeOf(0, 'box', [0.1, 0.1, 0.1], material(mu))] }));
  const box = sim.body('box');
  while (Math.hypot(...box.velocity) > 1e-9 && sim.time < 2) sim.step();
  return Math.hypot(box.position[0], box.position[1]);
}

const isotropic = v0 * v0 / (2 * mu * g);

describe('friction anisotropy', () => {
  it('Coulomb friction (pgs) stops at v₀²/(2μg) in every direction', () => {
    for (const a of [0, Math.PI / 8, Math.PI / 4]) expect(Math.abs(stoppingDistance(a, { solver: 'pgs', friction: 'coulomb' }) / isotropic - 1)).toBeLessThan(1e-2);
  });
  it('box friction (pivoting) at 45° to its axes stops at v₀²/(2√2 μg)', () => {
    expect(Math.abs(stoppingDistance(0, { solver: 'pivoting' }) / isotropic - 1)).toBeLessThan(1e-2);
    expect(Math.abs(stoppingDistance(Math.PI / 4, { solver: 'pivoting' }) / (isotropic / Math.SQRT2) - 1)).toBeLessThan(1e-2);
  });
  for (const K of [8, 16]) {
    it(`polyhedral friction with ${K} directions (lemke): at most 1/cos(π/${K}) longer, exact along an edge`, () => {
      expect(Math.abs(stoppingDistance(0, { solver: 'lemke', directions: K }) / isotropic - 1)).toBeLessThan(1e-2);
      const between = stoppingDistance(Math.PI / K, { solver: 'lemke', directions: K }) / isotropic;
      expect(Math.abs(between * Math.cos(Math.PI / K) - 1)).toBeLessThan(1e-2);
    });
  }
});
