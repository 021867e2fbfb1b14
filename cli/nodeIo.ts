/** The Node.js side of the CLI's I/O (`CliIo` in cli/io.ts): process streams and files. */
import type { CliIo } from './io.js';
import { readTextFile, writeTextFileAtomic, openAtomicWriter } from '../node/files.js';

/** `CliIo` on the process's stdout and stderr and the file system */
export function nodeIo(): CliIo {
  return {
    stdout: (s) => { process.stdout.write(s); },
    stderr: (s) => { process.stderr.write(s); },
    isTTY: process.stderr.isTTY === true,
    progressStream: process.stderr,
    readFile: readTextFile,
    writeFileAtomic: writeTextFileAtomic,
    openAtomic: (path) => openAtomicWriter(path),
    now: () => performance.now(),
  };
}
