/**
 * `vinculum view` as a process, bundled with esbuild into a build's layout (dist/cli next to
 * dist/viewer, with a stand-in page): it says when the page is not built, serves the page and the
 * model at the address it prints (the bundled demo without a model), warns (and goes on) when no
 * browser opens, refuses a port in use, and exits 0 on SIGTERM and SIGINT.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');
let dir = '';
const cli = () => join(dir, 'dist', 'cli', 'vinculum.js');
const model = () => join(dir, 'four-bar.json');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vinculum-view-process-'));
  await build({
    entryPoints: [join(root, 'cli', 'vinculum.ts')], bundle: true, platform: 'node', format: 'esm',
    target: 'node20', outfile: cli(), logLevel: 'silent',
    // commander and cli-progress are CommonJS: they require Node's built-ins
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  writeFileSync(model(), readFileSync(join(root, 'examples', 'four-bar.json')));
}, 60_000);
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

/** the command, to its end */
const runView = (args: string[]) => spawnSync(process.execPath, [cli(), 'view', ...args],
  { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });

/** a stand-in for the built page in dist/viewer */
function buildPage(): void {
  mkdirSync(join(dir, 'dist', 'viewer'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'viewer', 'index.html'), '<!doctype html><p>viewer</p>');
}

describe('vinculum view as a process', () => {
  it('says on one line that the page is not built, exit code 2', () => {
    rmSync(join(dir, 'dist', 'viewer'), { recursive: true, force: true });
    const r = runView([model(), '--port', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('error: the viewer is not built (dist/viewer is missing): run npm run build\n');
    expect(r.stdout).toBe('');
  });

  /** starts `vinculum view …` (PATH without a browser opener); resolves when it has printed `lines` */
  async function start(args: string[], lines: { out: number; err: number }) {
    const child = spawn(process.execPath, [cli(), 'view', ...args],
      { cwd: dir, env: { ...process.env, PATH: join(dir, 'empty') }, stdio: ['ignore', 'pipe', 'pipe'] });
    const got = { out: '', err: '' };
    child.stdout.on('data', (d: Buffer) => { got.out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { got.err += d.toString(); });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const count = (s: string) => s.split('\n').length - 1;
    for (let k = 0; k < 200 && (count(got.out) < lines.out || count(got.err) < lines.err); k++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /^viewer: (http:\/\/127\.0\.0\.1:\d+\/\?model=\S+)\n/.exec(got.out)?.[1];
    /** the model the page would fetch */
    const served = async () => {
      const r = await fetch(new URL(new URL(url!).searchParams.get('model')!, url));
      return JSON.parse(await r.text()) as unknown;
    };
    return { child, got, exited, url, served };
  }

  it('serves the page and the model, warns when no browser opens, and stops on SIGTERM', async () => {
    buildPage();
    // --open without an opener on the PATH fails, with a warning only
    const run = await start([model(), '--port', '0', '--open'], { out: 2, err: 1 });
    const { child, got, exited, url, served } = run;
    try {
      expect(url, got.out).toBeDefined();
      expect(await (await fetch(url!)).text()).toContain('<p>viewer</p>');
      expect(await served()).toEqual(JSON.parse(readFileSync(model(), 'utf8')));
      expect(got.err).toBe(`${got.err.split(';')[0]}; open ${url}\n`);
      expect(got.err).toMatch(/^warning: cannot open a browser \(.+\); open /);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('serves the bundled demo without a model, and stops on SIGINT', async () => {
    buildPage();
    mkdirSync(join(dir, 'examples'), { recursive: true });
    const demo = readFileSync(join(root, 'examples', 'default-demo.json'), 'utf8');
    writeFileSync(join(dir, 'examples', 'default-demo.json'), demo);
    const { child, got, exited, url, served } = await start(['--port', '0'], { out: 2, err: 0 });
    try {
      expect(url, got.out).toMatch(/\?model=model%2Fdefault-demo\.json$/);
      expect(await served()).toEqual(JSON.parse(demo));
      expect(got.err).toBe('');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('refuses a port in use on one line, exit code 2', async () => {
    buildPage();
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = runView([model(), '--port', String(port)]);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`error: port ${port} is in use; choose another with --port\n`);
    } finally {
      await new Promise<void>((done) => busy.close(() => done()));
    }
  });
});
