/**
 * runSync as a library call, without the CLI: the engine runs itself against a store, with the clock, the
 * signal and the error policy injected, reports through its events and returns a summary, or throws a typed
 * error saying how far the mirror got.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { AbortedError, UsageError } from '../../src/api/errors.js';
import { fsReason } from '../../src/cli/exit-codes.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { type ErrorPolicy, runSync, type SyncEvent, type SyncRunOptions } from '../../src/sync/engine.js';
import { FolderStore } from '../../src/mirror/folder/store.js';
import { DEFAULT_CHECKPOINT_MS, DEFAULT_LAG_MS } from '../../src/sync/defaults.js';
import { tempDir } from '../helpers/cli.js';
import { expectTidy, expectedRows, mirrorRows, readState } from '../helpers/sync.js';

const data = { seed: 111, swapsPerHour: 60 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = Date.parse('2026-11-11T08:00:00Z');
const UNTIL = Date.parse('2026-11-11T10:00:00Z');

let sandbox: RunningSandbox;
let client: SwapxClient;
let requests = 0;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ...data, now: () => NOW });
  client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' }, onAttempt: () => (requests += 1) });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const errors: ErrorPolicy = { fsReason, refusedCredentials: () => false, transient: () => true };
const options = (extra: Partial<SyncRunOptions> = {}): SyncRunOptions => ({
  baseUrl: sandbox.url,
  since: SINCE,
  until: UNTIL,
  lagMs: DEFAULT_LAG_MS,
  rescanEveryMs: 0,
  follow: false,
  intervalMs: 60_000,
  moveBaseUrl: false,
  checkpointMs: DEFAULT_CHECKPOINT_MS,
  concurrency: 2,
  ...extra,
});

function deps(dir: string, signal = new AbortController().signal) {
  // The injected clock: it stamps the state, whatever the machine's clock says.
  const now = () => NOW + 5 * 60_000;
  return { store: new FolderStore({ dir, now, fsReason }), client, now, signal, requests: () => requests, retries: () => 0, errors };
}

describe('runSync', () => {
  it('returns the summary, reports each step, and stamps the state with the injected clock', async () => {
    const dir = path.join(tempDir('swapx-runsync-'), 'out');
    const events: SyncEvent[] = [];
    const summary = await runSync(options(), deps(dir), (event) => events.push(event));
    expect(summary).toEqual({ cursor: UNTIL, updatedCursor: expect.any(Number), steps: 1 });
    // How far the step is, at its start and after each window; then the step.
    expect(events.map((event) => event.type)).toEqual(['progress', 'progress', 'progress', 'progress', 'progress', 'step']);
    expect(events.slice(0, 5).map((event) => event.type === 'progress' && [event.windows, event.windowsPlanned])).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    const last = events[4];
    const fetched = last?.type === 'progress' ? last.swaps : -1;
    expect(fetched).toBe(mirrorRows(dir).length);
    expect(events[5]).toMatchObject({ type: 'step', result: { complete: true, cursor: UNTIL, windows: 4 } });
    expect(readState(dir).updatedAt).toBe('2026-11-12T00:05:00Z');
    expect(mirrorRows(dir)).toEqual(expectedRows(data, '2026-11-11T08:00:00Z', '2026-11-11T10:00:00Z', NOW));
    expectTidy(dir);
  });

  it('throws a typed error: UsageError for a mirror of another query, AbortedError naming the cursor when stopped', async () => {
    const dir = path.join(tempDir('swapx-runsync-'), 'out');
    await runSync(options(), deps(dir), () => {});
    await expect(runSync(options({ baseUrl: 'http://127.0.0.1:1' }), deps(dir), () => {})).rejects.toBeInstanceOf(UsageError);
    const stopped = new AbortController();
    stopped.abort();
    const run = runSync(options({ until: UNTIL + 3_600_000 }), deps(dir, stopped.signal), () => {});
    await expect(run).rejects.toBeInstanceOf(AbortedError);
    await expect(run).rejects.toThrow('interrupted before the sync started');
    expect(readState(dir).cursor).toBe('2026-11-11T10:00:00Z');
  });
});
