/**
 * The command line's test fixtures: a fake `CliIo` (in-memory files, captured stdout and stderr)
 * and small models.
 */
import { expect } from 'vitest';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { CliIo, AtomicWriter } from '../../cli/main.js';

export interface Fake { io: CliIo; out: () => string; err: () => string; files: Map<string, string> }

/** an AtomicWriter into `mem`: the text appears under `path` at commit */
export function memWriter(mem: Map<string, string>, path: string): AtomicWriter {
  const parts: string[] = [];
  return {
    path,
    tempPath: `.${path}.tmp`,
    write: (t) => { parts.push(t); },
    commit: async () => { mem.set(path, parts.join('')); },
    abort: async () => { parts.length = 0; },
  };
}

/** in-memory files; anything else is read from disk (the bundled demo) */
export function fake(files: Record<string, string> = {}): Fake {
  const out: string[] = [], err: string[] = [];
  const mem = new Map(Object.entries(files));
  const io: CliIo = {
    stdout: (s) => { out.push(s); },
    stderr: (s) => { err.push(s); },
    isTTY: false,
    readFile: async (p) => mem.get(p) ?? readFile(p, 'utf8'),
    writeFileAtomic: async (p, t) => { mem.set(p, t); },
    openAtomic: async (p) => memWriter(mem, p),
  };
  return { io, out: () => out.join(''), err: () => err.join(''), files: mem };
}

/** a particle on a spring, a fixed anchor, and a body held by a bushing: 3 + 6 DOF */
export const tiny = JSON.stringify({
  version: 1, step: 0.01, duration: 0.1,
  particles: [{ name: 'p', mass: 1, position: [1, 0, 0] }, { name: 'anchor', mass: 1, position: [0, 0, 0], dynamic: false }],
  bodies: [{ name: 'b', mass: 1, shape: { type: 'box', size: [0.1, 0.1, 0.1] }, position: [0, 0, -1] }],
  forces: [
    { type: 'axial-spring', name: 's', points: ['anchor', 'p'], stiffness: 100, damping: 1 },
    { type: 'frame-spring', name: 'k', bodyA: 'world', bodyB: 'b', frame: { position: [0, 0, -1] }, translationalStiffness: 1000, rotationalStiffness: 10 },
  ],
});

/**
 * too stiff for symplectic Euler at this step (h ω = 2.5, past its limit of 2): it grows for a
 * few dozen steps, then blows up
 */
export const divergent = JSON.stringify({
  version: 1, integrator: 'symplectic-euler', step: 0.01, gravity: [0, 0, 0],
  particles: [{ name: 'x', mass: 1, position: [1.5, 0, 0] }],
  forces: [{ type: 'axial-spring', points: [['world', [0, 0, 0]], 'x'], stiffness: 6.25e4, restLength: 1 }],
});

/** a 0.4 m bar on a hinge about y at the world origin, released horizontal */
export const hingePendulum = JSON.stringify({
  version: 1, step: 0.005, duration: 0.2,
  bodies: [{ name: 'bar', mass: 1, shape: { type: 'box', size: [0.4, 0.02, 0.02] }, position: [0.2, 0, 0] }],
  joints: [{ type: 'hinge', name: 'h', bodyA: 'world', bodyB: 'bar', position: [0, 0, 0], axis: [0, 1, 0] }],
});

/** a 2 kg box hanging at rest 0.5 m below a ball joint; `sides` picks which side is the world */
export const hanging = (sides: { bodyA: string; bodyB: string }) => JSON.stringify({
  version: 1, step: 0.01, duration: 0.2,
  bodies: [{ name: 'B', mass: 2, shape: { type: 'box', size: [0.1, 0.1, 0.1] }, position: [0, 0, -0.5] }],
  joints: [{ type: 'ball', name: 'j', ...sides, frame: { position: [0, 0, 0] } }],
});

/** CSV text → header and numeric rows */
export function csv(text: string): { header: string[]; rows: number[][] } {
  const [head, ...lines] = text.trimEnd().split('\n');
  return { header: head!.split(','), rows: lines.map((l) => l.split(',').map(Number)) };
}

export const oneErrorLine = (s: string) => {
  expect(s.endsWith('\n')).toBe(true);
  expect(s.trimEnd().split('\n')).toHaveLength(1);
  expect(s.startsWith('error: ')).toBe(true);
};

/** stderr of a run that failed: warnings, one a line, then one error line, which it returns */
export const errorAfterWarnings = (s: string): string => {
  expect(s.endsWith('\n')).toBe(true);
  const lines = s.trimEnd().split('\n');
  for (const l of lines.slice(0, -1)) expect(l).toMatch(/^warning: /);
  const last = lines[lines.length - 1]!;
  expect(last).toMatch(/^error: /);
  return `${last}\n`;
};


/**
 * `fake(files)` on a terminal: stderr is a TTY stream that keeps what the progress bar draws, and
 * the clock advances 5 ms per reading, so 500 steps look like 2.5 s (long enough for a bar)
 */
export function fakeTerminal(files: Record<string, string>): Fake & { drawn: string[] } {
  const drawn: string[] = [];
  const stream = Object.assign(new Writable({ write(chunk, _enc, done) { drawn.push(String(chunk)); done(); } }), { isTTY: true, columns: 100 });
  let clock = 0;
  const f = fake(files);
  Object.assign(f.io, { isTTY: true, progressStream: stream, now: () => (clock += 5) });
  return { ...f, drawn };
}
