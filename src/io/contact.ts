/**
 * The contact part of a model file (docs/model-format.md, Contact): the `contact` settings, the
 * joints' `limits` and `motors`, and the checks that need the whole model (an integrator or solver
 * that cannot take them); the shapes and materials are in ./shapes.ts. Every error is a ModelError
 * naming the JSON path.
 *
 * A plane given by its `normal` n gets the shortest rotation from +z to n: q = (1 + n_z, −n_y,
 * n_x, 0) normalised, with 1 + n_z written as (n_x² + n_y²)/(1 − n_z) for n_z < 0 so that it keeps
 * its digits near −z, and a half turn about x for n = −z. Limits and motors name a coordinate of
 * the joint's readout (constraints/coordinateRows.ts; theory.md §16 for the rows they become).
 */
import type { ModelAssembler } from '../model/assembler.js';
import type { Model, QuatTuple } from '../model/model.js';
import { DEFAULT_CONTACT, NOT_RK4, type ContactSettings, type JointLimit } from '../model/contactModel.js';
import { ModelError } from '../model/errors.js';
import { formatValue } from '../model/format.js';
import type { Joint } from '../constraints/joint.js';
import { coordinateIndex, coordinateIsAngle, coordinateRange } from '../constraints/coordinateRows.js';
import type { ContactJson, FrameJointJson, LimitJson, MotorJson } from './schema.js';
import { formatPath, isRecord } from './messages.js';

/** the solver-specific fields of `contact`, and the explicit solvers each belongs to ("auto" takes all) */
const SOLVER_FIELDS = {
  friction: ['pgs'], directions: ['lemke'], iterations: ['pgs'], tolerance: ['pgs'],
} as const satisfies Record<string, readonly ContactSettings['solver'][]>;

/** the model's contact settings from the file's `contact`: a solver's own fields only with that solver */
export function contactSettings(c: ContactJson | undefined): ContactSettings {
  if (!c) return { ...DEFAULT_CONTACT };
  for (const key of Object.keys(SOLVER_FIELDS) as (keyof typeof SOLVER_FIELDS)[]) {
    const owners: readonly string[] = SOLVER_FIELDS[key];
    if (c[key] !== undefined && c.solver !== 'auto' && !owners.includes(c.solver)) {
      const owner = `solver "${owners[0]}" (or "auto")`;
      throw new ModelError(`contact.${key}`, `applies to ${owner}, not "${c.solver}"`);
    }
  }
  const D = DEFAULT_CONTACT;
  return {
    solver: c.solver, margin: c.margin, erp: c.erp, restitutionThreshold: c.restitutionThreshold,
    friction: c.friction ?? D.friction, directions: c.directions ?? D.directions,
    iterations: c.iterations ?? D.iterations, tolerance: c.tolerance ?? D.tolerance,
  };
}

/** the shortest rotation taking +z to the direction n (any length but zero), or null for n = 0 */
export function rotationFromZ(n: readonly number[]): QuatTuple | null {
  // scaled by the largest entry first, so that no length overflows or underflows
  const m = Math.max(Math.abs(n[0]!), Math.abs(n[1]!), Math.abs(n[2]!));
  if (!(m > 0)) return null;
  const a = n[0]! / m, b = n[1]! / m, c = n[2]! / m, l = Math.hypot(a, b, c);
  const x = a / l, y = b / l, z = c / l;
  // w = 1 + z without the cancellation near z = −1 (x² + y² = (1 − z)(1 + z))
  const w = z >= 0 ? 1 + z : (x * x + y * y) / (1 - z);
  if (!(w > 0)) return [0, 1, 0, 0];
  // (0 − and 0 + turn a signed zero into +0: a plane along ±z gets exactly [1, 0, 0, 0])
  const r = Math.hypot(w, x, y);
  return [w / r, 0 - y / r, 0 + x / r, 0];
}

/** `<at>.limits.rz`, or `<at>.limits["a b"]` for a key that is not an identifier */
function keyPath(at: string, section: 'limits' | 'motors', key: string): string {
  return `${at}.${formatPath([section, key], null)}`;
}

/** a range's end as a multiple of π, for messages */
function angleText(x: number): string {
  const k = Math.abs(x) / Math.PI, sign = x < 0 ? '−' : '';
  return k === 2 ? `${sign}2π` : k === 1 ? `${sign}π` : k === 0.5 ? `${sign}π/2` : formatValue(x);
}

/** an angle's bound or target must lie strictly inside the range of the coordinate's values */
function checkInRange(joint: Joint, k: number, name: string, what: string, v: number, path: string): void {
  if (!coordinateIsAngle(joint, k)) return;
  const [lo, hi] = coordinateRange(joint, k);
  if (v > lo && v < hi) return;
  const values = `(${angleText(lo)}, ${angleText(hi)}) rad`;
  const where = `the values of ${name}, ${values}`;
  throw new ModelError(path, `${what} ${formatValue(v)} is outside ${where} (angles are in radians)`);
}

/** limit `key` of a joint: its coordinate, bounds (null: none) and row parameters */
function limit(joint: Joint, ci: number, key: string, v: LimitJson, at: string): JointLimit {
  const path = keyPath(at, 'limits', key);
  const k = coordinateIndex(joint, key, path);
  const spec = Array.isArray(v) ? { range: v, restitution: 0, compliance: 0, damping: 0 } : v;
  const where = Array.isArray(v) ? path : `${path}.range`;
  const [lower, upper] = spec.range;
  if (lower === null && upper === null) {
    throw new ModelError(where, 'both bounds are null (give at least one, or leave the coordinate out)');
  }
  if (lower !== null && upper !== null && lower > upper) {
    throw new ModelError(where, `lower ${formatValue(lower)} > upper ${formatValue(upper)}`);
  }
  if (lower !== null) checkInRange(joint, k, key, 'lower', lower, where);
  if (upper !== null) checkInRange(joint, k, key, 'upper', upper, where);
  // a hard limit's row reads no damping (contact/jointRows.ts)
  if (spec.damping > 0 && spec.compliance === 0) {
    const why = 'acts on a compliant limit only (give compliance > 0); this limit is hard';
    throw new ModelError(`${path}.damping`, why);
  }
  return {
    constraint: ci, joint: joint.name, coordinate: k, coordinateName: key,
    lower: lower ?? -Infinity, upper: upper ?? Infinity,
    restitution: spec.restitution, compliance: spec.compliance, damping: spec.damping,
  };
}

/** motor `key` of a joint: a velocity or a position target within ±maxForce */
function motor(b: ModelAssembler, joint: Joint, ci: number, key: string, m: MotorJson, at: string): void {
  const path = keyPath(at, 'motors', key);
  const k = coordinateIndex(joint, key, path);
  if (m.velocity !== undefined && m.position !== undefined) {
    throw new ModelError(`${path}.position`, 'give either velocity or position, not both');
  }
  if (m.velocity === undefined && m.position === undefined) {
    throw new ModelError(path, 'missing a target: give velocity or position');
  }
  if (m.time !== undefined && m.position === undefined) {
    throw new ModelError(`${path}.time`, 'applies to a position motor only');
  }
  if (m.position !== undefined) checkInRange(joint, k, key, 'position', m.position, `${path}.position`);
  const mode = m.position !== undefined ? 'position' : 'velocity';
  b.addMotor({
    constraint: ci, joint: joint.name, coordinate: k, coordinateName: key, mode,
    target: m.position ?? m.velocity!, time: m.time ?? null, maxForce: m.maxForce,
  }, path);
}

/**
 * Adds the limits and motors of joint `j` (constraint `ci`, the Joint built from it), each section
 * in the order of the joint's coordinates, whatever the order of the file's keys. `raw` is the
 * joint as given: zod's records drop a key "__proto__" (JSON.parse makes it an own key), which is
 * no coordinate either.
 */
export function addLimitsAndMotors(b: ModelAssembler, joint: Joint, ci: number, j: FrameJointJson, at: string,
  raw?: unknown): void {
  for (const section of ['limits', 'motors'] as const) {
    const given = isRecord(raw) ? raw[section] : undefined;
    const proto = '__proto__';
    if (!isRecord(given) || !Object.hasOwn(given, proto)) continue;
    coordinateIndex(joint, proto, keyPath(at, section, proto));
  }
  const byCoordinate = <T>(entries: [string, T][]) => entries
    .map(([key, v]) => ({ key, v, k: joint.coordinateNames.indexOf(key) }))
    .sort((x, y) => x.k - y.k);
  for (const { key, v } of byCoordinate(Object.entries(j.limits ?? {}))) {
    b.addLimit(limit(joint, ci, key, v, at), keyPath(at, 'limits', key));
  }
  for (const { key, v } of byCoordinate(Object.entries(j.motors ?? {}))) motor(b, joint, ci, key, v, at);
}


/**
 * What the whole model must satisfy: rk4 takes no limits or motors (it has no velocity solve for
 * unilateral or bounded rows; its contacts fail the step where they first touch, step/step.ts),
 * and lemke solves contacts only.
 */
export function checkContactModel(model: Model): void {
  const rows = model.limits.length > 0 || model.motors.length > 0;
  if (model.settings.integrator === 'rk4' && rows) {
    throw new ModelError('integrator', `rk4 cannot take limits or motors (use ${NOT_RK4})`);
  }
  if (model.contact.solver === 'lemke' && rows) {
    const need = 'limits and motors need "pivoting" or "pgs"';
    throw new ModelError('contact.solver', `lemke takes contacts only; ${need}`);
  }
}
