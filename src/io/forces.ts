/**
 * The `forces` section of a model file (docs/model-format.md, Forces): axial and multi-point
 * springs with their materials, and frame springs. Errors are ModelErrors naming the field the
 * file gave (`forces[0] (axial-spring "s1").points[1]`): a value derived from other fields (a
 * default rest length, a frame in a body's coordinates) is blamed on the fields it came from.
 */
import type { ModelAssembler } from '../model/assembler.js';
import { ModelError, unitQuaternion } from '../model/errors.js';
import { formatValue } from '../model/format.js';
import { pointAt } from '../model/points.js';
import {
  LinearMaterial, QuadraticStrainMaterial, ExponentialLigament, type AxialMaterial,
} from '../forces/materials.js';
import { AxialSpring, PathSpring } from '../forces/pathSpring.js';
import { FrameSpring } from '../forces/frameSpring.js';
import type { ForceJson, MaterialJson, PointRefJson } from './schema.js';
import { pointRef } from './joints.js';

type PathSpringJson = Extract<ForceJson, { type: 'axial-spring' | 'multipoint-spring' }>;
type FrameSpringJson = Extract<ForceJson, { type: 'frame-spring' }>;

/** the largest x with a finite e^x */
const EXP_MAX = Math.log(Number.MAX_VALUE);

/** adds force i of the file; `at` names it (`forces[0] (axial-spring "s1")`) */
export function addForce(b: ModelAssembler, q0: Float64Array, f: ForceJson, name: string, at: string): void {
  if (f.type === 'frame-spring') b.addForce(frameSpring(b, f, name, at, q0));
  else b.addForce(pathSpring(b, q0, f, name, at));
}

function material(m: MaterialJson, stiffness: number, damping: number, at: string): AxialMaterial {
  const type = typeof m === 'string' ? m : m.type;
  // the constructors name their parameters `material.<field>`; stiffness and damping are the force's
  const own = typeof m === 'object' ? `${at}.material` : at;
  const names = { 'material.stiffness': `${at}.stiffness`, 'material.damping': `${at}.damping`, material: own };
  return renamed(names, () => {
    if (type === 'linear') return new LinearMaterial(stiffness, damping);
    if (type === 'quadratic-strain') return new QuadraticStrainMaterial(stiffness, damping);
    const lig = typeof m === 'object' && m.type === 'exponential-ligament' ? m
      : { toeStrain: 0.03, toeShape: 30 };
    // the toe's scale A = k r / (B e^{B ε_t}): e^{B ε_t} must be finite
    if (!(lig.toeShape * lig.toeStrain <= EXP_MAX)) {
      const x = formatValue(lig.toeShape * lig.toeStrain);
      throw new ModelError(`${at}.material.toeShape`, `toeShape × toeStrain = ${x}`
        + ` overflows e^(toeShape × toeStrain) (at most ${EXP_MAX.toFixed(1)})`);
    }
    return new ExponentialLigament(stiffness, damping, lig.toeStrain, lig.toeShape);
  });
}

/** runs make(); a ModelError whose path starts with a key of `names` is re-pathed to its value */
function renamed<T>(names: Record<string, string>, make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    for (const [from, to] of Object.entries(names)) {
      if (e.path === from || e.path.startsWith(`${from}.`)) {
        throw new ModelError(`${to}${e.path.slice(from.length)}`, e.detail);
      }
    }
    throw e;
  }
}

function pathSpring(b: ModelAssembler, q0: Float64Array, f: PathSpringJson, name: string,
  at: string): PathSpring {
  const refs: readonly PointRefJson[] = f.points;
  const points = refs.map((r, j) => pointRef(b, r, `${at}.points[${j}]`));
  // the same point twice in a row makes a segment of no length and no direction
  for (let j = 1; j < refs.length; j++) {
    const a = refs[j - 1]!, c = refs[j]!;
    if (typeof a === 'string' ? a === c : typeof c !== 'string' && a[1].every((v, k) => v === c[1][k])) {
      throw new ModelError(`${at}.points[${j}]`, `same point as points[${j - 1}]`);
    }
  }
  const n = points.length - 1;
  const active = new Array<boolean>(n).fill(true);
  if (f.type === 'multipoint-spring' && f.passive) {
    f.passive.forEach((s, k) => {
      if (s >= n) {
        const has = `the path has ${n} segment${n === 1 ? '' : 's'}, 0 to ${n - 1}`;
        throw new ModelError(`${at}.passive[${k}]`, `segment ${s} does not exist (${has})`);
      }
      if (!active[s]) throw new ModelError(`${at}.passive[${k}]`, `segment ${s} is listed twice`);
      active[s] = false;
    });
    if (!active.some(Boolean)) {
      throw new ModelError(`${at}.passive`, 'every segment is passive; at least one must add length');
    }
  }
  // rest length: given, or the initial length of the active segments (then blamed on the points)
  let rest = f.restLength;
  if (rest === undefined) {
    const x = points.map((p) => pointAt(p, q0));
    rest = 0;
    for (let s = 0; s < n; s++) {
      const a = x[s]!, c = x[s + 1]!;
      if (active[s]) rest += Math.hypot(c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!);
    }
    if (!Number.isFinite(rest)) {
      throw new ModelError(`${at}.points`,
        `the initial length of the path is ${formatValue(rest)}, not finite (the points are too far apart);`
        + ' give restLength');
    }
  }
  const mat = material(f.material, f.stiffness, f.damping, at);
  if (mat.needsRestLength && !(rest > 0)) {
    if (f.restLength === undefined) {
      throw new ModelError(`${at}.restLength`,
        `missing: the initial length is 0, and material ${mat.kind} needs a positive restLength`
        + ' (its strain divides by it)');
    }
    throw new ModelError(`${at}.restLength`,
      `must be positive for material ${mat.kind} (its strain divides by the rest length)`);
  }
  const field = f.restLength === undefined ? 'points' : 'restLength';
  return renamed({ [`spring "${name}".restLength`]: `${at}.${field}`, [`spring "${name}"`]: at }, () =>
    f.type === 'axial-spring'
      ? new AxialSpring(name, points[0]!, points[1]!, mat, rest)
      : new PathSpring(name, points, mat, rest, active));
}

function frameSpring(b: ModelAssembler, f: FrameSpringJson, name: string, at: string,
  q0: Float64Array): FrameSpring {
  const [A, B] = b.sides(f.bodyA, f.bodyB, at, 'frame springs attach to bodies or "world"');
  const o = f.frame.orientation;
  unitQuaternion(`${at}.frame.orientation`, o);
  const params = {
    translationalStiffness: f.translationalStiffness, rotationalStiffness: f.rotationalStiffness,
    translationalDamping: f.translationalDamping, rotationalDamping: f.rotationalDamping,
  };
  const self = `frame spring "${name}"`;
  try {
    // the attachment frames in each body's coordinates derive from frame: their errors are frame's
    const orientation = `${at}.frame.orientation`;
    const names = Object.fromEntries(['.orientation', '.q1A', '.q2B'].map((k) => [`${self}${k}`, orientation]));
    const position: [number, number, number] = [...f.frame.position];
    return renamed(names, () => FrameSpring.atWorldFrame(name, A, B, q0, position, [...o], params));
  } catch (e) {
    if (!(e instanceof ModelError) || !e.path.startsWith(self)) throw e;
    const rest = e.path.slice(self.length);
    if (rest === '' && /attachment positions/.test(e.detail)) {
      throw new ModelError(`${at}.frame.position`,
        'is too far from the bodies: its offset in a body\'s coordinates is not finite');
    }
    throw new ModelError(`${at}${rest}`, e.detail);
  }
}
