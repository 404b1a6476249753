import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the CLI; two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
  },
});
