/** The sync state: compact id set, round trip, refusal of anything not exactly valid, fingerprint differences. */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { SWAP_FIELDS } from '../../src/api/types.js';
import { UsageError } from '../../src/api/errors.js';
import { IdSet, hourKey } from '../../src/sync/ids.js';
import { describeDifference, newState, parseState, readState, serializeState, statePath, writeState, type SyncQuery } from '../../src/sync/state.js';
import { planStep } from '../../src/sync/step.js';
import { tempDir } from '../helpers/cli.js';

const query: SyncQuery = { baseUrl: 'http://127.0.0.1:1', filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false };
const T = Date.parse('2026-11-10T00:00:00Z');
const H = 3_600_000;

describe('IdSet', () => {
  it('groups ids by UTC hour of completedAt and prunes whole hours', () => {
    const ids = new IdSet();
    expect(ids.add('a', T + 10)).toBe(true);
    expect(ids.add('a', T + 20)).toBe(false);
    ids.add('b', T + H + 5);
    ids.add('c', T - 1);
    expect(ids.toJSON()).toEqual({ '2026-11-09T23': ['c'], '2026-11-10T00': ['a'], '2026-11-10T01': ['b'] });
    ids.pruneBefore(T + H);
    expect(ids.has('a')).toBe(false);
    expect(ids.has('c')).toBe(false);
    expect(ids.has('b')).toBe(true);
    expect(ids.size).toBe(1);
    expect(hourKey(T + 59 * 60_000)).toBe('2026-11-10T00');
  });
});

describe('state file', () => {
  it('round-trips, with one line per hour of ids', () => {
    const state = newState(query, T);
    state.cursor = T + 2 * H;
    state.rescanBase = T + 2 * H;
    state.rescannedAt = T + 3 * H;
    state.ids.add('x2', T + H + 1);
    state.ids.add('x1', T + 1);
    state.parts.push('date=2026-11-10/part-20261110T030000Z-abcdef.jsonl');
    const text = serializeState(state, T + 3 * H);
    expect(text).toContain('\n    "2026-11-10T00": ["x1"],\n    "2026-11-10T01": ["x2"]\n');
    expect(text).toContain(`"fields": ${JSON.stringify(SWAP_FIELDS)}`);
    const back = parseState(text);
    expect(back.cursor).toBe(state.cursor);
    expect(back.rescannedAt).toBe(T + 3 * H);
    expect(back.ids.toJSON()).toEqual(state.ids.toJSON());
    expect(back.parts).toEqual(state.parts);
    expect(serializeState(back, T + 3 * H)).toBe(text);
  });

  it('refuses anything that is not exactly a valid state', () => {
    const good = JSON.parse(serializeState(newState(query, T))) as Record<string, unknown>;
    const bad = (change: Record<string, unknown>) => JSON.stringify({ ...good, ...change });
    expect(() => parseState('{"version": 1,')).toThrow();
    expect(() => parseState('[]')).toThrow(/not a JSON object/);
    expect(() => parseState(bad({ version: 2 }))).toThrow(/version/);
    expect(() => parseState(bad({ cursor: 'yesterday' }))).toThrow(/cursor/);
    expect(() => parseState(bad({ fingerprint: 'f00' }))).toThrow(/fingerprint/);
    expect(() => parseState(bad({ ids: { 'not-an-hour': ['a'] } }))).toThrow(/not an hour/);
    expect(() => parseState(bad({ ids: { '2026-11-10T00': [1] } }))).toThrow(/list of strings/);
    expect(() => parseState(bad({ cursor: '2026-11-09T00:00:00Z' }))).toThrow(/since ≤ idsFrom ≤ cursor/);
  });

  it('reads a missing state as none, and a corrupt one as a UsageError that leaves it untouched', async () => {
    const dir = tempDir('swapx-state-');
    expect(await readState(dir)).toBeUndefined();
    fs.writeFileSync(statePath(dir), 'garbage');
    await expect(readState(dir)).rejects.toThrow(UsageError);
    await expect(readState(dir)).rejects.toThrow(/is corrupt .* left untouched/);
    expect(fs.readFileSync(statePath(dir), 'utf8')).toBe('garbage');
    await writeState(dir, newState(query, T));
    expect((await readState(dir))?.since).toBe(T);
    expect(fs.readdirSync(dir)).toEqual([path.basename(statePath(dir))]);
  });

  it('names what differs between two queries', () => {
    expect(describeDifference(query, { ...query, format: 'csv', gzip: true })).toBe('format was "jsonl", now "csv"; gzip was false, now true');
    expect(describeDifference(query, query)).toBe('');
  });
});

describe('planStep', () => {
  it('re-scans [cursor − lag, cursor) then fetches [cursor, until), the old cursor on a window edge', () => {
    const state = newState(query, T - 72 * H);
    state.cursor = T + 17 * 60_000;
    state.rescanBase = state.cursor;
    state.idsFrom = T - 50 * H;
    const { windows, rescanFrom } = planStep(state, T + H, 2 * H, true);
    expect(rescanFrom).toBe(state.cursor - 2 * H);
    expect(windows.map((w) => w.index)).toEqual(windows.map((_, i) => i));
    expect(windows.some((w) => w.to === state.cursor)).toBe(true);
    expect(windows.some((w) => w.from === state.cursor)).toBe(true);
    expect(windows[0]!.from).toBe(state.cursor - 2 * H);
    expect(windows.at(-1)!.to).toBe(T + H);
    for (const w of windows) expect(w.to - w.from).toBeLessThanOrEqual(30 * 60_000);
  });

  it('never re-scans before since or before the ids still recorded (and says so)', () => {
    const state = newState(query, T);
    state.cursor = T + H;
    state.rescanBase = T + H;
    expect(planStep(state, T + H, 48 * H, true).rescanFrom).toBe(T);
    state.idsFrom = T + 30 * 60_000;
    const clipped = planStep(state, T + H, 48 * H, true);
    expect(clipped.rescanFrom).toBe(T + 30 * 60_000);
    expect(clipped.clippedAt).toBe(T + 30 * 60_000);
    expect(planStep(state, T + H, 0, true).windows).toEqual([]);
    expect(planStep(state, T + H, 48 * H, false).windows).toEqual([]);
  });
});
