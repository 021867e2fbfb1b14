/**
 * The spherepile (bench/spherepile.ts, issue 17 §7) in the peer engines, Rapier and MuJoCo, built
 * from the same scene numbers and measured by the same code as Vinculum's.
 *
 * Rapier (`@dimforge/rapier3d-compat`, WebAssembly): balls with mass 0.1 kg (inertia 2/5 m r²),
 * the five planes as half-spaces (`HalfSpace`, outward normal = the free side), friction 0.5 and
 * restitution 0 on every collider (Rapier averages both by default), timestep 1/60, its default
 * solver (4 iterations). Rapier puts resting bodies to sleep: it is measured as it comes, and again
 * with sleeping off (`setCanSleep(false)`), which is what Vinculum and MuJoCo do.
 *
 * MuJoCo (`@mujoco/mujoco`, WebAssembly): an MJCF string with each sphere a free body, the planes
 * as `plane` geoms (a MuJoCo plane is a half-space too), friction "0.5 0.005 0.0001" on every geom
 * (MuJoCo takes the maximum of the two), condim 3, timestep 1/60. MuJoCo has no restitution: its
 * contacts are soft, with the default solref (0.02 s, damping ratio 1; the time constant is
 * raised to 2h = 0.033 s at this step) and solimp, so resting spheres sink in by design. Its
 * default solver is Newton; on this scene (6000 DOF, ~3000 contacts, one island) a Newton step
 * costs seconds once the layers touch (each iteration factors the 6000 × 6000 Hessian that the
 * contacts couple; not investigated further), so it is probed under a time budget, and the full
 * runs use CG (and PGS), MuJoCo's other solvers.
 *
 * Run as its own process, as bench/peers.ts: `node dist/bench/contactPeers.js '<options JSON>'`
 * prints the results as JSON on its last line (progress goes to stderr).
 */
import { fileURLToPath } from 'node:url';
import RAPIER from '@dimforge/rapier3d-compat';
import loadMujoco, { type MainModule } from '@mujoco/mujoco';
import {
  SPHEREPILE, SPHEREPILE_PLANES, spherepileCentres, planeOrientation, sphereKineticEnergy, measureSpherepile,
  type SpherepileWorld, type SpherepileResult, type MeasureOptions,
} from './spherepile.js';

export type MujocoSolver = 'Newton' | 'CG' | 'PGS';

/** what the peer process runs */
export interface PeerOptions {
  /** fresh Rapier worlds measured (after a warm-up world) */
  worlds: number;
  /** fresh MuJoCo worlds per full-run solver (its steps are slow: default 1) */
  mujocoWorlds?: number;
  /** MuJoCo solvers run over the whole scene (default ['CG']) */
  mujocoSolvers?: MujocoSolver[];
  /** wall-time budget of the Newton probe, s (default 60; 0 skips it) */
  newtonSeconds?: number;
  /** steps per world (default 500) */
  steps?: number;
}

const { radius: R, mass: M, friction: MU, restitution: E } = SPHEREPILE;
const COUNT = SPHEREPILE.perSide ** 3;

/** the spherepile in Rapier; `sleep` false keeps every body awake */
function rapierWorld(sleep: boolean): SpherepileWorld {
  const world = new RAPIER.World({ x: 0, y: 0, z: -SPHEREPILE.gravity });
  world.timestep = SPHEREPILE.step;
  // the box: five half-spaces on one fixed body
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
  for (const { point: p, normal: n } of SPHEREPILE_PLANES) {
    const desc = new RAPIER.ColliderDesc(new RAPIER.HalfSpace({ x: n[0], y: n[1], z: n[2] }));
    world.createCollider(desc.setTranslation(p[0], p[1], p[2]).setFriction(MU).setRestitution(E), ground);
  }
  // the spheres, in the order of spherepileCentres
  const c = spherepileCentres(), bodies: RAPIER.RigidBody[] = [];
  for (let k = 0; k < COUNT; k++) {
    const desc = RAPIER.RigidBodyDesc.dynamic().setTranslation(c[3 * k]!, c[3 * k + 1]!, c[3 * k + 2]!);
    const rb = world.createRigidBody(desc.setCanSleep(sleep));
    world.createCollider(RAPIER.ColliderDesc.ball(R).setMass(M).setFriction(MU).setRestitution(E), rb);
    bodies.push(rb);
  }
  const energy = (b: RAPIER.RigidBody): number => {
    const v = b.linvel(), w = b.angvel();
    return sphereKineticEnergy(M, R, v.x, v.y, v.z, w.x, w.y, w.z);
  };
  return {
    step: () => world.step(),
    centres: (out) => bodies.forEach((b, k) => { const p = b.translation(); out.set([p.x, p.y, p.z], 3 * k); }),
    kineticEnergy: () => bodies.reduce((s, b) => s + energy(b), 0),
    dispose: () => world.free(),
  };
}

/** the spherepile as MJCF: free spheres s0 … s999, five planes, friction 0.5; Newton (the default) left implicit */
export function mujocoSpherepileXml(solver: MujocoSolver = 'Newton'): string {
  const c = spherepileCentres(), planes: string[] = [], bodies: string[] = [];
  // a MuJoCo plane of size 0 is infinite, and collides as the half-space below it
  for (const { point: p, normal: n } of SPHEREPILE_PLANES) {
    planes.push(`<geom type="plane" size="0 0 1" pos="${p.join(' ')}" quat="${planeOrientation(n).join(' ')}"/>`);
  }
  for (let k = 0; k < COUNT; k++) {
    const sphere = `<freejoint/><geom type="sphere" size="${R}" mass="${M}"/>`;
    bodies.push(`<body name="s${k}" pos="${c[3 * k]} ${c[3 * k + 1]} ${c[3 * k + 2]}">${sphere}</body>`);
  }
  const solverAttribute = solver === 'Newton' ? '' : ` solver="${solver}"`;
  const option = `<option timestep="${SPHEREPILE.step}" gravity="0 0 ${-SPHEREPILE.gravity}"${solverAttribute}/>`;
  return `<mujoco model="spherepile">${option}<default><geom friction="${MU} 0.005 0.0001"/></default>`
    + `<worldbody>${planes.join('')}${bodies.join('')}</worldbody></mujoco>`;
}

/** the spherepile in MuJoCo under a solver */
function mujocoWorld(mj: MainModule, solver: MujocoSolver): SpherepileWorld {
  const m = mj.MjModel.from_xml_string(mujocoSpherepileXml(solver)), d = new mj.MjData(m);
  // live views into the WebAssembly memory: qpos 7 per free joint (x, quaternion), qvel 6 (v world, ω local)
  const view = (): { q: Float64Array; v: Float64Array } => ({ q: d.qpos as Float64Array, v: d.qvel as Float64Array });
  return {
    step: () => mj.mj_step(m, d),
    centres: (out) => {
      const { q } = view();
      for (let k = 0; k < COUNT; k++) out.set(q.subarray(7 * k, 7 * k + 3), 3 * k);
    },
    kineticEnergy: () => {
      const { v } = view();
      let s = 0;
      for (let k = 0; k < 6 * COUNT; k += 6) {
        s += sphereKineticEnergy(M, R, v[k]!, v[k + 1]!, v[k + 2]!, v[k + 3]!, v[k + 4]!, v[k + 5]!);
      }
      return s;
    },
    contacts: () => d.ncon,
    dispose: () => { warnIfFull(d.warning); d.delete(); m.delete(); },
  };
}

/** MuJoCo counts, not throws, when its contact or constraint buffers fill: say so on stderr */
export function warnIfFull(w: { size(): number; get(i: number): { number: number } | undefined }): void {
  for (let i = 0; i < w.size(); i++) {
    const n = w.get(i)?.number ?? 0;
    if (n > 0) process.stderr.write(`mujoco: warning ${i} (mjtWarning) raised ${n} times\n`);
  }
}

/** a line on stderr per measurement, since the whole run takes minutes */
function progress(r: SpherepileResult): void {
  const what = r.available ? `${r.msPerStep.toFixed(2)} ms/step over ${r.steps} steps` : r.reason;
  process.stderr.write(`  ${r.engine} ${r.solver}: ${what}\n`);
}

/** the spherepile in Rapier (sleeping on, then off) and MuJoCo (the Newton probe, then the full-run solvers) */
export async function spherepilePeers(o: PeerOptions): Promise<SpherepileResult[]> {
  const steps = o.steps ?? SPHEREPILE.steps, out: SpherepileResult[] = [];
  const add = (r: SpherepileResult): void => { progress(r); out.push(r); };
  // Rapier as it comes, then with every body awake
  await RAPIER.init();
  const rapier = (sleep: boolean, solver: string) =>
    measureSpherepile('rapier3d-compat', RAPIER.version(), solver, () => rapierWorld(sleep), { worlds: o.worlds, steps });
  const asleep = 'resting bodies fall asleep: their steps cost next to nothing, their velocities are zero';
  add({ ...rapier(true, 'default (sleeping on)'), note: asleep });
  add(rapier(false, 'default, sleeping off'));
  // MuJoCo: its default Newton solver under a time budget, then the full runs
  const mj = await loadMujoco(), version = mj.mj_versionString(), newton = o.newtonSeconds ?? 60;
  const mujoco = (s: MujocoSolver, m: Omit<MeasureOptions, 'steps'>) =>
    measureSpherepile('mujoco', version, s, () => mujocoWorld(mj, s), { steps, ...m });
  if (newton > 0) {
    const probe = mujoco('Newton', { worlds: 1, warmupSteps: 0, maxSeconds: newton });
    add({ ...probe, solver: 'Newton (default)', note: `probe: stopped after ${newton} s of wall time` });
  }
  for (const s of o.mujocoSolvers ?? ['CG']) add(mujoco(s, { worlds: o.mujocoWorlds ?? 1 }));
  return out;
}

// as a process of its own: the options as JSON in argv[2], the results as JSON on the last line of stdout
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const o = JSON.parse(process.argv[2] ?? '{"worlds": 3}') as PeerOptions;
  if (!(Number.isInteger(o.worlds) && o.worlds >= 1)) {
    throw new Error(`contactPeers.js: worlds must be a positive integer (got ${o.worlds})`);
  }
  process.stdout.write('\n' + JSON.stringify(await spherepilePeers(o)) + '\n');
}
