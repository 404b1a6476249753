/**
 * runSync's own decisions, each checked on an exact value: the server's clock over ours, where a step ends, when
 * it re-scans, a moved base URL, the fields a mirror needs, the notes said once, the failures' words, a first run
 * that fails leaving nothing, --follow's events, and the last words of a second signal. A small API of the test's
 * own serves a fixed set of swaps with the Date header the test sets, and fails the requests a test asks it to.
 */
import fs from 'node:fs';
import { inUsersTerms, sinceIgnoredWords, warningWords } from '../../src/commands/sync/errors.js';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type SwapxClient } from '../../src/api/client.js';
import { AbortedError, UsageError, WrappedError } from '../../src/api/errors.js';
import { fsReason } from '../../src/cli/exit-codes.js';
import { type ErrorPolicy, runSync, type SyncDeps, type SyncEvent, type SyncRunOptions } from '../../src/sync/engine.js';
import { FolderStore } from '../../src/mirror/folder/store.js';
import type { SyncQuery, SyncState } from '../../src/mirror/partitions/state-file.js';
import type { MirrorRow, MirrorState, MirrorStore } from '../../src/sync/store.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { tempDir } from '../helpers/cli.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { useRouteServer } from '../helpers/route-server.js';
import { mirrorRows, readState } from '../helpers/sync.js';

const H = 3_600_000;
const MIN = 60_000;
/** the server's clock, a whole second (the Date header has no finer) */
const SERVER = Date.parse('2026-11-12T00:00:00Z');
const SINCE = Date.parse('2026-11-11T08:00:00Z');
const UNTIL = Date.parse('2026-11-11T10:00:00Z');
/** the updatedAt of the later of the two swaps served by default: the updates cursor of a mirror holding both */
const S2_UPDATED = Date.parse('2026-11-11T09:40:00Z');

type Query = { from: number; to: number; filter: string };
interface Api {
  swaps: Record<string, unknown>[];
  clock: number;
  /** a status to answer this request with instead of its swaps */
  fail?: (query: Query) => number | undefined;
  /** what the answer holds instead of the swaps of its window */
  answer?: (query: Query, swaps: Record<string, unknown>[]) => Record<string, unknown>[];
  served: number;
}
let api: Api;
const reset = (): Api => ({ swaps: [swap('s1', '2026-11-11T08:10:00Z'), swap('s2', '2026-11-11T09:40:00Z')], clock: SERVER, served: 0 });
api = reset();
afterEach(() => {
  api = reset();
});

function swap(id: string, completedAt: string, updatedAt = completedAt, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...ONE_SWAP, id, completedAt, updatedAt, ...extra };
}

function serve(req: http.IncomingMessage, res: http.ServerResponse): void {
  api.served += 1;
  const url = new URL(req.url ?? '/', 'http://x');
  const query = {
    from: Date.parse(url.searchParams.get('From') ?? ''),
    to: Date.parse(url.searchParams.get('To') ?? ''),
    filter: url.searchParams.get('Filter') ?? '',
  };
  res.setHeader('date', new Date(api.clock).toUTCString());
  const status = api.fail?.(query);
  if (status !== undefined) {
    res.writeHead(status, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Broken', status }));
    return;
  }
  const field = query.filter === 'Updated' ? 'updatedAt' : 'completedAt';
  const inWindow = api.swaps.filter((s) => {
    const t = Date.parse(String(s[field]));
    return t >= query.from && t <= query.to;
  });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(api.answer ? api.answer(query, inWindow) : inWindow));
}

const server = useRouteServer({ '/a': serve, '/b': serve });
const clients: SwapxClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

let requests = 0;
function client(route = '/a'): SwapxClient {
  const made = createClient({
    baseUrl: `${server.base}${route}`,
    credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' },
    retries: 0,
    onAttempt: () => (requests += 1),
  });
  clients.push(made);
  return made;
}

const policy = (extra: Partial<ErrorPolicy> = {}): ErrorPolicy => ({ fsReason, refusedCredentials: () => false, transient: () => false, ...extra });

function options(extra: Partial<SyncRunOptions> = {}): SyncRunOptions {
  return {
    baseUrl: `${server.base}/a`,
    since: SINCE,
    until: UNTIL,
    lagMs: 0,
    rescanEveryMs: 0,
    follow: false,
    intervalMs: 5,
    moveBaseUrl: false,
    checkpointMs: 0,
    concurrency: 1,
    ...extra,
  };
}

/** Our clock, an hour ahead of the server's: the engine must plan by the server's. */
const LOCAL = SERVER + H;

function deps(dir: string, extra: Partial<SyncDeps<SyncQuery>> = {}): SyncDeps<SyncQuery> {
  const now = () => LOCAL;
  return {
    store: new FolderStore({ dir, now, fsReason }),
    client: client(),
    now,
    signal: new AbortController().signal,
    requests: () => requests,
    retries: () => 0,
    errors: policy(),
    ...extra,
  };
}

const newDir = () => path.join(tempDir('swapx-engine-'), 'out');
/** The notes of a run, as the shell says them. */
const notes = (events: SyncEvent[]) =>
  events.flatMap((event) =>
    event.type === 'note'
      ? [event.message]
      : event.type === 'warning'
        ? [warningWords(event.warning)]
        : event.type === 'since-ignored'
          ? [sinceIgnoredWords(event.mirror, event.since, event.cursor)]
          : [],
  );
/** What `promise` rejects with, as the user reads it: the shell words the engine's refusals in its flags. */
const said = <T>(promise: Promise<T>): Promise<T> =>
  promise.catch((error: unknown) => {
    throw inUsersTerms(error);
  });

const steps = (events: SyncEvent[]) => events.flatMap((event) => (event.type === 'step' ? [event.result] : []));
const isClockRead = (query: Query) => query.from === query.to;
const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('the present', () => {
  it('is the server clock, not ours: without --until the cursor stops 2 minutes before the server clock', async () => {
    const dir = newDir();
    const summary = await runSync(options({ until: undefined, since: SERVER - H }), deps(dir), () => {});
    expect(summary).toEqual({ cursor: SERVER - 2 * MIN, updatedCursor: SERVER - H, steps: 1 });
  });

  it('is our clock when the server clock cannot be read (an outage is left to the windows)', async () => {
    const dir = newDir();
    api.fail = (query) => (isClockRead(query) ? 500 : undefined);
    const summary = await runSync(options({ until: undefined, since: SERVER - H }), deps(dir), () => {});
    expect(summary.cursor).toBe(LOCAL - 2 * MIN);
  });

  it('refused credentials on the clock read end the run before anything is made', async () => {
    const dir = newDir();
    api.fail = () => 401;
    const run = runSync(options(), deps(dir, { errors: policy({ refusedCredentials: () => true }) }), () => {});
    await expect(run).rejects.toMatchObject({ status: 401 });
    // the clock read alone: no window was asked for
    expect(api.served).toBe(1);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('a cursor past the server clock stays where it is (the step ends at the cursor)', async () => {
    const dir = newDir();
    api.clock = UNTIL + 10 * MIN;
    await runSync(options({ until: UNTIL + 30 * MIN }), deps(dir), () => {});
    // The server's clock is now behind the cursor: nothing moves it back.
    api.clock = UNTIL;
    const events: SyncEvent[] = [];
    const summary = await runSync(options({ until: undefined }), deps(dir), (event) => events.push(event));
    expect(summary.cursor).toBe(UNTIL + 30 * MIN);
    expect(steps(events)[0]?.cursor).toBe(UNTIL + 30 * MIN);
  });

  it('an explicit --until before the present: the updates cursor goes on to the present, not to --until', async () => {
    const dir = newDir();
    await runSync(options(), deps(dir), () => {});
    // s1 changes at 11:00, after --until (10:00) and before the present.
    api.swaps[0] = swap('s1', '2026-11-11T08:10:00Z', '2026-11-11T11:00:00Z');
    const summary = await runSync(options(), deps(dir), () => {});
    expect(summary).toEqual({ cursor: UNTIL, updatedCursor: Date.parse('2026-11-11T11:00:00Z'), steps: 1 });
  });
});

describe('a clock that is wrong', () => {
  it('a server clock more than 5 minutes ahead of ours is believed only that far, and said once a run', async () => {
    const dir = newDir();
    api.clock = LOCAL + 24 * H;
    const events: SyncEvent[] = [];
    const summary = await runSync(options({ until: undefined, since: SERVER - H }), deps(dir), (event) => events.push(event));
    // It was: the cursor at the server's clock, a day ahead, past swaps not completed yet.
    expect(summary.cursor).toBe(LOCAL + 3 * MIN);
    expect(notes(events)).toEqual([
      "the API's clock (2026-11-13T01:00:00Z) is 24h00m ahead of this machine's: the sync takes this machine's clock plus 5m00s as the present (check both clocks, and any proxy's Date header)",
    ]);
    // --follow: each step reads the clock again, and the note is not said again.
    const stop = new AbortController();
    const followed: SyncEvent[] = [];
    await runSync(options({ follow: true, until: undefined, since: SERVER - H }), deps(dir, { signal: stop.signal }), (event) => {
      followed.push(event);
      if (steps(followed).length === 2) stop.abort();
    });
    expect(notes(followed)).toHaveLength(1);
    expect(steps(followed).map((step) => step.cursor)).toEqual([LOCAL + 3 * MIN, LOCAL + 3 * MIN]);
  });

  it('a clock 5 minutes ahead, or any behind ours, is believed', async () => {
    api.clock = LOCAL + 5 * MIN;
    const ahead = await runSync(options({ until: undefined, since: SERVER - H }), deps(newDir()), () => {});
    expect(ahead.cursor).toBe(LOCAL + 3 * MIN);
    api.clock = SERVER;
    const events: SyncEvent[] = [];
    const behind = await runSync(options({ until: undefined, since: SERVER - H }), deps(newDir()), (event) => events.push(event));
    expect([behind.cursor, notes(events)]).toEqual([SERVER - 2 * MIN, []]);
  });

  it('a state saved under a clock in 2099 is pulled back to the present, and the re-scan it turned off runs again', async () => {
    const dir = newDir();
    const store = new FolderStore({ dir, now: () => LOCAL, fsReason });
    await store.open(() => {});
    const query = store.resolveQuery(`${server.base}/a`, undefined);
    const y2099 = Date.parse('2099-01-01T00:00:00Z');
    await store.commit({ query, since: SINCE, cursor: y2099, updatedCursor: y2099, rescanBase: y2099, rescannedAt: y2099 }, SINCE);
    await store.close(false);
    const events: SyncEvent[] = [];
    const summary = await runSync(options({ until: undefined, lagMs: 24 * H }), deps(dir), (event) => events.push(event));
    expect(notes(events)).toEqual([
      `${dir} holds times past the present (cursor 2099-01-01T00:00:00Z, updates cursor 2099-01-01T00:00:00Z, re-scan time 2099-01-01T00:00:00Z), saved under a clock that was wrong: moved back to 2026-11-11T23:58:00Z; what lies after is fetched again`,
    ]);
    expect(summary.cursor).toBe(SERVER - 2 * MIN);
    expect(steps(events)[0]?.rescanFrom).toBe(SINCE);
    expect(readState(dir)).toMatchObject({ cursor: '2026-11-11T23:58:00Z', rescannedAt: '2026-11-12T00:00:00Z' });
    expect(mirrorRows(dir).map((row) => row.id)).toEqual(['s1', 's2']);
  });
});

describe('an updatedAt before the completedAt', () => {
  it('is held with --lag 0: the completions from the cursor are fetched, not left to the Updated pass', async () => {
    const dir = newDir();
    await runSync(options(), deps(dir), () => {});
    expect(readState(dir).updatedCursor).toBe('2026-11-11T09:40:00Z');
    // Completed after the cursor, last updated before the updates cursor: the Updated pass, from there, cannot see it.
    api.swaps.push(swap('s3', '2026-11-11T10:20:00Z', '2026-11-11T09:00:00Z'));
    await runSync(options({ until: undefined, lagMs: 0 }), deps(dir), () => {});
    expect(mirrorRows(dir).map((row) => row.id)).toEqual(['s1', 's2', 's3']);
  });
});

describe('the re-scan', () => {
  // A step re-scans when re-scans are always asked (0), when none ran yet, or when the last ran rescanEvery ago or more.
  it.each([
    [0, 1000, true],
    // always asked: even when the server's clock went back
    [0, -1000, true],
    [H, H, true],
    [H, H - 1000, false],
  ])('every %i ms, %i ms after the last: re-scans %s', async (rescanEveryMs, after, rescans) => {
    const dir = newDir();
    // The first run's clock: swaps completed an hour (the lag) before it were visible then; the re-scan starts there.
    api.clock = UNTIL + 5 * MIN;
    await runSync(options({ lagMs: H, rescanEveryMs }), deps(dir), () => {});
    expect(readState(dir).rescannedAt).toBe(utc(UNTIL + 5 * MIN));
    api.clock = UNTIL + 5 * MIN + after;
    const events: SyncEvent[] = [];
    await runSync(options({ lagMs: H, rescanEveryMs }), deps(dir), (event) => events.push(event));
    expect(steps(events)[0]?.rescanFrom).toBe(rescans ? UNTIL + 5 * MIN - H : undefined);
  });

  it('a mirror that never re-scanned does at its next step', async () => {
    const dir = newDir();
    // A mirror whose state records no re-scan (as one written before re-scans were recorded).
    const store = new FolderStore({ dir, now: () => LOCAL, fsReason });
    await store.open(() => {});
    const query = store.resolveQuery(`${server.base}/a`, undefined);
    await store.commit({ query, since: SINCE, cursor: UNTIL, updatedCursor: UNTIL, rescanBase: SINCE, rescannedAt: undefined }, SINCE);
    await store.close(false);
    const events: SyncEvent[] = [];
    await runSync(options({ lagMs: H, rescanEveryMs: 24 * H }), deps(dir), (event) => events.push(event));
    expect(steps(events)[0]?.rescanFrom).toBe(SINCE);
  });
});

describe('the saved query', () => {
  it('a mirror of another base URL is refused, or followed there with --move-base-url', async () => {
    const dir = newDir();
    const a = `${server.base}/a`;
    const b = `${server.base}/b`;
    expect(await runSync(options(), deps(dir), () => {})).toEqual({ cursor: UNTIL, updatedCursor: S2_UPDATED, steps: 1 });
    await expect(said(runSync(options({ baseUrl: b }), deps(dir, { client: client('/b') }), () => {}))).rejects.toThrow(
      new UsageError(
        `${dir} holds a sync of another query (base URL was ${JSON.stringify(a)}, now ${JSON.stringify(b)}); if the API moved there, run again with --move-base-url to continue this mirror, else sync into a new --out dir`,
      ),
    );
    const events: SyncEvent[] = [];
    const moved = await runSync(options({ baseUrl: b, moveBaseUrl: true }), deps(dir, { client: client('/b') }), (event) => events.push(event));
    expect(moved).toEqual({ cursor: UNTIL, updatedCursor: S2_UPDATED, steps: 1, movedFrom: a });
    expect(events.filter((event) => event.type === 'moved')).toEqual([{ type: 'moved', from: a, to: b }]);
    // Recorded before any row of the new API: the moved event comes before the step's first progress.
    expect(events.findIndex((event) => event.type === 'moved')).toBe(0);
    expect((readState(dir).query as { baseUrl: string }).baseUrl).toBe(b);
    // The same base URL again: no move, and --move-base-url changes nothing.
    const again: SyncEvent[] = [];
    expect(await runSync(options({ baseUrl: b, moveBaseUrl: true }), deps(dir, { client: client('/b') }), (event) => again.push(event))).toEqual({
      cursor: UNTIL,
      updatedCursor: S2_UPDATED,
      steps: 1,
    });
    expect(again.some((event) => event.type === 'moved')).toBe(false);
  });

  it.each([
    [['id', 'completedAt'], 'updatedAt'],
    [['id', 'depositAmount'], 'completedAt and updatedAt'],
  ])('fields %j: refused, naming %s, before anything is made', async (fields, missing) => {
    const dir = newDir();
    const store = new FolderStore({ dir, fields, now: () => LOCAL, fsReason });
    const run = runSync(options(), deps(dir, { store }), () => {});
    await expect(said(run)).rejects.toThrow(
      new UsageError(`${dir} syncs --fields without ${missing}, which a mirror that keeps the latest version of each swap needs; sync into a new --out dir`),
    );
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('a --since other than the mirror start is said once to be ignored; the same one is not', async () => {
    const dir = newDir();
    await runSync(options(), deps(dir), () => {});
    const same: SyncEvent[] = [];
    await runSync(options(), deps(dir), (event) => same.push(event));
    expect(notes(same)).toEqual([]);
    const other: SyncEvent[] = [];
    await runSync(options({ since: SINCE - H }), deps(dir), (event) => other.push(event));
    expect(notes(other)).toEqual([
      `--since ignored: ${dir} syncs from 2026-11-11T08:00:00Z and continues from its cursor 2026-11-11T10:00:00Z (a new start needs a new --out dir)`,
    ]);
  });
});

describe('what a step says', () => {
  it('its requests: the clock read and its windows, counted by the client', async () => {
    const events: SyncEvent[] = [];
    requests = 100;
    await runSync(options(), deps(newDir()), (event) => events.push(event));
    // one clock read and four windows of 30 minutes; the count before the run is not the step's
    expect(steps(events).map((result) => result.requests)).toEqual([105]);
  });

  it('swaps outside the window, ids twice with different content, and balanceChanges a csv mirror leaves out', async () => {
    const dir = newDir();
    api.answer = (query, swaps) => {
      if (isClockRead(query)) return swaps;
      const out = [...swaps, swap('late', '2026-11-11T11:00:00Z')];
      if (swaps.length > 0) out.push({ ...swaps[0]!, depositAmount: 2, balanceChanges: [] });
      return out;
    };
    const events: SyncEvent[] = [];
    const store = new FolderStore({ dir, format: 'csv', now: () => LOCAL, fsReason });
    await runSync(options(), deps(dir, { store }), (event) => events.push(event));
    const [result] = steps(events);
    expect([result?.outsideWindow, result?.conflicts, result?.withBalanceChanges]).toEqual([4, 2, 2]);
    expect(notes(events)).toEqual([
      'the API returned 4 swap(s) outside the window asked for; they were kept (each swap is held once, by id), but the server may be faulty',
      'the API returned 2 swap id(s) twice in one response with different content; the mirror holds each once, its version with the later updatedAt',
      "the API sent balanceChanges with 2 swap(s), which this csv mirror's fields leave out: sync into a new jsonl mirror to keep them, or look one swap up with 'swapx swap <id>'",
    ]);
  });

  it('a jsonl mirror keeps balanceChanges: nothing to say; none outside, no conflicts: nothing either', async () => {
    const dir = newDir();
    api.swaps = [swap('s1', '2026-11-11T08:10:00Z', '2026-11-11T08:10:00Z', { balanceChanges: [] })];
    const events: SyncEvent[] = [];
    await runSync(options(), deps(dir), (event) => events.push(event));
    expect(steps(events)[0]?.withBalanceChanges).toBe(1);
    expect(notes(events)).toEqual([]);
  });

  it('a mirror of no format (a table) names none in the balanceChanges note', async () => {
    api.swaps = [swap('s1', '2026-11-11T08:10:00Z', '2026-11-11T08:10:00Z', { balanceChanges: [] })];
    const events: SyncEvent[] = [];
    await runSync(options(), { ...deps(newDir()), store: tableStore() }, (event) => events.push(event));
    expect(notes(events)).toEqual([
      "the API sent balanceChanges with 1 swap(s), which this mirror's fields leave out: sync into a new jsonl mirror to keep them, or look one swap up with 'swapx swap <id>'",
    ]);
  });
});

/** A store of no format, in memory (as a table would be): rows by id, the state as committed. */
function tableStore(): MirrorStore {
  let saved: MirrorState | undefined;
  const rows = new Map<string, MirrorRow>();
  let buffered: MirrorRow[] = [];
  return {
    name: 'the table',
    resolveQuery: (baseUrl) => ({ baseUrl, filter: 'Completed', fields: [...LIST_SWAP_FIELDS] }),
    readState: async () => saved,
    open: async () => saved,
    checkLock: async () => {},
    add: async (row) => {
      buffered.push(row);
    },
    get buffered() {
      return buffered.length;
    },
    commit: async (next) => {
      for (const row of buffered) rows.set(String(row.swap.id), row);
      const touched = buffered.length > 0 ? ['the table'] : [];
      buffered = [];
      saved = structuredClone(next);
      return { newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, touched };
    },
    close: async () => {},
  };
}

describe('failures', () => {
  const lastWindowFails = (query: Query) => (query.from >= UNTIL - 30 * MIN && !isClockRead(query) ? 400 : undefined);

  it.each([
    [false, ''],
    [true, '; run again to continue'],
  ])('a window that fails (transient: %s) names the window and the cursor', async (transient, then) => {
    const dir = newDir();
    api.fail = lastWindowFails;
    const run = runSync(options(), deps(dir, { errors: policy({ transient: () => transient }) }), () => {});
    const error = (await run.catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `window 2026-11-11T09:30:00Z → 2026-11-11T10:00:00Z failed: the API rejected the request: Broken; synced up to 2026-11-11T09:30:00Z${then}`,
    );
    // What was complete is kept: a first run that got somewhere is not discarded.
    expect(readState(dir).cursor).toBe('2026-11-11T09:30:00Z');
  });

  it('a first run whose first window fails leaves nothing behind', async () => {
    const parent = tempDir('swapx-engine-');
    const dir = path.join(parent, 'deep', 'out');
    api.fail = (query) => (isClockRead(query) ? undefined : 400);
    await expect(runSync(options(), deps(dir), () => {})).rejects.toThrow(/^window 2026-11-11T08:00:00Z → 2026-11-11T08:30:00Z failed: /);
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('a later run that fails at once keeps the mirror as it was', async () => {
    const dir = newDir();
    await runSync(options(), deps(dir), () => {});
    api.fail = (query) => (isClockRead(query) ? undefined : 400);
    await expect(runSync(options({ until: UNTIL + H }), deps(dir), () => {})).rejects.toThrow(/^window /);
    expect(readState(dir).cursor).toBe('2026-11-11T10:00:00Z');
  });

  it('a later run records no state before its first rows: the start is recorded once, by the run that made the mirror', async () => {
    const dir = newDir();
    const cursors: number[] = [];
    class Counting extends FolderStore {
      override async commit(next: SyncState, newFrom: number) {
        cursors.push(next.cursor);
        return super.commit(next, newFrom);
      }
    }
    await runSync(options(), deps(dir, { store: new Counting({ dir, now: () => LOCAL, fsReason }) }), () => {});
    expect(cursors[0]).toBe(SINCE);
    cursors.length = 0;
    await runSync(options({ until: UNTIL + H }), deps(dir, { store: new Counting({ dir, now: () => LOCAL, fsReason }) }), () => {});
    expect(cursors.length).toBeGreaterThan(0);
    expect(cursors[0]).toBeGreaterThan(UNTIL);
  });

  it('a write the file system refuses says why and how far the mirror is; any other error is thrown as it is', async () => {
    const dir = newDir();
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    let commits = 0;
    class FullDisk extends FolderStore {
      override async commit(next: SyncState, newFrom: number) {
        commits += 1;
        if (commits === 3) throw this.failure;
        return super.commit(next, newFrom);
      }
      failure: Error = full;
    }
    const store = new FullDisk({ dir, now: () => LOCAL, fsReason });
    const error = await runSync(options(), deps(dir, { store }), () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrappedError);
    expect((error as Error).message).toBe(`writing ${dir}: no space left on device; synced up to 2026-11-11T08:30:00Z; run the same command again to continue`);
    expect((error as Error).cause).toBe(full);
    // A first run that failed after it committed keeps what it committed, for the cron line (no --since) to continue:
    // it was discarded, its state file removed while its partition stayed, and the next run exited 2.
    expect(readState(dir).cursor).toBe('2026-11-11T08:30:00Z');
    expect(fs.readdirSync(dir).sort()).toEqual(['.swapx-ids', '.swapx-last-run.json', '.swapx-sync.json', 'date=2026-11-11']);

    const other = newDir();
    const odd = new Error('odd');
    commits = 0;
    const store2 = new FullDisk({ dir: other, now: () => LOCAL, fsReason });
    store2.failure = odd;
    await expect(runSync(options(), deps(other, { store: store2 }), () => {})).rejects.toBe(odd);
  });

  it('the start of a new mirror that cannot be written: said with the start as its cursor', async () => {
    const dir = newDir();
    class NoStart extends FolderStore {
      override async commit(): Promise<never> {
        throw Object.assign(new Error('EROFS'), { code: 'EROFS' });
      }
    }
    const store = new NoStart({ dir, now: () => LOCAL, fsReason });
    await expect(runSync(options(), deps(dir, { store }), () => {})).rejects.toThrow(
      `writing ${dir}: read-only file system; synced up to 2026-11-11T08:00:00Z; run the same command again to continue`,
    );
  });

  it('a stop before the start, or once the step is done: interrupted all the same', async () => {
    const stopped = new AbortController();
    stopped.abort();
    await expect(runSync(options(), deps(newDir(), { signal: stopped.signal }), () => {})).rejects.toThrow(
      new AbortedError('interrupted before the sync started'),
    );
    const stop = new AbortController();
    const run = runSync(options(), deps(newDir(), { signal: stop.signal }), (event) => {
      if (event.type === 'step') stop.abort();
    });
    await expect(run).rejects.toThrow(new AbortedError('interrupted; synced up to 2026-11-11T10:00:00Z; run the same command again to continue'));
  });

  it('a summary without a move has no movedFrom key', async () => {
    expect(Object.keys(await runSync(options(), deps(newDir()), () => {}))).toEqual(['cursor', 'updatedCursor', 'steps']);
  });

  it('a stop after the last window: interrupted all the same, at the end', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const run = runSync(options(), deps(dir, { signal: stop.signal }), (event) => {
      if (event.type === 'progress' && event.windows === 4) stop.abort();
    });
    await expect(run).rejects.toThrow(new AbortedError('interrupted; synced up to 2026-11-11T10:00:00Z; run the same command again to continue'));
    expect(readState(dir).cursor).toBe('2026-11-11T10:00:00Z');
  });

  it('a first run of no window (--until at --since) keeps its state', async () => {
    const dir = newDir();
    expect(await runSync(options({ until: SINCE }), deps(dir), () => {})).toEqual({ cursor: SINCE, updatedCursor: SINCE, steps: 1 });
    expect(readState(dir).cursor).toBe('2026-11-11T08:00:00Z');
  });

  it('a stop during the step: interrupted, naming how far it got', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const run = runSync(options(), deps(dir, { signal: stop.signal }), (event) => {
      if (event.type === 'progress' && event.windows === 2) stop.abort();
    });
    await expect(run).rejects.toThrow(new AbortedError('interrupted; synced up to 2026-11-11T09:00:00Z; run the same command again to continue'));
  });
});

describe('--follow', () => {
  it('steps until the signal, says it follows and stops; a step is never cut short', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const events: SyncEvent[] = [];
    const summary = await runSync(
      options({ follow: true, until: undefined, since: SERVER - H, intervalMs: 7 }),
      deps(dir, { signal: stop.signal }),
      (event) => {
        events.push(event);
        // The signal in the middle of the second step: that step still finishes.
        if (event.type === 'progress' && steps(events).length === 1 && event.windows === 1) stop.abort();
      },
    );
    expect(summary).toEqual({ cursor: SERVER - 2 * MIN, updatedCursor: SERVER - H, steps: 2 });
    expect(events[0]).toEqual({ type: 'following', intervalMs: 7 });
    expect(events.filter((event) => event.type === 'stopping')).toHaveLength(1);
    const [, second] = steps(events);
    expect(second?.complete).toBe(true);
    expect(events.at(-1)?.type).toBe('step');
  });

  it('a later step reads the server clock again, or moves the last one on by ours', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const results: number[] = [];
    let local = LOCAL;
    await runSync(
      options({ follow: true, until: undefined, since: SERVER - H, intervalMs: 1 }),
      deps(dir, { signal: stop.signal, now: () => local }),
      (event) => {
        if (event.type !== 'step') return;
        results.push(event.result.cursor);
        if (results.length === 1) {
          api.clock = SERVER + 10 * MIN;
          local += 3 * MIN;
        } else if (results.length === 2) {
          // The clock can no longer be read: the last read (SERVER + 10 min) moved on by ours (3 min).
          api.fail = (query) => (isClockRead(query) ? 500 : undefined);
          local += 3 * MIN;
        } else stop.abort();
      },
    );
    expect(results).toEqual([SERVER - 2 * MIN, SERVER + 8 * MIN, SERVER + 11 * MIN]);
  });

  it('requests of a later step: its clock read and its windows only', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const counts: number[] = [];
    let served = 0;
    requests = 0;
    await runSync(options({ follow: true, until: undefined, since: SERVER - H, intervalMs: 1 }), deps(dir, { signal: stop.signal }), (event) => {
      if (event.type !== 'step') return;
      counts.push(event.result.requests - (api.served - served));
      served = api.served;
      if (counts.length === 2) stop.abort();
    });
    expect(counts).toEqual([0, 0]);
  });

  it('each note is said once a run, not at every step', async () => {
    const dir = newDir();
    const stop = new AbortController();
    api.swaps = [swap('s1', '2026-11-11T23:10:00Z', '2026-11-11T23:10:00Z', { balanceChanges: [] })];
    // Every answer holds its swaps twice, the second with other content, and a swap of another time.
    api.answer = (query, swaps) =>
      isClockRead(query) ? swaps : [...swaps, ...swaps.map((s) => ({ ...s, depositAmount: 9 })), swap('far', '2026-11-01T00:00:00Z')];
    const events: SyncEvent[] = [];
    let stepsSeen = 0;
    const store = new FolderStore({ dir, format: 'csv', now: () => LOCAL, fsReason });
    await runSync(
      options({ follow: true, until: undefined, since: SERVER - H, intervalMs: 1, rescanEveryMs: 0, lagMs: H }),
      deps(dir, { signal: stop.signal, store }),
      (event) => {
        events.push(event);
        if (event.type === 'step' && ++stepsSeen === 2) stop.abort();
      },
    );
    const results = steps(events);
    expect(results.map((result) => [result.conflicts > 0, result.withBalanceChanges > 0, result.outsideWindow > 0])).toEqual([
      [true, true, true],
      [true, true, true],
    ]);
    const said = notes(events);
    expect(said.filter((note) => note.includes('twice in one response'))).toHaveLength(1);
    expect(said.filter((note) => note.includes('balanceChanges'))).toHaveLength(1);
    // Swaps outside the window are said at every step.
    expect(said.filter((note) => note.includes('outside the window'))).toHaveLength(2);
  });

  it('a transient failure is waited out and said; the next step retries', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const events: SyncEvent[] = [];
    let failing = true;
    api.fail = (query) => (failing && !isClockRead(query) ? 503 : undefined);
    const summary = await runSync(
      options({ follow: true, until: undefined, since: SERVER - H, intervalMs: 90_000 }),
      deps(dir, { signal: stop.signal, errors: policy({ transient: () => true }) }),
      (event) => {
        events.push(event);
        if (event.type === 'retrying') {
          failing = false;
          // The wait of 90 s ends at the signal; the loop ends there.
          setTimeout(() => stop.abort(), 5);
        }
      },
    );
    const retrying = events.filter((event) => event.type === 'retrying');
    expect(retrying).toHaveLength(1);
    const error = retrying[0]?.type === 'retrying' ? retrying[0].error : undefined;
    expect(error?.message).toMatch(/^window 2026-11-11T23:00:00Z → 2026-11-11T23:30:00Z failed: .+; synced up to 2026-11-11T23:00:00Z; trying again in 1m30s$/);
    expect(summary.steps).toBe(1);
  });

  it('a failure that is not transient ends the loop; a mirror whose first step got somewhere is kept', async () => {
    const dir = newDir();
    const stop = new AbortController();
    // Step 1 consumes windows that hold no swap; step 2 fails at its first window.
    api.swaps = [];
    let step = 0;
    api.fail = (query) => (step === 2 && !isClockRead(query) ? 400 : undefined);
    const run = runSync(options({ follow: true, until: undefined, since: SERVER - H, intervalMs: 1 }), deps(dir, { signal: stop.signal }), (event) => {
      if (event.type === 'progress' && event.windows === 0) step += 1;
    });
    await expect(run).rejects.toThrow(/^window .* failed: .*; synced up to 2026-11-11T23:58:00Z$/);
    expect(readState(dir).cursor).toBe('2026-11-11T23:58:00Z');
  });
});

describe('a second signal', () => {
  it('a store of no lock file (no closeNow): the cursor is said all the same', async () => {
    const stop = new AbortController();
    const events: SyncEvent[] = [];
    await runSync(options(), { ...deps(newDir()), store: tableStore(), stop: stop.signal }, (event) => {
      events.push(event);
      if (event.type === 'progress' && event.windows === 2 && !stop.signal.aborted) stop.abort();
    });
    expect(events.filter((event) => event.type === 'stopped-now')).toEqual([{ type: 'stopped-now', cursor: SINCE + 30 * MIN }]);
  });

  it('--follow whose first step had no window: stopped, the new mirror is kept', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const events: SyncEvent[] = [];
    await runSync(options({ follow: true, until: undefined, since: SERVER - 2 * MIN }), deps(dir, { signal: stop.signal }), (event) => {
      events.push(event);
      if (event.type === 'step') stop.abort();
    });
    expect(steps(events).map((result) => result.windows)).toEqual([0]);
    expect(readState(dir).cursor).toBe('2026-11-11T23:58:00Z');
  });

  it('mid-step: the lock is released at once and the cursor the store holds is said', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const events: SyncEvent[] = [];
    let lockThere: boolean | undefined;
    await runSync(options(), deps(dir, { stop: stop.signal }), (event) => {
      events.push(event);
      if (event.type === 'progress' && event.windows === 2 && !stop.signal.aborted) {
        stop.abort();
        lockThere = fs.existsSync(path.join(dir, '.swapx-sync.lock'));
      }
    });
    expect(lockThere).toBe(false);
    expect(events.filter((event) => event.type === 'stopped-now')).toEqual([{ type: 'stopped-now', cursor: SINCE + 30 * MIN }]);
  });

  it.each([
    ['a new mirror', false, SINCE],
    ['a mirror', true, UNTIL],
  ])('while %s opens: the cursor it had', async (_name, existing, cursor) => {
    const dir = newDir();
    if (existing) await runSync(options(), deps(dir), () => {});
    const stop = new AbortController();
    class Stopped extends FolderStore {
      override open(note: (message: string) => void) {
        stop.abort();
        return super.open(note);
      }
    }
    const events: SyncEvent[] = [];
    await runSync(options({ until: UNTIL + H }), deps(dir, { stop: stop.signal, store: new Stopped({ dir, now: () => LOCAL, fsReason }) }), (event) =>
      events.push(event),
    ).catch(() => {});
    expect(events.filter((event) => event.type === 'stopped-now')).toEqual([{ type: 'stopped-now', cursor }]);
  });

  it('after the run, or after an open that failed, says nothing', async () => {
    const dir = newDir();
    const stop = new AbortController();
    const events: SyncEvent[] = [];
    await runSync(options(), deps(dir, { stop: stop.signal }), (event) => events.push(event));
    stop.abort();
    expect(events.some((event) => event.type === 'stopped-now')).toBe(false);

    const refused = new AbortController();
    class Refused extends FolderStore {
      override open(): Promise<never> {
        return Promise.reject(new Error('locked'));
      }
    }
    const store = new Refused({ dir, now: () => LOCAL, fsReason });
    await expect(runSync(options(), deps(dir, { stop: refused.signal, store }), (event) => events.push(event))).rejects.toThrow('locked');
    refused.abort();
    expect(events.some((event) => event.type === 'stopped-now')).toBe(false);
  });
});
