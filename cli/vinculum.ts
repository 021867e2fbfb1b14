#!/usr/bin/env node
/**
 * The `vinculum` executable: wires runCli (cli/main.ts) to the process and the file system.
 * Exit codes: 0 ok, 1 internal error, 2 bad model or usage, 3 a failed step (non-finite state,
 * blow-up, failed solve) or, with --strict, instability (docs/cli.md, Exit code 3).
 */
import { runCli } from './main.js';
import { nodeIo } from './nodeIo.js';

runCli(process.argv.slice(2), nodeIo()).then(
  (code) => { process.exitCode = code; },
  // runCli reports its own errors; this only catches a failure of the reporting itself
  (e: unknown) => {
    const message = String(e instanceof Error ? e.message : e).replace(/\s+/g, ' ');
    process.stderr.write(`error: internal error: ${message}\n`);
    process.exitCode = 1;
  },
);
