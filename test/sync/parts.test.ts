/**
 * Partition files: one per date, rewritten whole and atomically, one row per swap (its latest version),
 * read back (jsonl/csv, gz or not) byte for byte; the older append-only parts folded into one.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { createEncoder } from '../../src/output/encode.js';
import { csvCodec } from '../../src/formats/csv.js';
import { readCsvRecords } from '../../src/formats/csv-records.js';
import { jsonlCodec } from '../../src/formats/jsonl.js';
import { IdIndex } from '../../src/mirror/partitions/id-index.js';
import { LocalStorage } from '../../src/mirror/folder/local-storage.js';
import { PendingPartitions } from '../../src/mirror/partitions/pending.js';
import { recover } from '../../src/mirror/folder/recovery.js';
import type { PartitionCodec } from '../../src/formats/stored-row.js';
import { tempDir } from '../helpers/cli.js';

/** The pending rows of a mirror in `dir`, with the index of its partitions. */
function pendingIn(dir: string, codec: PartitionCodec): PendingPartitions {
  const storage = new LocalStorage(dir);
  return new PendingPartitions(storage, codec, new IdIndex(storage, codec));
}

const swap = (id: string, completedAt: string, updatedAt: string, status = 'OK') =>
  ({ id, completedAt, updatedAt, usdMismatchStatus: status, sourceOtherProtocolAddresses: ['a,"b"', 'c\nd'] }) as unknown as Swap;
const fields = ['id', 'completedAt', 'updatedAt', 'usdMismatchStatus', 'sourceOtherProtocolAddresses'];

describe('readCsvRecords', () => {
  it('reads quoted commas, doubled quotes and line breaks, with each record as written', () => {
    const text = 'id,note\r\n1,"a, ""b""\nc"\n2,plain\n\n3,""\n4,"end"';
    const records: string[][] = [];
    const raws: string[] = [];
    readCsvRecords(text, (r, raw) => {
      records.push(r);
      raws.push(raw);
    });
    expect(records).toEqual([
      ['id', 'note'],
      ['1', 'a, "b"\nc'],
      ['2', 'plain'],
      ['3', ''],
      ['4', 'end'],
    ]);
    expect(raws).toEqual(['id,note\r\n', '1,"a, ""b""\nc"\n', '2,plain\n', '3,""\n', '4,"end"']);
  });

  it('refuses a quoted field that is not closed', () => {
    expect(() => readCsvRecords('id\n"open', () => {})).toThrow(/not closed/);
  });
});

const cases: ['jsonl' | 'csv', boolean][] = [
  ['jsonl', false],
  ['jsonl', true],
  ['csv', false],
  ['csv', true],
];

function decode(file: string): string {
  const bytes = fs.readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

describe('PendingPartitions', () => {
  it.each(cases)('%s gzip=%s: one file per date, latest version per id, sorted; unchanged partitions are not rewritten', async (format, gzip) => {
    const dir = tempDir('swapx-parts-');
    const codec = (format === 'jsonl' ? jsonlCodec : csvCodec)(gzip, createEncoder(format, { fields, allFields: SWAP_FIELDS }));
    const pending = pendingIn(dir, codec);
    const add = (s: Swap) => pending.add(s.completedAt!.slice(0, 10), codec.row(s));
    await add(swap('b', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z'));
    await add(swap('a', '2026-11-20T10:00:00Z', '2026-11-20T10:05:00Z'));
    await add(swap('c', '2026-11-21T01:00:00Z', '2026-11-21T01:00:00Z', 'Unprocessed'));
    const first = await pending.flush(Date.parse('2026-11-20T00:00:00Z'));
    expect(first).toMatchObject({
      newSwaps: 3,
      lateSwaps: 0,
      updatedSwaps: 0,
      files: [`date=2026-11-20/part${codec.extension}`, `date=2026-11-21/part${codec.extension}`],
    });
    expect(fs.readdirSync(path.join(dir, 'date=2026-11-20'))).toEqual([`part${codec.extension}`]);

    const nov20 = path.join(dir, `date=2026-11-20/part${codec.extension}`);
    const nov21 = path.join(dir, `date=2026-11-21/part${codec.extension}`);
    const before = fs.statSync(nov20).mtimeMs;
    // A newer version of c, an older one of a (ignored), a late swap d, and b again unchanged.
    await add(swap('c', '2026-11-21T01:00:00Z', '2026-11-23T01:00:00Z', 'MismatchDetected'));
    await add(swap('a', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z'));
    await add(swap('b', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z'));
    const second = await pending.flush(Date.parse('2026-11-22T00:00:00Z'));
    expect(second).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 1, files: [`date=2026-11-21/part${codec.extension}`] });
    expect(fs.statSync(nov20).mtimeMs).toBe(before);
    await add(swap('d', '2026-11-20T09:00:00Z', '2026-11-20T09:00:00Z'));
    expect(await pending.flush(Date.parse('2026-11-22T00:00:00Z'))).toMatchObject({ lateSwaps: 1, files: [`date=2026-11-20/part${codec.extension}`] });

    // Read with a real reader: one row per id, sorted by completedAt then id, the header once.
    const read = (file: string) =>
      format === 'csv'
        ? (parse(decode(file), { columns: true }) as Record<string, string>[])
        : decode(file)
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Record<string, string>);
    expect(read(nov20).map((r) => [r.id, r.updatedAt])).toEqual([
      ['d', '2026-11-20T09:00:00Z'],
      ['a', '2026-11-20T10:05:00Z'],
      ['b', '2026-11-20T10:00:00Z'],
    ]);
    expect(read(nov21).map((r) => [r.id, r.usdMismatchStatus])).toEqual([['c', 'MismatchDetected']]);
    if (format === 'csv') expect(read(nov20)[0]!.sourceOtherProtocolAddresses).toBe('["a,\\"b\\"","c\\nd"]');
    // Read back and written again: the same bytes.
    const rows = await codec.read(fs.readFileSync(nov20));
    expect(codec.encode(rows).equals(fs.readFileSync(nov20))).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'date=2026-11-20'))).toEqual([`part${codec.extension}`]);
  });
});

describe('recover', () => {
  it('deletes temporary files and folds the parts of the older layout into the one file, latest versions kept', async () => {
    const dir = tempDir('swapx-recover-');
    const codec = jsonlCodec(false, createEncoder('jsonl', { fields, allFields: SWAP_FIELDS }));
    const partition = path.join(dir, 'date=2026-11-20');
    fs.mkdirSync(partition);
    const line = (s: Swap) => `${JSON.stringify(s)}\n`;
    fs.writeFileSync(
      path.join(partition, 'part-20261120T100000Z-aaaaaa.jsonl'),
      line(swap('a', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z')) + line(swap('b', '2026-11-20T09:00:00Z', '2026-11-20T09:00:00Z')),
    );
    fs.writeFileSync(path.join(partition, 'part-20261121T100000Z-bbbbbb.jsonl'), line(swap('a', '2026-11-20T10:00:00Z', '2026-11-21T10:00:00Z', 'NotFound')));
    fs.writeFileSync(path.join(partition, '.part-20261121T110000Z-cccccc.jsonl.123-abcd.tmp'), 'half');
    fs.writeFileSync(path.join(partition, '.part.jsonl.123-abcd.tmp'), 'half');
    const result = await recover(new LocalStorage(dir), codec);
    expect(result).toEqual({ removed: 2, folded: ['date=2026-11-20/part.jsonl'] });
    expect(fs.readdirSync(partition)).toEqual(['part.jsonl']);
    const rows = decode(path.join(partition, 'part.jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(rows.map((r) => [r.id, r.usdMismatchStatus])).toEqual([
      ['b', 'OK'],
      ['a', 'NotFound'],
    ]);
    // Nothing left to fold: a second pass changes nothing.
    expect(await recover(new LocalStorage(dir), codec)).toMatchObject({ removed: 0, folded: [] });
  });
});
