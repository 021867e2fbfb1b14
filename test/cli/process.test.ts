/**
 * The `vinculum` executable as a process, bundled with esbuild into the two layouts it runs from:
 * the build's `dist/cli/` and an installed package's `node_modules/vinculum/dist/cli/`. It finds
 * its package.json there for --version, writes the summary to stdout and warnings to stderr, and
 * streams its output to the file.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname ?? '.', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

let dir = '';
const layouts = () => ({ build: join(dir, 'project', 'dist', 'cli'), installed: join(dir, 'app', 'node_modules', 'vinculum', 'dist', 'cli') });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vinculum-process-'));
  const { build: inBuild, installed } = layouts();
  for (const at of [inBuild, installed]) {
    mkdirSync(at, { recursive: true });
    await build({
      entryPoints: [join(root, 'cli', 'vinculum.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20',
      outfile: join(at, 'vinculum.js'), logLevel: 'silent',
      // commander and cli-progress are CommonJS: they require Node's built-ins
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    cpSync(join(root, 'package.json'), join(at, '..', '..', 'package.json'));
  }
  // the app's own package.json, which --version must not pick up
  writeFileSync(join(dir, 'app', 'package.json'), JSON.stringify({ name: 'app', version: '9.9.9' }));
}, 60_000);
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

const vinculum = (at: string, args: string[], cwd = dir) =>
  spawnSync(process.execPath, [join(at, 'vinculum.js'), ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the vinculum process', () => {
  it('--version prints the package version from dist/cli/ and from node_modules/vinculum/dist/cli/', () => {
    for (const at of Object.values(layouts())) {
      const r = vinculum(at, ['--version']);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`${pkg.version}\n`);
      expect(r.stderr).toBe('');
    }
  });

  it('the summary goes to stdout, warnings to stderr, rows to the file', () => {
    cpSync(join(root, 'examples', 'four-bar.json'), join(dir, 'four-bar.json'));
    const r = vinculum(layouts().installed, ['run', 'four-bar.json', '--duration', '0.1', '--out', 'bar.csv'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^model {11}four-bar\.json: /);
    expect(r.stdout).toContain('output          bar.csv (21 rows)');
    expect(r.stdout).not.toContain('warning:');
    expect(r.stdout).toContain('warnings        1 (on stderr)');
    expect(r.stderr).toMatch(/^warning: step 1: redundant constraints .*\n$/);
    expect(readFileSync(join(dir, 'bar.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(1 + 21);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('an unwritable --out and a run too long fail at once with exit 2 and one line', () => {
    const at = layouts().build;
    const missing = vinculum(at, ['run', join(root, 'examples', 'cloth.json'), '--out', 'nowhere/c.csv']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('error: cannot write nowhere/c.csv: no such file or directory\n');
    const long = vinculum(at, ['run', join(root, 'examples', 'cloth.json'), '--duration', '1e308']);
    expect(long.status).toBe(2);
    expect(long.stderr).toMatch(/^error: --duration \/ step: 1e\+308 s \/ 0\.01 s = Infinity steps, more than the cap of 1e8 \(raise it with --max-steps\)\n$/);
    expect(long.stdout).toBe('');
  });
});
