/**
 * The JSON model loader: read the text (src/io/jsonText.ts: byte-order mark, syntax errors with
 * line and column, keys given twice), or check an object is JSON data (src/io/jsonData.ts); check
 * the version; validate against the zod schema (src/io/schema.ts); then build the model with
 * ModelAssembler. No file access here (the core runs in browsers too): callers pass the text.
 * Every failure is a `ModelError` whose message is one line naming the JSON path
 * (`bodies[2].inertia`) or the force or joint (`forces[0] (axial-spring "s1").points[1]`,
 * `joints[1] (hinge "knee").axis`) and what is wrong (src/io/messages.ts); with a `source`, the
 * message starts with it. Forces are built in src/io/forces.ts, joints and stabilization in
 * src/io/joints.ts, the contact part (settings, shapes, limits and motors) in src/io/contact.ts.
 */
import { ModelFileSchema, MODEL_FORMAT_VERSION, type ModelFile } from './schema.js';
import { addJoints, checkSoftness, stabilization } from './joints.js';
import { addForce } from './forces.js';
import { checkContactModel, contactSettings } from './contact.js';
import {
  addMaterials, addParticleShape, addWorldShapes, type MeshFileReader, type ShapeContext,
} from './shapes.js';
import { addBody } from './bodies.js';
import {
  defaultName, describeIssue, describeValue, formatPath, isRecord, itemLabel, oneLine, QUOTED_TEXT_MAX,
  type DocumentContext,
} from './messages.js';
import { scanJson, stripByteOrderMark, textPosition } from './jsonText.js';
import { findNonJsonValue } from './jsonData.js';
import { ModelAssembler } from '../model/assembler.js';
import type { Model } from '../model/model.js';
import { ModelError } from '../model/errors.js';
import { formatValue, isPlainData, quote } from '../model/format.js';

/** a loaded model with the file-level settings that are not part of the Model */
export interface LoadedModel {
  model: Model;
  /** the file's `duration` (s), if it has one */
  duration: number | undefined;
  /** the validated file, defaults filled in */
  file: ModelFile;
}

/** where a model came from, for messages, and how to read the mesh files it names */
export interface ParseOptions {
  /** a file name or label that starts every error message (`arm.json: bodies[2].mass: …`) */
  source?: string;
  /**
   * reads a mesh file a shape names (`{"type": "mesh", "file": "floor.obj"}`, its path as the file
   * gives it); without it such a shape is an error (vinculum/node's loadModel passes one)
   */
  meshFile?: MeshFileReader;
}

/**
 * A model from a model file's content: JSON text, or the object JSON.parse makes of it
 * (docs/model-format.md). Validates it like the command line does and throws a `ModelError`
 * whose message is one line naming the JSON path and what is wrong.
 */
export function parseModel(json: string | object, options: ParseOptions = {}): Model {
  return parseModelDocument(json, options.source, options.meshFile).model;
}

/** like parseModel, also returning the file-level settings (duration) and the validated file */
export function parseModelDocument(json: string | object, source?: string,
  meshFile?: MeshFileReader): LoadedModel {
  const where = (path: string): string => (source ? (path ? `${source}: ${path}` : source) : path || '(model)');
  const fromText = typeof json === 'string';
  const raw = fromText ? readText(json, where) : json as unknown;
  if (!isRecord(raw) || !isPlainData(raw)) {
    throw new ModelError(where(''), `the model must be a JSON object, got ${describeValue(raw)}${bytesHint(raw)}`);
  }
  if (!fromText) {
    const bad = findNonJsonValue(raw);
    if (bad) throw new ModelError(where(formatPath(bad.path, raw) || '(model)'), bad.detail);
  }
  // the version first: a file for another version may have fields this one does not know
  const reads = `this loader reads version ${MODEL_FORMAT_VERSION}`;
  if (!('version' in raw)) throw new ModelError(where('version'), `missing required field "version" (${reads})`);
  if (raw.version !== MODEL_FORMAT_VERSION) {
    throw new ModelError(where('version'), `unsupported version ${formatValue(raw.version)}; ${reads}`);
  }
  const parsed = ModelFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const doc: DocumentContext = { raw, fromText };
    const { path, detail } = describeIssue(issues[0]!, doc);
    const n = issues.length - 1;
    const more = n > 0 ? ` (and ${n} more problem${n > 1 ? 's' : ''})` : '';
    throw new ModelError(where(formatPath(path, raw)), detail + more);
  }
  try {
    return { model: build(parsed.data, raw, meshFile), duration: parsed.data.duration, file: parsed.data };
  } catch (e) {
    if (e instanceof ModelError) throw new ModelError(where(e.path), e.detail);
    throw e;
  }
}

/** bytes instead of text: say how to get the text */
function bytesHint(v: unknown): string {
  const bytes = ArrayBuffer.isView(v) || v instanceof ArrayBuffer;
  return bytes ? ' (pass the file\'s text: decode the bytes with TextDecoder)' : '';
}

/**
 * JSON text → the value JSON.parse makes of it, without a leading byte-order mark. A syntax error
 * is reported at its line and column, and a key given twice in one object (which JSON.parse
 * would take silently, the last one winning) at both places.
 */
function readText(json: string, where: (path: string) => string): unknown {
  const text = stripByteOrderMark(json);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const found = scanJson(text, false);
    const detail = found?.kind === 'syntax'
      ? `${textPosition(text, found.pos)}: ${found.what}`
      : oneLine(e instanceof Error ? e.message : String(e), QUOTED_TEXT_MAX);
    throw new ModelError(where(''), `not valid JSON: ${detail}`);
  }
  const dup = scanJson(text, true);
  if (dup?.kind === 'duplicate') {
    throw new ModelError(where(formatPath(dup.path, raw)),
      `key ${quote(dup.key)} given twice in one object, at ${textPosition(text, dup.first)}`
      + ` and ${textPosition(text, dup.second)} (give each field once)`);
  }
  return raw;
}

// ---------------------------------------------------------------------------------------------
// building

function build(file: ModelFile, raw: Record<string, unknown>, meshFile: MeshFileReader | undefined): Model {
  const b = new ModelAssembler();
  b.settings.gravity = [...file.gravity];
  b.settings.integrator = file.integrator;
  b.settings.step = file.step;
  if (file.duration !== undefined) b.settings.duration = file.duration;
  b.settings.stabilization = stabilization(file.stabilization);
  b.settings.geometricStiffness = file.geometricStiffness;
  b.contact = contactSettings(file.contact);
  const materials = addMaterials(b, file.materials, file.materialPairs);
  const ctx: ShapeContext = { materials, meshFile, fileMeshes: new Map() };
  addWorldShapes(b, file.world?.shapes ?? [], ctx);
  file.particles.forEach((p, i) => {
    const at = formatPath(['particles', i], raw);
    const c = b.addParticle({
      name: p.name, mass: p.mass, position: [...p.position], velocity: [...p.velocity],
      dynamic: p.dynamic, damping: p.damping,
    }, at);
    addParticleShape(b, p, c.index, at, ctx);
  });
  file.bodies.forEach((body, i) => addBody(b, body, formatPath(['bodies', i], raw), ctx));
  file.markers.forEach((m, i) => {
    b.addMarker({ name: m.name, body: m.body, location: [...m.location] }, formatPath(['markers', i], raw));
  });

  // the initial configuration, for default rest lengths and frame-spring attachment frames
  const q0 = b.initialQ();
  const names = new Set<string>();
  file.forces.forEach((f, i) => {
    const at = itemLabel('forces', i, raw);
    const name = f.name ?? defaultName(f.type, i);
    if (names.has(name)) throw new ModelError(`${at}.name`, `duplicate force name "${name}"`);
    names.add(name);
    addForce(b, q0, f, name, at);
  });
  // joints, placed on the initial configuration; their softness is computed by the Model
  const label = (i: number) => itemLabel('joints', i, raw);
  addJoints(b, file.joints, label, raw);
  const model = b.build();
  checkSoftness(model, file.joints, label);
  checkContactModel(model);
  return model;
}
