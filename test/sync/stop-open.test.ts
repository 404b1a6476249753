import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { fsReason } from '../../src/cli/exit-codes.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { type ErrorPolicy, runSync, type SyncEvent } from '../../src/sync/engine.js';
import { FolderStore } from '../../src/mirror/folder/store.js';
import { DEFAULT_CHECKPOINT_MS, DEFAULT_LAG_MS } from '../../src/sync/defaults.js';
import { tempDir } from '../helpers/cli.js';

const NOW = Date.parse('2026-11-12T00:00:00Z');
let sandbox: RunningSandbox;
let client: SwapxClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 111, swapsPerHour: 60, now: () => NOW });
  client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

it('a second signal while the store opens (lock taken, state being read) releases the lock and says where the mirror stands', async () => {
  const dir = path.join(tempDir('swapx-review-'), 'out');
  const lockFile = path.join(dir, '.swapx-sync.lock');
  const stop = new AbortController();
  let lockThere: boolean | undefined;
  const events: SyncEvent[] = [];
  const readFile = fsp.readFile;
  const spy = vi.spyOn(fsp, 'readFile').mockImplementation((async (name: unknown, ...rest: unknown[]) => {
    // The second signal arrives once the lock is held, before the engine has registered its last words.
    if (typeof name === 'string' && name.endsWith('.json') && fs.existsSync(lockFile) && !stop.signal.aborted) {
      stop.abort();
      lockThere = fs.existsSync(lockFile);
    }
    return (readFile as (...a: unknown[]) => unknown)(name, ...rest);
  }) as typeof fsp.readFile);
  const errors: ErrorPolicy = { fsReason, refusedCredentials: () => false, transient: () => true };
  const now = () => NOW + 5 * 60_000;
  try {
    await runSync(
      {
        baseUrl: sandbox.url,
        since: Date.parse('2026-11-11T08:00:00Z'),
        until: Date.parse('2026-11-11T09:00:00Z'),
        lagMs: DEFAULT_LAG_MS,
        rescanEveryMs: 0,
        follow: false,
        intervalMs: 60_000,
        moveBaseUrl: false,
        checkpointMs: DEFAULT_CHECKPOINT_MS,
        concurrency: 1,
      },
      {
        store: new FolderStore({ dir, now, fsReason }),
        client,
        now,
        signal: new AbortController().signal,
        stop: stop.signal,
        requests: () => 0,
        retries: () => 0,
        errors,
      },
      (event) => events.push(event),
    ).catch(() => {});
  } finally {
    spy.mockRestore();
  }
  expect(stop.signal.aborted).toBe(true);
  expect(lockThere).toBe(false); // is true: the process exits 130 with .swapx-sync.lock left
  expect(events.some((e) => e.type === 'stopped-now')).toBe(true); // nothing said
});
