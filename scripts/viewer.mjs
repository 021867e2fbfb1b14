// Builds the viewer page (viewer/index.html, its worker and the engine) with Vite into dist/viewer/,
// static files that `vinculum view` serves and that any static host can serve. `npm run build` runs
// it after the browser bundle; the viewer tests call buildViewer with a temporary folder.
import { build } from 'vite';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** the built viewer's folder in the package */
export const VIEWER_DIR = join(root, 'dist', 'viewer');

/** builds the viewer into `outDir`; resolves when the files are written */
export async function buildViewer(outDir = VIEWER_DIR) {
  await build({
    configFile: join(root, 'viewer', 'vite.config.ts'),
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildViewer();
