/**
 * The sync state at its edges, in-process: an unreadable state is an error naming why, never none (so a new
 * sync cannot overwrite it); each check of the query alone; the exact text written, and its mode.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../src/api/errors.js';
import { queryDifferences, fingerprint, parseState, readState, serializeState, type SyncQuery, writeState } from '../../src/mirror/partitions/state-file.js';
import { newState } from '../../src/sync/store.js';
import { describeMirrorChange, inUsersTerms } from '../../src/commands/sync/errors.js';
import { tempDir } from '../helpers/cli.js';
import { LocalStorage } from '../../src/mirror/folder/local-storage.js';

/** The words of a difference, as the shell says them. */
const describeDifference = (saved: SyncQuery, wanted: SyncQuery) => describeMirrorChange(queryDifferences(saved, wanted));

/** What `promise` rejects with, as the user reads it: the shell words the engine's refusals in its flags. */
const said = <T>(promise: Promise<T>): Promise<T> =>
  promise.catch((error: unknown) => {
    throw inUsersTerms(error);
  });

/** The state file of a folder mirror. */
const statePath = (dir: string) => path.join(dir, '.swapx-sync.json');

afterEach(() => {
  vi.restoreAllMocks();
});

const query: SyncQuery = { baseUrl: 'http://127.0.0.1:1', filter: 'Completed', format: 'csv', fields: ['id', 'completedAt'], gzip: true };
const T = Date.parse('2026-11-10T00:00:00Z');

function stateText(change: Record<string, unknown> = {}, queryChange: Record<string, unknown> = {}): string {
  const q = { ...query, ...queryChange };
  return JSON.stringify({
    version: 2,
    fingerprint: fingerprint(q),
    query: q,
    since: '2026-11-10T00:00:00Z',
    cursor: '2026-11-10T02:00:00Z',
    updatedCursor: '2026-11-10T01:00:00Z',
    rescanBase: '2026-11-10T02:00:00Z',
    rescannedAt: null,
    updatedAt: '2026-11-10T03:00:00Z',
    ...change,
  });
}

describe('readState: a state that cannot be read is never none', () => {
  it('EACCES is a UsageError naming the file and the code, and the file is left as it is', async () => {
    const dir = tempDir('swapx-state-');
    fs.writeFileSync(statePath(dir), stateText());
    vi.spyOn(fsp, 'readFile').mockRejectedValueOnce(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    const error = await said(readState(new LocalStorage(dir))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`cannot read the sync state ${statePath(dir)} (EACCES); fix its permissions, or sync into a new --out dir`);
    expect(fs.readFileSync(statePath(dir), 'utf8')).toBe(stateText());
  });

  it('a directory in its place, and an error without a code, are errors too', async () => {
    const dir = tempDir('swapx-state-');
    fs.mkdirSync(statePath(dir));
    await expect(said(readState(new LocalStorage(dir)))).rejects.toThrow(
      `cannot read the sync state ${statePath(dir)} (EISDIR); fix its permissions, or sync into a new --out dir`,
    );
    vi.spyOn(fsp, 'readFile').mockRejectedValueOnce(new Error('odd'));
    await expect(said(readState(new LocalStorage(tempDir('swapx-state-'))))).rejects.toThrow(
      /^cannot read the sync state .* \(Error: odd\); fix its permissions/,
    );
  });

  it('a corrupt state names the problem, and is left untouched', async () => {
    const dir = tempDir('swapx-state-');
    const text = stateText({ version: 3 });
    fs.writeFileSync(statePath(dir), text);
    const error = await said(readState(new LocalStorage(dir))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      `the sync state ${statePath(dir)} is corrupt (version 3 is not 1 or 2); it was left untouched: restore it from a backup, or sync into a new --out dir`,
    );
    expect(fs.readFileSync(statePath(dir), 'utf8')).toBe(text);
  });

  it('a valid state is read', async () => {
    const dir = tempDir('swapx-state-');
    fs.writeFileSync(statePath(dir), stateText());
    expect(await readState(new LocalStorage(dir))).toEqual({
      query,
      since: T,
      cursor: T + 7_200_000,
      updatedCursor: T + 3_600_000,
      rescanBase: T + 7_200_000,
      rescannedAt: undefined,
    });
  });
});

describe('parseState: each check alone', () => {
  it.each([
    ['null', 'null', 'not a JSON object'],
    ['a number', '5', 'not a JSON object'],
    ['an array', '[1]', 'not a JSON object'],
    ['version "2"', stateText({ version: '2' }), 'version "2" is not 1 or 2'],
    ['no version', stateText({ version: undefined }), 'version undefined is not 1 or 2'],
    ['no query', stateText({ query: null }), 'query is missing'],
    ['a query of text', stateText({ query: 'q' }), 'query is missing'],
    ['a base URL not text', stateText({}, { baseUrl: 1 }), 'query.baseUrl is missing'],
    ['another filter', stateText({}, { filter: 'Updated' }), 'query.filter is not Completed'],
    ['another format', stateText({}, { format: 'xml' }), 'query.format is not jsonl, csv or parquet'],
    ['gzip not a boolean', stateText({}, { gzip: 'yes' }), 'query.gzip is missing'],
    ['gzip for parquet', stateText({}, { format: 'parquet', gzip: true }), 'query.gzip is true for parquet, which is compressed inside'],
    ['fields of text', stateText({}, { fields: 'id' }), 'query.fields is not a list of strings'],
    ['a field not text', stateText({}, { fields: ['id', 1] }), 'query.fields is not a list of strings'],
    ['another fingerprint', stateText({ fingerprint: fingerprint({ ...query, gzip: false }) }), 'the fingerprint does not match the query (edited by hand?)'],
    ['since not a time', stateText({ since: 5 }), 'since is not a UTC time'],
    ['cursor with an offset', stateText({ cursor: '2026-11-10T02:00:00+00:00' }), 'cursor is not a UTC time'],
    ['four fractional digits', stateText({ rescanBase: '2026-11-10T02:00:00.1234Z' }), 'rescanBase is not a UTC time'],
    ['text around the time', stateText({ updatedCursor: 'x2026-11-10T01:00:00Z' }), 'updatedCursor is not a UTC time'],
    ['text after the time', stateText({ updatedCursor: '2026-11-10T01:00:00Zx' }), 'updatedCursor is not a UTC time'],
    ['no rescannedAt', stateText({ rescannedAt: undefined }), 'rescannedAt is not a UTC time'],
    ['a time in a list', stateText({ since: ['2026-11-10T00:00:00Z'] }), 'since is not a UTC time'],
    [
      'rescanBase after cursor',
      stateText({ rescanBase: '2026-11-10T02:00:00.001Z' }),
      'since ≤ cursor, rescanBase ≤ cursor and since ≤ updatedCursor do not all hold',
    ],
    [
      'cursor before since',
      stateText({ cursor: '2026-11-09T23:59:59.999Z', rescanBase: '2026-11-09T00:00:00Z' }),
      'since ≤ cursor, rescanBase ≤ cursor and since ≤ updatedCursor do not all hold',
    ],
    [
      'updatedCursor before since',
      stateText({ updatedCursor: '2026-11-09T23:59:59.999Z' }),
      'since ≤ cursor, rescanBase ≤ cursor and since ≤ updatedCursor do not all hold',
    ],
  ])('%s: %s', (_name, text, message) => {
    expect(() => parseState(text)).toThrow(new Error(message));
  });

  it('takes every format, times with up to three fractional digits, equal cursors, and a rescannedAt', () => {
    for (const [format, gzip] of [
      ['jsonl', true],
      ['csv', false],
      ['parquet', false],
    ] as const) {
      expect(parseState(stateText({}, { format, gzip })).query).toEqual({ ...query, format, gzip });
    }
    const state = parseState(
      stateText({
        since: '2026-11-10T00:00:00.5Z',
        cursor: '2026-11-10T00:00:00.5Z',
        updatedCursor: '2026-11-10T00:00:00.5Z',
        rescanBase: '2026-11-10T00:00:00.5Z',
        rescannedAt: '2026-11-10T03:00:00.123Z',
      }),
    );
    expect(state).toEqual({
      query,
      since: T + 500,
      cursor: T + 500,
      updatedCursor: T + 500,
      rescanBase: T + 500,
      rescannedAt: Date.parse('2026-11-10T03:00:00.123Z'),
    });
    expect('upgradedFrom' in state).toBe(false);
  });

  it('a version 1 state ignores its updatedCursor (updates are caught up from since)', () => {
    expect(parseState(stateText({ version: 1, updatedCursor: 'anything' }))).toEqual({
      query,
      since: T,
      cursor: T + 7_200_000,
      updatedCursor: T,
      rescanBase: T + 7_200_000,
      rescannedAt: undefined,
      upgradedFrom: 1,
    });
  });

  it('keeps only the query fields it knows, and fingerprints those', () => {
    expect(parseState(stateText({ fingerprint: fingerprint(query) }, { extra: 1 })).query).toEqual(query);
  });
});

describe('writing the state', () => {
  it('writes exactly this text, mode 0644, one key a line and the fields on one line', async () => {
    const state = { ...newState(query, T), cursor: T + 1000, rescannedAt: T + 2500 };
    expect(serializeState(state, T + 3_000)).toBe(
      [
        '{',
        '  "version": 2,',
        `  "fingerprint": "${fingerprint(query)}",`,
        '  "query": {',
        '    "baseUrl": "http://127.0.0.1:1",',
        '    "filter": "Completed",',
        '    "format": "csv",',
        '    "fields": ["id","completedAt"],',
        '    "gzip": true',
        '  },',
        '  "since": "2026-11-10T00:00:00Z",',
        '  "cursor": "2026-11-10T00:00:01Z",',
        '  "updatedCursor": "2026-11-10T00:00:00Z",',
        '  "rescanBase": "2026-11-10T00:00:00Z",',
        '  "rescannedAt": "2026-11-10T00:00:02.500Z",',
        '  "updatedAt": "2026-11-10T00:00:03Z"',
        '}',
        '',
      ].join('\n'),
    );
    expect(serializeState(newState(query, T), T)).toContain('\n  "rescannedAt": null,\n');
    const dir = tempDir('swapx-state-');
    await writeState(new LocalStorage(dir), state, T + 3_000);
    expect(fs.statSync(statePath(dir)).mode & 0o777).toBe(0o644);
    expect(await readState(new LocalStorage(dir))).toEqual(state);
  });

  it('writes the fields list in its place even when another value is empty text', () => {
    const text = serializeState(newState({ ...query, baseUrl: '' }, T), T);
    expect(text).toContain('\n    "baseUrl": "",\n');
    expect(text).toContain('\n    "fields": ["id","completedAt"],\n');
    expect(parseState(text).query).toEqual({ ...query, baseUrl: '' });
  });

  it('a new state starts every cursor at since', () => {
    expect(newState(query, T)).toEqual({ query, since: T, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: undefined });
  });

  it('names each part of the query that differs, the base URL included', () => {
    expect(describeDifference(query, { ...query, baseUrl: 'http://b', fields: ['id'] })).toBe(
      'base URL was "http://127.0.0.1:1", now "http://b"; --fields was ["id","completedAt"], now ["id"]',
    );
  });
});
