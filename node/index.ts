/**
 * `vinculum/node`: the Node.js side of the library. The core (`vinculum`) touches no file
 * system, so that it runs in browsers; this module reads model files and the mesh files they name
 * (OBJ and STL, ./meshFiles.ts), and writes outputs atomically.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseModel } from '../src/io/loader.js';
import type { MeshFileReader } from '../src/io/shapes.js';
import type { Model } from '../src/model/model.js';
import { ModelError } from '../src/model/errors.js';
import { readTextFile } from './files.js';
import { readMeshFile } from './meshFiles.js';

export { readTextFile, writeTextFileAtomic, openAtomicWriter, type AtomicWriter, type AtomicWriterOptions } from './files.js';
export { readMeshFile, parseObj, parseStl, type MeshLists } from './meshFiles.js';

/**
 * Reads and parses a model file (docs/model-format.md), with the mesh files its shapes name
 * (`{"type": "mesh", "file": "floor.obj"}`, relative to the model file). Throws a `ModelError`
 * naming the file and the JSON path for a bad model, and for a file that cannot be read.
 *
 * @example
 * ```ts
 * import { Simulation } from 'vinculum';
 * import { loadModel } from 'vinculum/node';
 * const sim = new Simulation(await loadModel('examples/four-bar.json'));
 * ```
 */
export async function loadModel(path: string): Promise<Model> {
  return parseModel(await readModelText(path), { source: path, meshFile: meshFileReader(path) });
}

/**
 * the mesh file reader of the model file at `modelPath`: a shape's `file` is read relative to the
 * model file's folder (an absolute path as it is); for `parseModel`'s `meshFile` option
 */
export function meshFileReader(modelPath: string): MeshFileReader {
  const folder = dirname(modelPath);
  return (file) => readMeshFile(isAbsolute(file) ? file : resolve(folder, file));
}

/** the file's text; a file that cannot be read is a ModelError naming it */
async function readModelText(path: string): Promise<string> {
  try {
    return await readTextFile(path);
  } catch (e) {
    throw new ModelError(path, `cannot read: ${e instanceof Error ? e.message : String(e)}`);
  }
}
