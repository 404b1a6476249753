/**
 * The Parquet codec's canonical form, value by value (text amounts, list items that are not text, tags with
 * parts missing, times before 1970), a row without an id, the index a re-scan reads, and a partition whose
 * pages this runtime cannot decompress.
 */
import { describe, expect, it } from 'vitest';
import type { Swap } from '../../src/api/types.js';
import { encodeParquet, parquetDecompressors } from '../../src/output/parquet/writer.js';
import { microsToText, parquetCodec } from '../../src/formats/parquet/partitions.js';

describe('microsToText', () => {
  it.each([
    [0n, '1970-01-01T00:00:00.000000Z'],
    [1500n, '1970-01-01T00:00:00.001500Z'],
    [-1n, '1969-12-31T23:59:59.999999Z'],
    [-1000n, '1969-12-31T23:59:59.999000Z'],
    [-1001n, '1969-12-31T23:59:59.998999Z'],
  ])('%s µs: %s', (micros, text) => {
    expect(microsToText(micros)).toBe(text);
  });
});

describe('a row', () => {
  const codec = parquetCodec(['id', 'completedAt', 'updatedAt', 'depositAmount', 'sourceOtherProtocolAddresses', 'tags', 'bridge', 'sourceChain']);

  it('each field in its canonical form', () => {
    const swap = {
      id: 'a',
      completedAt: '2026-11-20T10:00:00Z',
      updatedAt: '2026-11-20T10:00:00.1234567Z',
      depositAmount: '12.5',
      sourceOtherProtocolAddresses: [1, null, undefined, 'x'],
      tags: [null, { type: 't' }, { value: 'v', type: 'u' }],
      bridge: 5,
      sourceChain: undefined,
    } as unknown as Swap;
    expect(codec.row(swap)).toEqual({
      key: 'a',
      completedMs: Date.parse('2026-11-20T10:00:00Z'),
      updatedMs: Date.parse('2026-11-20T10:00:00.123Z'),
      updatedSubMs: 456000,
      payload: {
        id: 'a',
        completedAt: '2026-11-20T10:00:00.000000Z',
        updatedAt: '2026-11-20T10:00:00.123456Z',
        depositAmount: 12.5,
        sourceOtherProtocolAddresses: ['1', null, null, 'x'],
        tags: [
          { type: null, value: null },
          { type: 't', value: null },
          { type: 'u', value: 'v' },
        ],
        bridge: '5',
        sourceChain: null,
      },
    });
    expect(Object.keys(codec.row(swap).payload as object)).toEqual([
      'id',
      'completedAt',
      'updatedAt',
      'depositAmount',
      'sourceOtherProtocolAddresses',
      'tags',
      'bridge',
      'sourceChain',
    ]);
  });

  it('without an id: keyed by its record; without times: unreadable', () => {
    const row = codec.row({ id: '', completedAt: null, updatedAt: null } as unknown as Swap);
    expect(row.key).toBe(`\u0000${JSON.stringify(row.payload)}`);
    expect(row.completedMs).toBeNaN();
    expect(row.updatedMs).toBeNaN();
    expect(codec.row({ completedAt: null } as unknown as Swap).key).toBe(`\u0000${JSON.stringify(codec.row({} as Swap).payload)}`);
  });
});

describe('read back', () => {
  const fields = ['id', 'completedAt', 'updatedAt', 'sourceOtherProtocolAddresses', 'tags'];
  const codec = parquetCodec(fields);
  const swaps = [
    {
      id: 'a',
      completedAt: '2026-11-20T10:00:00Z',
      updatedAt: '2026-11-20T10:00:00Z',
      sourceOtherProtocolAddresses: ['x', null],
      tags: [{ type: 't', value: null }],
    },
    { id: '', completedAt: '2026-11-20T10:01:00Z', updatedAt: '2026-11-20T10:01:00.5Z', sourceOtherProtocolAddresses: null, tags: null },
    { id: 'c', completedAt: '2026-11-20T10:02:00Z', updatedAt: '2026-11-20T10:02:00.0000015Z', sourceOtherProtocolAddresses: [], tags: [] },
    { id: null, completedAt: '2026-11-20T10:03:00Z', updatedAt: '2026-11-20T10:03:00Z', sourceOtherProtocolAddresses: null, tags: null },
  ] as unknown as Swap[];

  it('rows as they were written; the index holds the rows with an id only', async () => {
    const rows = swaps.map((swap) => codec.row(swap));
    const bytes = codec.encode(rows);
    expect(await codec.read(bytes)).toStrictEqual(rows);
    expect(await codec.readIndex!(bytes)).toEqual({
      updated: new Map([
        ['a', Date.parse('2026-11-20T10:00:00Z')],
        ['c', Date.parse('2026-11-20T10:02:00Z')],
      ]),
      subMs: new Map([
        ['a', 0],
        ['c', 1000],
      ]),
    });
  });

  it('names its files .parquet', () => {
    expect(codec.extension).toBe('.parquet');
  });

  it('an empty partition reads as no rows', async () => {
    expect(await codec.read(codec.encode([]))).toEqual([]);
  });

  it('pages compressed with a codec this runtime cannot read: refused, saying what would', async () => {
    const bytes = encodeParquet(
      swaps.map((swap) => codec.row(swap).payload as Record<string, unknown>),
      fields,
      { codec: 'GZIP' },
    );
    const gunzip = parquetDecompressors.GZIP;
    delete parquetDecompressors.GZIP;
    try {
      const message = `it is compressed with GZIP, which Node.js ${process.version} cannot read: sync with Node.js 22.15 or later`;
      await expect(async () => codec.read(bytes)).rejects.toThrow(message);
      await expect(codec.readIndex!(bytes)).rejects.toThrow(message);
    } finally {
      parquetDecompressors.GZIP = gunzip;
    }
  });

  it.each(['UNCOMPRESSED', 'SNAPPY'] as const)('pages %s: read', async (compression) => {
    const rows = swaps.map((swap) => codec.row(swap));
    const bytes = encodeParquet(
      rows.map((row) => row.payload as Record<string, unknown>),
      fields,
      { codec: compression },
    );
    expect(await codec.read(bytes)).toStrictEqual(rows);
  });
});
