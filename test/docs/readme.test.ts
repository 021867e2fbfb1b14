/**
 * The README's API example runs as written: its TypeScript block is copied into a module next to
 * this test (the `vinculum` import resolves to the sources, as for the examples) and imported.
 */
import { describe, it, expect, vi } from 'vitest';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../..', import.meta.url);

describe('README.md', () => {
  it('the pendulum of the API tour runs and prints the time, the hinge angle and the reaction', async () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const file = fileURLToPath(new URL('./readme-snippet.generated.ts', import.meta.url));
    writeFileSync(file, block!);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      // a computed specifier: the module exists only while the test runs, so tsc must not resolve it
      await import(/* @vite-ignore */ file);
      const [time, coordinates, force] = log.mock.calls[0] as [number, number[], number[]];
      expect(time).toBeCloseTo(1, 12);
      expect(coordinates).toHaveLength(1);
      // the reaction holds the swinging bar: at least its weight's order, 1000 kg/m³ × 2.5e-3 m³ × g
      expect(Math.hypot(...force)).toBeGreaterThan(1);
    } finally {
      log.mockRestore();
      rmSync(file, { force: true });
    }
  });
});
