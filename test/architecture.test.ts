/**
 * Architectural rules: the core in src/ runs in browsers (no Node built-ins such as fs), the
 * engine is deterministic (no Math.random), and holds no module-level mutable state (`let` at
 * module scope).
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('architecture', () => {
  const all = files(src).map((p) => ({ p, text: readFileSync(p, 'utf8') }));
  it('src/ imports no Node built-ins', () => {
    const bad = all.filter(({ text }) => /from ['"](node:|fs|path|os|child_process)['"/]/.test(text)).map(({ p }) => p);
    expect(bad).toEqual([]);
  });
  it('src/ never calls Math.random', () => {
    expect(all.filter(({ text }) => text.includes('Math.random')).map(({ p }) => p)).toEqual([]);
  });
  it('src/ has no module-level `let`', () => {
    expect(all.filter(({ text }) => /^let /m.test(text)).map(({ p }) => p)).toEqual([]);
  });
});
