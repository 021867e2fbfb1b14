/**
 * What the command line needs from its surroundings. cli/nodeIo.ts gives the process's streams
 * and the file system; the tests give in-memory files and captured text.
 */
import type { AtomicWriter } from '../node/files.js';

export type { AtomicWriter } from '../node/files.js';

/** the command line's I/O: `runCli` does all its reading and writing through this */
export interface CliIo {
  /** writes to standard output (the summary, `validate`, `info`, `schema`, help and `--version`) */
  stdout(text: string): void;
  /** writes to standard error (warnings, progress, errors) */
  stderr(text: string): void;
  /** whether stderr is a terminal: a progress bar there, progress lines otherwise */
  isTTY: boolean;
  /** where the progress bar draws (process.stderr in the Node adapter); no bar without it */
  progressStream?: NodeJS.WritableStream;
  /** the text of a file; rejects with a short reason */
  readFile(path: string): Promise<string>;
  /** replaces a file atomically (temporary file, then rename); rejects with a short reason */
  writeFileAtomic(path: string, text: string): Promise<void>;
  /**
   * Opens a file for a streamed atomic write (`openAtomicWriter` in node/files.ts); rejects with a
   * short reason when it cannot be written, before anything is produced.
   */
  openAtomic(path: string): Promise<AtomicWriter>;
  /** the folder of the report page's built script and style (default: dist/report beside the CLI) */
  reportAssets?: string;
  /** wall clock in ms (default performance.now) */
  now?(): number;
  /** ms between progress lines when stderr is not a terminal (default 5000) */
  progressIntervalMs?: number;
}
