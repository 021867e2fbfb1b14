/**
 * The atomic writer of node/files.ts on a temporary folder: text reaches the temporary file in
 * chunks while it is written, commit renames it, abort removes it, a directory or a missing
 * folder is refused at open, and stale temporary files of dead processes are removed.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAtomicWriter, removeStaleTemporaryFiles, writeTextFileAtomic, TEMP_HOST } from '../../node/files.js';

/** the id of a process that has exited */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('openAtomicWriter', () => {
  let dir = '';
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'vinculum-files-')); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

  it('streams into the temporary file in chunks and renames it at commit', async () => {
    const path = join(dir, 'out.csv');
    writeFileSync(path, 'previous\n');
    const w = await openAtomicWriter(path, { chunkSize: 100 });
    expect(w.tempPath).toMatch(new RegExp(`/\\.out\\.csv\\.${TEMP_HOST}\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    w.write('a'.repeat(60));
    expect(statSync(w.tempPath).size).toBe(0);            // buffered: below one chunk
    w.write('b'.repeat(60));
    expect(statSync(w.tempPath).size).toBe(120);          // a chunk is full: written
    w.write('é\n');
    expect(readFileSync(path, 'utf8')).toBe('previous\n'); // the destination is untouched until commit
    await w.commit();
    expect(readFileSync(path, 'utf8')).toBe(`${'a'.repeat(60)}${'b'.repeat(60)}é\n`);
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('abort removes the temporary file and leaves the destination as it was', async () => {
    const path = join(dir, 'out.csv');
    writeFileSync(path, 'previous\n');
    const w = await openAtomicWriter(path, { chunkSize: 4 });
    w.write('rows\nrows\n');
    await w.abort();
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(readFileSync(path, 'utf8')).toBe('previous\n');
    expect(() => w.write('more')).toThrow(/is closed/);
  });

  it('refuses a directory, a missing folder and a file as a folder, before anything is written', async () => {
    await expect(openAtomicWriter(dir)).rejects.toThrow(/^is a directory$/);
    await expect(openAtomicWriter(join(dir, 'missing', 'x.csv'))).rejects.toThrow(/^no such file or directory$/);
    writeFileSync(join(dir, 'f'), '');
    await expect(openAtomicWriter(join(dir, 'f', 'x.csv'))).rejects.toThrow(/^a parent is not a directory$/);
    expect(readdirSync(dir)).toEqual(['f']);
  });

  it('removes the temporary files of dead processes of this machine, and only those of this destination', async () => {
    const dead = deadPid(), H = TEMP_HOST;
    const stale = `.out.csv.${H}.${dead}.0badc0de.tmp`;
    const live = `.out.csv.${H}.${process.ppid}.12345678.tmp`;   // the parent is running
    const other = `.other.csv.${H}.${dead}.0badc0de.tmp`;        // another destination's
    const away = `.out.csv.another-host.${dead}.0badc0de.tmp`;   // another machine's: its pid means nothing here
    for (const name of [stale, live, other, away, 'out.csv.1.ab.tmp']) writeFileSync(join(dir, name), 'rows\n');
    const w = await openAtomicWriter(join(dir, 'out.csv'));
    expect(readdirSync(dir).sort()).toEqual([live, other, away, 'out.csv.1.ab.tmp', w.tempPath.slice(dir.length + 1)].sort());
    await w.commit();
    expect(readdirSync(dir).sort()).toEqual([live, other, away, 'out.csv', 'out.csv.1.ab.tmp'].sort());
    // a name with characters special in a regular expression is matched literally
    writeFileSync(join(dir, `.a+b.csv.${H}.${dead}.ff.tmp`), '');
    writeFileSync(join(dir, `.aab.csv.${H}.${dead}.ff.tmp`), '');
    expect(await removeStaleTemporaryFiles(join(dir, 'a+b.csv'))).toEqual([`.a+b.csv.${H}.${dead}.ff.tmp`]);
    expect(await removeStaleTemporaryFiles(join(dir, 'missing', 'x.csv'))).toEqual([]);
  });

  it('writeTextFileAtomic replaces a file and leaves no temporary file', async () => {
    mkdirSync(join(dir, 'sub'));
    const path = join(dir, 'sub', 'a.json');
    await writeTextFileAtomic(path, '1\n');
    await writeTextFileAtomic(path, '2\n');
    expect(readFileSync(path, 'utf8')).toBe('2\n');
    expect(readdirSync(join(dir, 'sub'))).toEqual(['a.json']);
  });
});
