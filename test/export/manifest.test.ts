/**
 * The export manifest, in-process: read (absent, unreadable, not JSON, of the wrong shape field by field),
 * written (mode 0600, whole), what makes two exports the same, and what a resume does with it (decideTarget):
 * a --last resume continues its own range only when nothing but the range changed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../src/api/errors.js';
import {
  type ExportQuery,
  type Manifest,
  onlyRangeDiffers,
  queryDifferences,
  planOfQuery,
  queryFingerprint,
  queryOf,
  readManifest,
  writeManifest,
} from '../../src/export/manifest.js';
import { decideTarget } from '../../src/export/target.js';
import { type ExportPlan, planExport } from '../../src/export/plan.js';
import { describeQueryChange } from '../../src/commands/swaps/render.js';
import { tempDir } from '../helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const NOW = Date.parse('2026-11-20T00:00:00Z');

function plan(file: string, overrides: Partial<Parameters<typeof planExport>[0]> = {}): ExportPlan {
  return planExport({
    from: Date.parse('2026-11-02T00:00:00Z'),
    to: Date.parse('2026-11-02T06:00:00Z'),
    filter: 'Completed',
    windowMs: 1_800_000,
    output: { file, format: 'jsonl', gzip: false, fields: ['id', 'completedAt'], excelSafe: false },
    now: NOW,
    ...overrides,
  });
}

const query: ExportQuery = {
  baseUrl: 'https://api.example',
  filter: 'Completed',
  from: '2026-11-02T00:00:00Z',
  to: '2026-11-02T06:00:00Z',
  windowMs: 1_800_000,
  format: 'jsonl',
  fields: ['id', 'completedAt'],
  gzip: false,
  excelSafe: false,
};

function manifestOf(q: ExportQuery, extra: Partial<Manifest> = {}): Manifest {
  return {
    version: 1,
    fingerprint: queryFingerprint(q),
    query: q,
    windowsTotal: 6,
    windowsDone: 2,
    bytes: 10,
    swaps: 3,
    dropped: 0,
    updatedAt: '2026-11-19T00:00:00Z',
    ...extra,
  };
}

describe('readManifest', () => {
  it('is undefined when there is no manifest', async () => {
    expect(await readManifest(path.join(tempDir('swapx-manifest-'), 'none.json'))).toBeUndefined();
  });

  it('reads back what writeManifest wrote, whole, with mode 0600', async () => {
    const file = path.join(tempDir('swapx-manifest-'), 'm.json');
    const manifest = manifestOf(query);
    await writeManifest(file, manifest);
    expect(await readManifest(file)).toEqual(manifest);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify(manifest, null, 2)}\n`);
  });

  it("is version 2 where the format keeps a state: a swapx that reads version 1 only (and read Parquet's as `parquet`) refuses it, rather than resume without it", async () => {
    const file = path.join(tempDir('swapx-manifest-'), 'm.json');
    await writeManifest(file, manifestOf(query, { formatState: '2' }));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ version: 2, formatState: '2' });
    expect(await readManifest(file)).toEqual({ ...manifestOf(query, { formatState: '2' }), version: 2 });
    // Without a state it stays version 1, which every swapx reads.
    await writeManifest(file, manifestOf(query, { formatState: '2' }));
    await writeManifest(file, manifestOf(query));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
  });

  it("reads the swapx before's Parquet state (`parquet`, the count of row groups) as the format's state", async () => {
    const file = path.join(tempDir('swapx-manifest-'), 'm.json');
    const parquetQuery = { ...query, format: 'parquet' as const };
    fs.writeFileSync(file, JSON.stringify({ ...manifestOf(parquetQuery), parquet: '3' }));
    expect(await readManifest(file)).toEqual(manifestOf(parquetQuery, { formatState: '3' }));
  });

  it('an unreadable manifest is an error, never taken as absent (EACCES, a directory)', async () => {
    const dir = tempDir('swapx-manifest-');
    const denied = Object.assign(new Error(`EACCES: permission denied, open '${dir}/m.json'`), { code: 'EACCES' });
    vi.spyOn(fsp, 'readFile').mockRejectedValueOnce(denied);
    await expect(readManifest(path.join(dir, 'm.json'))).rejects.toBe(denied);
    fs.mkdirSync(path.join(dir, 'd.json'));
    await expect(readManifest(path.join(dir, 'd.json'))).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it.each([
    ['not JSON', '{"version": 1,'],
    ['empty', ''],
  ])('%s: "not a readable export manifest"', async (_name, text) => {
    const file = path.join(tempDir('swapx-manifest-'), 'm.json');
    fs.writeFileSync(file, text);
    const error = await readManifest(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`${file} is not a readable export manifest; delete it and the partial file beside it to start over`);
  });

  const good = manifestOf(query) as unknown as Record<string, unknown>;
  const withQuery = (change: Record<string, unknown>) => ({ ...good, query: { ...query, ...change } });
  it.each([
    ['null', null],
    ['a number', 5],
    ['a string', 'manifest'],
    ['version 2 without a format state', { ...good, version: 2 }],
    ['version 3', { ...good, version: 3, formatState: '1' }],
    ['version "1"', { ...good, version: '1' }],
    ['bytes as text', { ...good, bytes: '10' }],
    ['no windowsDone', { ...good, windowsDone: undefined }],
    ['windowsTotal as text', { ...good, windowsTotal: '6' }],
    ['no query', { ...good, query: undefined }],
    ['a null query', { ...good, query: null }],
    ['a query of text', { ...good, query: 'q' }],
    ['from as a number', withQuery({ from: 1 })],
    ['no to', withQuery({ to: undefined })],
    ['windowMs as text', withQuery({ windowMs: '1800000' })],
    ['no format', withQuery({ format: undefined })],
    ['a format swapx does not write', withQuery({ format: 'xml' })],
    ['a format state not text', { ...good, formatState: 2 }],
    ['an old Parquet state not text', { ...good, parquet: 2 }],
    ['fields as text', withQuery({ fields: 'id' })],
    ['a field not text', withQuery({ fields: ['id', 2] })],
  ])('%s: "not an export manifest swapx can read"', async (_name, value) => {
    const file = path.join(tempDir('swapx-manifest-'), 'm.json');
    fs.writeFileSync(file, JSON.stringify(value));
    const error = await readManifest(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`${file} is not an export manifest swapx can read; delete it and the partial file beside it to start over`);
  });

  it('a manifest with an empty field list and no filter is read', async () => {
    const file = path.join(tempDir('swapx-manifest-'), 'm.json');
    const manifest = manifestOf({ ...query, filter: null, fields: [] });
    fs.writeFileSync(file, JSON.stringify(manifest));
    expect(await readManifest(file)).toEqual(manifest);
  });
});

describe('the query of an export', () => {
  it('queryOf records the plan: the filter (null when none), the range in UTC, the output', () => {
    expect(queryOf(plan('/x/out.jsonl'), 'https://api.example')).toEqual(query);
    const other = plan('/x/out.csv', {
      filter: undefined,
      from: Date.parse('2026-11-02T00:00:00.250Z'),
      output: { file: '/x/out.csv', format: 'csv', gzip: true, fields: ['id'], excelSafe: true },
    });
    expect(queryOf(other, 'b')).toEqual({
      baseUrl: 'b',
      filter: null,
      from: '2026-11-02T00:00:00.250Z',
      to: '2026-11-02T06:00:00Z',
      windowMs: 1_800_000,
      format: 'csv',
      fields: ['id'],
      gzip: true,
      excelSafe: true,
    });
  });

  it('the fingerprint leaves the base URL out, and changes with everything else', () => {
    expect(queryFingerprint({ ...query, baseUrl: 'http://elsewhere' })).toBe(queryFingerprint(query));
    expect(queryFingerprint(query)).toMatch(/^[0-9a-f]{32}$/);
    const changes: Partial<ExportQuery>[] = [
      { filter: null },
      { from: '2026-11-02T00:00:01Z' },
      { to: '2026-11-02T07:00:00Z' },
      { windowMs: 60_000 },
      { format: 'csv' },
      { fields: ['id'] },
      { gzip: true },
      { excelSafe: true },
    ];
    for (const change of changes) expect(queryFingerprint({ ...query, ...change })).not.toBe(queryFingerprint(query));
  });

  it('queryDifferences names each option changed, in the terms of the command line (the shell labels them), never the base URL', () => {
    const describeDifference = (saved: ExportQuery, wanted: ExportQuery) => describeQueryChange(queryDifferences(saved, wanted));
    expect(describeDifference(query, { ...query, baseUrl: 'other' })).toBe('');
    expect(describeDifference(query, { ...query, from: '2026-11-01T00:00:00Z', gzip: true })).toBe(
      '--from was "2026-11-02T00:00:00Z", now "2026-11-01T00:00:00Z"; gzip was false, now true',
    );
    expect(describeDifference(query, { ...query, filter: null, to: 'T', windowMs: 1, format: 'csv', fields: ['id'], excelSafe: true }).split('; ')).toEqual([
      'filter was "Completed", now null',
      '--to was "2026-11-02T06:00:00Z", now "T"',
      '--window (ms) was 1800000, now 1',
      'format was "jsonl", now "csv"',
      '--fields was ["id","completedAt"], now ["id"]',
      '--excel-safe was false, now true',
    ]);
  });

  it('onlyRangeDiffers: the range alone, yes; the range and anything else, no', () => {
    const moved = { ...query, from: '2026-11-03T00:00:00Z', to: '2026-11-03T06:00:00Z', baseUrl: 'other' };
    expect(onlyRangeDiffers(query, moved)).toBe(true);
    expect(onlyRangeDiffers(query, query)).toBe(true);
    expect(onlyRangeDiffers(query, { ...moved, format: 'csv' })).toBe(false);
    expect(onlyRangeDiffers(query, { ...moved, filter: null })).toBe(false);
  });

  it('planOfQuery: the saved range, filter, window and output, with this run file and pace', () => {
    const current = plan('/x/now.jsonl', { concurrency: 3, rps: 5 });
    const saved = planOfQuery(
      { ...query, filter: null, from: '2026-11-01T00:00:00Z', to: '2026-11-01T02:00:00Z', format: 'csv', gzip: true, excelSafe: true, windowMs: 60_000 },
      current,
    );
    expect(saved).toEqual({
      from: Date.parse('2026-11-01T00:00:00Z'),
      to: Date.parse('2026-11-01T02:00:00Z'),
      filter: undefined,
      windowMs: 60_000,
      output: { file: '/x/now.jsonl', format: 'csv', gzip: true, fields: ['id', 'completedAt'], excelSafe: true },
      concurrency: 3,
      rps: 5,
      relative: false,
      futureTo: undefined,
    });
    expect(Object.isFrozen(saved)).toBe(true);
    expect(planOfQuery(query, current).filter).toBe('Completed');
  });
});

describe('decideTarget with a manifest', () => {
  function unfinished(q: ExportQuery, partialBytes = 10): string {
    const dir = tempDir('swapx-manifest-');
    const file = path.join(dir, 'out.jsonl');
    fs.writeFileSync(`${file}.partial`, 'x'.repeat(partialBytes));
    fs.writeFileSync(`${file}.partial.manifest.json`, JSON.stringify(manifestOf(q)));
    return file;
  }

  it('a --last resume with only the range moved continues the saved range', async () => {
    const file = unfinished(query);
    const relative = plan(file, { from: Date.parse('2026-11-03T00:00:00Z'), to: Date.parse('2026-11-03T06:00:00Z'), relative: true });
    const decision = await decideTarget(relative, 'https://api.example', { resume: true, force: false });
    expect(decision).toMatchObject({ action: 'resume', ownRange: true, baseUrlWas: undefined });
    expect(decision.action === 'resume' && [decision.plan.from, decision.plan.to]).toEqual([Date.parse(query.from), Date.parse(query.to)]);
  });

  it('a --last resume with another option changed too is refused, naming both', async () => {
    const file = unfinished(query);
    const relative = plan(file, {
      from: Date.parse('2026-11-03T00:00:00Z'),
      to: Date.parse('2026-11-03T06:00:00Z'),
      relative: true,
      output: { file, format: 'jsonl', gzip: true, fields: ['id', 'completedAt'], excelSafe: false },
    });
    const decision = await decideTarget(relative, 'https://api.example', { resume: true, force: false });
    expect(decision).toMatchObject({
      action: 'refuse',
      reason: 'different',
      differences: [
        { key: 'from', was: '2026-11-02T00:00:00Z', now: '2026-11-03T00:00:00Z' },
        { key: 'to', was: '2026-11-02T06:00:00Z', now: '2026-11-03T06:00:00Z' },
        { key: 'gzip', was: false, now: true },
      ],
    });
  });

  it('a fixed range that differs is refused even when only the range moved', async () => {
    const file = unfinished(query);
    const fixed = plan(file, { from: Date.parse('2026-11-03T00:00:00Z'), to: Date.parse('2026-11-03T06:00:00Z') });
    expect(await decideTarget(fixed, 'https://api.example', { resume: true, force: false })).toMatchObject({ action: 'refuse', reason: 'different' });
  });

  it('the same query resumes, naming a base URL that changed; without --resume it is refused as unfinished', async () => {
    const file = unfinished(query);
    expect(await decideTarget(plan(file), 'https://new.example', { resume: true, force: false })).toMatchObject({
      action: 'resume',
      ownRange: false,
      baseUrlWas: 'https://api.example',
    });
    expect(await decideTarget(plan(file), 'https://api.example', { resume: false, force: false })).toMatchObject({
      action: 'refuse',
      reason: 'unfinished',
      differences: [],
    });
  });

  it('an unreadable manifest stops the decision, even with --resume; --force does not read it', async () => {
    const file = unfinished(query);
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    vi.spyOn(fsp, 'readFile').mockRejectedValue(denied);
    await expect(decideTarget(plan(file), 'https://api.example', { resume: true, force: false })).rejects.toBe(denied);
    await expect(decideTarget(plan(file), 'https://api.example', { resume: false, force: false })).rejects.toBe(denied);
    expect(await decideTarget(plan(file), 'https://api.example', { resume: false, force: true })).toMatchObject({ action: 'start' });
  });
});
