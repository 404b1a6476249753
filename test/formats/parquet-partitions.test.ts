/**
 * The Parquet partition codec's round trip: a row as fetched and the same row read back from the file are
 * equal (or a rerun would rewrite every partition), and a partition read back re-encodes to its bytes.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Swap } from '../../src/api/types.js';
import type { StoredRow } from '../../src/formats/stored-row.js';
import { mergeRow } from '../../src/mirror/partitions/partitions.js';
import { microsToText, parquetCodec } from '../../src/formats/parquet/partitions.js';
import { tempDir } from '../helpers/cli.js';
import { parquetRows } from '../../scripts/support/duckdb.js';

const fields = ['id', 'completedAt', 'updatedAt', 'depositUsdAmount', 'sourceOtherProtocolAddresses', 'tags', 'usdMismatchStatus'];
const codec = parquetCodec(fields);

const swaps = [
  // The API's forms: no fraction, milliseconds, ASP.NET's seven digits, a time without a zone.
  {
    id: 'b',
    completedAt: '2026-11-20T10:00:00Z',
    updatedAt: '2026-11-20T10:00:00.1234567Z',
    depositUsdAmount: 12.5,
    sourceOtherProtocolAddresses: ['a,"b"', ''],
    tags: [{ type: 't', value: null }],
    usdMismatchStatus: 'OK',
  },
  {
    id: 'a',
    completedAt: '2026-11-20T10:00:00.5Z',
    updatedAt: '2026-11-20T10:05:00',
    depositUsdAmount: null,
    sourceOtherProtocolAddresses: [],
    tags: [],
    usdMismatchStatus: null,
  },
  { id: 'c', completedAt: '2026-11-20T09:00:00.000001Z', updatedAt: '2026-11-20T09:00:00.000001Z', depositUsdAmount: -0.1 },
] as unknown as Swap[];

describe('parquetCodec', () => {
  it('a row read back equals the row fetched, value for value; decode → encode gives the same bytes', async () => {
    const rows = swaps.map((s) => codec.row(s));
    expect(rows.map((r) => (r.payload as Record<string, unknown>).updatedAt)).toEqual([
      '2026-11-20T10:00:00.123456Z',
      '2026-11-20T10:05:00.000000Z',
      '2026-11-20T09:00:00.000001Z',
    ]);
    const bytes = codec.encode(rows);
    const back = await codec.read(bytes);
    expect(back).toEqual(rows);
    expect(codec.encode(back).equals(bytes)).toBe(true);
    // The two-column index a re-scan checks against: id → updatedAt in ms and the microseconds past it, as `read` gives.
    expect(await codec.readIndex!(bytes)).toEqual({
      updated: new Map(rows.map((r) => [r.key, r.updatedMs])),
      subMs: new Map(rows.map((r) => [r.key, r.updatedSubMs])),
    });
    expect(rows.map((r) => r.updatedSubMs)).toEqual(expect.arrayContaining([456_000]));
    // The same version fetched again is unchanged: a rerun rewrites nothing.
    const held = new Map<string, StoredRow>(back.map((r) => [r.key, r]));
    for (const s of swaps) expect(mergeRow(held, codec.row(s))).toBe('unchanged');
    // A real reader sees the values as sent (times to the microsecond).
    const file = path.join(tempDir('swapx-pq-codec-'), 'part.parquet');
    fs.writeFileSync(file, bytes);
    // Every field as sent (absent as null), the times as epoch microseconds, each written out by hand.
    const micros: Record<string, [completedAt: string, updatedAt: string]> = {
      b: ['1795168800000000', '1795168800123456'],
      a: ['1795168800500000', '1795169100000000'],
      c: ['1795165200000001', '1795165200000001'],
    };
    const asSent = (swap: Swap) => {
      const [completedAt, updatedAt] = micros[swap.id!]!;
      return { ...Object.fromEntries(fields.map((f) => [f, swap[f as keyof Swap] ?? null])), completedAt, updatedAt };
    };
    expect(await parquetRows(file)).toEqual(swaps.map(asSent));
  });

  it("refuses a file whose columns are not the sync's fields", async () => {
    const other = parquetCodec(['id', 'completedAt', 'updatedAt']).encode([]);
    await expect(codec.read(other)).rejects.toThrow("its columns are id, completedAt, updatedAt, not the mirror's fields");
  });

  it('microsToText is what the encoder reads back', () => {
    expect(microsToText(0n)).toBe('1970-01-01T00:00:00.000000Z');
    expect(microsToText(1795168800123456n)).toBe('2026-11-20T10:00:00.123456Z');
  });
});
