/**
 * The box pile (bench/boxpile.ts, issue 18 §6) in the peer engines, Rapier, MuJoCo and Jolt, built
 * from the same scene numbers and measured by the same code as Vinculum's.
 *
 * Rapier (`@dimforge/rapier3d-compat`, WebAssembly): cuboid colliders of half extent 0.5 m with
 * mass 1 kg (its inertia scaled from the shape's), the ground a half-space, friction 0.5 and
 * restitution 0 on every collider (Rapier averages both), timestep 1/60, its default solver. It
 * puts resting bodies to sleep: measured as it comes, and with sleeping off (`setCanSleep(false)`),
 * as Vinculum and MuJoCo run.
 *
 * MuJoCo (`@mujoco/mujoco`, WebAssembly): an MJCF string of free bodies with a `box` geom each
 * (size = the half extents, mass 1), the ground a `plane` geom, friction "0.5 0.005 0.0001" on
 * every geom, condim 3, timestep 1/60, its default soft contacts (so resting boxes sink in by
 * design), its default solver (Newton). On the sphere pile a Newton step of the 6000 coupled DOF
 * costs seconds (bench/contactPeers.ts), on the box pile milliseconds; a wall-time budget guards it.
 *
 * Jolt (`jolt-physics`, WebAssembly, single-threaded): `BoxShape` of half extent 0.5 m (with
 * its default convex radius 0.05 m), mass 1 kg (inertia from the shape), the ground a
 * `PlaneShape`, friction 0.5 and restitution 0 (Jolt combines frictions by the geometric mean),
 * one collision step per 1/60 s step, its default solver (10 velocity, 2 position iterations).
 * Bodies sleep by default: measured as it comes and with sleeping off (`mAllowSleeping = false`).
 *
 * Run as its own process: `node dist/bench/boxpilePeers.js '<options JSON>'` prints the results as
 * JSON on its last line (progress goes to stderr).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import RAPIER from '@dimforge/rapier3d-compat';
import loadMujoco, { type MainModule } from '@mujoco/mujoco';
import initJolt from 'jolt-physics';
import { warnIfFull } from './contactPeers.js';
import {
  BOXPILE, boxCount, boxpileCentres, cubeKineticEnergy, measureBoxpile,
  type PileSize, type BoxpileWorld, type BoxpileResult, type BoxpileMeasureOptions, type ScalingPoint,
} from './boxpile.js';

/** what the peer process runs */
export interface BoxpilePeerOptions {
  /** fresh worlds of each engine measured on the 1000-box pile (after a warm-up world) */
  worlds: number;
  /** steps per world */
  steps: number;
  /** wall-time budget of MuJoCo's world, s (a guard: its Newton steps cost seconds on the sphere pile) */
  mujocoSeconds: number;
  /** the piles of the scaling (Rapier and Jolt, sleeping off), with their steps */
  scaling: { size: PileSize; steps: number }[];
}

/** what the peer process reports */
export interface BoxpilePeerReport { boxpile: BoxpileResult[]; scaling: ScalingPoint[] }

const { half: A, mass: M, friction: MU, restitution: E } = BOXPILE;
type JoltModule = Awaited<ReturnType<typeof initJolt>>;

/** the most boxes a Jolt world of this build holds the contacts of (joltSystem) */
const JOLT_MOST_BOXES = 6000;

/** the box pile in Rapier; `sleep` false keeps every body awake */
function rapierWorld(s: PileSize, sleep: boolean): BoxpileWorld {
  const world = new RAPIER.World({ x: 0, y: 0, z: -BOXPILE.gravity });
  world.timestep = BOXPILE.step;
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
  const floor = new RAPIER.ColliderDesc(new RAPIER.HalfSpace({ x: 0, y: 0, z: 1 }));
  world.createCollider(floor.setFriction(MU).setRestitution(E), ground);
  // the boxes, in the order of boxpileCentres
  const c = boxpileCentres(s), bodies: RAPIER.RigidBody[] = [];
  for (let k = 0; k < boxCount(s); k++) {
    const desc = RAPIER.RigidBodyDesc.dynamic().setTranslation(c[3 * k]!, c[3 * k + 1]!, c[3 * k + 2]!);
    const rb = world.createRigidBody(desc.setCanSleep(sleep));
    world.createCollider(RAPIER.ColliderDesc.cuboid(A, A, A).setMass(M).setFriction(MU).setRestitution(E), rb);
    bodies.push(rb);
  }
  return {
    step: () => world.step(),
    poses: (out) => bodies.forEach((b, k) => {
      const p = b.translation(), q = b.rotation();
      out.set([p.x, p.y, p.z, q.w, q.x, q.y, q.z], 7 * k);
    }),
    kineticEnergy: () => bodies.reduce((sum, b) => {
      const v = b.linvel(), w = b.angvel();
      return sum + cubeKineticEnergy(M, A, v.x, v.y, v.z, w.x, w.y, w.z);
    }, 0),
    dispose: () => world.free(),
  };
}

/** the box pile as MJCF: free boxes b0 … b(n−1) and the ground plane, MuJoCo's default solver (Newton) */
export function mujocoBoxpileXml(s: PileSize): string {
  const c = boxpileCentres(s), bodies: string[] = [];
  for (let k = 0; k < boxCount(s); k++) {
    bodies.push(`<body name="b${k}" pos="${c[3 * k]} ${c[3 * k + 1]} ${c[3 * k + 2]}"><freejoint/>`
      + `<geom type="box" size="${A} ${A} ${A}" mass="${M}"/></body>`);
  }
  const option = `<option timestep="${BOXPILE.step}" gravity="0 0 ${-BOXPILE.gravity}"/>`;
  return `<mujoco model="boxpile">${option}<size memory="${Math.ceil(boxCount(s) / 4)}M"/>`
    + `<default><geom friction="${MU} 0.005 0.0001"/></default>`
    + `<worldbody><geom type="plane" size="0 0 1"/>${bodies.join('')}</worldbody></mujoco>`;
}

/** the box pile in MuJoCo, its default solver (Newton) */
function mujocoWorld(mj: MainModule, s: PileSize): BoxpileWorld {
  const m = mj.MjModel.from_xml_string(mujocoBoxpileXml(s)), d = new mj.MjData(m), n = boxCount(s);
  // live views into the WebAssembly memory: qpos 7 per free joint (x, quaternion), qvel 6 (v world, ω local)
  return {
    step: () => mj.mj_step(m, d),
    poses: (out) => out.set((d.qpos as Float64Array).subarray(0, 7 * n)),
    kineticEnergy: () => {
      const v = d.qvel as Float64Array;
      let sum = 0;
      for (let k = 0; k < 6 * n; k += 6) {
        sum += cubeKineticEnergy(M, A, v[k]!, v[k + 1]!, v[k + 2]!, v[k + 3]!, v[k + 4]!, v[k + 5]!);
      }
      return sum;
    },
    contacts: () => d.ncon,
    dispose: () => { warnIfFull(d.warning); d.delete(); m.delete(); },
  };
}

/**
 * Jolt's physics system for n bodies: object layer 0 static, 1 moving; static does not meet static.
 * Its contact constraints (about 470 B each) live in the 10 MB temporary allocator that this build
 * fixes, so it holds two per box up to JOLT_MOST_BOXES boxes (a stacked box touches one below).
 */
function joltSystem(J: JoltModule, n: number) {
  const settings = new J.JoltSettings();
  settings.mMaxBodies = n + 16; settings.mMaxBodyPairs = 16 * n + 1024;
  settings.mMaxContactConstraints = 2 * n + 1024;
  const pairs = new J.ObjectLayerPairFilterTable(2);
  pairs.EnableCollision(0, 1); pairs.EnableCollision(1, 1);
  const layers = new J.BroadPhaseLayerInterfaceTable(2, 2);
  for (const l of [0, 1]) layers.MapObjectToBroadPhaseLayer(l, new J.BroadPhaseLayer(l));
  settings.mObjectLayerPairFilter = pairs; settings.mBroadPhaseLayerInterface = layers;
  settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(layers, 2, pairs, 2);
  const jolt = new J.JoltInterface(settings);
  J.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  system.SetGravity(new J.Vec3(0, 0, -BOXPILE.gravity));
  return { jolt, system, bodies: system.GetBodyInterface() };
}

/** the box pile in Jolt; `sleep` false keeps every body awake */
function joltWorld(J: JoltModule, s: PileSize, sleep: boolean): BoxpileWorld {
  const n = boxCount(s), { jolt, bodies: bi } = joltSystem(J, n), added: InstanceType<JoltModule['Body']>[] = [];
  const add = (settings: InstanceType<JoltModule['BodyCreationSettings']>, activate: boolean) => {
    settings.mFriction = MU; settings.mRestitution = E;
    const b = bi.CreateBody(settings);
    J.destroy(settings);
    bi.AddBody(b.GetID(), activate ? J.EActivation_Activate : J.EActivation_DontActivate);
    added.push(b);
  };
  const identity = () => new J.Quat(0, 0, 0, 1);
  const plane = new J.PlaneShape(new J.Plane(new J.Vec3(0, 0, 1), 0), undefined, 1000);
  add(new J.BodyCreationSettings(plane, new J.RVec3(0, 0, 0), identity(), J.EMotionType_Static, 0), false);
  // the boxes, in the order of boxpileCentres, with mass 1 kg and the shape's inertia
  const box = new J.BoxShape(new J.Vec3(A, A, A)), c = boxpileCentres(s);
  for (let k = 0; k < n; k++) {
    const at = new J.RVec3(c[3 * k]!, c[3 * k + 1]!, c[3 * k + 2]!);
    const b = new J.BodyCreationSettings(box, at, identity(), J.EMotionType_Dynamic, 1);
    b.mOverrideMassProperties = J.EOverrideMassProperties_CalculateInertia;
    b.mMassPropertiesOverride.mMass = M;
    b.mAllowSleeping = sleep;
    add(b, true);
  }
  const boxes = added.slice(1);
  return {
    step: () => jolt.Step(BOXPILE.step, 1),
    poses: (out) => boxes.forEach((b, k) => {
      const p = b.GetPosition(), x = p.GetX(), y = p.GetY(), z = p.GetZ(), q = b.GetRotation();
      out.set([x, y, z, q.GetW(), q.GetX(), q.GetY(), q.GetZ()], 7 * k);
    }),
    kineticEnergy: () => boxes.reduce((sum, b) => {
      const v = b.GetLinearVelocity(), vx = v.GetX(), vy = v.GetY(), vz = v.GetZ(), w = b.GetAngularVelocity();
      return sum + cubeKineticEnergy(M, A, vx, vy, vz, w.GetX(), w.GetY(), w.GetZ());
    }, 0),
    dispose: () => {
      for (const b of added) { bi.RemoveBody(b.GetID()); bi.DestroyBody(b.GetID()); }
      J.destroy(jolt);
    },
  };
}

/** a short line on stderr per measurement (the parent process reports them in full) */
function progress(r: BoxpileResult): void {
  const what = r.available ? `${r.msPerStep.toFixed(2)} ms/step over ${r.steps} steps` : r.reason;
  process.stderr.write(`  ${r.boxes} boxes, ${r.engine} ${r.solver}: ${what}\n`);
}

/** the installed version of an npm package, from its package.json */
function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name) return pkg.version ?? '';
    } catch { /* not this folder */ }
  }
  return '';
}

/** the box pile in Rapier and Jolt (sleeping on, then off) and MuJoCo; then the scaling */
export async function boxpilePeers(o: BoxpilePeerOptions): Promise<BoxpilePeerReport> {
  const size = { nx: 10, ny: 10, layers: 10 }, boxpile: BoxpileResult[] = [], scaling: ScalingPoint[] = [];
  const add = (r: BoxpileResult): void => { progress(r); boxpile.push(r); };
  const m = (extra: Partial<BoxpileMeasureOptions> = {}): BoxpileMeasureOptions =>
    ({ size, worlds: o.worlds, steps: o.steps, ...extra });
  const asleep = 'resting bodies fall asleep: their steps cost next to nothing, their velocities are zero';
  // Rapier and Jolt as they come, then with every body awake
  await RAPIER.init();
  const J = await initJolt(), rv = RAPIER.version(), jv = packageVersion('jolt-physics');
  const rapier = (s: PileSize, sleep: boolean) => () => rapierWorld(s, sleep);
  const jolt = (s: PileSize, sleep: boolean) => () => joltWorld(J, s, sleep);
  add({ ...measureBoxpile('rapier3d-compat', rv, 'default (sleeping on)', rapier(size, true), m()), note: asleep });
  add(measureBoxpile('rapier3d-compat', rv, 'default, sleeping off', rapier(size, false), m()));
  add({ ...measureBoxpile('jolt', jv, 'default (sleeping on)', jolt(size, true), m()), note: asleep });
  add(measureBoxpile('jolt', jv, 'default, sleeping off', jolt(size, false), m()));
  // MuJoCo with its default solver, Newton, one world under a wall-time budget
  const mj = await loadMujoco(), mv = mj.mj_versionString();
  const budget = m({ worlds: 1, maxSeconds: o.mujocoSeconds });
  add(measureBoxpile('mujoco', mv, 'Newton (default)', () => mujocoWorld(mj, size), budget));
  // the scaling, every body awake, one world each
  for (const { size: s, steps } of o.scaling) {
    const one = { size: s, worlds: 1, steps, warmupSteps: 10 };
    scaling.push({ engine: 'rapier3d-compat', solver: 'sleeping off', boxes: boxCount(s),
      result: measureBoxpile('rapier3d-compat', rv, 'sleeping off', rapier(s, false), one) });
    const tooMany = `not available: its 10 MB temporary allocator holds the contacts of ${JOLT_MOST_BOXES} boxes`;
    scaling.push({ engine: 'jolt', solver: 'sleeping off', boxes: boxCount(s), result: boxCount(s) > JOLT_MOST_BOXES
      ? { engine: 'jolt', version: jv, solver: 'sleeping off', boxes: boxCount(s), available: false, reason: tooMany }
      : measureBoxpile('jolt', jv, 'sleeping off', jolt(s, false), one) });
    for (const p of scaling.slice(-2)) progress(p.result);
  }
  return { boxpile, scaling };
}

// as a process of its own: the options as JSON in argv[2], the results as JSON on the last line of stdout
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const o = JSON.parse(process.argv[2] ?? '{}') as Partial<BoxpilePeerOptions>;
  const worlds = o.worlds ?? 1;
  if (!(Number.isInteger(worlds) && worlds >= 1)) {
    throw new Error(`boxpilePeers.js: worlds must be a positive integer (got ${worlds})`);
  }
  const steps = o.steps ?? BOXPILE.steps, mujocoSeconds = o.mujocoSeconds ?? 120;
  const report = await boxpilePeers({ worlds, steps, mujocoSeconds, scaling: o.scaling ?? [] });
  process.stdout.write('\n' + JSON.stringify(report) + '\n');
}
