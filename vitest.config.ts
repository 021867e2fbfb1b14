import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  // the examples import the package by name, as users do; the tests run them on the sources
  resolve: {
    alias: [
      { find: /^vinculum$/, replacement: here('./src/index.ts') },
      { find: /^vinculum\/node$/, replacement: here('./node/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    pool: 'threads',
  },
});
