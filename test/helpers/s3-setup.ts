/**
 * The run's S3 server, Ceph's RADOS Gateway (vitest globalSetup): started in the background
 * (scripts/support/s3-server.ts), awaited by the S3 tests (test/helpers/s3.ts), stopped and removed at the end.
 */
import type { TestProject } from 'vitest/node';
import { startS3Server } from '../../scripts/support/s3-server.js';
import { startInBackground } from './background-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the file the run's S3 server is announced in, once started (test/helpers/s3.ts waits for it) */
    s3Status: string;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  return startInBackground(project, 's3Status', startS3Server);
}
