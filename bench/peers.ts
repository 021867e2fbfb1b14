/**
 * chain100 in the peer engines, Rapier and cannon-es, measured in the same run as vinculum's so
 * that the ratios are fair. The scene is the one of `chainOfBodies(100)`: 100 boxes
 * 0.1 × 0.02 × 0.02 m of 0.1 kg, end to end on ball joints, the first pinned to the world at the
 * origin, released horizontal under gravity 9.81 m/s² along −z, h = 1/240 s, 1000 steps, no
 * contact and no damping. Each engine is used with its default solver settings (Rapier: its
 * default solver iterations; cannon-es: 10 Gauss-Seidel iterations).
 *
 * Run as its own process (`node dist/bench/peers.js <runs>` prints the results as JSON; bench/run.ts
 * does that): in the benchmark's process, Rapier's worlds make vinculum's later steps slower (the
 * 100-link chain's by 12-18%, 0.343 → 0.405 ms; the 1000-link chain's by 11%; the 10 000-link
 * chain's by about 5%), so the engines run in processes of their own.
 *
 * Reported like vinculum's chain100: the wall time of 1000 steps divided by 1000, median over
 * `runs` fresh worlds after one warm-up world, and the largest separation of any joint's two
 * anchor points, sampled every 10 steps of the first run outside the timed part.
 */
import { performance } from 'node:perf_hooks';
import RAPIER from '@dimforge/rapier3d-compat';
import * as CANNON from 'cannon-es';
import { fileURLToPath } from 'node:url';
import { quatRotate } from '../src/math/quat.js';
import { median } from './stats.js';

export interface PeerChain100 { engine: string; version: string; msPerStep: number; maxJointSeparation: number }

const N = 100, L = 0.1, M = 0.1, W = 0.02, H = 1 / 240, STEPS = 1000;
// box inertia about its centre: m/12 (b² + c²) per axis
const INERTIA = [M / 12 * (W * W + W * W), M / 12 * (L * L + W * W), M / 12 * (L * L + W * W)] as const;


/** largest distance between the two anchors of any joint; pose(i) gives body i's centre and orientation */
function separation(pose: (i: number) => { p: { x: number; y: number; z: number }; q: { w: number; x: number; y: number; z: number } }): number {
  const q = new Float64Array(4), a = new Float64Array(3), b = new Float64Array(3), prev = new Float64Array(3);   // prev: the world anchor at the origin
  const left = Float64Array.of(-L / 2, 0, 0), right = Float64Array.of(L / 2, 0, 0);
  let worst = 0;
  for (let i = 0; i < N; i++) {
    const { p, q: r } = pose(i);
    q[0] = r.w; q[1] = r.x; q[2] = r.y; q[3] = r.z;
    quatRotate(a, q, left);
    quatRotate(b, q, right);
    worst = Math.max(worst, Math.hypot(p.x + a[0]! - prev[0]!, p.y + a[1]! - prev[1]!, p.z + a[2]! - prev[2]!));
    prev[0] = p.x + b[0]!; prev[1] = p.y + b[1]!; prev[2] = p.z + b[2]!;
  }
  return worst;
}

/** one world of an engine: step() and pose(i) */
interface PeerWorld { step(): void; pose(i: number): { p: { x: number; y: number; z: number }; q: { w: number; x: number; y: number; z: number } } }

function rapierWorld(): PeerWorld {
  const world = new RAPIER.World({ x: 0, y: 0, z: -9.81 });
  world.timestep = H;
  const bodies: RAPIER.RigidBody[] = [];
  for (let i = 0; i < N; i++) {
    const rb = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation((i + 0.5) * L, 0, 0));
    rb.setAdditionalMassProperties(M, { x: 0, y: 0, z: 0 }, { x: INERTIA[0], y: INERTIA[1], z: INERTIA[2] }, { w: 1, x: 0, y: 0, z: 0 }, true);
    bodies.push(rb);
  }
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
  world.createImpulseJoint(RAPIER.JointData.spherical({ x: 0, y: 0, z: 0 }, { x: -L / 2, y: 0, z: 0 }), ground, bodies[0]!, true);
  for (let i = 1; i < N; i++) world.createImpulseJoint(RAPIER.JointData.spherical({ x: L / 2, y: 0, z: 0 }, { x: -L / 2, y: 0, z: 0 }), bodies[i - 1]!, bodies[i]!, true);
  return { step: () => world.step(), pose: (i) => ({ p: bodies[i]!.translation(), q: bodies[i]!.rotation() }) };
}

function cannonWorld(): PeerWorld {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, -9.81) });
  const bodies: CANNON.Body[] = [];
  for (let i = 0; i < N; i++) {
    // the box shape gives the same inertia; collisions off (the chain100 scene has no contact)
    const b = new CANNON.Body({ mass: M, position: new CANNON.Vec3((i + 0.5) * L, 0, 0), shape: new CANNON.Box(new CANNON.Vec3(L / 2, W / 2, W / 2)), linearDamping: 0, angularDamping: 0 });
    b.collisionFilterGroup = 0;
    b.collisionFilterMask = 0;
    world.addBody(b);
    bodies.push(b);
  }
  const anchor = new CANNON.Body({ mass: 0 });
  world.addBody(anchor);
  world.addConstraint(new CANNON.PointToPointConstraint(anchor, new CANNON.Vec3(0, 0, 0), bodies[0]!, new CANNON.Vec3(-L / 2, 0, 0)));
  for (let i = 1; i < N; i++) world.addConstraint(new CANNON.PointToPointConstraint(bodies[i - 1]!, new CANNON.Vec3(L / 2, 0, 0), bodies[i]!, new CANNON.Vec3(-L / 2, 0, 0)));
  return { step: () => world.step(H), pose: (i) => ({ p: bodies[i]!.position, q: bodies[i]!.quaternion }) };
}

function measure(engine: string, version: string, make: () => PeerWorld, runs: number): PeerChain100 {
  let worst = 0;
  const times: number[] = [];
  for (let r = -1; r < runs; r++) {
    const w = make();
    let t = 0;
    for (let s = 0; s < STEPS; s++) {
      const t0 = performance.now();
      w.step();
      t += performance.now() - t0;
      if (r === 0 && s % 10 === 9) worst = Math.max(worst, separation(w.pose));
    }
    // run −1 warms the engine up and is not counted
    if (r >= 0) times.push(t / STEPS);
  }
  return { engine, version, msPerStep: median(times), maxJointSeparation: worst };
}

/** chain100 in Rapier (WASM) and cannon-es */
export async function peerChain100(runs: number): Promise<PeerChain100[]> {
  await RAPIER.init();
  return [measure('rapier3d-compat', RAPIER.version(), rapierWorld, runs), measure('cannon-es', '0.20', cannonWorld, runs)];
}

// as a process of its own: the results of `runs` runs as JSON on stdout
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 5);
  if (!(Number.isInteger(runs) && runs >= 1)) throw new Error(`peers.js: runs must be a positive integer (got ${process.argv[2]})`);
  process.stdout.write(JSON.stringify(await peerChain100(runs)) + '\n');
}
