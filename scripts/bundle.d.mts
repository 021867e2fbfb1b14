import type { BuildOptions, BuildResult } from 'esbuild';

/** the browser bundle's path in the package, dist/vinculum.browser.js (scripts/bundle.mjs) */
export const BUNDLE: string;
/** esbuild's options for the browser bundle written to `outfile` (default BUNDLE) */
export function bundleOptions(outfile?: string): BuildOptions;
/** writes the browser bundle (and its source map) to `outfile` (default BUNDLE) */
export function bundle(outfile?: string): Promise<BuildResult>;
