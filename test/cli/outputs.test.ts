/**
 * `vinculum run --outputs`: the columns of each group and values checked against what they must
 * equal: velocities against the implicit Euler update of the positions, a hinge's ω against its
 * angle's rate, marker positions against the hinge angle, spring lengths against the positions
 * and markers, a linear spring's tension against its law, a frame spring's force against its
 * stiffness, and the energies against the summary.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../cli/main.js';
import { fake, tiny, hingePendulum, csv } from './fake.js';

/** tiny with a free particle and a marker on the body */
const withFree = JSON.stringify({
  ...JSON.parse(tiny),
  particles: [...(JSON.parse(tiny) as { particles: object[] }).particles, { name: 'f', mass: 2, position: [0, 3, 0] }],
  markers: [{ name: 'corner', body: 'b', location: [0.05, 0.05, 0.05] }],
});

/** runs `model` with --outputs `groups` and returns the CSV's columns by name */
async function columns(model: string, groups: string, extra: string[] = []): Promise<{ header: string[]; col: (name: string) => number[]; out: string }> {
  const f = fake({ 'm.json': model });
  expect(await runCli(['run', 'm.json', '--out', 'o.csv', '--outputs', groups, ...extra], f.io)).toBe(0);
  const { header, rows } = csv(f.files.get('o.csv')!);
  const col = (name: string) => {
    const i = header.indexOf(name);
    expect(i, name).toBeGreaterThanOrEqual(0);
    return rows.map((r) => r[i]!);
  };
  return { header, col, out: f.out() };
}

describe('--outputs', () => {
  it('velocities: particles and bodies, consistent with the implicit Euler update of the positions', async () => {
    const { header, col } = await columns(withFree, 'velocities');
    expect(header.slice(17)).toEqual([
      'p.vx', 'p.vy', 'p.vz', 'anchor.vx', 'anchor.vy', 'anchor.vz', 'f.vx', 'f.vy', 'f.vz',
      'b.vx', 'b.vy', 'b.vz', 'b.wx', 'b.wy', 'b.wz',
    ]);
    const h = 0.01;
    // the free particle: v_k = −g k h
    col('f.vz').forEach((v, k) => expect(v).toBeCloseTo(-9.81 * k * h, 12));
    expect(col('anchor.vz').every((v) => v === 0)).toBe(true);
    // x_k = x_{k−1} + h v_k, for the particle on the spring and the body's frame origin
    for (const [x, v] of [['p.x', 'p.vx'], ['p.z', 'p.vz'], ['b.z', 'b.vz']] as const) {
      const xs = col(x), vs = col(v);
      for (let k = 1; k < xs.length; k++) expect(Math.abs(xs[k]! - xs[k - 1]! - h * vs[k]!)).toBeLessThan(1e-14);
      expect(vs.slice(1).some((u) => Math.abs(u) > 1e-3)).toBe(true);
    }
  });

  it('velocities and markers of the hinge pendulum: ω_y is the angle\'s rate, the tip turns with the angle', async () => {
    const model = { ...JSON.parse(hingePendulum), markers: [{ name: 'tip', body: 'bar', location: [0.2, 0, 0] }] };
    const { header, col } = await columns(JSON.stringify(model), 'velocities,markers,joints');
    expect(header.slice(8, 17)).toEqual(['bar.vx', 'bar.vy', 'bar.vz', 'bar.wx', 'bar.wy', 'bar.wz', 'tip.x', 'tip.y', 'tip.z']);
    const angle = col('h.rz'), rate = col('h.rz_rate'), wy = col('bar.wy');
    wy.forEach((w, k) => expect(w).toBeCloseTo(rate[k]!, 12));
    expect(angle[angle.length - 1]).toBeGreaterThan(0.1);
    // the tip, 0.4 m from the hinge at the origin along the bar: 0.4 (cos θ, 0, −sin θ)
    const x = col('tip.x'), y = col('tip.y'), z = col('tip.z');
    angle.forEach((a, k) => {
      expect(x[k]!).toBeCloseTo(0.4 * Math.cos(a), 10);
      expect(y[k]!).toBeCloseTo(0, 10);
      expect(z[k]!).toBeCloseTo(-0.4 * Math.sin(a), 10);
    });
  });

  it('springs: a linear spring\'s length and tension, a frame spring\'s force', async () => {
    const { header, col } = await columns(tiny, 'springs');
    expect(header.slice(14)).toEqual(['s.length', 's.rate', 's.tension', 'k.fx', 'k.fy', 'k.fz', 'k.mx', 'k.my', 'k.mz']);
    const L = col('s.length'), rate = col('s.rate'), tension = col('s.tension');
    const px = col('p.x'), py = col('p.y'), pz = col('p.z');
    L.forEach((l, k) => {
      expect(l).toBeCloseTo(Math.hypot(px[k]!, py[k]!, pz[k]!), 12);   // the anchor is at the origin
      // linear material: k (L − r) + d L̇ with r the initial length 1
      expect(tension[k]!).toBeCloseTo(100 * (l - 1) + 1 * rate[k]!, 9);
    });
    expect(Math.max(...tension.map(Math.abs))).toBeGreaterThan(0.1);
    // the bushing holds the falling body: F = −k_t (x_B − x_frame) on B, no torque
    const bz = col('b.z'), fz = col('k.fz');
    bz.forEach((z, k) => expect(fz[k]!).toBeCloseTo(-1000 * (z + 1), 9));
    expect(fz[fz.length - 1]!).toBeGreaterThan(1);
    for (const m of ['k.fx', 'k.fy', 'k.mx', 'k.my', 'k.mz']) expect(Math.max(...col(m).map(Math.abs))).toBeLessThan(1e-9);
  });

  it('springs and markers of the via-point example: the segments join the markers, the length is their sum', async () => {
    const viaPoint = readFileSync(join(import.meta.dirname ?? '.', '..', '..', 'examples', 'via-point.json'), 'utf8');
    const { header, col } = await columns(viaPoint, 'markers,springs', ['--duration', '0.5']);
    expect(header).toEqual(expect.arrayContaining(['via.x', 'insertion.z', 'muscle.length', 'muscle.rate', 'muscle.tension', 'muscle.segment0', 'muscle.segment1']));
    expect(header).not.toContain('muscle.segment2');
    const at = (m: string, k: number) => [col(`${m}.x`)[k]!, col(`${m}.y`)[k]!, col(`${m}.z`)[k]!];
    const s0 = col('muscle.segment0'), s1 = col('muscle.segment1'), L = col('muscle.length');
    for (let k = 0; k < L.length; k += 10) {
      const [vx, vy, vz] = at('via', k), [ix, iy, iz] = at('insertion', k);
      expect(s0[k]!).toBeCloseTo(Math.hypot(vx! - 0.05, vy!, vz! - 0.02), 12);
      expect(s1[k]!).toBeCloseTo(Math.hypot(ix! - vx!, iy! - vy!, iz! - vz!), 12);
      expect(L[k]!).toBeCloseTo(s0[k]! + s1[k]!, 12);
    }
  });

  it('energy: kinetic + potential = total, starting where the summary starts', async () => {
    const { header, col, out } = await columns(tiny, 'energy');
    expect(header.slice(14)).toEqual(['energy.kinetic', 'energy.potential', 'energy.total']);
    const ke = col('energy.kinetic'), pe = col('energy.potential'), total = col('energy.total');
    total.forEach((e, k) => expect(e).toBeCloseTo(ke[k]! + pe[k]!, 12));
    const start = /^ {2}start +(\S+) +(\S+) +(\S+)$/m.exec(out)!.slice(1).map(Number);
    expect([ke[0], pe[0], total[0]].map((v) => Number(v!.toPrecision(6)))).toEqual(start);
    const end = /^ {2}end +(\S+) +(\S+) +(\S+)$/m.exec(out)!.slice(1).map(Number);
    expect(Number(total[total.length - 1]!.toPrecision(6))).toBe(end[2]);
  });

  it('all: every group, in the documented order', async () => {
    const { header } = await columns(withFree, 'energy,all');
    const first = (prefix: string) => header.findIndex((c) => c.startsWith(prefix));
    const order = ['p.vx', 'corner.x', 's.length', 'energy.kinetic'].map(first);
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(new Set(header).size).toBe(header.length);
  });
});
