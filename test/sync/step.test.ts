/**
 * runStep in-process, against a server of the test's own (real sockets) and a store that records what it is given:
 * which rows reach the store, what each commit's next state says (both cursors, the re-scan's base and where a cut
 * short one got to), when commits happen, and what a failed window leaves committed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { AbortedError } from '../../src/api/errors.js';
import { WindowFailedError } from '../../src/windows/run-windows.js';
import type { Committed, MirrorQuery, MirrorRow, MirrorState, MirrorStore } from '../../src/sync/store.js';
import { planStep } from '../../src/sync/plan-step.js';
import { BUFFER_ROWS, COMMIT_WINDOWS, runStep, type StepOptions, type StepProgress } from '../../src/sync/step.js';
import type { Checkpoints } from '../../src/sync/checkpoints.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { useRouteServer } from '../helpers/route-server.js';

const T = Date.parse('2026-11-10T00:00:00Z');
const M = 60_000;
const H = 60 * M;
const iso = (ms: number) => new Date(ms).toISOString();
const query: MirrorQuery = { baseUrl: 'http://127.0.0.1', filter: 'Completed', fields: ['id', 'completedAt', 'updatedAt'] };

interface Served {
  id: string;
  completedAt: number | null;
  updatedAt: number | null;
  /** returned for every query, whatever its range (a server fault) */
  everywhere?: boolean;
  extra?: Record<string, unknown>;
}
let served: Served[] = [];
/** windows that answer 500: by their From */
let failing = new Set<number>();
const asked: string[] = [];

const server = useRouteServer({
  '/s': (req, res) => {
    const url = new URL(req.url ?? '', 'http://x');
    const [from, to, filter] = [Date.parse(url.searchParams.get('From')!), Date.parse(url.searchParams.get('To')!), url.searchParams.get('Filter')];
    asked.push(`${filter} ${(from - T) / M}..${(to - T) / M}`);
    if (failing.has(from)) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"title":"boom"}');
      return;
    }
    const body = served
      .filter((s) => {
        const time = filter === 'Updated' ? s.updatedAt : s.completedAt;
        return s.everywhere || (time !== null && time >= from && time <= to);
      })
      .map((s) => ({
        ...ONE_SWAP,
        id: s.id,
        completedAt: s.completedAt === null ? null : iso(s.completedAt),
        updatedAt: s.updatedAt === null ? null : iso(s.updatedAt),
        ...s.extra,
      }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  },
});

afterEach(() => {
  served = [];
  failing = new Set();
  asked.length = 0;
});

class RecordingStore {
  pending: MirrorRow[] = [];
  commits: { next: MirrorState; newFrom: number; rows: string[] }[] = [];
  touched = ['p1'];
  /** what `buffered` says, when not the rows pending */
  claims: number | undefined;
  failAdd: Error | undefined;
  get buffered(): number {
    return this.claims ?? this.pending.length;
  }
  async add(row: MirrorRow): Promise<void> {
    if (this.failAdd) throw this.failAdd;
    this.pending.push(row);
  }
  async commit(next: MirrorState, newFrom: number): Promise<Committed> {
    const rows = this.pending.map((r) => `${r.swap.id}@${(r.completedMs - T) / M}`);
    this.commits.push({ next: structuredClone(next), newFrom, rows });
    this.pending = [];
    return { newSwaps: rows.length, lateSwaps: 1, updatedSwaps: 2, touched: [...this.touched] };
  }
}

function stateOf(overrides: Partial<MirrorState> = {}): MirrorState {
  return { query, since: T, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: undefined, ...overrides };
}

/** A schedule that never asks for a commit: the tests of what else commits (checkpoints.test.ts has the schedule's). */
const NEVER: Checkpoints = { due: () => false, committed: () => {} };

function options(store: RecordingStore, state: MirrorState, overrides: Partial<StepOptions> = {}): StepOptions {
  let requests = 7;
  return {
    checkpoints: NEVER,
    store: store as unknown as MirrorStore,
    client: createClient({ baseUrl: `${server.base}/s`, retries: 0 }),
    state,
    until: T + H,
    present: T + H,
    end: T + H,
    lagMs: 48 * H,
    checkpointMs: 3_600_000,
    rescan: true,
    concurrency: 2,
    requests: () => (requests += 2),
    retries: () => 3,
    ...overrides,
  };
}

describe('runStep: the first run', () => {
  it('fetches [since, until) by Completed alone, places each row by completedAt, and commits the end', async () => {
    served = [
      { id: 'a', completedAt: T + 10 * M, updatedAt: T + 20 * M },
      { id: 'b', completedAt: T + 40 * M, updatedAt: T + 50 * M },
    ];
    const store = new RecordingStore();
    const state = stateOf();
    const progress: StepProgress[] = [];
    const { result, error } = await runStep(options(store, state, { onProgress: (p) => progress.push(p) }));
    expect(error).toBeUndefined();
    expect(asked.sort()).toEqual(['Completed 0..30', 'Completed 30..60']);
    expect(store.commits).toEqual([
      {
        next: { ...stateOf(), cursor: T + H, updatedCursor: T + 50 * M, rescanBase: T + H, rescannedAt: T + H },
        newFrom: T,
        rows: ['a@10', 'b@40'],
      },
    ]);
    expect(state).toEqual(store.commits[0]!.next);
    expect(result).toEqual({
      newSwaps: 2,
      lateSwaps: 1,
      updatedSwaps: 2,
      outsideWindow: 0,
      conflicts: 0,
      withBalanceChanges: 0,
      unfitValues: 0,
      unfit: [],
      leftOut: [],
      windows: 2,
      windowsPlanned: 2,
      requests: 2,
      retries: 0,
      elapsedMs: result.elapsedMs,
      parts: ['p1'],
      cursor: T + H,
      updatedCursor: T + 50 * M,
      rescanFrom: undefined,
      complete: true,
    });
    expect(progress).toEqual([
      { windows: 0, windowsPlanned: 2, swaps: 0 },
      { windows: 1, windowsPlanned: 2, swaps: 1 },
      { windows: 2, windowsPlanned: 2, swaps: 2 },
    ]);
  });

  it('places no row completed before since or at until; with the present at the end, Updated stops at the end', async () => {
    served = [
      { id: 'before', completedAt: T - 1, updatedAt: T + 5 * M },
      { id: 'inside', completedAt: T + H - 1, updatedAt: T + 6 * M },
      { id: 'edge', completedAt: T + H, updatedAt: T + 7 * M },
    ];
    const store = new RecordingStore();
    const state = stateOf({ since: T, cursor: T + H, updatedCursor: T, rescanBase: T + H, rescannedAt: T + H });
    const { result } = await runStep(options(store, state, { rescan: false, until: T + H, end: T + 30 * M, present: T + 30 * M }));
    expect(asked).toEqual(['Updated 0..30']);
    expect(store.commits.flatMap((c) => c.rows)).toEqual(['inside@59.99998333333333']);
    expect(store.commits.at(-1)!.next.updatedCursor).toBe(T + 6 * M);
    expect(result.outsideWindow).toBe(0);
  });
});

describe('runStep: a later run', () => {
  it('re-scans [cursor − lag, cursor), fetches Updated from the updates cursor to a second past the present, and moves both cursors', async () => {
    served = [
      { id: 'old', completedAt: T - 30 * M, updatedAt: T - 20 * M },
      { id: 'new', completedAt: T + 10 * M, updatedAt: T + 15 * M },
    ];
    const store = new RecordingStore();
    const state = stateOf({ since: T - 2 * H, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: T - 10 * H });
    const { result } = await runStep(options(store, state, { lagMs: H, until: T + 30 * M, end: T + 30 * M, present: T + 32 * M }));
    expect(asked.sort()).toEqual(['Completed -30..0', 'Completed -60..-30', 'Completed 0..30', 'Updated 0..30', 'Updated 30..32.016666666666666']);
    expect(store.commits).toHaveLength(1);
    // The completions pass and the Updated pass both bring `new`: the store keeps one row (the contract's collapse).
    expect(store.commits[0]!.rows.sort()).toEqual(['new@10', 'new@10', 'old@-30']);
    expect(store.commits[0]!.next).toEqual({
      ...state,
      cursor: T + 30 * M,
      updatedCursor: T + 15 * M,
      rescanBase: T + 30 * M,
      rescannedAt: T + 32 * M,
    });
    expect([result.rescanFrom, result.windowsPlanned, result.windows, result.complete]).toEqual([T - H, 5, 5, true]);
  });

  it('without a re-scan keeps the re-scan fields, and the updates cursor stops at the end', async () => {
    served = [{ id: 'u', completedAt: T + 10 * M, updatedAt: T + 31 * M }];
    const store = new RecordingStore();
    const state = stateOf({ since: T - 2 * H, rescanBase: T - H, rescannedAt: T - 5 * H, rescannedTo: T - 90 * M });
    state.rescannedTo = undefined;
    delete state.rescannedTo;
    await runStep(options(store, state, { rescan: false, until: T + 30 * M, end: T + 30 * M, present: T + 32 * M }));
    expect(asked.sort()).toEqual(['Completed 0..30', 'Updated 0..30', 'Updated 30..32.016666666666666']);
    expect(store.commits[0]!.next).toEqual({ ...state, cursor: T + 30 * M, updatedCursor: T + 30 * M });
  });

  it('commits after every window with checkpointMs 0, and every `commitWindows` windows', async () => {
    served = [
      { id: 'a', completedAt: T + 10 * M, updatedAt: T + 10 * M },
      { id: 'b', completedAt: T + 40 * M, updatedAt: T + 40 * M },
      { id: 'c', completedAt: T + 70 * M, updatedAt: T + 70 * M },
    ];
    const every = new RecordingStore();
    await runStep(
      options(every, stateOf(), { checkpoints: undefined, checkpointMs: 0, until: T + 90 * M, end: T + 90 * M, present: T + 90 * M, concurrency: 1 }),
    );
    expect(every.commits.map((c) => [c.next.cursor - T, c.rows])).toEqual([
      [30 * M, ['a@10']],
      [60 * M, ['b@40']],
      [90 * M, ['c@70']],
      [90 * M, []],
    ]);
    expect(every.commits.map((c) => c.next.updatedCursor - T)).toEqual([10 * M, 40 * M, 70 * M, 70 * M]);
    const twos = new RecordingStore();
    await runStep(options(twos, stateOf(), { commitWindows: 2, until: T + 90 * M, end: T + 90 * M, present: T + 90 * M, concurrency: 1 }));
    expect(twos.commits.map((c) => [c.next.cursor - T, c.rows])).toEqual([
      [60 * M, ['a@10', 'b@40']],
      [90 * M, ['c@70']],
    ]);
  });

  it('is a week of windows, and 64,000 rows, between commits by default', () => {
    expect([COMMIT_WINDOWS, BUFFER_ROWS]).toEqual([336, 64_000]);
  });
});

describe('runStep: a window that fails', () => {
  it('commits the windows consumed whole before it, returns the error, and is not complete', async () => {
    served = [
      { id: 'a', completedAt: T + 10 * M, updatedAt: T + 10 * M },
      { id: 'b', completedAt: T + 40 * M, updatedAt: T + 40 * M },
    ];
    failing = new Set([T + 30 * M]);
    const store = new RecordingStore();
    const state = stateOf();
    const { result, error } = await runStep(options(store, state, { concurrency: 1 }));
    expect(error).toBeInstanceOf(WindowFailedError);
    expect(store.commits.map((c) => c.next)).toEqual([
      { ...stateOf(), cursor: T + 30 * M, updatedCursor: T + 10 * M, rescanBase: T + 30 * M, rescannedAt: T + H },
    ]);
    expect([result.complete, result.windows, result.cursor]).toEqual([false, 1, T + 30 * M]);
  });

  it('a re-scan cut short records how far it got', async () => {
    served = [{ id: 'r', completedAt: T - 50 * M, updatedAt: T - 50 * M }];
    failing = new Set([T - 30 * M]);
    const store = new RecordingStore();
    const state = stateOf({ since: T - 2 * H, rescannedAt: T - 10 * H });
    const { error } = await runStep(options(store, state, { lagMs: H, concurrency: 1, until: T + 30 * M, end: T + 30 * M }));
    expect(error).toBeInstanceOf(WindowFailedError);
    expect(store.commits.map((c) => c.next)).toEqual([{ ...state, rescannedTo: T - 30 * M }]);
    expect(state.rescannedTo).toBe(T - 30 * M);
  });
});

describe('runStep: what it counts and when it commits', () => {
  it('counts conflicts, balanceChanges and rows from outside the window, keeps the largest updatedAt, and names each part once', async () => {
    served = [
      { id: 'a', completedAt: T + 10 * M, updatedAt: T + 50 * M, extra: { balanceChanges: [] } },
      { id: 'b', completedAt: T + 40 * M, updatedAt: T + 45 * M },
      { id: 'b', completedAt: T + 40 * M, updatedAt: T + 46 * M },
      { id: 'stray', completedAt: T - 5 * H, updatedAt: T + 1 * M, everywhere: true },
    ];
    const store = new RecordingStore();
    const progress: number[] = [];
    const before = performance.now();
    const { result } = await runStep(
      options(store, stateOf(), { checkpoints: undefined, checkpointMs: 0, concurrency: 1, onProgress: (p) => progress.push(p.swaps) }),
    );
    const took = performance.now() - before;
    expect(progress).toEqual([0, 2, 4]);
    expect([result.conflicts, result.withBalanceChanges, result.outsideWindow]).toEqual([1, 1, 2]);
    expect(result.updatedCursor).toBe(T + 50 * M);
    // On a first run every row is current up to the end: the first commit already holds a later updatedAt than its window.
    expect(store.commits.map((c) => c.next.updatedCursor - T)).toEqual([50 * M, 50 * M, 50 * M]);
    expect(result.parts).toEqual(['p1']);
    expect(result.requests).toBe(2);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(result.elapsedMs).toBeLessThanOrEqual(Math.ceil(took));
  });

  it('commits after each window when the store holds BUFFER_ROWS rows, and not when one fewer', async () => {
    served = [{ id: 'a', completedAt: T + 10 * M, updatedAt: T + 10 * M }];
    const full = new RecordingStore();
    full.claims = BUFFER_ROWS;
    await runStep(options(full, stateOf(), { concurrency: 1 }));
    expect(full.commits.map((c) => c.next.cursor - T)).toEqual([30 * M, 60 * M, 60 * M]);
    const almost = new RecordingStore();
    almost.claims = BUFFER_ROWS - 1;
    await runStep(options(almost, stateOf(), { concurrency: 1 }));
    expect(almost.commits.map((c) => c.next.cursor - T)).toEqual([60 * M]);
  });

  it('a store that fails to take a row fails the step, with nothing more committed', async () => {
    served = [{ id: 'a', completedAt: T + 10 * M, updatedAt: T + 10 * M }];
    const store = new RecordingStore();
    store.failAdd = new Error('disk full');
    const state = stateOf();
    await expect(runStep(options(store, state))).rejects.toBe(store.failAdd);
    expect(store.commits).toEqual([]);
    expect(state).toEqual(stateOf());
  });

  it('an interrupt commits what is complete and returns the AbortedError', async () => {
    const store = new RecordingStore();
    const controller = new AbortController();
    controller.abort();
    const { result, error } = await runStep(options(store, stateOf(), { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortedError);
    // Nothing before the cursor was due a re-scan: the re-scan is complete as of the present.
    expect(store.commits.map((c) => c.next)).toEqual([stateOf({ rescannedAt: T + H })]);
    expect(result.complete).toBe(false);
  });

  it('a later run cut short moves each cursor to where its pass reached', async () => {
    served = [{ id: 'u', completedAt: T + 10 * M, updatedAt: T + 20 * M }];
    failing = new Set([T + 30 * M]);
    const store = new RecordingStore();
    const state = stateOf({ since: T - H, rescanBase: T, rescannedAt: T });
    const { error } = await runStep(options(store, state, { rescan: false, concurrency: 1 }));
    expect(error).toBeInstanceOf(WindowFailedError);
    expect(store.commits.map((c) => [c.next.cursor - T, c.next.updatedCursor - T])).toEqual([[30 * M, 20 * M]]);
  });

  it('a re-scan completed forgets where an earlier one was cut short', async () => {
    const store = new RecordingStore();
    const state = stateOf({ since: T - 2 * H, rescannedAt: T - 10 * H, rescannedTo: T - 30 * M });
    await runStep(options(store, state, { lagMs: H, until: T + 30 * M, end: T + 30 * M, present: T + 30 * M }));
    expect(asked.sort()).toEqual(['Completed -30..0', 'Completed 0..30', 'Updated 0..30']);
    expect(store.commits.at(-1)!.next).toEqual({ ...stateOf({ since: T - 2 * H }), cursor: T + 30 * M, rescanBase: T + 30 * M, rescannedAt: T + 30 * M });
    expect('rescannedTo' in state).toBe(false);
  });

  it('a re-scan whose first window fails records nothing of it', async () => {
    failing = new Set([T - H]);
    const store = new RecordingStore();
    const state = stateOf({ since: T - 2 * H, rescannedAt: T - 10 * H });
    const { error } = await runStep(options(store, state, { lagMs: H, concurrency: 1, until: T + 30 * M, end: T + 30 * M }));
    expect(error).toBeInstanceOf(WindowFailedError);
    expect(store.commits.map((c) => c.next)).toEqual([stateOf({ since: T - 2 * H, rescannedAt: T - 10 * H })]);
  });
});

describe('planStep: when it is a first run, and how far back a re-scan reaches', () => {
  const windowsOf = (state: MirrorState, lag: number, rescan = true) =>
    planStep(state, T + 3 * H, T + 3 * H, lag, rescan).windows.map((w) => `${w.filter} ${(w.from - T) / H}`);

  it('is a first run only while both cursors are at since', () => {
    expect(planStep(stateOf(), T + H, T + H, 0, false).first).toBe(true);
    // A run that held no row with an updatedAt left the updates cursor at since: the next one still has its Updated pass.
    const noUpdates = stateOf({ cursor: T + 2 * H, rescanBase: T + 2 * H });
    expect(planStep(noUpdates, T + 3 * H, T + 3 * H, 0, false).first).toBe(false);
    // The passes take turns: one window of each while each has windows left.
    expect(windowsOf(noUpdates, 0, false)).toEqual([
      'Completed 2',
      'Updated 0',
      'Completed 2.5',
      'Updated 0.5',
      'Updated 1',
      'Updated 1.5',
      'Updated 2',
      'Updated 2.5',
    ]);
    const updatedOnly = stateOf({ updatedCursor: T + 2 * H });
    expect(planStep(updatedOnly, T + 3 * H, T + 3 * H, 0, false).first).toBe(false);
    expect(windowsOf(updatedOnly, 0, false)).toEqual([
      'Completed 0',
      'Updated 2',
      'Completed 0.5',
      'Updated 2.5',
      'Completed 1',
      'Completed 1.5',
      'Completed 2',
      'Completed 2.5',
    ]);
  });

  it('reaches back no further than lag before the last re-scan ran', () => {
    const state = stateOf({ since: T - 10 * H, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: T + H });
    expect(planStep(state, T + H, T + H, 2 * H, true).rescanFrom).toBe(T - H);
  });

  it('with no lag re-scans nothing, even where the last re-scan was behind the cursor', () => {
    const state = stateOf({ cursor: T + 2 * H, updatedCursor: T + 2 * H, rescanBase: T, rescannedAt: T + H });
    expect(planStep(state, T + 3 * H, T + 3 * H, 0, true).rescanFrom).toBeUndefined();
    expect(planStep(state, T + 3 * H, T + 3 * H, 1, true).rescanFrom).toBe(T + H - 1);
  });
});

describe('runStep: the cursors at their edges', () => {
  it('places a row completed exactly at since, and keeps the largest updatedAt whatever the order rows come in', async () => {
    served = [
      { id: 'first', completedAt: T, updatedAt: T + 50 * M },
      { id: 'later', completedAt: T + 40 * M, updatedAt: T + 45 * M },
    ];
    const store = new RecordingStore();
    const { result } = await runStep(options(store, stateOf(), { concurrency: 1 }));
    expect(store.commits.map((c) => c.rows)).toEqual([['first@0', 'later@40']]);
    expect(result.updatedCursor).toBe(T + 50 * M);
  });

  it('a first run without a re-scan leaves the re-scan fields as they were', async () => {
    served = [{ id: 'a', completedAt: T + 10 * M, updatedAt: T + 10 * M }];
    const store = new RecordingStore();
    await runStep(options(store, stateOf(), { checkpoints: undefined, rescan: false, checkpointMs: 0, concurrency: 1 }));
    expect(store.commits.map((c) => c.next)).toEqual([
      stateOf({ cursor: T + 30 * M, updatedCursor: T + 10 * M }),
      stateOf({ cursor: T + H, updatedCursor: T + 10 * M }),
      stateOf({ cursor: T + H, updatedCursor: T + 10 * M }),
    ]);
  });

  it('rows from a re-scan alone do not move the updates cursor when no Updated window was consumed', async () => {
    served = [{ id: 'r', completedAt: T - 50 * M, updatedAt: T - 40 * M }];
    failing = new Set([T]);
    const store = new RecordingStore();
    const state = stateOf({ since: T - 2 * H, rescannedAt: T - 10 * H });
    const { error } = await runStep(options(store, state, { lagMs: H, concurrency: 1, until: T + 30 * M, end: T + 30 * M, present: T + 30 * M }));
    expect(error).toBeInstanceOf(WindowFailedError);
    expect(store.commits.map((c) => [c.rows, c.next.cursor - T, c.next.updatedCursor - T])).toEqual([[['r@-50'], 0, 0]]);
  });

  it('an Updated pass cut short past until: the cursor is where the completions pass reached, until, no further', async () => {
    failing = new Set([T + 30 * M]);
    const store = new RecordingStore();
    const state = stateOf({ since: T - H, rescanBase: T, rescannedAt: T });
    const { error } = await runStep(options(store, state, { rescan: false, concurrency: 1, until: T + 10 * M }));
    expect(error).toBeInstanceOf(WindowFailedError);
    expect(asked).toEqual(['Completed 0..10', 'Updated 0..30', 'Updated 30..60']);
    expect(store.commits.map((c) => c.next.cursor - T)).toEqual([10 * M]);
  });

  it('an Updated window that ends before the cursor leaves a re-scan done complete', async () => {
    const store = new RecordingStore();
    const state = stateOf({ since: T - 3 * H, updatedCursor: T - H, rescannedAt: T - 10 * H });
    await runStep(options(store, state, { lagMs: 30 * M, commitWindows: 2, concurrency: 1, until: T, end: T, present: T }));
    expect(asked).toEqual(['Completed -30..0', 'Updated -60..-30', 'Updated -30..0']);
    expect(store.commits.map((c) => [c.next.rescanBase - T, c.next.rescannedAt! - T, 'rescannedTo' in c.next])).toEqual([
      [0, 0, false],
      [0, 0, false],
    ]);
  });

  it('a store that fails to take a row with an interrupt of its own fails the step with it', async () => {
    served = [{ id: 'a', completedAt: T + 10 * M, updatedAt: T + 10 * M }];
    const store = new RecordingStore();
    store.failAdd = new AbortedError('interrupted');
    await expect(runStep(options(store, stateOf()))).rejects.toBe(store.failAdd);
    expect(store.commits).toEqual([]);
  });
});
