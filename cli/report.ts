/**
 * `vinculum run --report out.html` (docs/report.md): one self-contained HTML file, the report
 * page's script and style (dist/report, built by scripts/report.mjs) and the run's data inlined,
 * so it opens from file:// with no network. The data is a JSON block the page reads; `<` is
 * escaped in it, so no text of the model (a name holding `</script>`) can end the block.
 */
import { join } from 'node:path';
import type { CliIo } from './io.js';
import { CliError, messageOf } from './common.js';
import { builtFolder } from './load.js';
import type { ReportRecording } from './reportData.js';
import type { Energy } from '../src/simulation.js';

/** the report page's built script and style */
export interface ReportAssets { script: string; style: string }

/** everything the report shows */
export interface ReportData extends ReportRecording {
  /** the model's label (its file) */
  title: string;
  /** the summary the command line prints, line by line */
  summary: string[];
  /** the energies at the start and at the end (or at the failure), J */
  energy: { start: Energy; end: Energy };
  /** the run's warnings */
  warnings: string[];
  /** the error that stopped the run (exit 3), or null */
  error: string | null;
  /** vinculum's version */
  version: string;
}

/** the built report page next to this module: dist/cli → dist/report, or cli/ (sources) → dist/report */
function reportFolder(io: CliIo): string | null {
  return io.reportAssets ?? builtFolder('report', 'report.js');
}

/** reads the report page's script and style; missing ones are a usage error (exit 2) */
export async function reportAssets(io: CliIo): Promise<ReportAssets> {
  const dir = reportFolder(io);
  if (!dir) throw new CliError(2, 'the report page is not built (dist/report is missing): run npm run build');
  try {
    const script = await io.readFile(join(dir, 'report.js'));
    return { script, style: await io.readFile(join(dir, 'report.css')) };
  } catch (e) {
    throw new CliError(2, `cannot read the report page in ${dir}: ${messageOf(e)}`);
  }
}

/** text for inside an HTML element: & < > escaped */
export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** JSON for a script block: every `<` escaped, so nothing in it closes the block or opens a comment */
export const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

/** the report's HTML: the page's style and script inline, the data in a JSON block */
export function reportHtml(assets: ReportAssets, data: ReportData): string {
  // a script's text may not hold "</script" (it would end the element): the escape means the same in JS
  const script = assets.script.replace(/<\/(script)/gi, '<\\/$1');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="vinculum ${escapeHtml(data.version)}">
<title>${escapeHtml(data.title)} · Vinculum report</title>
<style>${assets.style.replace(/<\/(style)/gi, '<\\/$1')}</style>
</head>
<body>
<noscript>This report draws its replay and plots with JavaScript.</noscript>
<script type="application/json" id="vinculum-report">${scriptJson(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}
