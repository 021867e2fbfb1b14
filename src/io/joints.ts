/**
 * The `joints` and `stabilization` sections of a model file (docs/model-format.md, Joints):
 * joints between bodies (Joint.atWorldFrame / atWorldAxis on a frame given in world at load
 * time, so the joint holds exactly at load; or the Joint constructor on one frame fixed in each
 * body, frameA and frameB, which need not meet at load) and distance constraints between points. Errors
 * are ModelErrors naming the JSON path (`joints[2] (hinge "knee").axis`); the loader prefixes
 * the source.
 */
import type { ModelAssembler } from '../model/assembler.js';
import { DEFAULT_SETTINGS, type ModelSettings, type Stabilization, type Vec3Tuple, type QuatTuple } from '../model/model.js';
import type { PointRef } from '../model/points.js';
import { POINT_WORLD } from '../model/points.js';
import { ModelError, unitQuaternion } from '../model/errors.js';
import { formatValue } from '../model/format.js';
import { pointAt } from '../model/points.js';
import type { Model } from '../model/model.js';
import { Joint } from '../constraints/joint.js';
import { jointLayout } from '../constraints/jointLayout.js';
import { DistanceConstraint } from '../constraints/distance.js';
import { ignoredDampingRow, dampingIgnoredBy } from '../constraints/softness.js';
import type { BilateralConstraint } from '../constraints/constraint.js';
import type { JointJson, PointRefJson, StabilizationJson } from './schema.js';
import { defaultName, valueAt } from './messages.js';
import { addLimitsAndMotors } from './contact.js';

/** a point reference of the file: a particle or marker name, or a fixed world point */
export function pointRef(b: ModelAssembler, r: PointRefJson, at: string): PointRef {
  if (typeof r === 'string') return b.point(r, at);
  const p: Vec3Tuple = [r[1][0], r[1][1], r[1][2]];
  return b.worldPoint(p);
}

/**
 * adds every joint of the file (joint i is constraint i) with its limits and motors; `label(i)`
 * names joint i in messages (`joints[0] (hinge "h")`); `raw` is the document as given, whose
 * keys the limits and motors check too (the schema drops a key "__proto__")
 */
export function addJoints(b: ModelAssembler, joints: readonly JointJson[], label: (i: number) => string, raw?: unknown): void {
  const q0 = b.initialQ();
  const names = new Set<string>();
  joints.forEach((j, i) => {
    const at = label(i);
    const name = j.name ?? defaultName(j.type, i);
    if (names.has(name)) throw new ModelError(`${at}.name`, `duplicate joint name "${name}"`);
    names.add(name);
    const c = j.type === 'distance' ? distanceJoint(b, j, name, at, q0) : frameJoint(b, j, name, at, q0);
    hardRowDamping(c, Array.isArray(j.damping), b.settings, at);
    b.addConstraint(c);
    // joined components do not collide unless the joint says so (joint i is constraint i)
    if (j.collide) b.letJoinedCollide(i);
    if (j.type !== 'distance' && c instanceof Joint) addLimitsAndMotors(b, c, i, j, at, valueAt(raw, ['joints', i]));
  });
}

/**
 * damping on a hard row that the stabilization ignores (constraints/softness.ts) is a mistake,
 * most likely a wish for viscous friction in the joint's free motion: an error
 */
function hardRowDamping(c: BilateralConstraint, perRow: boolean, settings: ModelSettings, at: string): void {
  const method = settings.stabilization.method, r = ignoredDampingRow(c, method, settings.integrator);
  if (r < 0) return;
  const hint = c instanceof Joint ? ' (viscous friction in the joint\'s free motion is the damping of a frame spring)' : '';
  const what = perRow ? 'this row is hard' : c.rows === 1 ? 'the row is hard' : 'all its rows are hard';
  throw new ModelError(`${at}.damping${perRow ? `[${r}]` : ''}`,
    `damping acts on compliant rows only (compliance > 0, or stiffness with dampingRatio); ${what}, and under ${dampingIgnoredBy(method)} the damping would be ignored${hint}`);
}

/**
 * Checks what the model computed from each joint's stiffness at build (constraints/softness.ts):
 * the compliance 1/k and the damping 2ζ√(m_eff/k) must be finite (a stiffness of 1e-320 is
 * positive, its compliance is not a number). The error names the field the file gave.
 * The model's constraints are the file's joints in the file's order (addJoints adds them so, and
 * nothing else adds constraints): joint i is constraint i.
 */
export function checkSoftness(model: Model, joints: readonly JointJson[], label: (i: number) => string): void {
  joints.forEach((j, i) => {
    if (j.stiffness === undefined) return;
    const c = model.constraints[i]!;
    const perRow = Array.isArray(j.stiffness);
    for (let r = 0; r < c.rows; r++) {
      const k = perRow ? (j.stiffness as readonly number[])[r]! : (j.stiffness as number);
      const row = perRow ? `[${r}]` : '';
      if (!Number.isFinite(c.compliance[r]!)) {
        throw new ModelError(`${label(i)}.stiffness${row}`, `${formatValue(k)} gives the compliance 1/k = ${formatValue(c.compliance[r])}, not a finite number`);
      }
      if (!Number.isFinite(c.damping[r]!)) {
        throw new ModelError(`${label(i)}.dampingRatio`, `${formatValue(j.dampingRatio)} with stiffness ${formatValue(k)} gives the damping 2ζ√(m/k) = ${formatValue(c.damping[r])}, not a finite number`);
      }
    }
  });
}

/** the settings' stabilization from the file's (parameters only with their method) */
export function stabilization(s: StabilizationJson | undefined): Stabilization {
  if (!s) return { ...DEFAULT_SETTINGS.stabilization };
  const own: Record<Stabilization['method'], readonly string[]> = { projection: ['velocityMetric', 'positionMetric'], baumgarte: ['alpha', 'beta'], spook: ['relaxation', 'compliance'] };
  for (const key of ['alpha', 'beta', 'relaxation', 'compliance', 'velocityMetric', 'positionMetric'] as const) {
    if (s[key] !== undefined && !own[s.method].includes(key)) {
      const owner = (Object.keys(own) as Stabilization['method'][]).find((m) => own[m].includes(key))!;
      throw new ModelError(`stabilization.${key}`, `applies to method "${owner}", not "${s.method}"`);
    }
  }
  const out: Stabilization = { method: s.method };
  if (s.alpha !== undefined) out.alpha = s.alpha;
  if (s.beta !== undefined) out.beta = s.beta;
  if (s.relaxation !== undefined) out.relaxation = s.relaxation;
  if (s.compliance !== undefined) out.compliance = s.compliance;
  if (s.velocityMetric !== undefined) out.velocityMetric = s.velocityMetric;
  if (s.positionMetric !== undefined) out.positionMetric = s.positionMetric;
  return out;
}

/**
 * Rewrites a constraint constructor's error (`joint "h".axis`) onto the JSON path
 * (`joints[0] (hinge "h").axis`); `fields` maps the constructor's names of derived values
 * (`.frameA.position`, computed from the file's `frame`) to the fields the file gave.
 */
function atPath<T>(prefix: string, at: string, make: () => T, base = '', fields: Record<string, string> = {}): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof ModelError && e.path.startsWith(prefix)) {
      const rest = e.path.slice(prefix.length);
      const field = fields[rest];
      if (field !== undefined) throw new ModelError(`${at}${field}`, derivedFrom(rest, e.detail));
      throw new ModelError(`${at}${rest || base}`, e.detail);
    }
    throw e;
  }
}

/** the message of a derived joint value's error, on the field it came from */
function derivedFrom(rest: string, detail: string): string {
  const side = rest.startsWith('.frameA') ? 'bodyA' : rest.startsWith('.frameB') ? 'bodyB' : '';
  if (!side) return detail;
  // the constructor's detail shows the derived value; say where it came from instead
  if (rest.endsWith('position')) return `is too far from ${side}: the joint frame's position in ${side}'s coordinates at load is not finite`;
  return `the joint frame's orientation in ${side}'s coordinates at load: ${detail}`;
}

function frameJoint(b: ModelAssembler, j: Exclude<JointJson, { type: 'distance' }>, name: string, at: string, q0: Float64Array): BilateralConstraint {
  const [A, B] = b.sides(j.bodyA, j.bodyB, at, 'joints attach to bodies or "world" (use a distance joint for particles)');
  if (!(A?.dynamic ?? false) && !(B?.dynamic ?? false)) throw new ModelError(at, 'joins no dynamic body (both sides are fixed)');
  // per-row parameters: one value or one per row
  const rows = jointLayout(j.type, at).rows;
  for (const key of ['compliance', 'damping', 'stiffness'] as const) {
    const v = j[key];
    if (Array.isArray(v) && v.length !== rows) {
      throw new ModelError(`${at}.${key}`, `a ${j.type} joint has ${rows} row${rows === 1 ? '' : 's'}: give one value or ${rows}, got ${v.length}`);
    }
  }
  const spec = { type: j.type, compliance: j.compliance, damping: j.damping, stiffness: j.stiffness, dampingRatio: j.dampingRatio };
  const prefix = `joint "${name}"`;
  // where: one frame per side (frameA and frameB, in each side's coordinates)
  if (j.frameA || j.frameB) {
    const other = j.frame ? 'frame' : j.position ? 'position' : j.axis ? 'axis' : null;
    if (other) throw new ModelError(`${at}.${other}`, 'give either frameA and frameB (one frame in each body) or a frame in world, not both');
    if (!j.frameA || !j.frameB) throw new ModelError(`${at}.${j.frameA ? 'frameB' : 'frameA'}`, 'missing required field (frameA and frameB come together)');
    // the Joint constructor checks and normalizes the frames (its paths end in .frameA / .frameB)
    const { frameA: fa, frameB: fb } = j;
    return atPath(prefix, at, () => new Joint(name, A, B, [...fa.position], [...fa.orientation], [...fb.position], [...fb.orientation], spec, q0));
  }
  // or one frame in world at load time: frame, or position (with axis)
  if (j.frame && j.position) throw new ModelError(`${at}.position`, 'give either frame or position (with axis), not both');
  const position = j.frame?.position ?? j.position;
  if (!position) throw new ModelError(`${at}.frame`, 'missing required field (give frame, position with axis, or frameA and frameB)');
  if (j.frame?.orientation && j.axis) throw new ModelError(`${at}.axis`, 'give either frame.orientation or axis, not both');
  const p: Vec3Tuple = [position[0], position[1], position[2]];
  // the frames in each body's coordinates derive from the world frame: their errors are its fields'
  const positionField = j.frame ? '.frame.position' : '.position', orientationField = j.axis ? '.axis' : '.frame.orientation';
  const fields = {
    '.position': positionField, '.frameA.position': positionField, '.frameB.position': positionField,
    '.orientation': orientationField, '.frameA.orientation': orientationField, '.frameB.orientation': orientationField,
  };
  if (j.axis) {
    // a direction: scaled by its largest entry, so that no length overflows or underflows
    const m = Math.max(Math.abs(j.axis[0]), Math.abs(j.axis[1]), Math.abs(j.axis[2]));
    if (!(m > 0)) throw new ModelError(`${at}.axis`, `axis ${formatValue(j.axis)} has zero length`);
    const axis: Vec3Tuple = [j.axis[0] / m, j.axis[1] / m, j.axis[2] / m];
    return atPath(prefix, at, () => Joint.atWorldAxis(name, A, B, q0, p, axis, spec), '', fields);
  }
  const o: QuatTuple = j.frame?.orientation ? [...j.frame.orientation] : [1, 0, 0, 0];
  unitQuaternion(`${at}.frame.orientation`, o);
  return atPath(prefix, at, () => Joint.atWorldFrame(name, A, B, q0, p, o, spec), '', fields);
}

function distanceJoint(b: ModelAssembler, j: Extract<JointJson, { type: 'distance' }>, name: string, at: string, q0: Float64Array): BilateralConstraint {
  const [r1, r2] = j.points;
  const p1 = pointRef(b, r1, `${at}.points[0]`), p2 = pointRef(b, r2, `${at}.points[1]`);
  if (typeof r1 === 'string' && r1 === r2) throw new ModelError(`${at}.points[1]`, 'same point as points[0]');
  // a constraint needs a dynamic component on one side
  const dynamic = (p: PointRef) => p.kind !== POINT_WORLD && b.componentAt(p.component).dynamic;
  if (p1.kind !== POINT_WORLD && p2.kind !== POINT_WORLD && p1.component === p2.component) {
    throw new ModelError(`${at}.points`, `both points are on "${b.componentAt(p1.component).name}": their distance cannot change`);
  }
  if (p1.kind === POINT_WORLD && p2.kind === POINT_WORLD) throw new ModelError(`${at}.points`, 'both points are world points');
  if (!dynamic(p1) && !dynamic(p2)) throw new ModelError(`${at}.points`, 'joins no dynamic component (both points are fixed)');
  // the initial distance (the default length, and the direction at load) must be a number
  const x1 = pointAt(p1, q0), x2 = pointAt(p2, q0);
  const d = Math.hypot(x2[0]! - x1[0]!, x2[1]! - x1[1]!, x2[2]! - x1[2]!);
  if (!Number.isFinite(d)) throw new ModelError(`${at}.points`, `the points are ${formatValue(d)} m apart at load, not a finite distance`);
  return atPath(`distance constraint "${name}"`, at, () => new DistanceConstraint(name, p1, p2, q0, {
    length: j.length, compliance: j.compliance, damping: j.damping, stiffness: j.stiffness, dampingRatio: j.dampingRatio,
  }), '.points');
}
