/**
 * PartialFile: an export to FILE written under FILE.partial, checkpointed in its manifest at most every 250 ms, cut
 * back to the checkpoint on resume, and renamed to FILE when complete. The files and manifests each step leaves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportQuery, Manifest } from '../../src/export/manifest.js';
import { queryFingerprint } from '../../src/export/manifest.js';
import { CHECKPOINT_MS, PartialFile, partialPaths, windowsSaved } from '../../src/export/partial-file.js';
import { tempDir } from '../helpers/cli.js';

const query: ExportQuery = {
  baseUrl: 'http://127.0.0.1:1',
  filter: null,
  from: '2026-11-01T00:00:00Z',
  to: '2026-11-01T01:00:00Z',
  windowMs: 1_800_000,
  format: 'jsonl',
  fields: ['id'],
  gzip: false,
  excelSafe: false,
};
const gzipped: ExportQuery = { ...query, gzip: true };

/** The clock PartialFile reads for its checkpoints: each test sets it. */
let clock = 1_000_000;
const useClock = () => vi.spyOn(performance, 'now').mockImplementation(() => clock);
afterEach(() => {
  vi.restoreAllMocks();
});

function target(name = 'out.jsonl'): string {
  return path.join(tempDir('swapx-partial-'), name);
}
const manifestOf = (file: string) => JSON.parse(fs.readFileSync(partialPaths(file).manifest, 'utf8')) as Manifest;
const filesBeside = (file: string) => fs.readdirSync(path.dirname(file)).sort();
const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('partialPaths and windowsSaved', () => {
  it('names the partial file and its manifest beside FILE', () => {
    expect(partialPaths('/d/out.csv')).toEqual({ partial: '/d/out.csv.partial', manifest: '/d/out.csv.partial.manifest.json' });
    expect(CHECKPOINT_MS).toBe(250);
  });

  it("reads the manifest's windowsDone; 0 without a manifest, an unreadable one or a count that is no number", () => {
    const file = target();
    expect(windowsSaved(file)).toBe(0);
    fs.writeFileSync(partialPaths(file).manifest, JSON.stringify({ windowsDone: 3 }));
    expect(windowsSaved(file)).toBe(3);
    fs.writeFileSync(partialPaths(file).manifest, JSON.stringify({ windowsDone: 'many' }));
    expect(windowsSaved(file)).toBe(0);
    fs.writeFileSync(partialPaths(file).manifest, JSON.stringify({}));
    expect(windowsSaved(file)).toBe(0);
    fs.writeFileSync(partialPaths(file).manifest, '{');
    expect(windowsSaved(file)).toBe(0);
  });
});

describe('PartialFile', () => {
  it('start: an empty partial file and a manifest of no windows done', async () => {
    const file = target();
    const partial = await PartialFile.start(file, query, 4);
    expect(partial.target).toBe(file);
    expect(fs.readFileSync(`${file}.partial`, 'utf8')).toBe('');
    expect(fs.statSync(`${file}.partial`).mode & 0o777).toBe(0o644 & ~process.umask());
    const manifest = manifestOf(file);
    expect(manifest).toEqual({
      version: 1,
      fingerprint: queryFingerprint(query),
      query,
      windowsTotal: 4,
      windowsDone: 0,
      bytes: 0,
      swaps: 0,
      dropped: 0,
      updatedAt: manifest.updatedAt,
    });
    expect(manifest.updatedAt).toMatch(iso);
    expect(Math.abs(Date.parse(manifest.updatedAt) - Date.now())).toBeLessThan(60_000);
    expect(partial.state).toEqual({ windowsDone: 0, swaps: 0, dropped: 0, bytes: 0, formatState: undefined });
    await partial.discard();
  });

  it('start over an old partial file empties it', async () => {
    const file = target();
    fs.writeFileSync(`${file}.partial`, 'old bytes');
    const partial = await PartialFile.start(file, query, 1);
    expect(fs.readFileSync(`${file}.partial`, 'utf8')).toBe('');
    await partial.discard();
  });

  it('start that cannot write its manifest leaves no partial file, and says why', async () => {
    const file = target();
    fs.mkdirSync(partialPaths(file).manifest);
    fs.writeFileSync(path.join(partialPaths(file).manifest, 'x'), '');
    const error = await PartialFile.start(file, query, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });

  it('append: checkpoints at once, then not again until 250 ms after the last checkpoint', async () => {
    const spy = useClock();
    const file = target();
    const partial = await PartialFile.start(file, query, 3);
    clock = 1_000_000;
    await partial.append('{"id":"a"}\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    expect(manifestOf(file)).toMatchObject({ windowsDone: 1, swaps: 1, dropped: 0, bytes: 11 });
    expect(partial.state).toEqual({ windowsDone: 1, swaps: 1, dropped: 0, bytes: 11, formatState: undefined });

    clock += CHECKPOINT_MS - 1;
    await partial.append(Buffer.from('{"id":"b"}\n'), { windowsDone: 2, swaps: 2, dropped: 1 });
    // Written, not yet recorded: the state is the checkpoint's.
    expect(fs.readFileSync(`${file}.partial`, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
    expect(manifestOf(file)).toMatchObject({ windowsDone: 1, swaps: 1, dropped: 0, bytes: 11 });
    expect(partial.state).toEqual({ windowsDone: 1, swaps: 1, dropped: 0, bytes: 11, formatState: undefined });

    clock += 1;
    await partial.append('', { windowsDone: 3, swaps: 2, dropped: 1 });
    expect(manifestOf(file)).toMatchObject({ windowsDone: 3, swaps: 2, dropped: 1, bytes: 22 });
    expect(partial.state).toEqual({ windowsDone: 3, swaps: 2, dropped: 1, bytes: 22, formatState: undefined });
    expect(spy).toHaveBeenCalled();
    await partial.complete('');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
    expect(filesBeside(file)).toEqual(['out.jsonl']);
  });

  it("a format's state is recorded with its bytes, and kept until replaced", async () => {
    useClock();
    const file = target('out.parquet');
    const partial = await PartialFile.start(file, { ...query, format: 'parquet' }, 3);
    clock += 1_000;
    await partial.append(Buffer.from([1, 2]), { windowsDone: 1, swaps: 1, dropped: 0 }, 'groups:1');
    expect(manifestOf(file)).toMatchObject({ windowsDone: 1, bytes: 2, formatState: 'groups:1' });
    expect(partial.state).toEqual({ windowsDone: 1, swaps: 1, dropped: 0, bytes: 2, formatState: 'groups:1' });
    clock += 1_000;
    await partial.append('', { windowsDone: 2, swaps: 1, dropped: 0 });
    expect(manifestOf(file)).toMatchObject({ windowsDone: 2, bytes: 2, formatState: 'groups:1' });
    clock += 1_000;
    await partial.append(Buffer.from([3]), { windowsDone: 3, swaps: 2, dropped: 0 }, 'groups:2');
    expect(partial.state.formatState).toBe('groups:2');
    await partial.discard();
  });

  it('gzip: each window its own member, the closing text one more; the file reads as the whole text', async () => {
    const file = target('out.json.gz');
    const partial = await PartialFile.start(file, gzipped, 2);
    await partial.append('[\n1', { windowsDone: 1, swaps: 1, dropped: 0 });
    await partial.append(Buffer.from(',\n2'), { windowsDone: 2, swaps: 2, dropped: 0 });
    await partial.complete('\n]\n');
    const bytes = fs.readFileSync(file);
    expect(bytes).toEqual(Buffer.concat([gzipSync('[\n1'), gzipSync(',\n2'), gzipSync('\n]\n')]));
    expect(gunzipSync(bytes).toString()).toBe('[\n1,\n2\n]\n');
  });

  it('gzip: an empty export is still a gzip file; an empty closing text after data adds nothing', async () => {
    const empty = target('empty.jsonl.gz');
    const none = await PartialFile.start(empty, gzipped, 1);
    await none.append('', { windowsDone: 1, swaps: 0, dropped: 0 });
    await none.complete('');
    expect(fs.readFileSync(empty)).toEqual(gzipSync(''));

    const full = target('full.jsonl.gz');
    const some = await PartialFile.start(full, gzipped, 2);
    await some.append('a\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    // A window without swaps adds no member.
    await some.append('', { windowsDone: 2, swaps: 1, dropped: 0 });
    await some.complete('');
    expect(fs.readFileSync(full)).toEqual(gzipSync('a\n'));
  });

  it('complete: the closing text (string or bytes) after the rest, FILE in place of the partial file, no manifest', async () => {
    const file = target('out.json');
    const partial = await PartialFile.start(file, query, 1);
    await partial.append('[1', { windowsDone: 1, swaps: 1, dropped: 0 });
    await partial.complete(Buffer.from(']\n'));
    expect(fs.readFileSync(file, 'utf8')).toBe('[1]\n');
    expect(filesBeside(file)).toEqual(['out.json']);
  });

  it('counts bytes, not characters, and completes even when its manifest is gone', async () => {
    const file = target();
    const partial = await PartialFile.start(file, query, 1);
    await partial.append('é✓\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    expect(manifestOf(file)).toMatchObject({ bytes: 6 });
    fs.rmSync(partialPaths(file).manifest);
    await partial.complete('ü');
    expect(fs.readFileSync(file, 'utf8')).toBe('é✓\nü');
    expect(filesBeside(file)).toEqual(['out.jsonl']);
  });

  it('an empty export without gzip completes as an empty file', async () => {
    const file = target('out.jsonl');
    const partial = await PartialFile.start(file, query, 1);
    await partial.complete('');
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });

  it('close: checkpoints what is written and leaves the files for a resume, which cuts what came after the checkpoint', async () => {
    useClock();
    const file = target();
    const first = await PartialFile.start(file, query, 3);
    clock += 1_000;
    await first.append('{"id":"a"}\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    await first.append('{"id":"b"}\n', { windowsDone: 2, swaps: 2, dropped: 0 });
    await first.close();
    expect(manifestOf(file)).toMatchObject({ windowsDone: 2, swaps: 2, bytes: 22 });
    expect(filesBeside(file)).toEqual(['out.jsonl.partial', 'out.jsonl.partial.manifest.json']);

    // A run that died after writing a third window, before its checkpoint.
    fs.appendFileSync(`${file}.partial`, '{"id":"c"}\n');
    const saved = manifestOf(file);
    const resumed = await PartialFile.resume(file, saved, 'http://127.0.0.1:2');
    expect(fs.readFileSync(`${file}.partial`, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n');
    expect(resumed.state).toEqual({ windowsDone: 2, swaps: 2, dropped: 0, bytes: 22, formatState: undefined });
    clock += 1_000;
    await resumed.append('{"id":"z"}\n', { windowsDone: 3, swaps: 3, dropped: 0 });
    expect(manifestOf(file)).toMatchObject({ windowsDone: 3, bytes: 33, query: { ...query, baseUrl: 'http://127.0.0.1:2' } });
    expect(saved.query.baseUrl).toBe('http://127.0.0.1:1');
    await resumed.complete('');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n{"id":"z"}\n');
  });

  it('close: a checkpoint that cannot be written (a full disk) still closes, leaving the last checkpoint', async () => {
    useClock();
    const file = target();
    const partial = await PartialFile.start(file, query, 2);
    clock += 1_000;
    await partial.append('a\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    await partial.append('b\n', { windowsDone: 2, swaps: 2, dropped: 0 });
    // The manifest's name taken by a directory: the checkpoint's rename fails.
    const { manifest } = partialPaths(file);
    fs.rmSync(manifest);
    fs.mkdirSync(manifest);
    fs.writeFileSync(path.join(manifest, 'x'), '');
    await expect(partial.close()).resolves.toBeUndefined();
    expect(fs.readFileSync(`${file}.partial`, 'utf8')).toBe('a\nb\n');
    expect(partial.state.windowsDone).toBe(1);
  });

  it('discard: leaves nothing behind, even twice', async () => {
    const file = target();
    const partial = await PartialFile.start(file, query, 2);
    await partial.append('a\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    await partial.discard();
    expect(filesBeside(file)).toEqual([]);
    await partial.discard();
    expect(filesBeside(file)).toEqual([]);
  });
});
