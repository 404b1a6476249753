import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/cleanup.ts'],
    // One real PostgreSQL server for the run (each Postgres test file makes a database of its own on it).
    globalSetup: ['test/helpers/postgres-cluster.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Forks, not threads: some tests change the working directory, which a worker thread may not.
    // Three workers on two cores: many files mostly wait (latency, kill moments, timeouts), and a third
    // worker fills those gaps; measured side by side with two, the whole run took a tenth less.
    pool: 'forks',
    maxWorkers: 3,
    // One module graph per worker instead of one per file: importing the CLI and sandbox again for each of
    // 55 files cost about a fifth of the run. Every file restores what it changes (mocks, env, cwd).
    isolate: false,
  },
});
