/**
 * Reading for the command line: model files, the bundled demo and the package's version, each
 * with one-line errors. The demo and package.json are found next to the sources (cli/ under
 * vitest) or two levels up (dist/cli/ after the build, also inside node_modules/vinculum/).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModelDocument, type LoadedModel } from '../src/io/loader.js';
import type { CliIo } from './io.js';
import { meshFileReader } from '../node/index.js';
import { CliError, messageOf } from './common.js';

/** the file's text, parsed and validated; a file that cannot be read is a usage error (exit 2) */
export async function loadModelFile(io: CliIo, file: string): Promise<LoadedModel> {
  let text: string;
  try {
    text = await io.readFile(file);
  } catch (e) {
    throw new CliError(2, `cannot read ${file}: ${messageOf(e)}`);
  }
  // mesh files named in the model are read relative to it
  return parseModelDocument(text, file, meshFileReader(file));
}

/**
 * the built folder `dist/<name>` beside this module (dist/cli → dist/<name> in a build or the
 * package, cli/ → dist/<name> when run from the sources), if `marker` is in it; the sources'
 * folders are never used (the viewer's is the page before Vite)
 */
export function builtFolder(name: string, marker: string): string | null {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const dir = join(here, basename(dirname(here)) === 'dist' ? `../${name}` : `../dist/${name}`);
  return existsSync(join(dir, marker)) ? dir : null;
}

/** the text of the first of `rels` (relative to this module) that can be read, with its path */
async function readBeside(
  io: CliIo, rels: readonly string[], accept: (text: string) => boolean,
): Promise<string | null> {
  for (const rel of rels) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    let text: string;
    try { text = await io.readFile(path); } catch { continue; }
    if (accept(text)) return text;
  }
  return null;
}

const DEMO = 'examples/default-demo.json';

/** the text of the bundled demo, `examples/default-demo.json` */
export async function demoText(io: CliIo): Promise<string> {
  const text = await readBeside(io, [`../${DEMO}`, `../../${DEMO}`], () => true);
  if (text === null) throw new CliError(1, `the default demo ${DEMO} is missing from the installation`);
  return text;
}

/** the bundled demo, loaded */
export async function loadDemo(io: CliIo): Promise<{ loaded: LoadedModel; label: string }> {
  return { loaded: parseModelDocument(await demoText(io), 'default demo'), label: `default demo (${DEMO})` };
}

/** the `version` of the package's own package.json (the one named "vinculum"), read at run time */
export async function packageVersion(io: CliIo): Promise<string> {
  let version: string | null = null;
  await readBeside(io, ['../package.json', '../../package.json'], (text) => {
    try {
      const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (pkg.name !== 'vinculum' || typeof pkg.version !== 'string') return false;
      version = pkg.version;
      return true;
    } catch {
      return false;
    }
  });
  if (version === null) throw new CliError(1, 'the package.json of vinculum is missing from the installation');
  return version;
}

/** writes `text` to `file` atomically; a failure is a usage error (exit 2) naming the file */
export async function writeOutput(io: CliIo, file: string, text: string): Promise<void> {
  try {
    await io.writeFileAtomic(file, text);
  } catch (e) {
    throw new CliError(2, `cannot write ${file}: ${messageOf(e)}`);
  }
}
