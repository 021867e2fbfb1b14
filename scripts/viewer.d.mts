/** the built viewer's folder in the package (dist/viewer) */
export const VIEWER_DIR: string;
/** builds the viewer page with Vite into `outDir` (default dist/viewer) */
export function buildViewer(outDir?: string): Promise<void>;
