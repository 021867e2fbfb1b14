/**
 * The quantities a run can record, by group (docs/cli.md, `vinculum run --outputs`; the viewer's
 * plots list the same columns): velocities, marker
 * positions, joint coordinates and rates, joint reactions, spring readouts, energies and contacts.
 * They are read through the simulation's handles (`sim.body(name)`, `sim.joint(name)`,
 * `sim.force(name)`, `sim.energy()`), created once per run, and its contact readouts
 * (`sim.contacts()`, `sim.contactSolve`; docs/contact.md, "Reported results"). The contacts group
 * also gives JSONL rows a `contacts` array, each contact's shapes, features, point, normal, gap and
 * forces.
 */
import type { Simulation } from '../simulation.js';
import type { BodyHandle, ParticleHandle, JointHandle, ForceHandle } from './handles.js';
import type { ContactReport } from './contacts.js';
import type { Vec3Tuple } from '../model/model.js';
import { Joint } from '../constraints/joint.js';
import { PathSpring } from '../forces/pathSpring.js';
import { FrameSpring } from '../forces/frameSpring.js';

/** the groups of `--outputs`, in the order their columns follow the positions */
export const OUTPUT_GROUPS = [
  'velocities', 'markers', 'joints', 'forces', 'springs', 'energy', 'contacts',
] as const;
/** a group of `--outputs` */
export type OutputGroup = (typeof OUTPUT_GROUPS)[number];

/** a wrench's columns: the force (world, N), then the torque (world, N·m) */
export const WRENCH_COLUMNS = ['fx', 'fy', 'fz', 'mx', 'my', 'mz'] as const;

/** the `--outputs` columns of a run: their names, and their values at each recorded row */
export interface OutputColumns {
  /** the column names, in the order `values` appends them */
  readonly columns: readonly string[];
  /** warnings met while recording (singular joint coordinates), each once, appended as they occur */
  readonly warnings: readonly string[];
  /** appends the values at the simulation's state to `out`; `started`: a step has run */
  values(sim: Simulation, started: boolean, out: number[]): void;
  /**
   * the JSONL fields beyond the columns, of the row `values` just read, as text to append inside
   * the row's object (`,"contacts":[…]`), or '' for none
   */
  jsonFields(): string;
}

/** one group's columns and how to read them */
interface Group {
  columns: string[];
  read(started: boolean, out: number[]): void;
  /** JSONL fields of the row `read` just read (`,"key":value`) */
  json?(): string;
}

const push3 = (out: number[], v: Vec3Tuple): void => { out.push(v[0], v[1], v[2]); };

function velocities(sim: Simulation): Group {
  const particles: ParticleHandle[] = [], bodies: BodyHandle[] = [];
  const columns: string[] = [];
  for (const p of sim.model.particles) {
    particles.push(sim.particle(p.name));
    for (const k of ['vx', 'vy', 'vz']) columns.push(`${p.name}.${k}`);
  }
  for (const b of sim.model.bodies) {
    bodies.push(sim.body(b.name));
    for (const k of ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']) columns.push(`${b.name}.${k}`);
  }
  return {
    columns,
    read: (_started, out) => {
      for (const p of particles) push3(out, p.velocity);
      for (const b of bodies) { push3(out, b.velocity); push3(out, b.angularVelocity); }
    },
  };
}

function markers(sim: Simulation): Group {
  const { markers: all, components } = sim.model;
  const list = all.map((m) => ({ body: sim.body(components[m.body]!.name), at: m.location }));
  return {
    columns: all.flatMap((m) => [`${m.name}.x`, `${m.name}.y`, `${m.name}.z`]),
    read: (_started, out) => { for (const m of list) push3(out, m.body.worldPoint(m.at)); },
  };
}

/**
 * Joint coordinates and rates. A joint met at a singular configuration of its coordinates is
 * reported once in `warnings`, except the gimbal, which the simulation itself warns about.
 */
function joints(sim: Simulation, warnings: string[]): Group {
  const list = sim.model.constraints.flatMap((c, ci) =>
    (c instanceof Joint && c.coordinateNames.length > 0 ? [{ ci, c, h: sim.joint(c.name) }] : []));
  const warned = new Set<number>();
  const names = (h: JointHandle, suffix: string) => h.coordinateNames.map((n) => `${h.name}.${n}${suffix}`);
  return {
    columns: list.flatMap(({ h }) => [...names(h, ''), ...names(h, '_rate')]),
    read: (_started, out) => {
      for (const { ci, c, h } of list) {
        out.push(...h.coordinates, ...h.rates);
        if (c.type !== 'gimbal' && !warned.has(ci) && sim.ws.cs.isSingular(ci, sim.state.q, sim.state.u)) {
          warned.add(ci);
          const t = Number(sim.state.t.toPrecision(6));
          warnings.push(`t = ${t} s: joint "${c.name}" (${c.type}) is at a singular configuration of its `
            + 'coordinates; their rates there are finite limits');
        }
      }
    },
  };
}

function reactions(sim: Simulation): Group {
  const list: JointHandle[] = sim.model.constraints.map((c) => sim.joint(c.name));
  return {
    columns: list.flatMap((h) => WRENCH_COLUMNS.map((k) => `${h.name}.${k}`)),
    read: (started, out) => {
      for (const h of list) {
        if (!started) { out.push(0, 0, 0, 0, 0, 0); continue; }   // no constraint forces before the first step
        const { force, torque } = h.reaction;
        push3(out, force);
        push3(out, torque);
      }
    },
  };
}

function springs(sim: Simulation): Group {
  const list: { h: ForceHandle; segments: number }[] = [];
  const columns: string[] = [];
  for (const f of sim.model.forces) {
    if (f instanceof PathSpring) {
      const segments = f.n > 1 ? f.n : 0;   // one segment: its length is the spring's
      list.push({ h: sim.force(f.name), segments });
      columns.push(`${f.name}.length`, `${f.name}.rate`, `${f.name}.tension`);
      for (let k = 0; k < segments; k++) columns.push(`${f.name}.segment${k}`);
    } else if (f instanceof FrameSpring) {
      list.push({ h: sim.force(f.name), segments: 0 });
      columns.push(...WRENCH_COLUMNS.map((k) => `${f.name}.${k}`));
    }
  }
  return {
    columns,
    read: (_started, out) => {
      for (const { h, segments } of list) {
        if (h.kind === 'frame-spring') {
          const { force, torque } = h.wrench;
          push3(out, force);
          push3(out, torque);
        } else {
          out.push(h.length, h.rate, h.tension);
          if (segments > 0) out.push(...h.segments);
        }
      }
    },
  };
}

function energy(sim: Simulation): Group {
  return {
    columns: ['energy.kinetic', 'energy.potential', 'energy.total'],
    read: (_started, out) => { const e = sim.energy(); out.push(e.kinetic, e.potential, e.total); },
  };
}

/** a contact as a JSONL row lists it: the report's fields in a fixed order */
const contactJson = (c: ContactReport) => ({
  shapeA: c.shapeA, shapeB: c.shapeB, featureA: c.featureA, featureB: c.featureB,
  point: c.point, normal: c.normal, gap: c.gap, normalForce: c.normalForce, frictionForce: c.frictionForce,
});

/**
 * The number of active contacts (a normal force above zero: a contact known within the detection
 * margin but not pressed counts as inactive) and the last solve's complementarity residual; the
 * JSONL array lists every contact of the last step, active or not.
 */
function contacts(sim: Simulation): Group {
  // the row's contacts, read once for both the columns and the JSONL array
  let list: ContactReport[] = [];
  return {
    columns: ['contacts.active', 'contacts.residual'],
    read: (started, out) => {
      // no step yet: no contacts and no solve
      list = started ? sim.contacts() : [];
      let active = 0;
      for (const c of list) if (c.normalForce > 0) active++;
      out.push(active, started ? (sim.contactSolve?.residual ?? 0) : 0);
    },
    // JSON.stringify writes a non-finite number as null, as the columns do
    json: () => `,"contacts":${JSON.stringify(list.map(contactJson))}`,
  };
}

/** the `--outputs` columns of `groups` for a run of `sim` */
export function outputColumns(sim: Simulation, groups: readonly OutputGroup[]): OutputColumns {
  const warnings: string[] = [];
  const make: Record<OutputGroup, () => Group> = {
    velocities: () => velocities(sim), markers: () => markers(sim), joints: () => joints(sim, warnings),
    forces: () => reactions(sim), springs: () => springs(sim), energy: () => energy(sim),
    contacts: () => contacts(sim),
  };
  const parts = OUTPUT_GROUPS.filter((g) => groups.includes(g)).map((g) => make[g]());
  return {
    columns: parts.flatMap((p) => p.columns),
    warnings,
    values: (_sim, started, out) => { for (const p of parts) p.read(started, out); },
    jsonFields: () => parts.map((p) => p.json?.() ?? '').join(''),
  };
}
