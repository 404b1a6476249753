/** The text codecs of a partition file: a swap as a row, a file read back (and refused when cut short), the whole file encoded. */
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { csvCodec } from '../../src/formats/csv.js';
import { jsonlCodec } from '../../src/formats/jsonl.js';
import { formatOf } from '../../src/formats/registry.js';
import { createEncoder } from '../../src/output/encode.js';

const fields = ['id', 'completedAt', 'updatedAt'];
const codec = (format: 'jsonl' | 'csv', gzip = false) =>
  (format === 'jsonl' ? jsonlCodec : csvCodec)(gzip, createEncoder(format, { fields, allFields: SWAP_FIELDS }));
const swap = (id: unknown, completedAt: unknown = '2026-11-20T10:00:00Z', updatedAt: unknown = '2026-11-20T11:00:00.1234567Z') =>
  ({ id, completedAt, updatedAt }) as unknown as Swap;
const C = Date.parse('2026-11-20T10:00:00Z');
const U = Date.parse('2026-11-20T11:00:00.123Z');

describe('row', () => {
  it('jsonl: the line as the payload, its id as the key, its times', () => {
    expect(codec('jsonl').row(swap('a'))).toEqual({
      key: 'a',
      completedMs: C,
      updatedMs: U,
      updatedSubMs: 456700,
      payload: '{"id":"a","completedAt":"2026-11-20T10:00:00Z","updatedAt":"2026-11-20T11:00:00.1234567Z"}\n',
    });
  });

  it('csv: the record as the payload', () => {
    expect(codec('csv').row(swap('a')).payload).toBe('a,2026-11-20T10:00:00Z,2026-11-20T11:00:00.1234567Z\n');
  });

  it('a swap without an id is keyed by its payload; times that are not text are unreadable', () => {
    const row = codec('jsonl').row(swap('', 5, null));
    expect(row.key).toBe(`\u0000${row.payload}`);
    expect(row.completedMs).toBeNaN();
    expect(row.updatedMs).toBeNaN();
    expect(codec('jsonl').row(swap(7)).key).toBe(`\u0000${codec('jsonl').row(swap(7)).payload}`);
    expect(codec('jsonl').row(swap('b', null, 5)).completedMs).toBeNaN();
  });
});

describe('read', () => {
  it('jsonl: each line a row, blank lines skipped', async () => {
    const text = '{"id":"a","completedAt":"2026-11-20T10:00:00Z","updatedAt":"2026-11-20T11:00:00.123Z"}\n  \n\n{"id":"","completedAt":1}\n';
    const rows = await codec('jsonl').read(Buffer.from(text));
    expect(rows).toEqual([
      {
        key: 'a',
        completedMs: C,
        updatedMs: U,
        updatedSubMs: 0,
        payload: '{"id":"a","completedAt":"2026-11-20T10:00:00Z","updatedAt":"2026-11-20T11:00:00.123Z"}\n',
      },
      { key: '\u0000{"id":"","completedAt":1}\n', completedMs: Number.NaN, updatedMs: Number.NaN, updatedSubMs: 0, payload: '{"id":"","completedAt":1}\n' },
    ]);
  });

  it('csv: the columns by the header, in any order; each record as written', async () => {
    const text = 'updatedAt,extra,completedAt,id\r\n2026-11-20T11:00:00.123Z,"x,y",2026-11-20T10:00:00Z,a\r\n,,,\r\n';
    const rows = await codec('csv').read(Buffer.from(text));
    expect(rows).toEqual([
      { key: 'a', completedMs: C, updatedMs: U, updatedSubMs: 0, payload: '2026-11-20T11:00:00.123Z,"x,y",2026-11-20T10:00:00Z,a\r\n' },
      { key: '\u0000,,,\r\n', completedMs: Number.NaN, updatedMs: Number.NaN, updatedSubMs: 0, payload: ',,,\r\n' },
    ]);
  });

  it('csv: an empty file holds nothing; a header alone neither', async () => {
    expect(await codec('csv').read(Buffer.from(''))).toEqual([]);
    expect(await codec('csv').read(Buffer.from('id,completedAt,updatedAt\n'))).toEqual([]);
  });

  it.each([
    ['id,completedAt\na,2026-11-20T10:00:00Z', 'it ends inside a record (cut short?)'],
    ['ident,completedAt\nx,y\n', 'no id column'],
    ['id,completedAt,updatedAt\na,b\n', 'row 1 has 2 fields, the header 3'],
    ['id,completedAt,updatedAt\na,b,c\nd,e,f,g\n', 'row 2 has 4 fields, the header 3'],
  ])('csv: %j is refused: %s', async (text, message) => {
    await expect(async () => codec('csv').read(Buffer.from(text))).rejects.toThrow(message);
  });

  it('gzip: read through gunzip', async () => {
    const text = 'id,completedAt,updatedAt\na,2026-11-20T10:00:00Z,x\n';
    expect((await codec('csv', true).read(gzipSync(text))).map((row) => row.key)).toEqual(['a']);
  });
});

describe('encode', () => {
  it('csv: the header, then every payload as it is', () => {
    const c = codec('csv');
    const bytes = c.encode([c.row(swap('a')), c.row(swap('b'))]);
    expect(bytes.toString()).toBe(
      'id,completedAt,updatedAt\na,2026-11-20T10:00:00Z,2026-11-20T11:00:00.1234567Z\nb,2026-11-20T10:00:00Z,2026-11-20T11:00:00.1234567Z\n',
    );
    expect(c.encode([]).toString()).toBe('id,completedAt,updatedAt\n');
  });

  it('jsonl gzip: one gzip member of the lines', () => {
    const c = codec('jsonl', true);
    expect(gunzipSync(c.encode([c.row(swap('a'))])).toString()).toBe(
      '{"id":"a","completedAt":"2026-11-20T10:00:00Z","updatedAt":"2026-11-20T11:00:00.1234567Z"}\n',
    );
    expect(c.encode([]).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });
});

describe("a mirror format's codec", () => {
  it.each([
    ['jsonl', false, '.jsonl'],
    ['jsonl', true, '.jsonl.gz'],
    ['csv', false, '.csv'],
    ['csv', true, '.csv.gz'],
    ['parquet', false, '.parquet'],
  ] as const)('%s gzip %s: %s', async (format, gzip, extension) => {
    const c = await formatOf(format).mirror!.codec({ gzip, fields, allFields: SWAP_FIELDS });
    expect(c.extension).toBe(extension);
  });

  it('the text codecs keep the fields asked, in their order', async () => {
    const c = await formatOf('csv').mirror!.codec({ gzip: false, fields: ['updatedAt', 'id', 'completedAt'], allFields: SWAP_FIELDS });
    expect(c.encode([]).toString()).toBe('updatedAt,id,completedAt\n');
    const j = await formatOf('jsonl').mirror!.codec({ gzip: false, fields: ['id'], allFields: SWAP_FIELDS });
    expect(j.row(swap('a')).payload).toBe('{"id":"a"}\n');
  });

  it('parquet: a record of the fields as its payload', async () => {
    const c = await formatOf('parquet').mirror!.codec({ gzip: false, fields, allFields: SWAP_FIELDS });
    expect(c.row(swap('a')).payload).toEqual({ id: 'a', completedAt: '2026-11-20T10:00:00.000000Z', updatedAt: '2026-11-20T11:00:00.123456Z' });
  });
});
