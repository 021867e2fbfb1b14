/**
 * `vinculum view [model]`: serves the viewer page (dist/viewer, built by scripts/viewer.mjs) on
 * 127.0.0.1 with the model loaded (docs/viewer.md). The model is read and validated first, so a
 * bad model is the usual one-line error (exit 2) and no server starts. Mesh files named by the
 * model are read here and put inline, so the page needs no access to the file system. The server
 * runs until SIGINT or SIGTERM.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve as resolvePath, sep } from 'node:path';
import { spawn } from 'node:child_process';
import type { CliIo } from './io.js';
import { CliError, messageOf } from './common.js';
import { builtFolder, demoText, loadModelFile } from './load.js';
import { meshFileReader } from '../node/index.js';
import { isRecord } from '../src/io/messages.js';

/** `vinculum view`'s options */
export interface ViewOptions {
  /** the port on 127.0.0.1 (0: any free one) */
  port: number;
  /** open the page in a browser */
  open?: boolean;
}

/** a served viewer: its address, and how to stop it */
export interface ServedViewer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.map': 'application/json',
};

/**
 * the built viewer next to this module: dist/cli → dist/viewer, or cli/ (sources) → dist/viewer;
 * null if it is not built (the sources' viewer/ is never served: it is the page before Vite)
 */
export function viewerFolder(): string | null {
  return builtFolder('viewer', 'index.html');
}

/** the model file's document with each mesh `file` replaced by its vertices and triangles */
export function inlineMeshFiles(doc: unknown, modelPath: string): unknown {
  // the files are read as loading the model reads them (relative to the model's folder)
  const read = meshFileReader(modelPath);
  const inline = (shape: unknown): unknown => {
    if (!isRecord(shape) || shape['type'] !== 'mesh' || typeof shape['file'] !== 'string') return shape;
    const file = shape['file'], { file: _, ...rest } = shape;
    const lists = read(file);
    return { ...rest, vertices: lists.vertices, triangles: lists.triangles };
  };
  if (!isRecord(doc)) return doc;
  const out: Record<string, unknown> = { ...doc };
  if (Array.isArray(doc['bodies'])) {
    out['bodies'] = doc['bodies'].map((b) => (!isRecord(b) ? b : {
      ...b, ...(b['shape'] !== undefined ? { shape: inline(b['shape']) } : {}),
      ...(Array.isArray(b['shapes']) ? { shapes: b['shapes'].map(inline) } : {}),
    }));
  }
  const world = doc['world'];
  if (isRecord(world) && Array.isArray(world['shapes'])) {
    out['world'] = { ...world, shapes: world['shapes'].map(inline) };
  }
  return out;
}

/**
 * Serves `folder` (the built viewer) and the model text at /model/<name> on 127.0.0.1:`port`;
 * resolves once listening, with the page's address (the model's name in its query)
 */
export function serveViewer(
  folder: string, model: { name: string; text: string }, port: number,
): Promise<ServedViewer> {
  const modelPath = `/model/${encodeURIComponent(model.name)}`, root = resolvePath(folder);
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
      return;
    }
    if (path === `/model/${model.name}`) {
      res.writeHead(200, { 'content-type': TYPES['.json']!, 'cache-control': 'no-store' }).end(model.text);
      return;
    }
    // files of the built viewer only: no path out of the folder (nor into a sibling named like it)
    const file = resolvePath(root, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(root + sep)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': type }).end(body),
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(new CliError(2, e.code === 'EADDRINUSE' ? `port ${port} is in use; choose another with --port`
        : `cannot serve on 127.0.0.1:${port}: ${e.message}`));
    });
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      const url = `http://127.0.0.1:${bound}/?model=${encodeURIComponent(modelPath.slice(1))}`;
      // closing waits for open connections: a page's keep-alive ones are ended at once
      const close = () => new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      resolve({ url, server, close });
    });
  });
}

/** opens `url` in the system's browser; a failure is a warning */
function openBrowser(io: CliIo, url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]]
    : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const warn = (why: string) => io.stderr(`warning: cannot open a browser (${why}); open ${url}\n`);
  const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
  child.on('error', (e) => warn(messageOf(e)));
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) warn(`${command} exited with code ${code}`);
  });
  child.unref();
}

/** `vinculum view`: validates the model, serves the viewer, waits for a signal; resolves to the exit code */
export async function view(io: CliIo, file: string | undefined, opts: ViewOptions): Promise<number> {
  // the model first: a bad model is its one-line error whether or not the page is built
  const { name, text } = file === undefined ? await demoModel(io) : await modelText(io, file);
  const folder = viewerFolder();
  if (!folder) throw new CliError(2, 'the viewer is not built (dist/viewer is missing): run npm run build');
  const served = await serveViewer(folder, { name, text }, opts.port);
  io.stdout(`viewer: ${served.url}\n(Ctrl+C stops the server)\n`);
  if (opts.open) openBrowser(io, served.url);
  await new Promise<void>((resolve) => {
    const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); resolve(); };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await served.close();
  return 0;
}

/** the model file, validated, as text with its mesh files inline */
async function modelText(io: CliIo, file: string): Promise<{ name: string; text: string }> {
  await loadModelFile(io, file);
  // the file as written (validated above), not the validated document with its defaults filled in
  const doc = JSON.parse(await io.readFile(file)) as unknown;
  return { name: basename(file), text: JSON.stringify(inlineMeshFiles(doc, file)) };
}

/** the bundled demo as text */
async function demoModel(io: CliIo): Promise<{ name: string; text: string }> {
  return { name: 'default-demo.json', text: await demoText(io) };
}
