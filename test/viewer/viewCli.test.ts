/**
 * `vinculum view` without a browser: its argument and model errors (one line, exit code 2, no
 * server), its server (the built page's files and the model, nothing outside the folder, a port
 * in use as a one-line error) and the mesh files it puts inline for the page.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../cli/main.js';
import { CliError } from '../../cli/common.js';
import { inlineMeshFiles, serveViewer, type ServedViewer } from '../../cli/view.js';
import { describeScene, parseModel } from '../../src/index.js';
import { loadModel } from '../../node/index.js';
import { fake } from '../cli/fake.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => { for (const c of cleanups.splice(0)) await c(); });

/** a temporary folder, removed after the test */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vinculum-view-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `vinculum view …` in-process: exit code and stderr */
async function view(args: string[], files: Record<string, string> = {}) {
  const f = fake(files);
  const code = await runCli(['view', ...args], f.io);
  return { code, err: f.err(), out: f.out() };
}

describe('vinculum view: errors before serving', () => {
  it('rejects a port that is not an integer from 0 to 65535, on one line', async () => {
    for (const port of ['abc', '-1', '70000', '1.5', '']) {
      const r = await view(['--port', port]);
      expect(r.code, port).toBe(2);
      expect(r.err).toMatch(/^error: .*--port.*expected a port number from 0 to 65535\.\n$/);
      expect(r.out).toBe('');
    }
  });

  it('reports a bad model as `validate` does, and serves nothing', async () => {
    const bad = JSON.stringify({ version: 1, bodies: [{ name: 'b', mass: -1, position: [0, 0, 0] }] });
    const r = await view(['bad.json', '--port', '0'], { 'bad.json': bad });
    const validate = fake({ 'bad.json': bad });
    expect(await runCli(['validate', 'bad.json'], validate.io)).toBe(2);
    expect(r.code).toBe(2);
    expect(r.err).toBe(validate.err());
    expect(r.err).toBe('error: bad.json: bodies[0].mass: must be positive (got -1)\n');
    expect(r.out).toBe('');
  });

  it('reports a missing model file on one line', async () => {
    const r = await view([join(tempDir(), 'nowhere.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: .*nowhere\.json.*\n$/);
    expect(r.err.split('\n')).toHaveLength(2);
  });
});

describe('the viewer server', () => {
  /** serves a fake built page (index.html, assets/app.js) with a file beside its folder */
  async function serve(port = 0): Promise<{ served: ServedViewer; dir: string }> {
    const dir = tempDir(), secret = `${dir}-secret.txt`;
    writeFileSync(join(dir, 'index.html'), '<!doctype html><p>page</p>');
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'app.js'), 'export {};');
    writeFileSync(secret, 'secret');
    cleanups.push(() => rmSync(secret, { force: true }));
    const served = await serveViewer(dir, { name: 'my model.json', text: '{"version":1}' }, port);
    cleanups.push(() => served.close());
    return { served, dir };
  }

  it('serves the page, its files and the model named in the address, on 127.0.0.1', async () => {
    const { served } = await serve();
    const url = new URL(served.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<p>page</p>');
    const js = await fetch(new URL('assets/app.js', url));
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    // the page fetches ?model= relative to itself
    const model = await fetch(new URL(url.searchParams.get('model')!, url));
    expect(model.status).toBe(200);
    expect(await model.text()).toBe('{"version":1}');
    expect((await fetch(new URL('nothing.js', url))).status).toBe(404);
    // a malformed escape is a bad request, and the server goes on
    expect((await fetch(new URL('/%E0%A4%A', url))).status).toBe(400);
    expect((await fetch(url)).status).toBe(200);
  });

  it('answers nothing outside the page\'s folder', async () => {
    const { served, dir } = await serve();
    const secret = `${dir.split('/').pop()}-secret.txt`;
    const base = served.url.replace(/\/\?.*$/, '');
    for (const path of [`/../${secret}`, `/%2e%2e/${secret}`, `/assets/..%2f..%2f${secret}`]) {
      const r = await fetch(base + path);
      expect(r.status, path).not.toBe(200);
      expect(await r.text(), path).not.toContain('secret');
    }
  });

  it('reports a port in use as a one-line error with exit code 2', async () => {
    const busy: Server = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    cleanups.push(() => new Promise((done) => busy.close(() => done())));
    const port = (busy.address() as { port: number }).port;
    const error = await serve(port).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toBe(`port ${port} is in use; choose another with --port`);
  });
});

describe('mesh files put inline', () => {
  it('gives the page the same meshes the command loads from the files', async () => {
    const dir = tempDir();
    // a tetrahedron as OBJ (faces counter-clockwise from outside)
    const tet = ['v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'v 0 0 1', 'f 1 3 2', 'f 1 2 4', 'f 1 4 3', 'f 2 3 4'];
    writeFileSync(join(dir, 'tet.obj'), `${tet.join('\n')}\n`);
    const doc = {
      version: 1,
      world: { shapes: [{ type: 'plane' }, { type: 'mesh', file: 'tet.obj', position: [2, 0, 0] }] },
      bodies: [
        { name: 'a', density: 1000, position: [0, 0, 1], shape: { type: 'mesh', file: 'tet.obj' } },
        { name: 'b', density: 1000, position: [0, 0, 3],
          shapes: [{ type: 'sphere', radius: 0.1 },
            { type: 'mesh', file: 'tet.obj', position: [0.5, 0, 0] }] },
      ],
    };
    const path = join(dir, 'model.json');
    writeFileSync(path, JSON.stringify(doc));
    const inline = JSON.stringify(inlineMeshFiles(doc, path));
    expect(inline).not.toContain('"file"');
    // parsed without any file access, the scene is the one loaded with the files
    const fromFiles = describeScene(await loadModel(path));
    const fromInline = describeScene(parseModel(inline, { source: 'model.json' }));
    expect(fromInline.shapes.filter((s) => s.mesh).length).toBe(3);
    expect(fromInline).toEqual(fromFiles);
  });
});
