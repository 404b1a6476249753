/** The sync state: round trip, version 1 upgrade, the plan of a step, refusal of anything not exactly valid, fingerprint differences. */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { SWAP_FIELDS } from '../../src/api/types.js';
import { UsageError } from '../../src/api/errors.js';
import { queryDifferences, fingerprint, parseState, readState, serializeState, writeState, type SyncQuery } from '../../src/mirror/partitions/state-file.js';
import { newState } from '../../src/sync/store.js';
import { describeMirrorChange } from '../../src/commands/sync/errors.js';
import { planStep } from '../../src/sync/plan-step.js';
import { tempDir } from '../helpers/cli.js';
import { LocalStorage } from '../../src/mirror/folder/local-storage.js';

/** The words of a difference, as the shell says them. */
const describeDifference = (saved: SyncQuery, wanted: SyncQuery) => describeMirrorChange(queryDifferences(saved, wanted));

/** The state file of a folder mirror. */
const statePath = (dir: string) => path.join(dir, '.swapx-sync.json');

const query: SyncQuery = { baseUrl: 'http://127.0.0.1:1', filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false };
const T = Date.parse('2026-11-10T00:00:00Z');
const H = 3_600_000;

describe('SyncState', () => {
  it('round-trips, one key a line, the fields on one line', () => {
    const state = newState(query, T);
    state.cursor = T + 2 * H;
    state.updatedCursor = T + 2 * H - 5000;
    state.rescanBase = T + 2 * H;
    state.rescannedAt = T + 3 * H;
    const text = serializeState(state, T + 3 * H);
    expect(text).toContain(`"fields": ${JSON.stringify(SWAP_FIELDS)}`);
    expect(text).toContain('\n  "updatedCursor": "2026-11-10T01:59:55Z",\n');
    const back = parseState(text);
    expect(back).toEqual(state);
    expect(serializeState(back, T + 3 * H)).toBe(text);
  });

  it('round-trips where a re-scan cut short got to, and refuses one outside [since, cursor]', () => {
    const state = newState(query, T);
    state.cursor = T + 2 * H;
    state.updatedCursor = T + 2 * H;
    state.rescannedTo = T + H;
    const text = serializeState(state, T + 3 * H);
    expect(text).toContain('\n  "rescannedTo": "2026-11-10T01:00:00Z",\n');
    expect(parseState(text)).toEqual(state);
    const beyond = JSON.parse(text) as Record<string, unknown>;
    beyond.rescannedTo = '2026-11-10T03:00:00Z';
    expect(() => parseState(JSON.stringify(beyond))).toThrow('rescannedTo is not between since and cursor');
  });

  it('reads a version 1 state (append-only parts, ids): updates are caught up from since', () => {
    const v1 = {
      version: 1,
      fingerprint: fingerprint(query),
      query,
      since: '2026-11-10T00:00:00Z',
      cursor: '2026-11-10T05:00:00Z',
      idsFrom: '2026-11-10T00:00:00Z',
      rescanBase: '2026-11-10T05:00:00Z',
      rescannedAt: null,
      updatedAt: '2026-11-10T06:00:00Z',
      parts: [],
      ids: {},
    };
    expect(parseState(JSON.stringify(v1))).toEqual({
      query,
      since: T,
      cursor: T + 5 * H,
      updatedCursor: T,
      rescanBase: T + 5 * H,
      rescannedAt: undefined,
      upgradedFrom: 1,
    });
  });

  it('refuses anything that is not exactly a valid state', () => {
    const good = JSON.parse(serializeState(newState(query, T), T)) as Record<string, unknown>;
    const bad = (change: Record<string, unknown>) => JSON.stringify({ ...good, ...change });
    expect(() => parseState('{"version": 2,')).toThrow();
    expect(() => parseState('[]')).toThrow(/not a JSON object/);
    expect(() => parseState(bad({ version: 3 }))).toThrow(/version 3 is not 1 or 2/);
    expect(() => parseState(bad({ cursor: 'yesterday' }))).toThrow(/cursor/);
    expect(() => parseState(bad({ updatedCursor: undefined }))).toThrow(/updatedCursor is not a UTC time/);
    expect(() => parseState(bad({ fingerprint: 'f00' }))).toThrow(/fingerprint/);
    expect(() => parseState(bad({ cursor: '2026-11-09T00:00:00Z' }))).toThrow(/since ≤ cursor/);
    expect(() => parseState(bad({ updatedCursor: '2026-11-09T00:00:00Z' }))).toThrow(/since ≤ updatedCursor/);
  });

  it('reads a missing state as none, and a corrupt one as a UsageError that leaves it untouched', async () => {
    const dir = tempDir('swapx-state-');
    expect(await readState(new LocalStorage(dir))).toBeUndefined();
    fs.writeFileSync(statePath(dir), 'garbage');
    await expect(readState(new LocalStorage(dir))).rejects.toThrow(UsageError);
    await expect(readState(new LocalStorage(dir))).rejects.toThrow(/is corrupt .* left untouched/);
    expect(fs.readFileSync(statePath(dir), 'utf8')).toBe('garbage');
    await writeState(new LocalStorage(dir), newState(query, T), T);
    expect((await readState(new LocalStorage(dir)))?.since).toBe(T);
    expect(fs.readdirSync(dir)).toEqual([path.basename(statePath(dir))]);
  });

  it('names what differs between two queries', () => {
    expect(describeDifference(query, { ...query, format: 'csv', gzip: true })).toBe('format was "jsonl", now "csv"; gzip was false, now true');
    expect(describeDifference(query, query)).toBe('');
  });
});

describe('planStep', () => {
  const W = 30 * 60_000;
  it('the first run: the Completed pass over [since, until) alone', () => {
    const plan = planStep(newState(query, T), T + 2 * H, T + 50 * H, 48 * H, true);
    expect(plan.first).toBe(true);
    expect(plan.windows.map((w) => [w.filter, w.from - T])).toEqual([
      ['Completed', 0],
      ['Completed', W],
      ['Completed', 2 * W],
      ['Completed', 3 * W],
    ]);
  });

  it('later: the re-scan [cursor − lag, cursor), the completions [cursor, until), the updates [updates cursor, end), interleaved', () => {
    const state = newState(query, T - 72 * H);
    state.cursor = T + 17 * 60_000;
    state.rescanBase = state.cursor;
    state.updatedCursor = T + H;
    const { windows, rescanFrom } = planStep(state, T + 2 * H, T + 3 * H, 2 * H, true);
    expect(rescanFrom).toBe(state.cursor - 2 * H);
    expect(windows.map((w) => w.index)).toEqual(windows.map((_, i) => i));
    const completed = windows.filter((w) => w.filter === 'Completed');
    const updated = windows.filter((w) => w.filter === 'Updated');
    expect(completed[0]!.from).toBe(state.cursor - 2 * H);
    expect(completed.some((w) => w.to === state.cursor)).toBe(true);
    expect(completed.at(-1)!.to).toBe(T + 2 * H);
    expect(updated[0]!.from).toBe(T + H);
    expect(windows.slice(0, 3).map((w) => w.pass)).toEqual(['rescan', 'completions', 'updates']);
    expect(updated.at(-1)!.to).toBe(T + 3 * H);
    for (const w of windows) expect(w.to - w.from).toBeLessThanOrEqual(W);
  });

  it('never re-scans before since; no re-scan with --lag 0 or when not due', () => {
    const state = newState(query, T);
    state.cursor = T + H;
    state.rescanBase = T + H;
    state.updatedCursor = T + H;
    expect(planStep(state, T + H, T + H, 48 * H, true).rescanFrom).toBe(T);
    expect(planStep(state, T + H, T + H, 0, true).windows).toEqual([]);
    expect(planStep(state, T + H, T + H, 48 * H, false).windows).toEqual([]);
  });

  it('a re-scan continues where one cut short got to, and never reaches back past lag before the last re-scan ran', () => {
    const state = newState(query, T - 30 * 24 * H);
    state.cursor = T - 20 * 24 * H;
    state.rescanBase = state.cursor;
    state.updatedCursor = state.cursor;
    // A backfill's commit: the swaps completed up to its cursor were fetched at T, so those before T − lag were visible.
    state.rescannedAt = T;
    expect(planStep(state, T - 19 * 24 * H, T, 48 * H, true).rescanFrom).toBeUndefined();
    // Fetched weeks ago: the whole lag behind the cursor is re-scanned, but for what a re-scan cut short did.
    state.rescannedAt = T - 30 * 24 * H;
    expect(planStep(state, T - 19 * 24 * H, T, 48 * H, true).rescanFrom).toBe(state.cursor - 48 * H);
    state.rescannedTo = state.cursor - 10 * H;
    expect(planStep(state, T - 19 * 24 * H, T, 48 * H, true).rescanFrom).toBe(state.cursor - 10 * H);
  });
});
