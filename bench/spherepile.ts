/**
 * The contact benchmarks of issue 17 §7: their scenes as Vinculum model files, the measures shared
 * with the peer engines, Vinculum's runs, and the entry that runs everything.
 *
 *   spherepile   1000 spheres (r = 0.05 m, 0.1 kg) on a 10 × 10 × 10 grid of 0.11 m pitch, odd
 *                layers shifted by +0.005 m in x and y, the lowest centres at z = 0.06 m, dropped
 *                into a box of five planes (floor z = 0, walls x = ±0.6 m, y = ±0.6 m), μ = 0.5,
 *                e = 0, h = 1/60 s, 500 steps: ms/step, the largest penetration at the end (into a
 *                plane or between two spheres) and the final kinetic energy; under `pgs` and
 *                `pivoting`, next to Rapier and MuJoCo in a child process (bench/contactPeers.ts)
 *   scaling      n spheres resting apart on a floor (one contact each; or n boxes, four each):
 *                ms/step against the number of active contacts, 10, 100, 1000
 *   chain100     the chain100 scene (examples/scenes.ts `chainOfBodies`) with ±30° limits on
 *   + limits     every joint coordinate: ms/step and the worst limit violation
 *
 * A plane is the half-space below its frame's x-y plane (its normal is the frame's +z), so each
 * wall's orientation is the shortest rotation taking +z to the inward normal n: q ∝ (1 + n_z,
 * −n_y, n_x, 0). Penetration is measured the same way for every engine, from the sphere centres:
 * r − n·(c − p) against each plane and 2r − |cᵢ − cⱼ| for each pair of spheres.
 *
 * Timing follows bench/peers.ts: a short warm-up world, then fresh worlds; ms/step is a world's
 * wall time over its steps, median over the worlds; the process CPU time is reported too, since
 * the machine is shared. A Vinculum model that does not parse yet (before contact lands) is
 * reported as not available, so the benchmark runs today.
 *
 *   node dist/bench/spherepile.js [--quick] [--runs n] [--chain-joint ball --chain-coordinates a,b]
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseModel, Simulation } from '../src/index.js';
import { writeTextFileAtomic } from '../node/files.js';
import { median } from './stats.js';
import type { PeerOptions } from './contactPeers.js';

type V3 = [number, number, number];
type Q4 = [number, number, number, number];

/** the spherepile scene's numbers (SI units) */
export const SPHEREPILE = {
  perSide: 10, radius: 0.05, mass: 0.1, pitch: 0.11, shift: 0.005, bottom: 0.06, halfWidth: 0.6,
  friction: 0.5, restitution: 0, step: 1 / 60, steps: 500, gravity: 9.81,
} as const;

/** a fixed plane: a point on it and its unit normal, pointing to the free side */
export interface PlaneDef { point: V3; normal: V3 }

/** the floor and the four walls of the spherepile's box */
export const SPHEREPILE_PLANES: readonly PlaneDef[] = (() => {
  const w = SPHEREPILE.halfWidth;
  return [
    { point: [0, 0, 0], normal: [0, 0, 1] },
    { point: [w, 0, 0], normal: [-1, 0, 0] }, { point: [-w, 0, 0], normal: [1, 0, 0] },
    { point: [0, w, 0], normal: [0, -1, 0] }, { point: [0, -w, 0], normal: [0, 1, 0] },
  ];
})();

/** the shortest rotation [w, x, y, z] taking +z to the unit vector n (n ≠ −z) */
export function planeOrientation(n: readonly number[]): Q4 {
  const w = 1 + n[2]!, x = -n[1]!, y = n[0]!, s = Math.hypot(w, x, y);
  if (!(s > 1e-12)) throw new Error(`planeOrientation: normal ${JSON.stringify(n)} points along −z`);
  return [w / s, x / s, y / s, 0];
}

/** the spheres' initial centres, 3 numbers per sphere, layer by layer, then row by row (sphere k: "s<k>") */
export function spherepileCentres(): Float64Array {
  const { perSide: n, pitch, shift, bottom } = SPHEREPILE, c = new Float64Array(3 * n * n * n);
  let k = 0;
  for (let l = 0; l < n; l++) {
    // odd layers sit 0.005 m off the even ones, so no column stands exactly on top of another
    const s = l % 2 === 1 ? shift : 0;
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++, k += 3) {
      c[k] = (i - (n - 1) / 2) * pitch + s;
      c[k + 1] = (j - (n - 1) / 2) * pitch + s;
      c[k + 2] = bottom + l * pitch;
    }
  }
  return c;
}

/** the largest penetrations (m, 0 when none): into the planes, between spheres, and their maximum */
export interface Penetration { plane: number; sphere: number; max: number }

/** penetration of spheres of radius r, centres c (3 per sphere), into the planes and each other (brute force) */
export function maxPenetration(c: Float64Array, r: number, planes: readonly PlaneDef[] = SPHEREPILE_PLANES): Penetration {
  const n = c.length / 3;
  let plane = 0, sphere = 0;
  // each sphere against each plane: r − n·(c − p)
  for (let i = 0; i < n; i++) {
    const x = c[3 * i]!, y = c[3 * i + 1]!, z = c[3 * i + 2]!;
    for (const { point: p, normal: m } of planes) {
      plane = Math.max(plane, r - (m[0] * (x - p[0]) + m[1] * (y - p[1]) + m[2] * (z - p[2])));
    }
  }
  // each pair of spheres: 2r − |cᵢ − cⱼ| (5·10⁵ pairs take a few ms; no broadphase needed)
  for (let i = 0; i < n; i++) {
    const x = c[3 * i]!, y = c[3 * i + 1]!, z = c[3 * i + 2]!;
    for (let j = i + 1; j < n; j++) {
      const dx = c[3 * j]! - x, dy = c[3 * j + 1]! - y, dz = c[3 * j + 2]! - z;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 < 4 * r * r) sphere = Math.max(sphere, 2 * r - Math.sqrt(d2));
    }
  }
  return { plane, sphere, max: Math.max(plane, sphere) };
}

/** kinetic energy of a uniform sphere (I = 2/5 m r²) from its centre's velocity v and its angular velocity ω */
export function sphereKineticEnergy(
  m: number, r: number, vx: number, vy: number, vz: number, wx: number, wy: number, wz: number,
): number {
  return 0.5 * m * (vx * vx + vy * vy + vz * vz) + 0.2 * m * r * r * (wx * wx + wy * wy + wz * wz);
}

// ---------------------------------------------------------------------------------------------
// Vinculum model files (the format of issue 17: `contact`, `world.shapes`, materials, limits)

export type ContactSolverName = 'pgs' | 'pivoting';
interface Material { friction: number; restitution: number }
type Inertia = [number, number, number, number, number, number];
export type ShapeEntry = Material & (
  { type: 'plane'; position: V3; orientation: Q4 } | { type: 'sphere'; radius: number } | { type: 'box'; size: V3 });
export interface BodyEntry { name: string; mass: number; inertia?: Inertia; shape?: ShapeEntry; position: V3 }
export interface JointEntry {
  type: string; name: string; bodyA: string; bodyB: string; position: V3; limits?: Record<string, [number, number]>;
}
export interface ContactModelFile {
  version: 1; gravity: V3; integrator: 'implicit-euler'; step: number; contact?: { solver: ContactSolverName };
  world?: { shapes: ShapeEntry[] }; bodies: BodyEntry[]; joints?: JointEntry[];
}

const material = (): Material => ({ friction: SPHEREPILE.friction, restitution: SPHEREPILE.restitution });
const planeShape = (p: PlaneDef): ShapeEntry =>
  ({ type: 'plane', position: [...p.point], orientation: planeOrientation(p.normal), ...material() });
/** a model file's top level under gravity along −z, with implicit Euler */
const header = (step: number) =>
  ({ version: 1 as const, gravity: [0, 0, -SPHEREPILE.gravity] as V3, integrator: 'implicit-euler' as const, step });

/** the spherepile as a Vinculum model file under the given contact solver */
export function spherepileModel(solver: ContactSolverName): ContactModelFile {
  const c = spherepileCentres(), { radius, mass } = SPHEREPILE, bodies: BodyEntry[] = [];
  for (let k = 0; k < c.length / 3; k++) {
    const position: V3 = [c[3 * k]!, c[3 * k + 1]!, c[3 * k + 2]!];
    bodies.push({ name: `s${k}`, mass, shape: { type: 'sphere', radius, ...material() }, position });
  }
  return { ...header(SPHEREPILE.step), contact: { solver }, world: { shapes: SPHEREPILE_PLANES.map(planeShape) }, bodies };
}

export type RestingShape = 'sphere' | 'box';

/**
 * The pivoting scaling scene: n spheres (r = 0.05 m, 0.1 kg) resting on the floor z = 0, just
 * touching it, on a square grid of 0.15 m pitch so they never touch each other: n contacts. With
 * `shape: 'box'`, n cubes of 0.1 m edge resting flat: 4n contacts (one per bottom vertex).
 */
export function restingModel(n: number, solver: ContactSolverName, shape: RestingShape = 'sphere'): ContactModelFile {
  const cols = Math.ceil(Math.sqrt(n)), pitch = 0.15, r = 0.05, bodies: BodyEntry[] = [];
  const s: ShapeEntry = shape === 'sphere' ? { type: 'sphere', radius: r, ...material() }
    : { type: 'box', size: [2 * r, 2 * r, 2 * r], ...material() };
  for (let k = 0; k < n; k++) {
    const position: V3 = [(k % cols) * pitch, Math.floor(k / cols) * pitch, r];
    bodies.push({ name: `${shape}${k}`, mass: 0.1, shape: { ...s }, position });
  }
  return { ...header(SPHEREPILE.step), contact: { solver }, world: { shapes: [planeShape(SPHEREPILE_PLANES[0]!)] }, bodies };
}

/** options of chain100WithLimitsModel */
export interface ChainLimitsOptions {
  /** the joint type of every joint (default 'ball', as chain100) */
  joint?: string;
  /** the coordinates to limit on every joint, by the names `--outputs joints` reports */
  coordinates: readonly string[];
  /** the bounds, rad (default ±30° = ±0.5236) */
  lower?: number; upper?: number;
  links?: number;
  solver?: ContactSolverName;
}

/**
 * chain100 (`chainOfBodies(100)`: boxes 0.1 × 0.02 × 0.02 m of 0.1 kg end to end, the first
 * pinned to the world at the origin, released horizontal, h = 1/240 s) as a model file, with
 * `limits` on every joint, the pin included. The bodies have no shape, so nothing collides.
 */
export function chain100WithLimitsModel(o: ChainLimitsOptions): ContactModelFile {
  const n = o.links ?? 100, len = 0.1, w = 0.02, m = 0.1, { lo, hi } = bounds(o), type = o.joint ?? 'ball';
  // a box's inertia about its centre: m/12 (b² + c²) per axis
  const ix = (m / 12) * (2 * w * w), iy = (m / 12) * (len * len + w * w);
  const limits = (): Record<string, [number, number]> => Object.fromEntries(o.coordinates.map((c) => [c, [lo, hi]]));
  const bodies: BodyEntry[] = [], joints: JointEntry[] = [];
  for (let i = 0; i < n; i++) {
    bodies.push({ name: `link${i}`, mass: m, inertia: [ix, iy, iy, 0, 0, 0], position: [(i + 0.5) * len, 0, 0] });
    const a = i === 0 ? 'world' : `link${i - 1}`;
    joints.push({ type, name: chainJointName(i), bodyA: a, bodyB: `link${i}`, position: [i * len, 0, 0], limits: limits() });
  }
  return { ...header(1 / 240), ...(o.solver ? { contact: { solver: o.solver } } : {}), bodies, joints };
}

const chainJointName = (i: number): string => (i === 0 ? 'pin' : `j${i}`);
const bounds = (o: ChainLimitsOptions) => ({ lo: o.lower ?? -0.5236, hi: o.upper ?? 0.5236 });

// ---------------------------------------------------------------------------------------------
// measuring a spherepile world, whatever the engine

/** one engine's spherepile: a step, the sphere centres, the kinetic energy, and clean-up */
export interface SpherepileWorld {
  step(): void; centres(out: Float64Array): void; kineticEnergy(): number; contacts?(): number; dispose?(): void;
}

/** a spherepile measurement, or why there is none */
export type SpherepileResult = {
  engine: string; version: string; solver: string; available: true;
  /** steps run per world (fewer than asked when the time budget ran out: complete is false) */
  steps: number; complete: boolean; worlds: number;
  /** wall time per step (a world's time over its steps, median over the worlds), and the process CPU time so */
  msPerStep: number; cpuMsPerStep: number;
  /** the median of every timed step of every world */
  medianStepMs: number;
  /** the end of the last world: penetrations (m), kinetic energy (J), the engine's contact count if it tells */
  penetration: Penetration; kineticEnergy: number; contacts: number | null;
  note?: string;
} | { engine: string; version: string; solver: string; available: false; reason: string };

/** a spherepile measurement that ran */
export type SpherepileMeasure = Extract<SpherepileResult, { available: true }>;

/** options of measureSpherepile */
export interface MeasureOptions { worlds: number; steps?: number; warmupSteps?: number; maxSeconds?: number }

/** a world's wall and CPU time (ms) over the steps it ran */
export interface WorldTime { wall: number; cpu: number; steps: number }

/**
 * steps a world, timing each step (wall) and the whole (wall and CPU); stops past maxSeconds of wall
 * time; `after(s)` runs after step s (1-based), outside the timing (bench/boxpile.ts reads the heap)
 */
export function timeWorld(
  w: { step(): void }, steps: number, maxSeconds: number, stepMs: number[], after?: (s: number) => void,
): WorldTime {
  const c0 = process.cpuUsage();
  let wall = 0, s = 0;
  while (s < steps && wall < 1000 * maxSeconds) {
    const t = performance.now();
    w.step();
    const dt = performance.now() - t;
    stepMs.push(dt); wall += dt; s++;
    after?.(s);
  }
  const cu = process.cpuUsage(c0);
  return { wall, cpu: (cu.user + cu.system) / 1000, steps: s };
}

/** runs a warm-up world, then `worlds` fresh worlds of the spherepile, and measures them */
export function measureSpherepile(
  engine: string, version: string, solver: string, make: () => SpherepileWorld, o: MeasureOptions,
): SpherepileMeasure {
  const steps = o.steps ?? SPHEREPILE.steps, maxSeconds = o.maxSeconds ?? Infinity, warm = o.warmupSteps ?? 20;
  // the warm-up world lets the engine compile its code; it is not counted
  if (warm > 0) { const w = make(); timeWorld(w, warm, maxSeconds, []); w.dispose?.(); }
  const wall: number[] = [], cpu: number[] = [], stepMs: number[] = [], c = new Float64Array(3 * SPHEREPILE.perSide ** 3);
  let end = { steps: 0, penetration: { plane: 0, sphere: 0, max: 0 }, kineticEnergy: 0, contacts: null as number | null };
  for (let r = 0; r < o.worlds; r++) {
    const w = make(), t = timeWorld(w, steps, maxSeconds, stepMs);
    wall.push(t.wall / t.steps); cpu.push(t.cpu / t.steps);
    // the state at the end, read outside the timing
    w.centres(c);
    const penetration = maxPenetration(c, SPHEREPILE.radius);
    end = { steps: t.steps, penetration, kineticEnergy: w.kineticEnergy(), contacts: w.contacts?.() ?? null };
    w.dispose?.();
  }
  const times = { msPerStep: median(wall), cpuMsPerStep: median(cpu), medianStepMs: median(stepMs) };
  return { engine, version, solver, available: true, worlds: o.worlds, complete: end.steps === steps, ...times, ...end };
}

// ---------------------------------------------------------------------------------------------
// Vinculum's runs

/** the part of the vinculum API the runs use (by default this build's src/) */
export interface VinculumApi { parseModel: typeof parseModel; Simulation: typeof Simulation }
const VINCULUM: VinculumApi = { parseModel, Simulation };

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/** a simulation of a model file, or why it does not load */
function simulate(api: VinculumApi, file: ContactModelFile): Simulation | string {
  try { return new api.Simulation(api.parseModel(file)); } catch (e) { return `not available: ${firstLine(e)}`; }
}

/** Vinculum's spherepile under a contact solver; not available while the model format lacks contact */
export function vinculumSpherepile(
  solver: ContactSolverName, o: MeasureOptions, api: VinculumApi = VINCULUM,
): SpherepileResult {
  const none = (reason: string): SpherepileResult => ({ engine: 'vinculum', version: '', solver, available: false, reason });
  const probe = simulate(api, spherepileModel(solver));
  if (typeof probe === 'string') return none(probe);
  const make = (): SpherepileWorld => {
    const sim = new api.Simulation(api.parseModel(spherepileModel(solver)));
    const handles = Array.from({ length: SPHEREPILE.perSide ** 3 }, (_, k) => sim.body(`s${k}`));
    return {
      step: () => sim.step(),
      centres: (out) => handles.forEach((h, k) => out.set(h.position, 3 * k)),
      kineticEnergy: () => sim.energy().kinetic,
    };
  };
  try { return measureSpherepile('vinculum', '', solver, make, o); } catch (e) { return none(`failed: ${firstLine(e)}`); }
}

/** one point of the pivoting scaling: ms/step at a number of resting contacts */
export type ScalingResult = {
  solver: ContactSolverName; shape: RestingShape; bodies: number; contacts: number; msPerStep: number; steps: number;
  /** the deepest body's centre below its resting height, m */
  floorPenetration: number;
} | { solver: ContactSolverName; bodies: number; available: false; reason: string };

/** ms/step (median of `steps` steps after 20 settling steps) of n bodies resting on the floor under a solver */
export function vinculumScaling(
  solver: ContactSolverName, n: number, steps: number, shape: RestingShape = 'sphere', api: VinculumApi = VINCULUM,
): ScalingResult {
  const sim = simulate(api, restingModel(n, solver, shape));
  if (typeof sim === 'string') return { solver, bodies: n, available: false, reason: sim };
  try {
    sim.steps(20);
    const times: number[] = [];
    for (let i = 0; i < steps; i++) { const t = performance.now(); sim.step(); times.push(performance.now() - t); }
    // a sphere's centre and a flat cube's centre both rest at 0.05 m
    let deepest = 0;
    for (let k = 0; k < n; k++) deepest = Math.max(deepest, 0.05 - sim.body(`${shape}${k}`).position[2]);
    const contacts = shape === 'sphere' ? n : 4 * n;
    return { solver, shape, bodies: n, contacts, msPerStep: median(times), steps, floorPenetration: deepest };
  } catch (e) { return { solver, bodies: n, available: false, reason: `failed: ${firstLine(e)}` }; }
}

/** chain100 with limits: ms/step and the worst limit violation (rad, or m for a translation) of any end-of-step state */
export type ChainLimitsResult = { joint: string; coordinates: readonly string[] } & (
  { msPerStep: number; worstViolation: number; worstAt: string; runs: number } | { available: false; reason: string });

/** how far the chain's limited coordinates are outside [lo, hi] at the current state, and where */
function limitViolation(sim: Simulation, links: number, o: ChainLimitsOptions): { value: number; at: string } {
  const { lo, hi } = bounds(o);
  let value = 0, at = '';
  for (let i = 0; i < links; i++) {
    const j = sim.joint(chainJointName(i)), q = j.coordinates;
    for (const name of o.coordinates) {
      const k = j.coordinateNames.indexOf(name);
      const has = j.coordinateNames.join(', ') || 'none';
      if (k < 0) throw new Error(`joint "${j.name}" (${j.type}) has no coordinate "${name}" (it has ${has})`);
      const v = Math.max(lo - q[k]!, q[k]! - hi, 0);
      if (v > value) { value = v; at = `${j.name}.${name}`; }
    }
  }
  return { value, at };
}

/** chain100 with limits: one warm-up run, then `runs` runs of 1000 steps (the chain100 protocol) */
export function vinculumChainLimits(o: ChainLimitsOptions, runs: number, api: VinculumApi = VINCULUM): ChainLimitsResult {
  const file = chain100WithLimitsModel(o), links = o.links ?? 100;
  const id = { joint: o.joint ?? 'ball', coordinates: o.coordinates };
  const probe = simulate(api, file);
  if (typeof probe === 'string') return { ...id, available: false, reason: probe };
  try {
    const times: number[] = [];
    let worst = { value: 0, at: '' };
    for (let r = -1; r < runs; r++) {
      const sim = new api.Simulation(api.parseModel(file));
      let t = 0;
      for (let s = 0; s < 1000; s++) {
        const t0 = performance.now(); sim.step(); t += performance.now() - t0;
        // run −1 warms up; the violation is read between steps, outside the timing
        if (r >= 0) { const v = limitViolation(sim, links, o); if (v.value > worst.value) worst = v; }
      }
      if (r >= 0) times.push(t / 1000);
    }
    return { ...id, msPerStep: median(times), worstViolation: worst.value, worstAt: worst.at, runs };
  } catch (e) { return { ...id, available: false, reason: `failed: ${firstLine(e)}` }; }
}

// ---------------------------------------------------------------------------------------------
// the whole contact benchmark

/** options of contactBenchmarks */
export interface ContactBenchOptions {
  /** 100 spherepile steps, one world each, to check the script */
  quick?: boolean;
  /** worlds per measurement (default 3, quick 1) */
  runs?: number;
  /** chain100's joints and limited coordinates (default gimbal joints: a ball joint's rows, with named angles) */
  chain?: { joint: string; coordinates: string[]; solver?: ContactSolverName };
  /** the peers' options (default: `runs` Rapier worlds, one MuJoCo CG world, a 60 s Newton probe) */
  peers?: Partial<PeerOptions>;
  /** wall-time budget of each Vinculum spherepile world, s (default none; quick 60) */
  maxSeconds?: number;
  /** a vinculum build other than this one's src/ */
  api?: VinculumApi;
  log?: (line: string) => void;
}

/** everything contactBenchmarks measured, ready for JSON */
export interface ContactBenchReport {
  date: string; node: string; spherepile: SpherepileResult[]; scaling: ScalingResult[]; chain100Limits: ChainLimitsResult;
}

/** the peers' spherepile in a child process (in this one, Rapier's worlds slow Vinculum's later steps: bench/peers.ts) */
function peersInChild(o: PeerOptions): SpherepileResult[] {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'contactPeers.js');
  const text = execFileSync(process.execPath, [script, JSON.stringify(o)],
    { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(text.trim().split('\n').pop()!) as SpherepileResult[];
}

/** one line of the report per measurement */
function describe(r: SpherepileResult): string {
  if (!r.available) return `spherepile ${r.engine} ${r.solver}: ${r.reason}`;
  const p = r.penetration, e = (x: number) => x.toExponential(2), f = (x: number) => x.toFixed(3);
  const contacts = r.contacts === null ? '' : `; ${r.contacts} contacts`;
  return `spherepile ${r.engine} ${r.version} ${r.solver}: ${f(r.msPerStep)} ms/step (CPU ${f(r.cpuMsPerStep)}, `
    + `median step ${f(r.medianStepMs)}) over ${r.steps}${r.complete ? '' : ' (budget)'} steps; penetration ${e(p.max)} m `
    + `(planes ${e(p.plane)}, spheres ${e(p.sphere)}); KE ${r.kineticEnergy.toExponential(3)} J${contacts}`;
}

/** the spherepile (Vinculum's pgs and pivoting, then the peers), the pivoting scaling and chain100 with limits */
export function contactBenchmarks(o: ContactBenchOptions = {}): ContactBenchReport {
  const log = o.log ?? ((s: string) => process.stdout.write(s + '\n')), api = o.api ?? VINCULUM;
  const runs = o.runs ?? (o.quick ? 1 : 3), steps = o.quick ? 100 : SPHEREPILE.steps;
  const maxSeconds = o.maxSeconds ?? (o.quick ? 60 : Infinity);
  // Vinculum first, then the peers in their own process
  const spherepile = (['pgs', 'pivoting'] as const).map((s) => {
    // pivoting on a thousand spheres is the case it does not pay for: one world, within the budget
    const r = vinculumSpherepile(s, { worlds: s === 'pivoting' ? 1 : runs, steps, maxSeconds }, api);
    log(describe(r));
    return r;
  });
  const peers = peersInChild({ worlds: runs, steps, newtonSeconds: o.quick ? 10 : 60, ...o.peers });
  peers.forEach((r) => log(describe(r)));
  spherepile.push(...peers);
  // time per step against the number of resting contacts
  const scaling: ScalingResult[] = [];
  for (const n of [10, 100, 1000]) for (const s of ['pgs', 'pivoting'] as const) {
    const r = vinculumScaling(s, n, o.quick ? 10 : 50, 'sphere', api);
    scaling.push(r);
    log(`scaling ${s} ${n} spheres: ` + ('reason' in r ? r.reason
      : `${r.contacts} contacts, ${r.msPerStep.toFixed(3)} ms/step, floor penetration ${r.floorPenetration.toExponential(2)} m`));
  }
  // chain100 with limits on every joint
  const chain = o.chain ?? { joint: 'gimbal', coordinates: ['theta', 'phi', 'psi'] };
  const c = vinculumChainLimits(chain, runs, api);
  log(`chain100 with limits (${chain.joint}: ${chain.coordinates.join(', ')}): ` + ('reason' in c ? c.reason
    : `${c.msPerStep.toFixed(3)} ms/step, worst violation ${c.worstViolation.toExponential(2)} at ${c.worstAt || '-'}`));
  return { date: new Date().toISOString(), node: process.version, spherepile, scaling, chain100Limits: c };
}

/** the value after a command-line flag, if given */
function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

// as a command: the report on stdout and in bench/results/contact-<date>.json
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2), quick = args.includes('--quick');
  const runs = flag(args, '--runs'), coords = flag(args, '--chain-coordinates');
  const report = contactBenchmarks({
    quick, ...(runs ? { runs: Number(runs) } : {}),
    ...(coords ? { chain: { joint: flag(args, '--chain-joint') ?? 'ball', coordinates: coords.split(',') } } : {}),
  });
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `contact-${report.date.slice(0, 10)}${quick ? '-quick' : ''}.json`);
  await writeTextFileAtomic(file, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`results: ${file}\n`);
}
