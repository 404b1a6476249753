/** The options of `swapx sync`, each checked alone and against the saved state: exact values, one-line refusals. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { LIST_SWAP_FIELDS } from '../../../src/api/types.js';
import { newState } from '../../../src/sync/store.js';
import { DEFAULT_CHECKPOINT_MS, DEFAULT_FOLLOW_RESCAN_MS, DEFAULT_INTERVAL_MS, DEFAULT_LAG_MS, defaultUntil, SETTLE_MS } from '../../../src/sync/defaults.js';
import { parseSyncFlags, type SyncFlags } from '../../../src/commands/sync/flags.js';
import { checkStart } from '../../../src/sync/prepare.js';
import { inUsersTerms } from '../../../src/commands/sync/errors.js';

const NOW = Date.parse('2026-11-20T12:00:00.500Z');
const parse = (flags: Omit<SyncFlags, 'out'> & { out?: string }) => parseSyncFlags({ out: 'dir', ...flags }, NOW);
const refusal = (flags: Omit<SyncFlags, 'out'> & { out?: string }) => {
  try {
    parse(flags);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('the defaults', () => {
  it('are these', () => {
    expect([DEFAULT_LAG_MS, DEFAULT_INTERVAL_MS, DEFAULT_CHECKPOINT_MS, DEFAULT_FOLLOW_RESCAN_MS, SETTLE_MS]).toEqual([
      48 * 3_600_000,
      60_000,
      30_000,
      15 * 60_000,
      2 * 60_000,
    ]);
  });

  it('a run with --out alone', () => {
    expect(parse({})).toEqual({
      dir: 'dir',
      since: undefined,
      until: undefined,
      format: undefined,
      gzip: undefined,
      fields: undefined,
      lagMs: DEFAULT_LAG_MS,
      rescanEveryMs: 0,
      follow: false,
      intervalMs: DEFAULT_INTERVAL_MS,
      summaryJson: false,
      concurrency: undefined,
      checkpointMs: DEFAULT_CHECKPOINT_MS,
      moveBaseUrl: false,
    });
  });

  it('--follow re-scans every 15 minutes unless told', () => {
    expect(parse({ follow: true })).toMatchObject({ follow: true, rescanEveryMs: DEFAULT_FOLLOW_RESCAN_MS });
    expect(parse({ follow: true, rescanEvery: '0' })).toMatchObject({ rescanEveryMs: 0 });
  });

  it('defaultUntil: 2 minutes before now, down to a whole second', () => {
    expect(defaultUntil(NOW)).toBe(Date.parse('2026-11-20T11:58:00Z'));
    expect(defaultUntil(Date.parse('2026-11-20T12:00:00.999Z'))).toBe(Date.parse('2026-11-20T11:58:00Z'));
    expect(defaultUntil(Date.parse('2026-11-20T12:00:01Z'))).toBe(Date.parse('2026-11-20T11:58:01Z'));
  });
});

describe('--out', () => {
  it.each([undefined, '', '  '])('missing (%j): refused', (out) => {
    expect(() => parseSyncFlags({ out }, NOW)).toThrow(new UsageError('--out <dir> is missing: the directory that holds the partitions and the sync state'));
  });
});

describe('--format and --gzip', () => {
  it.each([
    ['jsonl', 'jsonl', undefined],
    [' JSONL ', 'jsonl', undefined],
    ['ndjson', 'jsonl', undefined],
    ['ndjson.gz', 'jsonl', true],
    ['csv.gz', 'csv', true],
    ['csv', 'csv', undefined],
    ['parquet', 'parquet', undefined],
  ])('%j: %s, gzip %s', (text, format, gzip) => {
    expect(parse({ format: text })).toMatchObject({ format, gzip });
  });

  it('--gzip alone, or with a text format', () => {
    expect(parse({ gzip: true })).toMatchObject({ format: undefined, gzip: true });
    expect(parse({ gzip: true, format: 'csv' })).toMatchObject({ format: 'csv', gzip: true });
    expect(parse({ gzip: false, format: 'csv' })).toMatchObject({ format: 'csv', gzip: undefined });
  });

  it.each([
    ['xml', "--format: sync writes jsonl, csv (optionally .gz, e.g. jsonl.gz) or parquet, not 'xml'"],
    ['gz', "--format: sync writes jsonl, csv (optionally .gz, e.g. jsonl.gz) or parquet, not 'gz'"],
    ['parquet.gz', '--format: parquet is compressed inside the file; give parquet without .gz'],
  ])('%j: refused', (format, message) => {
    expect(refusal({ format })).toBe(message);
  });

  it('--gzip with parquet: refused', () => {
    expect(refusal({ format: 'parquet', gzip: true })).toBe('--gzip does not apply to --format parquet: a Parquet file is compressed inside (drop --gzip)');
  });
});

describe('--fields', () => {
  it('as given, in the order given', () => {
    expect(parse({ fields: 'updatedAt,id,completedAt,bridge' }).fields).toEqual(['updatedAt', 'id', 'completedAt', 'bridge']);
  });

  it.each([
    ['id,completedAt', 'updatedAt'],
    ['bridge', 'id and completedAt and updatedAt'],
    ['updatedAt,completedAt', 'id'],
  ])('%j without the keys a mirror needs: refused, naming %s', (fields, missing) => {
    expect(refusal({ fields })).toBe(`--fields must include ${missing}: sync keeps one row per swap id, in its completedAt partition, the latest by updatedAt`);
  });

  it('Parquet has no balanceChanges column; JSON Lines does', () => {
    expect(LIST_SWAP_FIELDS).not.toContain('balanceChanges');
    expect(parse({ fields: 'id,completedAt,updatedAt,balanceChanges' }).fields).toEqual(['id', 'completedAt', 'updatedAt', 'balanceChanges']);
    expect(refusal({ format: 'parquet', fields: 'id,completedAt,updatedAt,balanceChanges' })).toMatch(/^--fields/);
  });
});

describe('--since and --until', () => {
  it('read as times, down to a whole second', () => {
    expect(parse({ since: '2026-11-20T10:00:00.750Z', until: '2026-11-20T11:00:00.250Z' })).toMatchObject({
      since: Date.parse('2026-11-20T10:00:00Z'),
      until: Date.parse('2026-11-20T11:00:00Z'),
    });
    expect(parse({ since: '1h' }).since).toBe(Date.parse('2026-11-20T11:00:00Z'));
  });

  it('now itself is no future; a second past it is', () => {
    expect(parse({ since: '2026-11-20T12:00:00Z', until: '2026-11-20T12:00:00Z' })).toMatchObject({ since: Date.parse('2026-11-20T12:00:00Z') });
    expect(refusal({ since: '2026-11-20T12:00:01Z' })).toBe('--since 2026-11-20T12:00:01Z is in the future');
    expect(refusal({ until: '2026-11-20T12:00:01Z' })).toBe(
      '--until 2026-11-20T12:00:01Z is in the future: the cursor would pass swaps that have not completed yet',
    );
  });

  it('a time that cannot be read names its option', () => {
    expect(refusal({ since: 'whenever' })).toMatch(/^--since: cannot read 'whenever' as a time/);
    expect(refusal({ until: 'whenever' })).toMatch(/^--until: cannot read 'whenever' as a time/);
  });

  it('at a whole second, now itself is taken', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    expect(parseSyncFlags({ out: 'd', since: '2026-11-20T12:00:00Z', until: '2026-11-20T12:00:00Z' }, now)).toMatchObject({ since: now, until: now });
  });

  it('--until before --since: refused; the same time is not', () => {
    expect(refusal({ since: '2026-11-20T10:00:00Z', until: '2026-11-20T09:59:59Z' })).toBe(
      '--until (2026-11-20T09:59:59Z) is before --since (2026-11-20T10:00:00Z)',
    );
    expect(parse({ since: '2026-11-20T10:00:00Z', until: '2026-11-20T10:00:00Z' }).until).toBe(Date.parse('2026-11-20T10:00:00Z'));
    expect(parse({ until: '2026-11-20T10:00:00Z' }).until).toBe(Date.parse('2026-11-20T10:00:00Z'));
  });

  it('--follow with --until, and --interval without --follow: refused', () => {
    expect(refusal({ follow: true, until: '1h' })).toBe('--follow keeps up with now: give --until or --follow, not both');
    expect(refusal({ interval: '5m' })).toBe('--interval applies to --follow only');
    expect(parse({ follow: true, interval: '5m' }).intervalMs).toBe(300_000);
  });
});

describe('durations', () => {
  it.each([
    ['lag', '0', 'lagMs', 0],
    ['lag', '30d', 'lagMs', 30 * 86_400_000],
    ['lag', '90s', 'lagMs', 90_000],
    ['rescanEvery', '0', 'rescanEveryMs', 0],
    ['rescanEvery', '30d', 'rescanEveryMs', 30 * 86_400_000],
    ['checkpointEvery', '0', 'checkpointMs', 0],
    ['checkpointEvery', '1h', 'checkpointMs', 3_600_000],
    ['checkpointEvery', '10s', 'checkpointMs', 10_000],
  ] as const)('--%s %s: %s %i', (flag, text, key, ms) => {
    expect(parse({ [flag]: text })[key]).toBe(ms);
  });

  it.each([
    [{ lag: 'soon' }, "--lag: 'soon' is not a duration (such as 90s, 15m, 48h, or 0)"],
    [{ lag: '31d' }, '--lag must be from 0 to 30d, not 31d'],
    [{ rescanEvery: '30d1s' }, '--rescan-every must be from 0 to 30d, not 30d1s'],
    [{ checkpointEvery: '61m' }, '--checkpoint-every must be from 0 to 1h, not 61m'],
    [{ checkpointEvery: 'x' }, "--checkpoint-every: 'x' is not a duration (such as 90s, 15m, 48h, or 0)"],
    [{ rescanEvery: 'x' }, "--rescan-every: 'x' is not a duration (such as 90s, 15m, 48h, or 0)"],
    [{ follow: true, interval: '999ms' }, '--interval must be from 1s to 1d, not 999ms'],
    [{ follow: true, interval: '0' }, '--interval must be from 1s to 1d, not 0'],
    [{ follow: true, interval: '25h' }, '--interval must be from 1s to 1d, not 25h'],
    [{ follow: true, interval: 'never' }, "--interval: 'never' is not a duration (such as 90s, 15m, 48h)"],
  ])('%j: refused', (flags, message) => {
    expect(refusal(flags)).toBe(message);
  });

  it('the bounds themselves are taken', () => {
    expect(parse({ follow: true, interval: '1s' }).intervalMs).toBe(1000);
    expect(parse({ follow: true, interval: '1d' }).intervalMs).toBe(86_400_000);
  });
});

describe('the rest', () => {
  it('--summary-json, --move-base-url and --concurrency', () => {
    expect(parse({ summaryJson: true, moveBaseUrl: true, concurrency: '32' })).toMatchObject({ summaryJson: true, moveBaseUrl: true, concurrency: 32 });
    expect(refusal({ concurrency: '33' })).toBe('--concurrency must be from 1 to 32, not 33');
    expect(refusal({ concurrency: '0' })).toBe('--concurrency must be from 1 to 32, not 0');
  });
});

/** What `run` throws, as the user reads it: the shell words the engine's refusals in its flags. */
function said<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw inUsersTerms(error);
  }
}

describe('checkStart', () => {
  const query = { baseUrl: 'u', filter: 'Completed' as const, fields: ['id'] };
  const saved = { ...newState(query, Date.parse('2026-11-01T00:00:00Z')), cursor: Date.parse('2026-11-10T00:00:00Z') };

  it('a first run starts at --since; without one it is refused', () => {
    expect(checkStart({ dir: 'd', since: 5, until: undefined }, undefined)).toEqual({ since: 5, ignoredSince: false });
    expect(() => said(() => checkStart({ dir: 'd', since: undefined, until: undefined }, undefined))).toThrow(
      new UsageError('d has no sync state yet: the first run needs --since <time>, where the sync starts (e.g. --since 2026-11-01)'),
    );
  });

  it('a later run starts where the mirror started; another --since is ignored, the same one is not', () => {
    expect(checkStart({ dir: 'd', since: undefined, until: undefined }, saved)).toEqual({ since: saved.since, ignoredSince: false });
    expect(checkStart({ dir: 'd', since: saved.since, until: undefined }, saved)).toEqual({ since: saved.since, ignoredSince: false });
    expect(checkStart({ dir: 'd', since: saved.since + 1000, until: undefined }, saved)).toEqual({ since: saved.since, ignoredSince: true });
  });

  it('--until before the cursor: refused; at the cursor: taken', () => {
    expect(() => said(() => checkStart({ dir: 'd', since: undefined, until: saved.cursor - 1000 }, saved))).toThrow(
      new UsageError('--until 2026-11-09T23:59:59Z is before the cursor of d (2026-11-10T00:00:00Z): those swaps are synced already'),
    );
    expect(checkStart({ dir: 'd', since: undefined, until: saved.cursor }, saved)).toEqual({ since: saved.since, ignoredSince: false });
  });
});
