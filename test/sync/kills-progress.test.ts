/**
 * A sync killed again and again a few seconds into each run (a container's deadline, without warning) moves the
 * mirror with the plain command: it commits after its first window and then at intervals that double, and its
 * three passes (the re-scan, the completions, the updates) take turns, so each of them moves in every run. It was:
 * no commit before 30 s, and each run re-scanned the last 48 h before anything else, so that a catch-up's Updated
 * pass advanced about one window a run. In-process, on a clock of the test's own: each request answered takes
 * 250 ms of it, and a run is "killed" at 3 s of it (nothing it would commit after that is durable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { fsReason } from '../../src/cli/exit-codes.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { type ErrorPolicy, runSync, type SyncRunOptions } from '../../src/sync/engine.js';
import { FolderStore } from '../../src/mirror/folder/store.js';
import { DEFAULT_CHECKPOINT_MS } from '../../src/sync/defaults.js';
import type { MirrorState } from '../../src/sync/store.js';
import { tempDir } from '../helpers/cli.js';
import { expectTidy, expectedRows, mirrorRows } from '../helpers/sync.js';

const H = 3_600_000;
const data = { seed: 113, swapsPerHour: 8 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = Date.parse('2026-11-11T00:00:00Z');
/** the backfill's range, and how much later its catch-up runs */
const SPAN = 12 * H;
const KILLED_AT = 3000;

let elapsed = 0;
/** the API's clock: the backfill runs a day before the catch-up */
let serverNow = NOW;
/** the run going on: stopped as soon as it is past its deadline (its commits after that fail anyway) */
let running: { started: number; stop: AbortController } | undefined;
let sandbox: RunningSandbox;
let client: SwapxClient;
beforeAll(async () => {
  const onRequest = () => {
    elapsed += 250;
    if (running && elapsed - running.started > KILLED_AT) running.stop.abort();
  };
  sandbox = await startSandbox({ port: 0, ...data, now: () => serverNow, onRequest });
  client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

class Killed extends Error {}
const errors: ErrorPolicy = { fsReason, refusedCredentials: () => false, transient: () => true };
const options = (extra: Partial<SyncRunOptions> = {}): SyncRunOptions => ({
  baseUrl: sandbox.url,
  since: undefined,
  until: undefined,
  lagMs: 6 * H,
  rescanEveryMs: 0,
  follow: false,
  intervalMs: 60_000,
  moveBaseUrl: false,
  checkpointMs: DEFAULT_CHECKPOINT_MS,
  concurrency: 1,
  ...extra,
});

/** One run, killed at KILLED_AT of its own time: its commits after that never happen. Resolves with the state after it. */
async function run(dir: string, extra: Partial<SyncRunOptions> = {}): Promise<{ killed: boolean; state: MirrorState }> {
  const started = elapsed;
  running = { started, stop: new AbortController() };
  const store = new FolderStore({ dir, now: () => NOW, fsReason });
  const commit = store.commit.bind(store);
  store.commit = async (next, newFrom) => {
    if (elapsed - started > KILLED_AT) throw new Killed();
    return commit(next, newFrom);
  };
  const deps = { store, client, now: () => serverNow, elapsed: () => elapsed, signal: running.stop.signal, requests: () => 0, retries: () => 0, errors };
  const killed = await runSync(options(extra), deps, () => {}).then(
    () => false,
    (error: unknown) => {
      if (error instanceof Killed) return true;
      throw error;
    },
  );
  return { killed, state: (await new FolderStore({ dir, now: () => NOW, fsReason }).readState())! };
}

describe('a sync killed 3 s into every run, the plain command', () => {
  it('moves every pass forward in every run, and ends with the API rows', async () => {
    const dir = path.join(tempDir('swapx-kills-'), 'out');
    // Half a day's backfill, then, half a day later, its catch-up: completions, their updates and the re-scan of the last 6 h.
    serverNow = SINCE + SPAN + 10 * 60_000;
    let first = await run(dir, { since: SINCE, until: SINCE + SPAN });
    const backfills = [first.state.cursor];
    while (first.state.cursor < SINCE + SPAN) {
      expect(backfills.length, 'runs of the backfill').toBeLessThan(30);
      first = await run(dir, { until: SINCE + SPAN });
      backfills.push(first.state.cursor);
    }
    // The backfill: each run moved the cursor.
    for (let i = 1; i < backfills.length; i++) expect(backfills[i]).toBeGreaterThan(backfills[i - 1]!);

    serverNow = NOW;
    let before = first.state;
    let runs = 0;
    for (;;) {
      const { killed, state: after } = await run(dir);
      runs += 1;
      if (!killed) break;
      expect(runs, 'runs of the catch-up').toBeLessThan(40);
      // Each pass with windows left moved: the completions cursor, the updates cursor, how far the re-scan got.
      if (before.cursor < NOW - 2 * 60_000) expect(after.cursor, `run ${runs}: the completions`).toBeGreaterThan(before.cursor);
      if (before.updatedCursor < NOW - 2 * 60_000) expect(after.updatedCursor, `run ${runs}: the updates`).toBeGreaterThan(before.updatedCursor);
      // The re-scan ran once in the catch-up: till then, each run got further (or to its end, at the present).
      const rescanned = (state: MirrorState) => (state.rescannedAt === NOW ? Number.POSITIVE_INFINITY : (state.rescannedTo ?? -1));
      if (before.rescannedAt !== NOW) expect(rescanned(after), `run ${runs}: the re-scan`).toBeGreaterThan(rescanned(before));
      before = after;
    }
    expect(runs).toBeGreaterThan(2);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, '2026-11-11T00:00:00Z', '2026-11-11T23:58:00Z', NOW));
    expectTidy(dir);
  });
});
