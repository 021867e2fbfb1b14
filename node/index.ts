/**
 * `vinculum/node`: the Node.js side of the library. The core (`vinculum`) touches no file
 * system, so that it runs in browsers; this module reads model files and writes outputs
 * atomically.
 */
import { parseModel } from '../src/io/loader.js';
import type { Model } from '../src/model/model.js';
import { ModelError } from '../src/model/errors.js';
import { readTextFile } from './files.js';

export { readTextFile, writeTextFileAtomic, openAtomicWriter, type AtomicWriter, type AtomicWriterOptions } from './files.js';

/**
 * Reads and parses a model file (docs/model-format.md). Throws a `ModelError` naming the file and
 * the JSON path for a bad model, and for a file that cannot be read.
 *
 * @example
 * ```ts
 * import { Simulation } from 'vinculum';
 * import { loadModel } from 'vinculum/node';
 * const sim = new Simulation(await loadModel('examples/four-bar.json'));
 * ```
 */
export async function loadModel(path: string): Promise<Model> {
  return parseModel(await readModelText(path), { source: path });
}

/** the file's text; a file that cannot be read is a ModelError naming it */
async function readModelText(path: string): Promise<string> {
  try {
    return await readTextFile(path);
  } catch (e) {
    throw new ModelError(path, `cannot read: ${e instanceof Error ? e.message : String(e)}`);
  }
}
