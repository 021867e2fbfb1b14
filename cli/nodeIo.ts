/** The Node.js side of the CLI's I/O (`CliIo` in cli/main.ts): process streams and files. */
import type { CliIo } from './main.js';
import { readTextFile, writeTextFileAtomic } from '../node/files.js';

export function nodeIo(): CliIo {
  return {
    stdout: (s) => { process.stdout.write(s); },
    stderr: (s) => { process.stderr.write(s); },
    isTTY: process.stderr.isTTY === true,
    progressStream: process.stderr,
    readFile: readTextFile,
    writeFileAtomic: writeTextFileAtomic,
    now: () => performance.now(),
  };
}
