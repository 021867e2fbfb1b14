/**
 * File I/O for `vinculum/node` and the command line: text reads with short reasons, and atomic
 * writes. An atomic write goes to a temporary sibling file `.<name>.<pid>.<hex>.tmp` that is
 * renamed onto the destination at the end, so a reader never sees a half-written file and a
 * failed run never clobbers a previous result. `openAtomicWriter` streams: text is written to the
 * temporary file in chunks as it comes, so a long output never sits in memory, and the rows of a
 * run that is killed stay on disk (in its temporary file) until the next write to that
 * destination removes them.
 */
import { readFile, rename, unlink, stat, open, readdir } from 'node:fs/promises';
import { writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** a short reason for common file-system errors, instead of Node's multi-part messages */
function reason(e: unknown): string {
  const code = errorCode(e);
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory', EISDIR: 'is a directory', EACCES: 'permission denied',
    EPERM: 'operation not permitted', ENOTDIR: 'a parent is not a directory', EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
  };
  return known[code] ?? (e instanceof Error ? e.message : String(e));
}

const errorCode = (e: unknown): string =>
  (typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '');

/**
 * Reads a UTF-8 text file. Rejects with an `Error` whose message is a short reason
 * (`no such file or directory`, `permission denied`, …).
 */
export async function readTextFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(reason(e));
  }
}

/**
 * A file being written atomically (see `openAtomicWriter`): text goes to a temporary file next to
 * the destination, which `commit` renames onto it and `abort` removes.
 */
export interface AtomicWriter {
  /** the destination */
  readonly path: string;
  /** the temporary file the text goes to until `commit` */
  readonly tempPath: string;
  /**
   * Appends text. It is buffered and written in chunks (see `AtomicWriterOptions.chunkSize`),
   * synchronously, so that memory stays bounded whatever the caller's loop does. Throws an `Error`
   * with a short reason (`no space left on device`) when the write fails.
   */
  write(text: string): void;
  /**
   * Writes what is buffered, closes the file and renames it onto the destination; rejects with a
   * short reason.
   */
  commit(): Promise<void>;
  /** closes and removes the temporary file, leaving the destination as it was; never rejects */
  abort(): Promise<void>;
}

/** options of `openAtomicWriter` */
export interface AtomicWriterOptions {
  /** characters buffered before they are written to the file (default 65 536) */
  chunkSize?: number;
}

/**
 * this machine's name as it goes into temporary file names: a folder shared between machines
 * (a network drive, a container's volume) holds other machines' temporary files, whose process
 * ids mean nothing here
 */
export const TEMP_HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-') || 'host';

/** the temporary files of writes to `name`: `.<name>.<host>.<pid>.<hex>.tmp` */
function tempPattern(name: string): RegExp {
  return new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.([A-Za-z0-9-]+)\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
}

/** whether a process with this id exists (EPERM: it does, owned by someone else) */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errorCode(e) === 'EPERM';
  }
}

/**
 * Removes the temporary files that writes to `path` by processes of this machine no longer running left behind
 * (a run killed mid-way). Returns the names removed; errors are ignored (the folder may be
 * unreadable, or another process may remove the same file first).
 */
export async function removeStaleTemporaryFiles(path: string): Promise<string[]> {
  const dir = dirname(path), pattern = tempPattern(basename(path));
  let names: string[];
  try { names = await readdir(dir); } catch { return []; }
  const removed: string[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m || m[1] !== TEMP_HOST || alive(Number(m[2]))) continue;
    try {
      await unlink(join(dir, name));
      removed.push(name);
    } catch {
      // gone already (another run removed it), or not ours to remove
    }
  }
  return removed;
}

/**
 * Opens `path` for an atomic, streamed write: checks that `path` is not a directory, removes
 * stale temporary files of dead processes next to it, and creates the temporary file. Rejects
 * with a short reason when the folder is missing or not writable, so a caller learns that before
 * it produces anything.
 */
export async function openAtomicWriter(path: string, options: AtomicWriterOptions = {}): Promise<AtomicWriter> {
  const chunkSize = options.chunkSize ?? 65_536;
  try {
    if ((await stat(path)).isDirectory()) throw new Error('is a directory');
  } catch (e) {
    if (errorCode(e) !== 'ENOENT') throw new Error(reason(e));
  }
  await removeStaleTemporaryFiles(path);
  const tempName = `.${basename(path)}.${TEMP_HOST}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const tempPath = join(dirname(path), tempName);
  let file;
  try {
    file = await open(tempPath, 'wx');
  } catch (e) {
    throw new Error(reason(e));
  }
  const handle = file;
  const pending: string[] = [];
  let pendingLength = 0, closed = false;

  const flush = (): void => {
    if (pendingLength === 0) return;
    const bytes = Buffer.from(pending.join(''), 'utf8');
    pending.length = 0;
    pendingLength = 0;
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(handle.fd, bytes, at, bytes.length - at);
    } catch (e) {
      throw new Error(reason(e));
    }
  };
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };

  return {
    path,
    tempPath,
    write(text: string): void {
      if (closed) throw new Error(`${tempPath} is closed`);
      pending.push(text);
      pendingLength += text.length;
      if (pendingLength >= chunkSize) flush();
    },
    async commit(): Promise<void> {
      try {
        flush();
        await close();
        await rename(tempPath, path);
      } catch (e) {
        await close().catch(() => undefined);
        await unlink(tempPath).catch(() => undefined);
        throw new Error(reason(e));
      }
    },
    async abort(): Promise<void> {
      pending.length = 0;
      pendingLength = 0;
      await close().catch(() => undefined);
      await unlink(tempPath).catch(() => undefined);
    },
  };
}

/** writes `text` to `path` via a temporary sibling file and rename; rejects with a short reason */
export async function writeTextFileAtomic(path: string, text: string): Promise<void> {
  const writer = await openAtomicWriter(path);
  try {
    writer.write(text);
  } catch (e) {
    await writer.abort();
    throw e;
  }
  await writer.commit();
}
