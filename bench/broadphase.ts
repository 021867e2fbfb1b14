/**
 * The broadphase measured alone (issue 18 §2): sweep and prune against the dynamic AABB tree on the
 * scenes that separate them, each moving from update to update.
 *
 *   pile n       n cubes (half extent 0.5 m) in columns 10 high on a ground plane, 1.1 m apart, each
 *                resting on the one below, every box jittered about its rest pose at each update
 *                (±2 mm, ±0.005 rad): the dense scene, n = 1000 (10 × 10), 4000 (20 × 20), 16000 (40 × 40)
 *   settle n     the same pile with every box drifting by a random walk of 2 cm per update
 *   spread n     n spheres (radius 0.2 to 2 m) in a 1 km cube at speeds up to 20 m/s, bouncing off its
 *                walls, h = 1/60 s, margin h · 20 m/s: the sparse scene
 *   teleport n   the spread scene with 1% of the spheres moved to random places at each update
 *   mesh n       the pile on a static 200 m × 200 m triangle mesh instead of the ground plane
 *
 * Then the share of the broadphase in `Collider.collide` on the pile of 1000 (the narrowphase's
 * time is collide's less the tree's; the sweep's share is what it would be in its place).
 *
 * Each broadphase runs 40 updates of warm-up, then `updates` timed updates (the poses are computed
 * outside the timing): the median wall ms per update and the mean CPU ms per update (the process's,
 * so the collector's and compiler's threads count; the machine may be shared, and then the wall
 * time is the noisier), the pairs, the bytes allocated per update in a second, untimed run (less
 * what the scene's own motion allocates, measured with a broadphase that does nothing) and the heap
 * growth after a collection (needs --expose-gc).
 *
 * With `--heap n`, the tree alone runs n updates of each scene after as many of warm-up: the heap
 * used just after each update less just before it (median and mean; updates during which a
 * collection ran are left out; reading the heap alone is measured first) and the heap's growth
 * over the run.
 *
 *   node --expose-gc dist/bench/broadphase.js [--quick] [--updates n] [--only prefix] [--heap n]
 */
import { performance } from 'node:perf_hooks';
import { ShapeTable, type ShapeDesc } from '../src/collision/shapes.js';
import { Broadphase } from '../src/collision/broadphase.js';
import { SweepAndPrune } from './sweepAndPrune.js';
import { Collider } from '../src/collision/collide.js';
import { ContactSet } from '../src/contact/contactSet.js';
import type { TriMeshData } from '../src/collision/geometry.js';
import { median } from './stats.js';

const MAT = { friction: 0.5, restitution: 0, compliance: 0, damping: 0 };

interface Scene {
  name: string;
  shapes: ShapeDesc[];
  q: Float64Array;
  margin: number;
  /** moves the scene to its next poses */
  advance(): void;
}

interface Broad { update(): void; pairCount: number }

/** a deterministic generator in [0, 1), its state in a typed array so that drawing allocates nothing */
function rng(seed: number): () => number {
  const x = Uint32Array.of(seed >>> 0 || 1);
  return () => {
    x[0] ^= x[0]! << 13; x[0] ^= x[0]! >>> 17; x[0] ^= x[0]! << 5;
    return x[0]! / 2 ** 32;
  };
}

function body(kind: 'box' | 'sphere', k: number, params: number[]): ShapeDesc {
  return {
    kind, component: k, qOffset: 7 * k, isBody: true, params, position: [0, 0, 0], orientation: [1, 0, 0, 0],
    material: MAT, collide: true, name: `${kind}${k}`,
  };
}

/** a small rotation about a random axis, as [w, x, y, z] written at q[o + 3] */
function tilt(q: Float64Array, o: number, angle: number, r: () => number): void {
  const x = r() - 0.5, y = r() - 0.5, z = r() - 0.5, s = Math.sin(angle / 2) / (Math.hypot(x, y, z) || 1);
  q[o + 3] = Math.cos(angle / 2); q[o + 4] = s * x; q[o + 5] = s * y; q[o + 6] = s * z;
}

/** the box pile: columns of 10 on the ground, every box about its rest pose (jitter) or drifting */
function pile(n: number, drift: number, mesh = false): Scene {
  const side = Math.round(Math.sqrt(n / 10)), r = rng(7), rest = new Float64Array(3 * n);
  const shapes: ShapeDesc[] = [{
    kind: mesh ? 'mesh' : 'plane', component: -1, qOffset: -1, isBody: false, params: [], position: [0, 0, 0],
    orientation: [1, 0, 0, 0], material: MAT, collide: true, name: 'ground', ...(mesh ? { geometry: floorMesh(100) } : {}),
  }];
  for (let k = 0; k < n; k++) {
    const col = Math.floor(k / 10), lev = k % 10;
    rest.set([1.1 * (col % side), 1.1 * Math.floor(col / side), 0.5 + lev], 3 * k);
    shapes.push(body('box', k, [0.5, 0.5, 0.5]));
  }
  const q = new Float64Array(7 * n);
  const advance = (): void => {
    for (let k = 0; k < n; k++) {
      const o = 7 * k;
      if (drift > 0) for (let c = 0; c < 3; c++) rest[3 * k + c] = rest[3 * k + c]! + drift * (r() - 0.5);
      for (let c = 0; c < 3; c++) q[o + c] = rest[3 * k + c]! + 0.004 * (r() - 0.5);
      tilt(q, o, 0.01 * (r() - 0.5), r);
    }
  };
  advance();
  return { name: `${mesh ? 'mesh' : drift > 0 ? 'settle' : 'pile'} ${n}`, shapes, q, margin: 0.02, advance };
}

/** a flat square of half width w at z = 0, two triangles */
function floorMesh(w: number): TriMeshData {
  return {
    type: 'mesh', vertexCount: 4, vertices: new Float64Array([-w, -w, 0, w, -w, 0, w, w, 0, -w, w, 0]),
    triangleCount: 2, triangles: new Int32Array([0, 1, 2, 0, 2, 3]), triangleNormals: new Float64Array([0, 0, 1, 0, 0, 1]),
    closed: false, boxCenter: new Float64Array([0, 0, 0]), boxHalf: new Float64Array([w, w, 0]), radius: w * Math.SQRT2,
  };
}

/** spheres flying in a 1 km cube, bouncing off its walls; a fraction teleported at each update */
function spread(n: number, teleport: number): Scene {
  const r = rng(11), h = 1 / 60, L = 1000, vmax = 20, v = new Float64Array(3 * n), q = new Float64Array(7 * n);
  const shapes: ShapeDesc[] = [];
  for (let k = 0; k < n; k++) {
    shapes.push(body('sphere', k, [0.2 + 1.8 * r()]));
    q.set([L * r(), L * r(), L * r(), 1, 0, 0, 0], 7 * k);
    const s = vmax * r(), a = [r() - 0.5, r() - 0.5, r() - 0.5], m = Math.hypot(a[0]!, a[1]!, a[2]!) || 1;
    for (let c = 0; c < 3; c++) v[3 * k + c] = (s * a[c]!) / m;
  }
  const advance = (): void => {
    for (let k = 0; k < n; k++) {
      for (let c = 0; c < 3; c++) {
        const o = 7 * k + c;
        q[o] = q[o]! + h * v[3 * k + c]!;
        if (q[o]! < 0 || q[o]! > L) v[3 * k + c] = -v[3 * k + c]!;
      }
      if (teleport > 0 && r() < teleport) q.set([L * r(), L * r(), L * r()], 7 * k);
    }
  };
  return { name: `${teleport > 0 ? 'teleport' : 'spread'} ${n}`, shapes, q, margin: h * vmax, advance };
}

/**
 * median wall ms per update, CPU ms per update (the mean; the machine may be shared), pairs, bytes
 * allocated per update over the timed updates and heap growth after a collection
 */
function measure(scene: Scene, make: (t: ShapeTable) => Broad, updates: number): number[] {
  const t = new ShapeTable(scene.shapes, scene.margin), bp = make(t), gc = (globalThis as { gc?: () => void }).gc;
  const q0 = Float64Array.from(scene.q);
  for (let k = 0; k < 40; k++) { scene.advance(); t.updatePoses(scene.q); bp.update(); }
  const times = new Float64Array(updates);
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let cpu = 0;
  for (let k = 0; k < updates; k++) {
    scene.advance(); t.updatePoses(scene.q);
    const c0 = process.cpuUsage(), t0 = performance.now();
    bp.update();
    times[k] = performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu += c.user + c.system;
  }
  // allocation: a second run without the timing calls, which allocate themselves
  gc?.();
  const start = process.memoryUsage().heapUsed;
  for (let k = 0; k < updates; k++) { scene.advance(); t.updatePoses(scene.q); bp.update(); }
  const allocated = process.memoryUsage().heapUsed - start;
  gc?.();
  const growth = process.memoryUsage().heapUsed - before;
  scene.q.set(q0);
  return [median(Array.from(times)), cpu / 1000 / updates, bp.pairCount, allocated / updates, growth];
}

function main(): void {
  const args = process.argv.slice(2), quick = args.includes('--quick');
  const at = args.indexOf('--updates'), updates = at >= 0 ? Number(args[at + 1]) : quick ? 30 : 200;
  const sizes = quick ? [1000, 4000] : [1000, 4000, 16000], at2 = args.indexOf('--only');
  const only = at2 >= 0 ? args[at2 + 1]! : '';
  const scenes: (() => Scene)[] = [
    ...sizes.map((n) => () => pile(n, 0)), ...sizes.map((n) => () => pile(n, 0.02)),
    () => spread(5000, 0), () => spread(20000, 0), () => spread(5000, 0.01), () => pile(4000, 0, true),
  ];
  // the scene's own motion and the timing allocate too: a broadphase that does nothing gives the baseline
  const none: Broad = { pairCount: 0, update: () => undefined };
  const heap = args.indexOf('--heap');
  if (heap >= 0) { heapRun(scenes, Number(args[heap + 1])); return; }
  const kinds: [string, (t: ShapeTable) => Broad][] = [['sap', (t) => new SweepAndPrune(t)], ['tree', (t) => new Broadphase(t)]];
  console.log('scene            broadphase  ms/update  cpu ms/update   pairs   alloc B/update  heap growth B');
  for (const makeScene of scenes) {
    if (only && !makeScene().name.startsWith(only)) continue;
    const base = measure(makeScene(), () => none, updates)[3]!;
    for (const [name, make] of kinds) {
      const scene = makeScene(), [ms, cpu, pairs, alloc, growth] = measure(scene, make, updates);
      const row = [scene.name.padEnd(16), name.padEnd(10), ms!.toFixed(3).padStart(10), cpu!.toFixed(3).padStart(14),
        String(pairs).padStart(7), Math.max(0, alloc! - base).toFixed(0).padStart(16), String(growth).padStart(14)];
      console.log(row.join(' '));
    }
  }
  if (!only) collideShare(updates);
}

/** median ms of collide() on the pile of 1000, of the tree's update and of the sweep's, at the same poses */
function collideShare(updates: number): void {
  const scene = pile(1000, 0), collider = new Collider(scene.shapes, scene.margin), out = new ContactSet(64);
  const sap = new SweepAndPrune(collider.shapes), whole: number[] = [], tree: number[] = [], sweep: number[] = [];
  for (let k = 0; k < 40 + updates; k++) {
    scene.advance();
    const t0 = performance.now();
    collider.collide(scene.q, out);
    const t1 = performance.now();
    collider.broadphase.update();
    const t2 = performance.now();
    sap.update();
    const t3 = performance.now();
    if (k >= 40) { whole.push(t1 - t0); tree.push(t2 - t1); sweep.push(t3 - t2); }
  }
  const c = median(whole), tr = median(tree), sw = median(sweep), rest = c - tr;
  console.log(`\ncollide() on pile 1000: ${c.toFixed(3)} ms with the tree (${out.count} contacts); tree ${tr.toFixed(3)} ms`
    + ` = ${((100 * tr) / c).toFixed(0)}%; sweep ${sw.toFixed(3)} ms = ${((100 * sw) / (rest + sw)).toFixed(0)}% in its place`);
}

/** the heap used now, bytes */
const heapUsed = (): number => process.memoryUsage().heapUsed;

/**
 * the tree alone, n updates per scene: the heap used after each update less before it (which
 * includes reading the heap: that alone is measured first) and the heap's growth after a collection
 */
function heapRun(scenes: (() => Scene)[], n: number): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run node with --expose-gc');
  const cost: number[] = [];
  for (let k = 0; k < 1000; k++) { const h = heapUsed(); cost.push(heapUsed() - h); }
  const read = median(cost);
  console.log(`heap used around each update, B (reading it alone: ${read} B; a collection's updates left out)`);
  console.log('scene            updates          median            mean  heap growth B');
  let first = true;
  // the first scene runs twice: its first run compiles the measuring loop and is not reported
  for (const makeScene of [scenes[0]!, ...scenes]) {
    const scene = makeScene(), t = new ShapeTable(scene.shapes, scene.margin), bp = new Broadphase(t);
    for (let k = 0; k < n; k++) { scene.advance(); t.updatePoses(scene.q); bp.update(); }
    gc();
    const start = heapUsed();
    const deltas: number[] = [];
    for (let k = 0; k < n; k++) {
      scene.advance(); t.updatePoses(scene.q);
      const h = heapUsed();
      bp.update();
      const d = heapUsed() - h;
      if (d >= 0) deltas.push(d);
    }
    gc();
    const growth = heapUsed() - start;
    const mean = deltas.reduce((a, b) => a + b, 0) / deltas.length;
    if (makeScene === scenes[0] && first) { first = false; continue; }
    console.log([scene.name.padEnd(16), String(n).padStart(7), String(median(deltas)).padStart(15),
      mean.toFixed(1).padStart(15), String(growth).padStart(14)].join(' '));
  }
}

main();
