import { defineConfig } from 'vitest/config';
import SlowFirst from './test/helpers/slow-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/cleanup.ts'],
    // One real PostgreSQL server for the run (each Postgres test file makes a database of its own on it), and one real
    // S3 server, Ceph's radosgw (each S3 test file makes a bucket of its own on it); both start in the background.
    globalSetup: ['test/helpers/postgres-setup.ts', 'test/helpers/s3-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Forks, not threads: some tests change the working directory, which a worker thread may not.
    // Four workers on two cores: many files mostly wait (latency, kill moments, timeouts), and the workers past
    // two fill those gaps. Measured side by side on a quiet 2-core machine: three took a tenth less than two, and
    // four about 53 s against three's 57–59 s (five: 51 s; the cores are then nearly always busy).
    pool: 'forks',
    maxWorkers: 4,
    // One module graph per worker instead of one per file: importing the CLI and sandbox again for each of
    // 55 files cost about a fifth of the run. Every file restores what it changes (mocks, env, cwd).
    isolate: false,
    // The longest files first, where no durations of a run before are at hand (a fresh clone: CI).
    sequence: { sequencer: SlowFirst },
  },
});
