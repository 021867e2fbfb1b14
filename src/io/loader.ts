/**
 * The JSON model loader: parse, check the version, validate against the zod schema
 * (src/io/schema.ts), then build the model with ModelAssembler. No file access here (the core runs
 * in browsers too): callers pass the text. Every failure is a `ModelError` whose message is one
 * line naming the JSON path (`bodies[2].inertia`) or the force or joint (`forces[0] (axial-spring
 * "s1").points[1]`, `joints[1] (hinge "knee").axis`) and what is wrong; with a `source`, the
 * message starts with it. Joints and stabilization are built in src/io/joints.ts.
 */
import type * as z from 'zod';
import { ModelFileSchema, MODEL_FORMAT_VERSION, FORCE_TYPES, JOINT_KINDS, type ModelFile, type PointRefJson, type MaterialJson, type BodyJson, type ForceJson } from './schema.js';
import { addJoints, pointRef, stabilization } from './joints.js';
import { ModelAssembler, type BodySpec } from '../model/assembler.js';
import type { Model } from '../model/model.js';
import { ModelError, unitQuaternion } from '../model/errors.js';
import { pointAt } from '../model/points.js';
import { shapeVolume, shapePrincipalInertia } from '../math/spatial.js';
import { LinearMaterial, QuadraticStrainMaterial, ExponentialLigament, type AxialMaterial } from '../forces/materials.js';
import { AxialSpring, PathSpring } from '../forces/pathSpring.js';
import { FrameSpring } from '../forces/frameSpring.js';

/** a loaded model with the file-level settings that are not part of the Model */
export interface LoadedModel {
  model: Model;
  /** the file's `duration` (s), if it has one */
  duration: number | undefined;
  /** the validated file, defaults filled in */
  file: ModelFile;
}

type PathSegment = string | number;

/** where a model came from, for messages */
export interface ParseOptions {
  /** a file name or label that starts every error message (`arm.json: bodies[2].mass: …`) */
  source?: string;
}

/**
 * A model from a model file's content: JSON text, or the object JSON.parse makes of it
 * (docs/model-format.md). Validates it like the command line does and throws a `ModelError`
 * whose message is one line naming the JSON path and what is wrong.
 */
export function parseModel(json: string | object, options: ParseOptions = {}): Model {
  return parseModelDocument(json, options.source).model;
}

/** like parseModel, also returning the file-level settings (duration) and the validated file */
export function parseModelDocument(json: string | object, source?: string): LoadedModel {
  const where = (path: string): string => (source ? (path ? `${source}: ${path}` : source) : path || '(model)');
  let raw: unknown = json;
  if (typeof json === 'string') {
    try {
      raw = JSON.parse(json);
    } catch (e) {
      throw new ModelError(where(''), `not valid JSON: ${jsonErrorDetail(e, json)}`);
    }
  }
  if (!isRecord(raw)) throw new ModelError(where(''), `the model must be a JSON object, got ${describeValue(raw)}`);
  // the version first: a file for another version may have fields this one does not know
  if (!('version' in raw)) throw new ModelError(where('version'), `missing required field "version" (this loader reads version ${MODEL_FORMAT_VERSION})`);
  if (raw.version !== MODEL_FORMAT_VERSION) {
    throw new ModelError(where('version'), `unsupported version ${typeof raw.version === 'number' ? raw.version : JSON.stringify(raw.version)}; this loader reads version ${MODEL_FORMAT_VERSION}`);
  }
  const parsed = ModelFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const { path, detail } = describeIssue(issues[0]!, [], raw);
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    throw new ModelError(where(formatPath(path, raw)), detail + more);
  }
  try {
    return { model: build(parsed.data, raw), duration: parsed.data.duration, file: parsed.data };
  } catch (e) {
    if (e instanceof ModelError) throw new ModelError(where(e.path), e.detail);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// building

function build(file: ModelFile, raw: Record<string, unknown>): Model {
  const b = new ModelAssembler();
  b.settings.gravity = [...file.gravity];
  b.settings.integrator = file.integrator;
  b.settings.step = file.step;
  b.settings.stabilization = stabilization(file.stabilization);
  b.settings.geometricStiffness = file.geometricStiffness;
  file.particles.forEach((p, i) => {
    b.addParticle({ name: p.name, mass: p.mass, position: [...p.position], velocity: [...p.velocity], dynamic: p.dynamic, damping: p.damping },
      formatPath(['particles', i], raw));
  });
  file.bodies.forEach((body, i) => b.addBody(bodySpec(body, formatPath(['bodies', i], raw)), formatPath(['bodies', i], raw)));
  file.markers.forEach((m, i) => b.addMarker({ name: m.name, body: m.body, location: [...m.location] }, formatPath(['markers', i], raw)));

  // the initial configuration, for default rest lengths and frame-spring attachment frames
  const q0 = b.initialQ();
  const names = new Set<string>();
  file.forces.forEach((f, i) => {
    const at = forceLabel(i, raw);
    const name = f.name ?? `${f.type}#${i}`;
    if (names.has(name)) throw new ModelError(`${at}.name`, `duplicate force name "${name}"`);
    names.add(name);
    if (f.type === 'frame-spring') b.addForce(frameSpring(b, f, name, at, q0));
    else b.addForce(pathSpring(b, q0, f, name, at));
  });
  // joints, placed on the initial configuration
  addJoints(b, file.joints, (i) => itemLabel('joints', i, raw));
  return b.build();
}

/** mass and inertia from `inertia`, or from `shape` with `density` or `mass` */
function bodySpec(s: BodyJson, at: string): BodySpec {
  let mass: number, inertia: BodySpec['inertia'];
  if (s.shape && s.inertia) throw new ModelError(`${at}.inertia`, 'give either inertia or shape, not both');
  if (s.shape) {
    const volume = shapeVolume(s.shape);
    if (s.mass !== undefined && s.density !== undefined) throw new ModelError(`${at}.density`, 'give either mass or density with a shape, not both');
    if (s.density !== undefined) mass = s.density * volume;
    else if (s.mass !== undefined) mass = s.mass;
    else throw new ModelError(`${at}.mass`, 'missing: a body with a shape needs mass or density');
    if (!(mass > 0) || !Number.isFinite(mass)) throw new ModelError(`${at}.density`, `density × volume = ${mass} kg is not a positive finite mass`);
    const [ixx, iyy, izz] = shapePrincipalInertia(s.shape, mass);
    inertia = [ixx, iyy, izz, 0, 0, 0];
  } else if (s.inertia) {
    if (s.density !== undefined) throw new ModelError(`${at}.density`, 'density needs a shape; with inertia give mass');
    if (s.mass === undefined) throw new ModelError(`${at}.mass`, 'missing required field (a body with inertia needs mass)');
    mass = s.mass;
    inertia = [...s.inertia];
  } else {
    throw new ModelError(at, 'a body needs inertia (with mass) or shape (with density or mass)');
  }
  return {
    name: s.name, mass, inertia, com: [...s.com], position: [...s.position], orientation: [...s.orientation],
    velocity: [...s.velocity], angularVelocity: [...s.angularVelocity], dynamic: s.dynamic,
    linearDamping: s.linearDamping, angularDamping: s.angularDamping,
  };
}

function material(m: MaterialJson, stiffness: number, damping: number): AxialMaterial {
  const type = typeof m === 'string' ? m : m.type;
  if (type === 'linear') return new LinearMaterial(stiffness, damping);
  if (type === 'quadratic-strain') return new QuadraticStrainMaterial(stiffness, damping);
  const ligament = typeof m === 'object' && m.type === 'exponential-ligament' ? m : { toeStrain: 0.03, toeShape: 30 };
  return new ExponentialLigament(stiffness, damping, ligament.toeStrain, ligament.toeShape);
}

function pathSpring(b: ModelAssembler, q0: Float64Array, f: Extract<ForceJson, { type: 'axial-spring' | 'multipoint-spring' }>,
  name: string, at: string): PathSpring {
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
      if (s >= n) throw new ModelError(`${at}.passive[${k}]`, `segment ${s} does not exist (the path has ${n} segment${n === 1 ? '' : 's'}, 0 to ${n - 1})`);
      if (!active[s]) throw new ModelError(`${at}.passive[${k}]`, `segment ${s} is listed twice`);
      active[s] = false;
    });
    if (!active.some(Boolean)) throw new ModelError(`${at}.passive`, 'every segment is passive; at least one must add length');
  }
  // rest length: given, or the initial length of the active segments
  let rest = f.restLength;
  if (rest === undefined) {
    const x = points.map((p) => pointAt(p, q0));
    rest = 0;
    for (let s = 0; s < n; s++) if (active[s]) rest += Math.hypot(x[s + 1]![0]! - x[s]![0]!, x[s + 1]![1]! - x[s]![1]!, x[s + 1]![2]! - x[s]![2]!);
  }
  const mat = material(f.material, f.stiffness, f.damping);
  if (mat.needsRestLength && !(rest > 0)) {
    const why = f.restLength === undefined ? 'the initial length is 0; give a positive restLength' : 'must be positive';
    throw new ModelError(`${at}.restLength`, `${why} for material ${mat.kind} (its strain divides by the rest length)`);
  }
  return f.type === 'axial-spring' ? new AxialSpring(name, points[0]!, points[1]!, mat, rest) : new PathSpring(name, points, mat, rest, active);
}

function frameSpring(b: ModelAssembler, f: Extract<ForceJson, { type: 'frame-spring' }>, name: string, at: string, q0: Float64Array): FrameSpring {
  const [A, B] = b.sides(f.bodyA, f.bodyB, at, 'frame springs attach to bodies or "world"');
  const o = f.frame.orientation;
  unitQuaternion(`${at}.frame.orientation`, o);
  try {
    return FrameSpring.atWorldFrame(name, A, B, q0, [...f.frame.position], [...o], {
      translationalStiffness: f.translationalStiffness, rotationalStiffness: f.rotationalStiffness,
      translationalDamping: f.translationalDamping, rotationalDamping: f.rotationalDamping,
    });
  } catch (e) {
    if (e instanceof ModelError) throw new ModelError(at, e.detail);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// messages

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** where and why JSON.parse failed: `line 2, column 17: unexpected "}"` (V8's messages vary, some quote the text) */
function jsonErrorDetail(e: unknown, text: string): string {
  const found = jsonSyntaxError(text);
  if (!found) return oneLine(e instanceof Error ? e.message : String(e));
  const before = text.slice(0, found.pos).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}: ${found.what}`;
}

/** a small JSON syntax scanner: the offset and reason of the first error, or null */
function jsonSyntaxError(s: string): { pos: number; what: string } | null {
  let i = 0;
  class Stop { constructor(readonly what: string) {} }
  const fail = (what: string): never => { throw new Stop(what); };
  const ws = () => { while (i < s.length && ' \t\n\r'.includes(s[i]!)) i++; };
  const shown = () => (i < s.length ? `unexpected ${JSON.stringify(s[i])}` : 'unexpected end of input');
  const str = () => {
    for (i++; i < s.length; i++) {
      const c = s[i]!;
      if (c === '"') { i++; return; }
      if (c < ' ') fail('control character in a string');
      if (c === '\\') {
        const esc = s[++i];
        if (esc === 'u') { if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) fail('invalid \\u escape'); i += 4; }
        else if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail('invalid escape in a string');
      }
    }
    fail('unterminated string');
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++; ws();
      if (s[i] === close) { i++; return; }
      for (;;) {
        if (c === '{') {
          ws();
          if (s[i] !== '"') fail(`${shown()}, expected a property name in double quotes`);
          str(); ws();
          if (s[i] !== ':') fail(`${shown()}, expected ":"`);
          i++;
        }
        value(); ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === close) { i++; return; }
        fail(`${shown()}, expected "," or "${close}"`);
      }
    }
    if (c === '"') return str();
    const num = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    num.lastIndex = i;
    if (c !== undefined && /[-0-9]/.test(c)) { if (!num.test(s)) fail('invalid number'); i = num.lastIndex; return; }
    for (const lit of ['true', 'false', 'null']) if (s.startsWith(lit, i)) { i += lit.length; return; }
    fail(shown());
  };
  try {
    value(); ws();
    if (i < s.length) fail(`${shown()} after the JSON value`);
    return null;
  } catch (e) {
    if (e instanceof Stop) return { pos: i, what: e.what };
    throw e;
  }
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 197)}...` : t;
}

/** the value at a path in the raw document, or undefined */
function valueAt(raw: unknown, path: readonly PathSegment[]): unknown {
  let v = raw;
  for (const k of path) {
    if (Array.isArray(v) && typeof k === 'number') v = v[k];
    else if (isRecord(v) && typeof k === 'string' && Object.hasOwn(v, k)) v = v[k];
    else return undefined;
  }
  return v;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${v}`;
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

/** the types each labelled section knows */
const SECTION_TYPES: Record<'forces' | 'joints', readonly string[]> = { forces: FORCE_TYPES, joints: JOINT_KINDS };

/** `forces[0] (axial-spring "s1")` or `joints[1] (hinge "knee")`, from whatever the raw document has */
function itemLabel(section: 'forces' | 'joints', i: number, raw: unknown): string {
  const f = valueAt(raw, [section, i]);
  const type = isRecord(f) && typeof f.type === 'string' && SECTION_TYPES[section].includes(f.type) ? f.type : undefined;
  const name = isRecord(f) && typeof f.name === 'string' ? f.name : undefined;
  if (!type && name === undefined) return `${section}[${i}]`;
  return `${section}[${i}] (${[type, name !== undefined ? JSON.stringify(name) : undefined].filter(Boolean).join(' ')})`;
}
function forceLabel(i: number, raw: unknown): string { return itemLabel('forces', i, raw); }

/** `bodies[2].inertia`; forces and joints carry their type and name */
function formatPath(path: readonly PathSegment[], raw: unknown): string {
  let s = '';
  let k = 0;
  if ((path[0] === 'forces' || path[0] === 'joints') && typeof path[1] === 'number') { s = itemLabel(path[0], path[1], raw); k = 2; }
  for (; k < path.length; k++) {
    const seg = path[k]!;
    if (typeof seg === 'number') s += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) s += s ? `.${seg}` : seg;
    else s += `[${JSON.stringify(seg)}]`;
  }
  return s;
}

const EXPECTED: Record<string, string> = {
  number: 'a number', int: 'an integer', string: 'a string', boolean: 'true or false', array: 'an array', object: 'an object',
  tuple: 'an array',
};

function list(values: readonly unknown[]): string {
  const v = values.map((x) => JSON.stringify(x));
  return v.length <= 1 ? v.join('') : `${v.slice(0, -1).join(', ')} or ${v[v.length - 1]}`;
}

/** one zod issue → a path and a one-line explanation, using the raw document for context */
function describeIssue(issue: z.core.$ZodIssue, prefix: readonly PathSegment[], raw: unknown): { path: PathSegment[]; detail: string } {
  const path = [...prefix, ...issue.path.filter((p): p is PathSegment => typeof p !== 'symbol')];
  const value = valueAt(raw, path);
  const missing = value === undefined && isRecord(valueAt(raw, path.slice(0, -1)));
  switch (issue.code) {
    case 'invalid_type': {
      if (missing) return { path, detail: 'missing required field' };
      if (typeof value === 'number' && !Number.isFinite(value)) return { path, detail: 'must be a finite number (this value overflows to Infinity)' };
      if (issue.expected === 'int' && typeof value === 'number') return { path, detail: `must be an integer (got ${value})` };
      return { path, detail: `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(value)}` };
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = small ? issue.minimum : issue.maximum;
      if (issue.origin === 'array' || issue.origin === 'set') {
        const n = Array.isArray(value) ? value.length : 0;
        return { path, detail: `expected ${small ? 'at least' : 'at most'} ${bound} item${bound === 1 ? '' : 's'}, got ${n}` };
      }
      if (issue.origin === 'string') return { path, detail: small ? 'must not be empty' : `is longer than ${bound} characters` };
      const op = small ? (issue.inclusive ? '>=' : '>') : (issue.inclusive ? '<=' : '<');
      const what = small && bound === 0 ? (issue.inclusive ? 'must be non-negative' : 'must be positive') : `must be ${op} ${bound}`;
      return { path, detail: `${what} (got ${String(value)})` };
    }
    case 'invalid_value':
      return { path, detail: `expected ${list(issue.values)}, got ${missing ? 'nothing' : JSON.stringify(value)}` };
    case 'unrecognized_keys': {
      const key = issue.keys[0]!;
      const others = issue.keys.length > 1 ? ` (also ${issue.keys.slice(1).map((k) => JSON.stringify(k)).join(', ')})` : '';
      return { path: [...path, key], detail: `unknown field "${key}"${others}` };
    }
    case 'invalid_union': {
      // a discriminated union whose "type" matches no option
      if (issue.discriminator !== undefined && 'options' in issue && issue.options) {
        const opts = list(issue.options);
        return { path, detail: missing ? `missing required field; expected ${opts}` : `unknown type ${JSON.stringify(value)}; expected ${opts}` };
      }
      // a plain union: explain the one alternative whose base type matched, if exactly one did
      const rootMismatch = (i: z.core.$ZodIssue) => i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_value' || i.code === 'invalid_union');
      const near = issue.errors.filter((branch) => branch.length > 0 && !branch.some(rootMismatch));
      if (near.length === 1) return describeIssue(near[0]![0]!, path, raw);
      if (missing) return { path, detail: 'missing required field' };
      return { path, detail: `${issue.message}, got ${describeValue(value)}` };
    }
    case 'invalid_format':
      return { path, detail: `invalid ${path[path.length - 1] === 'name' ? 'name ' : ''}${JSON.stringify(value)}: ${issue.message}` };
    default:
      return { path, detail: issue.message };
  }
}
