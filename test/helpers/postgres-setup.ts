/**
 * The run's PostgreSQL server (vitest globalSetup): started in the background (scripts/support/postgres-cluster.ts),
 * awaited by the Postgres tests (test/helpers/postgres.ts), stopped and removed at the end.
 */
import type { TestProject } from 'vitest/node';
import { startCluster } from '../../scripts/support/postgres-cluster.js';
import { startInBackground } from './background-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the file the run's server is announced in, once started (test/helpers/postgres.ts waits for it) */
    postgresStatus: string;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  return startInBackground(project, 'postgresStatus', startCluster);
}
