/**
 * Vite's configuration of the viewer page: `npx vite viewer` serves it for development (with
 * `?model=/@fs/<absolute path>.json`), `node scripts/viewer.mjs` builds it into dist/viewer/. The base
 * is relative, so the built folder works from any path of any static host.
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist/viewer', import.meta.url)),
    emptyOutDir: true,
    // three.js alone is ~700 kB minified: one chunk per entry is what a viewer page loads anyway
    chunkSizeWarningLimit: 2000,
    target: 'es2022',
  },
  server: { fs: { allow: ['..'] } },
});
