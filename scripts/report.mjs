// Builds the report page (viewer/src/report/main.ts: the render module, uPlot and the page) with Vite
// into one script and one style sheet, dist/report/report.js and report.css, which
// `vinculum run --report` inlines into each report file. `npm run build` runs it; the report tests
// call buildReport with a temporary folder.
import { build } from 'vite';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** the built report page's folder in the package */
export const REPORT_DIR = join(root, 'dist', 'report');

/** builds the report page into `outDir` as report.js (an IIFE: it runs from file://) and report.css */
export async function buildReport(outDir = REPORT_DIR) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      cssCodeSplit: false,
      lib: { entry: join(root, 'viewer', 'src', 'report', 'main.ts'), name: 'VinculumReport', formats: ['iife'],
        fileName: () => 'report.js', cssFileName: 'report' },
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildReport();
