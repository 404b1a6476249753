/**
 * A first run that fails after it committed keeps what it committed: the first backfill is the longest run and the
 * likeliest to fail (a full disk, a database gone, a lock lost), and the cron line that follows it gives no --since.
 * Only a first run that committed nothing past its start is cleaned away. For the folder and the Postgres table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { fsReason } from '../../src/cli/exit-codes.js';
import { PostgresStore } from '../../src/mirror/postgres/store.js';
import { parseTarget } from '../../src/mirror/postgres/target.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { type ErrorPolicy, runSync, type SyncRunOptions } from '../../src/sync/engine.js';
import { FolderStore } from '../../src/mirror/folder/store.js';
import { DEFAULT_LAG_MS } from '../../src/sync/defaults.js';
import type { MirrorQuery, MirrorState, MirrorStore } from '../../src/sync/store.js';
import { tempDir } from '../helpers/cli.js';
import { comparableSwap, tableSwaps } from '../../scripts/support/comparable.js';
import { usePostgres } from '../helpers/postgres.js';
import { expectedRows, mirrorRows } from '../helpers/sync.js';

const data = { seed: 112, swapsPerHour: 60 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = Date.parse('2026-11-11T08:00:00Z');
const UNTIL = Date.parse('2026-11-11T10:00:00Z');

let sandbox: RunningSandbox;
let client: SwapxClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, ...data, now: () => NOW });
  client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});
const db = usePostgres();

const errors: ErrorPolicy = { fsReason, refusedCredentials: () => false, transient: () => true };
const options = (extra: Partial<SyncRunOptions> = {}): SyncRunOptions => ({
  baseUrl: sandbox.url,
  since: undefined,
  until: UNTIL,
  lagMs: DEFAULT_LAG_MS,
  rescanEveryMs: 0,
  follow: false,
  intervalMs: 60_000,
  moveBaseUrl: false,
  checkpointMs: 60_000,
  concurrency: 1,
  commitWindows: 1,
  ...extra,
});
const deps = <Q extends MirrorQuery>(store: MirrorStore<Q>) => ({
  store,
  client,
  now: () => NOW,
  signal: new AbortController().signal,
  requests: () => 0,
  retries: () => 0,
  errors,
});

/** The store, whose `n`th commit fails as a destination that went away does (not a file-system error). */
function failingCommit<Q extends MirrorQuery>(store: MirrorStore<Q>, n: number, failure: Error): MirrorStore<Q> {
  let commits = 0;
  const commit = store.commit.bind(store);
  store.commit = async (next: MirrorState<Q>, newFrom: number) => {
    commits += 1;
    if (commits === n) throw failure;
    return commit(next, newFrom);
  };
  return store;
}

describe.each([
  [
    'a folder',
    () => {
      const dir = path.join(tempDir('swapx-first-fails-'), 'out');
      return { make: () => new FolderStore({ dir, now: () => NOW, fsReason }), rows: async () => mirrorRows(dir).map(comparableSwap) };
    },
  ],
  [
    'a Postgres table',
    () => {
      const target = parseTarget(db.url, { env: db.env, table: `first_fails_${Math.random().toString(36).slice(2, 8)}` });
      return { make: () => new PostgresStore(target, '0.0.0-test'), rows: () => tableSwaps(db.sql, target.table) };
    },
  ],
])('%s: a first run that fails after committing', (_name, destination) => {
  it('keeps what it committed; the cron line (no --since) continues it to the same rows as a clean run', async () => {
    const { make, rows } = destination();
    const failure = new Error('the destination went away');
    // Commits: the start, the first window (08:00 → 08:30), then the second window's, which fails.
    await expect(runSync(options({ since: SINCE }), deps(failingCommit(make(), 3, failure)), () => {})).rejects.toBe(failure);
    // It was: the state discarded while the rows stayed, and the cron line then exited 2 ("the first run needs --since").
    expect(await make().readState()).toMatchObject({ since: SINCE, cursor: SINCE + 30 * 60_000 });
    expect((await rows()).length).toBeGreaterThan(0);
    expect(await runSync(options(), deps(make()), () => {})).toMatchObject({ cursor: UNTIL });
    const expected = expectedRows(data, '2026-11-11T08:00:00Z', '2026-11-11T10:00:00Z', NOW).map(comparableSwap);
    expect((await rows()).sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual(expected);
  });

  it('one that fails before it committed anything past its start is cleaned away', async () => {
    const { make } = destination();
    const failure = new Error('the destination went away');
    await expect(runSync(options({ since: SINCE }), deps(failingCommit(make(), 2, failure)), () => {})).rejects.toBe(failure);
    expect(await make().readState()).toBeUndefined();
  });
});
