/**
 * File I/O for `vinculum/node` and the command line: text reads with short reasons, and
 * atomic writes (a temporary file in the destination folder, then `rename`, so a reader never
 * sees a half-written file and a failed run never clobbers a previous result).
 */
import { readFile, writeFile, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** a short reason for common file-system errors, instead of Node's multi-part messages */
function reason(e: unknown): string {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory', EISDIR: 'is a directory', EACCES: 'permission denied', EPERM: 'operation not permitted',
    ENOTDIR: 'a parent is not a directory', EROFS: 'read-only file system', ENOSPC: 'no space left on device',
  };
  return known[code] ?? (e instanceof Error ? e.message : String(e));
}

export async function readTextFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(reason(e));
  }
}

/** writes `text` to `path` via a temporary sibling file and rename */
export async function writeTextFileAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw new Error(reason(e));
  }
}
