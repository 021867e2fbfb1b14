/**
 * The box pile of issue 18 §6: the scene, the measures shared with the peer engines
 * (bench/boxpilePeers.ts), Vinculum's runs, the scaling in the number of boxes, and the entry.
 *
 *   boxpile   10 × 10 × 10 cubes of 1 m edge (half extent 0.5 m) and 1 kg on a grid of 1.1 m
 *             pitch (0.1 m apart), the bottom layer 0.1 m above the ground plane z = 0, μ = 0.5,
 *             e = 0, h = 1/60 s, 500 steps: ms/step (the mean over a world's steps, median over
 *             the worlds, and the median of every step), the largest box-ground and box-box
 *             penetration at the end, the final kinetic energy, and the boxes displaced (the
 *             horizontal distance of a box's centre from its column's axis above 0.25 m); Vinculum
 *             with the default contact solver (`auto`), Rapier (sleeping on and off), MuJoCo and
 *             Jolt in a child process
 *   scaling   the same pile 10 × 10, 20 × 20 and 40 × 40 boxes wide, 10 layers (1000, 4000 and
 *             16 000 boxes): the median step time and its fitted exponent in the number of boxes
 *   heap      Vinculum's heap in use after a full garbage collection at two steps of one pile
 *
 * Every engine's end state is measured by the same code, from the boxes' poses: a box's depth
 * below the ground is −min over its corners of z = −(c_z − a(|R₂₀| + |R₂₁| + |R₂₂|)), with a the
 * half extent and R the rotation; two boxes overlap by the smallest overlap of their projections
 * on the 15 axes of the separating-axis test (3 face normals of each, 9 edge cross products),
 * which for two convex polyhedra is the penetration depth. The kinetic energy is
 * ½m|v|² + ½I|ω|² with the cube's isotropic inertia I = m(2a)²/6.
 *
 *   node --expose-gc dist/bench/boxpile.js [--quick] [--runs n] [--no-peers] [--no-scaling]
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { parseModel, Simulation } from '../src/index.js';
import { writeTextFileAtomic } from '../node/files.js';
import { median, fitExponent } from './stats.js';
import { SPHEREPILE, timeWorld, type ContactModelFile, type BodyEntry, type ShapeEntry } from './spherepile.js';
import type { BoxpilePeerOptions, BoxpilePeerReport } from './boxpilePeers.js';

/** the box pile's numbers (SI units) */
export const BOXPILE = {
  half: 0.5, mass: 1, gap: 0.1, clearance: 0.1, friction: 0.5, restitution: 0,
  step: 1 / 60, steps: 500, gravity: SPHEREPILE.gravity, displacedBeyond: 0.25,
} as const;

/** a pile's columns along x and y and its layers */
export interface PileSize { nx: number; ny: number; layers: number }

/** the pile of issue 18 §6, and the wider piles of the scaling */
export const PILES: readonly PileSize[] = [
  { nx: 10, ny: 10, layers: 10 }, { nx: 20, ny: 20, layers: 10 }, { nx: 40, ny: 40, layers: 10 },
];

export const boxCount = (s: PileSize): number => s.nx * s.ny * s.layers;

/** the boxes' initial centres, 3 numbers per box, layer by layer, then row by row (box k: "b<k>") */
export function boxpileCentres(s: PileSize): Float64Array {
  const { half, gap, clearance } = BOXPILE, pitch = 2 * half + gap, c = new Float64Array(3 * boxCount(s));
  let k = 0;
  for (let l = 0; l < s.layers; l++) for (let j = 0; j < s.ny; j++) for (let i = 0; i < s.nx; i++, k += 3) {
    c[k] = (i - (s.nx - 1) / 2) * pitch;
    c[k + 1] = (j - (s.ny - 1) / 2) * pitch;
    c[k + 2] = clearance + half + l * pitch;
  }
  return c;
}

/** kinetic energy of a cube of mass m and half extent a (I = m(2a)²/6 about every axis) */
export function cubeKineticEnergy(
  m: number, a: number, vx: number, vy: number, vz: number, wx: number, wy: number, wz: number,
): number {
  return 0.5 * m * (vx * vx + vy * vy + vz * vz) + (m * a * a / 3) * (wx * wx + wy * wy + wz * wz);
}

// ---------------------------------------------------------------------------------------------
// measures of an end state: poses are 7 numbers per box, the centre and the quaternion [w, x, y, z]

/** the rotation matrix (row-major) of the quaternion at poses[o + 3 … o + 6], written to R */
function rotation(R: Float64Array, p: Float64Array, o: number): void {
  const n = Math.hypot(p[o + 3]!, p[o + 4]!, p[o + 5]!, p[o + 6]!);
  const w = p[o + 3]! / n, x = p[o + 4]! / n, y = p[o + 5]! / n, z = p[o + 6]! / n;
  R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
}

/** the overlap of two cubes of half extent a along the unit axis l (negative: apart along l) */
function axisOverlap(
  a: number, RA: Float64Array, RB: Float64Array, t: readonly number[], l: readonly number[],
): number {
  let ra = 0, rb = 0;
  for (let k = 0; k < 3; k++) {
    ra += Math.abs(RA[k]! * l[0]! + RA[3 + k]! * l[1]! + RA[6 + k]! * l[2]!);
    rb += Math.abs(RB[k]! * l[0]! + RB[3 + k]! * l[1]! + RB[6 + k]! * l[2]!);
  }
  return a * (ra + rb) - Math.abs(t[0]! * l[0]! + t[1]! * l[1]! + t[2]! * l[2]!);
}

/** the penetration depth of two cubes of half extent a (0 when apart): the least overlap on the 15 SAT axes */
export function cubeOverlap(a: number, RA: Float64Array, RB: Float64Array, t: readonly number[]): number {
  let depth = Infinity;
  const col = (R: Float64Array, k: number) => [R[k]!, R[3 + k]!, R[6 + k]!];
  for (let i = 0; i < 3; i++) {
    depth = Math.min(depth, axisOverlap(a, RA, RB, t, col(RA, i)), axisOverlap(a, RA, RB, t, col(RB, i)));
    // edge-edge axes; parallel edges give no axis of their own (a face axis covers them)
    for (let j = 0; j < 3; j++) {
      const u = col(RA, i), v = col(RB, j);
      const c = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
      const n = Math.hypot(c[0]!, c[1]!, c[2]!);
      if (n > 1e-6) depth = Math.min(depth, axisOverlap(a, RA, RB, t, c.map((x) => x / n)));
    }
  }
  return Math.max(0, depth);
}

/** the largest penetrations at the end (m): into the ground, between boxes, and their maximum */
export interface BoxPenetration { ground: number; box: number; max: number }

/** the penetrations of cubes of half extent a at the poses: into the plane z = 0 and into each other */
export function boxPenetration(poses: Float64Array, a: number): BoxPenetration {
  const n = poses.length / 7, R = Array.from({ length: n }, () => new Float64Array(9));
  let ground = 0, box = 0;
  // each box's lowest corner against the ground
  for (let i = 0; i < n; i++) {
    rotation(R[i]!, poses, 7 * i);
    const r = R[i]!, low = poses[7 * i + 2]! - a * (Math.abs(r[6]!) + Math.abs(r[7]!) + Math.abs(r[8]!));
    ground = Math.max(ground, -low);
  }
  // pairs whose centres are closer than two half diagonals, found by a sweep along x
  const reach = 2 * a * Math.sqrt(3), order = Array.from({ length: n }, (_, i) => i);
  order.sort((i, j) => poses[7 * i]! - poses[7 * j]!);
  for (let s = 0; s < n; s++) {
    const i = order[s]!;
    for (let e = s + 1; e < n; e++) {
      const j = order[e]!, t = [0, 1, 2].map((k) => poses[7 * j + k]! - poses[7 * i + k]!);
      if (t[0]! > reach) break;
      if (Math.hypot(t[0]!, t[1]!, t[2]!) < reach) box = Math.max(box, cubeOverlap(a, R[i]!, R[j]!, t));
    }
  }
  return { ground, box, max: Math.max(ground, box) };
}

/** how many boxes' centres lie farther than `beyond` (m) horizontally from their initial column's axis */
export function displacedBoxes(poses: Float64Array, initial: Float64Array, beyond: number): number {
  let count = 0;
  for (let k = 0; k < initial.length / 3; k++) {
    const dx = poses[7 * k]! - initial[3 * k]!, dy = poses[7 * k + 1]! - initial[3 * k + 1]!;
    if (Math.hypot(dx, dy) > beyond) count++;
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// measuring a box pile, whatever the engine

/** one engine's box pile: a step, the poses, the kinetic energy, and clean-up */
export interface BoxpileWorld {
  step(): void; poses(out: Float64Array): void; kineticEnergy(): number; contacts?(): number; dispose?(): void;
}

/** a box-pile measurement, or why there is none */
export type BoxpileResult = {
  engine: string; version: string; solver: string; boxes: number; available: true;
  /** steps run per world (fewer than asked when the time budget ran out: complete is false) */
  steps: number; complete: boolean; worlds: number;
  /** a world's wall time over its steps (median over the worlds), the same in process CPU time */
  msPerStep: number; cpuMsPerStep: number;
  /** the median of every timed step of every world */
  medianStepMs: number;
  /** the end of the last world */
  penetration: BoxPenetration; kineticEnergy: number; displaced: number; contacts: number | null;
  note?: string;
} | { engine: string; version: string; solver: string; boxes: number; available: false; reason: string };

/** a box-pile measurement that ran */
export type BoxpileMeasure = Extract<BoxpileResult, { available: true }>;

/** options of measureBoxpile */
export interface BoxpileMeasureOptions {
  size: PileSize; worlds: number; steps: number; warmupSteps?: number; maxSeconds?: number;
  /** called after each step s (1-based) of the last world, outside the timing */
  after?: (s: number) => void;
}

/** runs a short warm-up world, then `worlds` fresh worlds, and measures them */
export function measureBoxpile(
  engine: string, version: string, solver: string, make: () => BoxpileWorld, o: BoxpileMeasureOptions,
): BoxpileMeasure {
  const maxSeconds = o.maxSeconds ?? Infinity, warm = o.warmupSteps ?? 20, n = boxCount(o.size);
  // the warm-up world lets the engine compile its code; it is not counted
  if (warm > 0) { const w = make(); timeWorld(w, warm, maxSeconds, []); w.dispose?.(); }
  const wall: number[] = [], cpu: number[] = [], stepMs: number[] = [], poses = new Float64Array(7 * n);
  const initial = boxpileCentres(o.size);
  let end: Pick<BoxpileMeasure, 'steps' | 'penetration' | 'kineticEnergy' | 'displaced' | 'contacts'> | null = null;
  for (let r = 0; r < o.worlds; r++) {
    const w = make(), t = timeWorld(w, o.steps, maxSeconds, stepMs, r === o.worlds - 1 ? o.after : undefined);
    wall.push(t.wall / t.steps); cpu.push(t.cpu / t.steps);
    // the state at the end, read outside the timing
    w.poses(poses);
    end = {
      steps: t.steps, penetration: boxPenetration(poses, BOXPILE.half), kineticEnergy: w.kineticEnergy(),
      displaced: displacedBoxes(poses, initial, BOXPILE.displacedBeyond), contacts: w.contacts?.() ?? null,
    };
    w.dispose?.();
  }
  if (!end) throw new Error('measureBoxpile: worlds must be at least 1');
  const times = { msPerStep: median(wall), cpuMsPerStep: median(cpu), medianStepMs: median(stepMs) };
  const run = { worlds: o.worlds, complete: end.steps === o.steps };
  return { engine, version, solver, boxes: n, available: true, ...run, ...times, ...end };
}

// ---------------------------------------------------------------------------------------------
// Vinculum's runs

/** the box pile as a Vinculum model file: the ground plane and the cubes b0 … b(n−1), default contact solver */
export function boxpileModel(s: PileSize): ContactModelFile {
  const c = boxpileCentres(s), { half, mass, friction, restitution } = BOXPILE, bodies: BodyEntry[] = [];
  const surface = { friction, restitution };
  for (let k = 0; k < c.length / 3; k++) {
    const shape: ShapeEntry = { type: 'box', size: [2 * half, 2 * half, 2 * half], ...surface };
    bodies.push({ name: `b${k}`, mass, shape, position: [c[3 * k]!, c[3 * k + 1]!, c[3 * k + 2]!] });
  }
  const ground: ShapeEntry = { type: 'plane', position: [0, 0, 0], orientation: [1, 0, 0, 0], ...surface };
  const header = { version: 1 as const, gravity: [0, 0, -BOXPILE.gravity] as [number, number, number] };
  return { ...header, integrator: 'implicit-euler', step: BOXPILE.step, world: { shapes: [ground] }, bodies };
}

/** Vinculum's box pile as a world of the measure */
function vinculumWorld(s: PileSize): BoxpileWorld {
  const sim = new Simulation(parseModel(boxpileModel(s)));
  const handles = Array.from({ length: boxCount(s) }, (_, k) => sim.body(`b${k}`));
  return {
    step: () => sim.step(),
    poses: (out) => handles.forEach((h, k) => { out.set(h.position, 7 * k); out.set(h.orientation, 7 * k + 3); }),
    kineticEnergy: () => sim.energy().kinetic,
    contacts: () => sim.contacts().length,
  };
}

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/** Vinculum's box pile, or why it did not run */
export function vinculumBoxpile(o: BoxpileMeasureOptions): BoxpileResult {
  try { return measureBoxpile('vinculum', '', 'auto', () => vinculumWorld(o.size), o); } catch (e) {
    const reason = `failed: ${firstLine(e)}`;
    return { engine: 'vinculum', version: '', solver: 'auto', boxes: boxCount(o.size), available: false, reason };
  }
}

/** the heap in use (MB) after a full collection (without --expose-gc: none, and noisy) at steps of one pile */
export interface HeapProbe { atStep: number[]; heapMB: number[]; growthKB: number; gcAvailable: boolean }

/** a probe that records the heap after the given steps (pass its `after` to measureBoxpile) */
export function heapProbe(steps: readonly number[]): { probe: HeapProbe; after: (s: number) => void } {
  const gc = (globalThis as { gc?: () => void }).gc;
  const probe: HeapProbe = { atStep: [], heapMB: [], growthKB: 0, gcAvailable: !!gc };
  const after = (s: number): void => {
    if (!steps.includes(s)) return;
    gc?.(); gc?.();
    probe.atStep.push(s); probe.heapMB.push(process.memoryUsage().heapUsed / 2 ** 20);
    probe.growthKB = (probe.heapMB[probe.heapMB.length - 1]! - probe.heapMB[0]!) * 1024;
  };
  return { probe, after };
}

// ---------------------------------------------------------------------------------------------
// the whole box-pile benchmark

/** options of boxpileBenchmarks */
export interface BoxpileBenchOptions {
  /** 100 steps, one world, scaling on 1000 and 4000 boxes over 40 steps: to check the script */
  quick?: boolean;
  /** worlds per measurement of the 1000-box pile (default 1) */
  runs?: number;
  /** run the peers (default true) and the scaling (default true) */
  peers?: boolean; scaling?: boolean;
  log?: (line: string) => void;
}

/** one point of the scaling: the median step time of a pile (and its end state) */
export interface ScalingPoint { engine: string; solver: string; boxes: number; result: BoxpileResult }

/** everything boxpileBenchmarks measured, ready for JSON */
export interface BoxpileReport {
  date: string; node: string; steps: number; boxpile: BoxpileResult[]; heap: HeapProbe;
  scaling: ScalingPoint[]; exponents: Record<string, Exponents>;
}

/** a fitted scaling exponent from the median step time (wall) and from the CPU time per step */
export interface Exponents { wall: number; cpu: number }

/** the peers' runs in a child process (in this one, Rapier's worlds slow Vinculum's steps: bench/peers.ts) */
function peersInChild(o: BoxpilePeerOptions): BoxpilePeerReport {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'boxpilePeers.js');
  const text = execFileSync(process.execPath, [script, JSON.stringify(o)],
    { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(text.trim().split('\n').pop()!) as BoxpilePeerReport;
}

/** one line of the report per measurement */
export function describeBoxpile(r: BoxpileResult): string {
  const head = `boxpile ${r.boxes} ${r.engine}${r.version ? ' ' + r.version : ''} ${r.solver}`;
  if (!r.available) return `${head}: ${r.reason}`;
  const p = r.penetration, e = (x: number) => x.toExponential(2), f = (x: number) => x.toFixed(3);
  const contacts = r.contacts === null ? '' : `; ${r.contacts} contacts`;
  return `${head}: ${f(r.msPerStep)} ms/step mean (median step ${f(r.medianStepMs)}, CPU ${f(r.cpuMsPerStep)}) over `
    + `${r.steps}${r.complete ? '' : ' (budget)'} steps; penetration ground ${e(p.ground)} m, box ${e(p.box)} m; `
    + `KE ${r.kineticEnergy.toExponential(3)} J; ${r.displaced} displaced${contacts}`;
}

/** the fitted exponents, against the number of boxes, of each engine's median step time and CPU time per step */
function exponents(points: readonly ScalingPoint[]): Record<string, Exponents> {
  const out: Record<string, Exponents> = {};
  for (const key of new Set(points.map((p) => `${p.engine} ${p.solver}`))) {
    const ran = points.flatMap((p) => (`${p.engine} ${p.solver}` === key && p.result.available ? [p.result] : []));
    if (ran.length < 2) continue;
    const n = ran.map((r) => r.boxes);
    const wall = fitExponent(n, ran.map((r) => r.medianStepMs)), cpu = fitExponent(n, ran.map((r) => r.cpuMsPerStep));
    out[key] = { wall, cpu };
  }
  return out;
}

/** the box pile (Vinculum, then the peers), Vinculum's heap over the run, and the scaling */
export function boxpileBenchmarks(o: BoxpileBenchOptions = {}): BoxpileReport {
  const log = o.log ?? ((s: string) => process.stdout.write(s + '\n'));
  const quick = !!o.quick, runs = o.runs ?? 1, steps = quick ? 100 : BOXPILE.steps, size = PILES[0]!;
  // Vinculum's pile, with the heap read after steps 100 and 500 of its last world (20 and 100 quick)
  const heap = heapProbe(quick ? [20, steps] : [100, steps]);
  const ours = vinculumBoxpile({ size, worlds: runs, steps, after: heap.after });
  log(describeBoxpile(ours));
  const hp = heap.probe, at = hp.heapMB.map((m, i) => `${m.toFixed(2)} MB at step ${hp.atStep[i]}`).join(', ');
  const noisy = hp.gcAvailable ? '' : ' [no --expose-gc: noisy]';
  log(`boxpile vinculum heap: ${at}; growth ${hp.growthKB.toFixed(1)} KB${noisy}`);
  // the peers, and their part of the scaling, in their own process
  const scaleSizes = quick ? PILES.slice(0, 2) : PILES, scaleSteps = quick ? 40 : 150;
  const peers = o.peers === false ? { boxpile: [], scaling: [] } : peersInChild({
    worlds: runs, steps, mujocoSeconds: quick ? 20 : 120,
    scaling: o.scaling === false ? [] : scaleSizes.map((s) => ({ size: s, steps: scaleSteps })),
  });
  peers.boxpile.forEach((r) => log(describeBoxpile(r)));
  // the scaling: Vinculum here, the peers' from the child
  const scaling: ScalingPoint[] = [];
  if (o.scaling !== false) for (const s of scaleSizes) {
    const r = vinculumBoxpile({ size: s, worlds: 1, steps: scaleSteps, warmupSteps: 10 });
    scaling.push({ engine: 'vinculum', solver: 'auto', boxes: boxCount(s), result: r });
  }
  scaling.push(...peers.scaling);
  scaling.forEach((p) => log(`scaling ${describeBoxpile(p.result)}`));
  const exps = exponents(scaling);
  for (const [k, v] of Object.entries(exps)) {
    log(`boxpile scaling exponent, ${k}: ${v.wall.toFixed(3)} (median step), ${v.cpu.toFixed(3)} (CPU time)`);
  }
  const boxpile = [ours, ...peers.boxpile];
  const date = new Date().toISOString();
  return { date, node: process.version, steps, boxpile, heap: heap.probe, scaling, exponents: exps };
}

// as a command: the report on stdout and in bench/results/boxpile-<date>.json
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2), quick = args.includes('--quick'), i = args.indexOf('--runs');
  const report = boxpileBenchmarks({
    quick, ...(i >= 0 ? { runs: Number(args[i + 1]) } : {}),
    peers: !args.includes('--no-peers'), scaling: !args.includes('--no-scaling'),
  });
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `boxpile-${report.date.slice(0, 10)}${quick ? '-quick' : ''}.json`);
  await writeTextFileAtomic(file, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`results: ${file}\n`);
}
