/**
 * The API reference builds without a warning: every export of `vinculum` and `vinculum/node`
 * has its TSDoc, and every type it refers to is documented (typedoc.json treats warnings as
 * errors; `npm run docs` writes the pages to docs/api/).
 */
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the API reference', () => {
  it('builds with TypeDoc without warnings', () => {
    const r = spawnSync(process.execPath, ['node_modules/typedoc/bin/typedoc', '--emit', 'none'], { cwd: root, encoding: 'utf8' });
    const out = `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
    expect(out.split('\n').filter((l) => /warning|error/i.test(l))).toEqual([]);
    expect(r.status).toBe(0);
  }, 120_000);
});
