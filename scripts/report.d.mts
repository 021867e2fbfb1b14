/** the built report page's folder in the package (dist/report) */
export const REPORT_DIR: string;
/** builds the report page with Vite into `outDir` (default dist/report): report.js and report.css */
export function buildReport(outDir?: string): Promise<void>;
