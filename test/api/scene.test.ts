/**
 * The scene a viewer draws (src/api/scene.ts): every shape with its geometry, joints whose two
 * frames meet in world where the model put them, lines whose points and tensions match the
 * springs' own readouts, and contacts packed with their forces.
 */
import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { ModelBuilder, Simulation, describeScene, SceneSampler, CONTACT_STRIDE, type ScenePoint, type SceneDescription } from '../../src/index.js';
import { loadModel } from '../../node/index.js';

const example = (name: string) => loadModel(join(import.meta.dirname, '..', '..', 'examples', name));

/** the world position of a scene point at positions q (a quaternion rotation written out) */
function worldOf(scene: SceneDescription, q: ArrayLike<number>, p: ScenePoint): number[] {
  if (p.component < 0) return [...p.local];
  const c = scene.components[p.component]!, o = c.qOffset;
  const x = [q[o]!, q[o + 1]!, q[o + 2]!];
  if (c.kind === 'particle') return x;
  const [w, a, b, d] = [q[o + 3]!, q[o + 4]!, q[o + 5]!, q[o + 6]!], [lx, ly, lz] = p.local;
  // v' = v + 2w (u × v) + 2 u × (u × v), u = (a, b, d)
  const t = [2 * (b * lz - d * ly), 2 * (d * lx - a * lz), 2 * (a * ly - b * lx)];
  return [x[0]! + lx + w * t[0]! + (b * t[2]! - d * t[1]!), x[1]! + ly + w * t[1]! + (d * t[0]! - a * t[2]!),
    x[2]! + lz + w * t[2]! + (a * t[1]! - b * t[0]!)];
}

describe('describeScene', () => {
  it('lists every shape, with a closed triangulation of hulls and meshes', async () => {
    const model = await example('shapes.json');
    const scene = describeScene(model);
    expect(scene.shapes.map((s) => s.name)).toEqual(model.shapes.map((s) => s.name));
    const withMesh = scene.shapes.filter((s) => s.kind === 'hull' || s.kind === 'mesh');
    expect(withMesh.length).toBeGreaterThan(0);
    for (const s of withMesh) {
      const { positions, indices } = s.mesh!;
      expect(indices.length % 3).toBe(0);
      expect(Math.max(...indices)).toBeLessThan(positions.length / 3);
      if (s.kind !== 'hull') continue;
      // a hull's fans close its surface: the signed volume by the divergence theorem is positive
      // and every edge is met once in each direction
      let volume = 0;
      const edges = new Map<string, number>();
      for (let t = 0; t < indices.length; t += 3) {
        const [a, b, c] = [0, 1, 2].map((k) => positions.slice(3 * indices[t + k]!, 3 * indices[t + k]! + 3));
        volume += (a![0]! * (b![1]! * c![2]! - b![2]! * c![1]!) - a![1]! * (b![0]! * c![2]! - b![2]! * c![0]!)
          + a![2]! * (b![0]! * c![1]! - b![1]! * c![0]!)) / 6;
        for (let k = 0; k < 3; k++) {
          const key = `${indices[t + k]},${indices[t + (k + 1) % 3]}`;
          edges.set(key, (edges.get(key) ?? 0) + 1);
        }
      }
      expect(volume).toBeGreaterThan(0);
      for (const [key, n] of edges) {
        const [i, j] = key.split(',');
        expect(n).toBe(1);
        expect(edges.get(`${j},${i}`)).toBe(1);
      }
    }
    expect(JSON.parse(JSON.stringify(scene))).toEqual(scene);
  });

  it("places each joint's two frames on one world point at load", async () => {
    const model = await example('four-bar.json');
    const scene = describeScene(model);
    expect(scene.joints.length).toBe(model.jointNames.length);
    for (const j of scene.joints) {
      const pa = worldOf(scene, scene.q0, { component: j.a.component, local: j.a.position });
      const pb = worldOf(scene, scene.q0, { component: j.b.component, local: j.b.position });
      for (let k = 0; k < 3; k++) expect(pa[k]!).toBeCloseTo(pb[k]!, 12);
      if (j.type === 'hinge') expect(j.freeRotation).toEqual([2]);
    }
  });
});

describe('SceneSampler', () => {
  it("gives the springs' tensions and path points as their handles read them", async () => {
    const model = await example('via-point.json');
    const scene = describeScene(model);
    const sim = new Simulation(model);
    sim.step(20);
    const frame = new SceneSampler(sim).sample();
    expect(frame.q).toEqual(Float64Array.from(sim.state.q));
    const springs = scene.lines.filter((l) => l.kind === 'spring');
    expect(springs.length).toBeGreaterThan(0);
    for (const [i, line] of scene.lines.entries()) {
      if (line.kind !== 'spring') continue;
      const h = sim.force(line.name);
      expect(frame.tensions[i]).toBe(h.tension);
      // the segments' lengths from the drawn points are the spring's own
      const pts = line.points.map((p) => worldOf(scene, frame.q, p));
      const lengths = pts.slice(1).map((p, k) => Math.hypot(...p.map((x, d) => x - pts[k]![d]!)));
      lengths.forEach((l, k) => expect(l).toBeCloseTo(h.segments[k]!, 12));
    }
  });

  it("gives a distance constraint's tension: a bob hanging at rest pulls with its weight", () => {
    const model = new ModelBuilder({ gravity: [0, 0, -9.81], step: 0.01 })
      .addParticle({ name: 'bob', mass: 2, position: [0, 0, -1] })
      .addJoint({ type: 'distance', name: 'rod', points: [['world', [0, 0, 0]], 'bob'] })
      .build();
    const sim = new Simulation(model), sampler = new SceneSampler(sim);
    const i = describeScene(model).lines.findIndex((l) => l.name === 'rod');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(sampler.sample().tensions[i]).toBe(0);
    sim.step(10);
    const weight = sim.particle('bob').mass * 9.81;
    expect(sampler.sample().tensions[i]! / weight).toBeCloseTo(1, 6);
  });

  it('packs each contact: point, normal, normal force and friction force', async () => {
    const sim = new Simulation(await example('contact.json'));
    const sampler = new SceneSampler(sim);
    expect(sampler.sample().contacts.length).toBe(0);
    sim.step(50);
    const frame = sampler.sample(), reports = sim.contacts();
    expect(reports.length).toBeGreaterThan(0);
    expect(frame.contacts.length).toBe(CONTACT_STRIDE * reports.length);
    reports.forEach((c, k) => {
      const at = frame.contacts.subarray(CONTACT_STRIDE * k, CONTACT_STRIDE * (k + 1));
      expect(Array.from(at)).toEqual([...c.point, ...c.normal, c.normalForce, ...c.frictionForce]);
    });
  });
});
