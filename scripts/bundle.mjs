// Bundles the core (src/index.ts) and zod into dist/vinculum.browser.js: one ES module that a page
// loads with <script type="module"> or import(), with no bundler and no import map. `npm run build`
// runs it after tsc; test/browser/core.test.ts builds the same bundle (bundleOptions) into a
// temporary folder.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** the bundle's path in the package */
export const BUNDLE = join(root, 'dist', 'vinculum.browser.js');

/**
 * esbuild's options for the browser bundle written to `outfile` (with `outfile`.map beside it).
 * platform 'browser' makes an import of a Node built-in from the core a build error.
 */
export function bundleOptions(outfile = BUNDLE) {
  return {
    entryPoints: [join(root, 'src', 'index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  };
}

/** writes the bundle to `outfile`; resolves to esbuild's result */
export function bundle(outfile = BUNDLE) {
  return build(bundleOptions(outfile));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bundle();
