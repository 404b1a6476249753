/**
 * A test server the run's globalSetup starts in the background (PostgreSQL, the S3 gateway), so that the workers
 * start, and the files that need no server run, meanwhile: announced in a status file once up, or why it did not
 * start, which the tests that need it wait for.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestProject } from 'vitest/node';

/** What a status file holds: the server, or why it did not start. */
export type ServerStatus<S> = { server: S } | { error: string };

/**
 * Starts `start` in the background and provides its status file to the workers as `key`; the returned teardown
 * stops it, still starting or started (a run without a test that needs it does not wait for it).
 */
export function startInBackground<S>(
  project: TestProject,
  key: 'postgresStatus' | 's3Status',
  start: (signal: AbortSignal) => Promise<{ server: S; stop: () => void }>,
): () => Promise<void> {
  const statusDir = fs.mkdtempSync(path.join(os.tmpdir(), `swapx-${key}-`));
  const statusFile = path.join(statusDir, 'server.json');
  project.provide(key, statusFile);
  // Written whole (a rename): a worker never reads half of it.
  const announce = (status: ServerStatus<S>) => {
    fs.writeFileSync(`${statusFile}.tmp`, JSON.stringify(status));
    fs.renameSync(`${statusFile}.tmp`, statusFile);
  };
  const starting = new AbortController();
  const started = start(starting.signal).then(
    (cluster) => {
      announce({ server: cluster.server });
      return cluster;
    },
    (error: unknown) => {
      announce({ error: error instanceof Error ? error.message : String(error) });
      return undefined;
    },
  );
  return async () => {
    starting.abort();
    (await started)?.stop();
    fs.rmSync(statusDir, { recursive: true, force: true });
  };
}

/**
 * The server announced in `file`, once it is: throws why it did not start, or that it did not within `withinMs`
 * (keep it below the hook timeout, 30 s, so that a server slow to start says so, not "hook timed out").
 */
export async function announcedServer<S>(file: string, what: string, withinMs: number): Promise<S> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== undefined) {
      const status = JSON.parse(text) as ServerStatus<S>;
      if ('error' in status) throw new Error(status.error);
      return status.server;
    }
    if (Date.now() > deadline) throw new Error(`the ${what} did not start within ${withinMs / 1000} s`);
    await sleep(20);
  }
}
