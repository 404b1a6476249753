/**
 * The mirror table's columns (src/mirror/postgres/columns.ts) and each row's COPY text (src/mirror/postgres/row.ts): names and
 * types, the key and the version of a swap, and the exact text each kind of value becomes (NULL, escapes, times,
 * amounts, lists, JSON, the fields the spec does not name); then a row of every kind written by COPY and read back
 * by the real server.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SWAP_FIELDS } from '../../../src/api/types.js';
import {
  COLUMNS,
  EXTRA_COLUMN,
  INDEXED_BYTES,
  KEY_COLUMN,
  keyOf,
  LOADED_COLUMN,
  quoteIdent,
  snakeCase,
  VERSION_COLUMN,
  versionOf,
} from '../../../src/mirror/postgres/columns.js';
import type { Db } from '../../../src/mirror/postgres/driver.js';
import { encodeRow } from '../../../src/mirror/postgres/row.js';
import { useDriver, usePostgres } from '../../helpers/postgres.js';

describe('the columns', () => {
  it('the key, one per API field in snake_case and typed natively, the version, the fields the spec does not name', () => {
    expect([KEY_COLUMN, VERSION_COLUMN, EXTRA_COLUMN, LOADED_COLUMN]).toEqual(['_swapx_key', '_swapx_updated_ns', '_swapx_extra', '_swapx_loaded_at']);
    expect(COLUMNS.map((c) => [c.name, c.field, c.type])).toEqual([
      ['_swapx_key', undefined, 'text'],
      ['id', 'id', 'text'],
      ['timestamp', 'timestamp', 'timestamp with time zone'],
      ['deposited_at', 'depositedAt', 'timestamp with time zone'],
      ['withdrawn_at', 'withdrawnAt', 'timestamp with time zone'],
      ['detected_at', 'detectedAt', 'timestamp with time zone'],
      ['completed_at', 'completedAt', 'timestamp with time zone'],
      ['updated_at', 'updatedAt', 'timestamp with time zone'],
      ['bridge', 'bridge', 'text'],
      ['bridge_key', 'bridgeKey', 'text'],
      ['source_chain', 'sourceChain', 'text'],
      ['destination_chain', 'destinationChain', 'text'],
      ['source_account', 'sourceAccount', 'text'],
      ['destination_account', 'destinationAccount', 'text'],
      ['source_interacted_with', 'sourceInteractedWith', 'text'],
      ['protocol_key', 'protocolKey', 'text'],
      ['source_protocol_address', 'sourceProtocolAddress', 'text'],
      ['destination_protocol_address', 'destinationProtocolAddress', 'text'],
      ['intermediate_swap_id', 'intermediateSwapId', 'text'],
      ['source_other_protocol_addresses', 'sourceOtherProtocolAddresses', 'text[]'],
      ['destination_other_protocol_addresses', 'destinationOtherProtocolAddresses', 'text[]'],
      ['source_transaction', 'sourceTransaction', 'text'],
      ['destination_transaction', 'destinationTransaction', 'text'],
      ['source_token', 'sourceToken', 'text'],
      ['destination_token', 'destinationToken', 'text'],
      ['source_token_contract', 'sourceTokenContract', 'text'],
      ['destination_token_contract', 'destinationTokenContract', 'text'],
      ['deposit_amount', 'depositAmount', 'double precision'],
      ['withdrawn_amount', 'withdrawnAmount', 'double precision'],
      ['deposit_usd_amount', 'depositUsdAmount', 'double precision'],
      ['withdrawn_usd_amount', 'withdrawnUsdAmount', 'double precision'],
      ['usd_mismatch_status', 'usdMismatchStatus', 'text'],
      ['tags', 'tags', 'jsonb'],
      ['balance_changes', 'balanceChanges', 'jsonb'],
      ['_swapx_updated_ns', undefined, 'bigint'],
      ['_swapx_extra', undefined, 'jsonb'],
    ]);
  });

  it('snake_case: a capital starts a word, a run of capitals is one word, digits stay with theirs', () => {
    expect(snakeCase('sourceTransaction')).toBe('source_transaction');
    expect(snakeCase('withdrawnUsdAmount')).toBe('withdrawn_usd_amount');
    expect(snakeCase('HTTPServer')).toBe('http_server');
    expect(snakeCase('aHTTPServerX')).toBe('a_http_server_x');
    expect(snakeCase('v2Score')).toBe('v2_score');
    expect(snakeCase('ABC')).toBe('abc');
    expect(snakeCase('id')).toBe('id');
  });

  it('identifiers are quoted as Postgres quotes them', () => {
    expect(quoteIdent('a"b"c')).toBe('"a""b""c"');
    expect(quoteIdent('plain')).toBe('"plain"');
  });
});

describe('the key and the version', () => {
  it('the key is the id, or a digest of the content for a swap without one', () => {
    expect(keyOf({ id: 'abc', bridge: 'x' })).toBe('abc');
    const digest = (swap: Record<string, unknown>) => `sha256:${createHash('sha256').update(JSON.stringify(swap)).digest('hex')}`;
    for (const swap of [{ id: '', bridge: 'x' }, { id: null, bridge: 'x' }, { id: 7, bridge: 'x' }, { bridge: 'y' }]) expect(keyOf(swap)).toBe(digest(swap));
  });

  it('an id too long for the index, or one that starts as a digest does, is keyed by a digest of it; one Postgres holds otherwise as it holds it', () => {
    const digestOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
    const key = (id: string) => keyOf({ id, bridge: 'x' });
    expect(INDEXED_BYTES).toBe(2000);
    // 2,000 bytes is the most: in ASCII, in two-byte characters, and with a NUL (stored as the 3 bytes of U+FFFD).
    expect(key('a'.repeat(2000))).toBe('a'.repeat(2000));
    expect(key('a'.repeat(2001))).toBe(digestOf(JSON.stringify('a'.repeat(2001))));
    expect(key('é'.repeat(1000))).toBe('é'.repeat(1000));
    expect(key(`${'é'.repeat(1000)}a`)).toBe(digestOf(JSON.stringify(`${'é'.repeat(1000)}a`)));
    expect(key(`${'a'.repeat(1997)}\u0000`)).toBe(`${'a'.repeat(1997)}\uFFFD`);
    expect(key(`${'a'.repeat(1998)}\u0000`)).toBe(digestOf(JSON.stringify(`${'a'.repeat(1998)}\u0000`)));
    // A digest key is never an id: an id that looks like one is digested too, and the digest of an id is not the swap's.
    const looksLikeDigest = digestOf(JSON.stringify({ bridge: 'x' }));
    expect(keyOf({ bridge: 'x' })).toBe(looksLikeDigest);
    expect(key(looksLikeDigest)).toBe(digestOf(JSON.stringify(looksLikeDigest)));
    expect(key('sha256:')).toBe(digestOf('"sha256:"'));
    expect(key('sha256x')).toBe('sha256x');
    // What Postgres stores as U+FFFD is one key (the merge would otherwise meet one row twice); a pair stays.
    expect(key('a\u0000b')).toBe('a\uFFFDb');
    expect(key('a\uD800b\uDFFFc')).toBe('a\uFFFDb\uFFFDc');
    expect(key('a😀')).toBe('a😀');
  });

  it('the version is updatedAt in nanoseconds: its millisecond and up to six digits past it', () => {
    const ms = BigInt(Date.parse('2026-11-10T01:02:03.456Z'));
    expect(versionOf('2026-11-10T01:02:03.456Z')).toBe(ms * 1_000_000n);
    expect(versionOf('2026-11-10T01:02:03.4567Z')).toBe(ms * 1_000_000n + 700_000n);
    expect(versionOf('2026-11-10T01:02:03.4567891Z')).toBe(ms * 1_000_000n + 789_100n);
    expect(versionOf('2026-11-10T01:02:03.456000001Z')).toBe(ms * 1_000_000n + 1n);
    expect(versionOf('2026-11-10T01:02:03Z')).toBe(BigInt(Date.parse('2026-11-10T01:02:03Z')) * 1_000_000n);
    expect(versionOf('2026-11-10T01:02:03.4Z')).toBe(BigInt(Date.parse('2026-11-10T01:02:03.4Z')) * 1_000_000n);
    expect(versionOf('2026-11-10T01:02:03.4561+01:00')).toBe(BigInt(Date.parse('2026-11-10T00:02:03.456Z')) * 1_000_000n + 100_000n);
    expect(versionOf('soon')).toBeUndefined();
    expect(versionOf(1_700_000_000_000)).toBeUndefined();
    expect(versionOf(undefined)).toBeUndefined();
  });

  it("a version past a bigint's nanoseconds is held at the end it passed", () => {
    const [max, min] = [2n ** 63n - 1n, -(2n ** 63n)];
    expect(versionOf('2262-04-11T23:47:16.854775807Z')).toBe(max);
    expect(versionOf('2262-04-11T23:47:16.8547758Z')).toBe(max - 7n);
    expect(versionOf('2262-04-11T23:47:16.855Z')).toBe(max);
    expect(versionOf('9999-12-31T23:59:59.9999999Z')).toBe(max);
    expect(versionOf('1677-09-21T00:12:43.146Z')).toBe(BigInt(Date.parse('1677-09-21T00:12:43.146Z')) * 1_000_000n);
    expect(versionOf('1677-09-21T00:12:43.145Z')).toBe(min);
    expect(versionOf('0000-01-01T00:00:00Z')).toBe(min);
  });
});

describe('a row as COPY text', () => {
  const encode = (swap: Record<string, unknown>, key: string, version: bigint | undefined) => encodeRow(swap, key, version).line;
  /** The value each column gets, by column name. */
  const line = (swap: Record<string, unknown>, key = 'k', version: bigint | undefined = 5n) => {
    const text = encode(swap, key, version);
    expect(text.endsWith('\n')).toBe(true);
    const values = text.slice(0, -1).split('\t');
    expect(values.length).toBe(COLUMNS.length);
    return Object.fromEntries(COLUMNS.map((c, i) => [c.name, values[i]]));
  };

  it('every field missing: NULL (\\N) in each column but the key; the version as digits, or NULL', () => {
    const values = line({}, 'the key', 123n);
    expect(values).toEqual({ ...Object.fromEntries(COLUMNS.map((c) => [c.name, '\\N'])), _swapx_key: 'the key', _swapx_updated_ns: '123' });
    expect(encode({}, 'k', undefined)).toBe(`k${'\t\\N'.repeat(COLUMNS.length - 1)}\n`);
    expect(encode({ id: 'a' }, 'a', 1n)).toBe(`a\ta${'\t\\N'.repeat(COLUMNS.length - 4)}\t1\t\\N\n`);
  });

  it('text: tabs, newlines, carriage returns and backslashes escaped, a NUL as U+FFFD; another JSON value as its JSON', () => {
    expect(line({ bridge: 'a\tb\nc\rd\\e\u0000f' }).bridge).toBe('a\\tb\\nc\\rd\\\\e\uFFFDf');
    expect(line({ bridge: 'x\t\ty' }).bridge).toBe('x\\t\\ty');
    expect(line({ bridge: 'plain' }).bridge).toBe('plain');
    expect(line({ bridge: 12 }).bridge).toBe('12');
    expect(line({ bridge: { a: 'b\tc' } }).bridge).toBe('{"a":"b\\\\tc"}');
    expect(line({ bridge: null }).bridge).toBe('\\N');
    expect(line({}, 'key\twith\\tab')._swapx_key).toBe('key\\twith\\\\tab');
  });

  it('times: one with a zone as it is, one without read as UTC, one swapx cannot read NULL', () => {
    expect(line({ completedAt: '2026-11-10T01:02:03.4567891Z' }).completed_at).toBe('2026-11-10T01:02:03.4567891Z');
    expect(line({ completedAt: '2026-11-10T01:02:03z' }).completed_at).toBe('2026-11-10T01:02:03z');
    expect(line({ completedAt: '2026-11-10T01:02:03+01:00' }).completed_at).toBe('2026-11-10T01:02:03+01:00');
    expect(line({ completedAt: '2026-11-10T01:02:03-0530' }).completed_at).toBe('2026-11-10T01:02:03-0530');
    expect(line({ completedAt: '2026-11-10T01:02:03.5' }).completed_at).toBe('2026-11-10T01:02:03.5Z');
    expect(line({ completedAt: '2026-11-10T01:02:03' }).completed_at).toBe('2026-11-10T01:02:03Z');
    expect(line({ completedAt: '2026-02-30T00:00:00Z' }).completed_at).toBe('\\N');
    expect(line({ completedAt: 1_700_000_000_000 }).completed_at).toBe('\\N');
    expect(line({ timestamp: '2026-11-10T01:02:03' }).timestamp).toBe('2026-11-10T01:02:03Z');
  });

  it('amounts: a finite number exactly; anything else NULL', () => {
    expect(line({ depositAmount: 0.1 }).deposit_amount).toBe('0.1');
    expect(line({ depositAmount: 1e21 }).deposit_amount).toBe('1e+21');
    expect(line({ depositAmount: -5 }).deposit_amount).toBe('-5');
    expect(line({ depositAmount: Number.NaN }).deposit_amount).toBe('\\N');
    expect(line({ depositAmount: Number.POSITIVE_INFINITY }).deposit_amount).toBe('\\N');
    expect(line({ depositAmount: '5' }).deposit_amount).toBe('\\N');
  });

  it('address lists: a text[] literal, each element quoted with \\ and " escaped, NULL unquoted; not a list NULL', () => {
    expect(line({ sourceOtherProtocolAddresses: ['a', 'b"c', 'd\\e', null, 7] }).source_other_protocol_addresses).toBe('{"a","b\\\\"c","d\\\\\\\\e",NULL,"7"}');
    expect(line({ sourceOtherProtocolAddresses: ['x\ty'] }).source_other_protocol_addresses).toBe('{"x\\ty"}');
    expect(line({ sourceOtherProtocolAddresses: [] }).source_other_protocol_addresses).toBe('{}');
    expect(line({ sourceOtherProtocolAddresses: 'a' }).source_other_protocol_addresses).toBe('\\N');
    expect(line({ sourceOtherProtocolAddresses: null }).source_other_protocol_addresses).toBe('\\N');
  });

  it('JSON: the value as JSON text; a NUL or a lone surrogate becomes U+FFFD, an escaped backslash before u0000 stays', () => {
    expect(line({ tags: [{ type: 'a', value: 'b' }] }).tags).toBe('[{"type":"a","value":"b"}]');
    expect(line({ tags: ['x\u0000y', 'a\uD800b', 'c\uDFFFd', 'e\uD7FFf', '\uE000'] }).tags).toBe(
      '["x\\\\ufffdy","a\\\\ufffdb","c\\\\ufffdd","e\uD7FFf","\uE000"]',
    );
    expect(line({ tags: ['\\u0000', 'q"r', 'tab\t', '\u0001'] }).tags).toBe('["\\\\\\\\u0000","q\\\\"r","tab\\\\t","\\\\u0001"]');
    expect(line({ tags: '😀' }).tags).toBe('"😀"');
    expect(line({ tags: null }).tags).toBe('\\N');
    expect(line({ balanceChanges: 0 }).balance_changes).toBe('0');
  });

  it('_swapx_extra: every field the spec does not name, as sent, whatever its name; NULL when there is none', () => {
    const swap = { id: 'a', riskScore: { level: 2 }, 'risk-score': [1, 'x'], fooBar: null, foo_bar: 'tab\t', é: true, ['n'.repeat(200)]: 7 };
    // JSON text holds no tab or newline of its own: COPY escapes only its backslashes.
    expect(line(swap)._swapx_extra).toBe(`{"riskScore":{"level":2},"risk-score":[1,"x"],"fooBar":null,"foo_bar":"tab\\\\t","é":true,"${'n'.repeat(200)}":7}`);
    // A field named __proto__ is a key like any other, not the object's prototype.
    expect(line(JSON.parse('{"id":"a","__proto__":{"x":1}}'))._swapx_extra).toBe('{"__proto__":{"x":1}}');
    // Its JSON is jsonb's: a NUL or a lone surrogate becomes U+FFFD, in a value as in a name.
    expect(line({ 'a\u0000': 'b\uD800' })._swapx_extra).toBe('{"a\\\\ufffd":"b\\\\ufffd"}');
    expect(line({ id: 'a', bridge: 'b', tags: [] })._swapx_extra).toBe('\\N');
    expect(line({ id: 'a', unknown: undefined })._swapx_extra).toBe('\\N');
  });
});

describe('a value its column cannot hold', () => {
  /** The values of a row by column name, and what it kept aside. */
  const encoded = (swap: Record<string, unknown>, key = 'k') => {
    const { line, unfit } = encodeRow(swap, key, 5n);
    const values = line.slice(0, -1).split('\t');
    return { values: Object.fromEntries(COLUMNS.map((c, i) => [c.name, values[i]])), unfit };
  };
  const reason = (swap: Record<string, unknown>) => encoded(swap).unfit?.map((u) => `${u.field} ${u.reason}`);

  it('a time Postgres refuses: a year written 0000 (any zone), a UTC offset past ±15:59; one it takes is written', () => {
    const kept = (value: string) => [`detectedAt '${value}' is out of timestamptz's range, kept as sent in _swapx_extra`];
    const zone = (value: string) => [`detectedAt '${value}' has a UTC offset timestamptz does not take (at most ±15:59), kept as sent in _swapx_extra`];
    for (const value of ['0000-06-01T00:00:00Z', '0000-12-31T23:00:00-02:00', '0000-01-01T00:00:00', '0000-12-31T23:59:59.9999999z']) {
      expect(reason({ detectedAt: value })).toEqual(kept(value));
    }
    for (const value of ['2026-11-01T00:00:00+16:00', '2026-11-01T00:00:00-1600', '2026-11-01T00:00:00+23:59'])
      expect(reason({ detectedAt: value })).toEqual(zone(value));
    for (const value of ['2026-11-01T00:00:00+15:59', '2026-11-01T00:00:00-1559', '0001-01-01T00:30:00+01:00', '9999-12-31T23:59:59.9999999-15:00']) {
      expect(encoded({ detectedAt: value })).toEqual({ values: expect.objectContaining({ detected_at: value, _swapx_extra: '\\N' }), unfit: undefined });
    }
    // An extended year (-000001, +275760) is no time swapx reads (the API's shape check refuses it first).
    expect(reason({ detectedAt: '-000001-01-01T00:00:00Z', completedAt: '+275760-09-13T00:00:00Z' })).toEqual([
      "detectedAt '-000001-01-01T00:00:00Z' is not a date-time, kept as sent in _swapx_extra",
      "completedAt '+275760-09-13T00:00:00Z' is not a date-time, kept as sent in _swapx_extra",
    ]);
    expect(reason({ detectedAt: 'soon', completedAt: 1_700_000_000_000 })).toEqual([
      "detectedAt 'soon' is not a date-time, kept as sent in _swapx_extra",
      'completedAt 1700000000000 is not a date-time, kept as sent in _swapx_extra',
    ]);
    const { values, unfit } = encoded({ detectedAt: '0000-06-01T00:00:00Z', completedAt: null, riskScore: 1 }, 'the id');
    expect([values.detected_at, values.completed_at, values._swapx_extra]).toEqual(['\\N', '\\N', '{"detectedAt":"0000-06-01T00:00:00Z","riskScore":1}']);
    expect(unfit).toEqual([
      { id: 'the id', field: 'detectedAt', reason: "'0000-06-01T00:00:00Z' is out of timestamptz's range, kept as sent in _swapx_extra" },
    ]);
  });

  it('text too long for its index (id, either transaction hash): over 2,000 bytes as stored; an unindexed column takes any length', () => {
    expect(encoded({ sourceTransaction: 'a'.repeat(2000), destinationTransaction: `${'é'.repeat(999)}a`, id: 'x' }).unfit).toBeUndefined();
    const long = `0x${'ab'.repeat(1_000_000)}`;
    const { values, unfit } = encoded(
      { sourceTransaction: long, destinationTransaction: `${'a'.repeat(1998)}\u0000`, bridge: long, id: 'é'.repeat(1001) },
      'sha256:k',
    );
    expect(unfit).toEqual([
      { id: 'sha256:k', field: 'id', reason: `'${'é'.repeat(40)}…' is 2,002 bytes, more than an index takes (at most 2,000), kept as sent in _swapx_extra` },
      {
        id: 'sha256:k',
        field: 'sourceTransaction',
        reason: `'0x${'ab'.repeat(19)}…' is 2,000,002 bytes, more than an index takes (at most 2,000), kept as sent in _swapx_extra`,
      },
      {
        id: 'sha256:k',
        field: 'destinationTransaction',
        reason: `'${'a'.repeat(40)}…' is 2,001 bytes, more than an index takes (at most 2,000), kept as sent in _swapx_extra`,
      },
    ]);
    expect([values.id, values.source_transaction, values.destination_transaction, values.bridge]).toEqual(['\\N', '\\N', '\\N', long]);
    expect(JSON.parse(values._swapx_extra!.replace(/\\\\/g, '\\'))).toEqual({
      id: 'é'.repeat(1001),
      sourceTransaction: long,
      destinationTransaction: `${'a'.repeat(1998)}\u0000`.replace('\u0000', '\uFFFD'),
    });
  });

  it('an amount that is not a finite number, an address list that is not a list', () => {
    expect(reason({ depositAmount: '5', sourceOtherProtocolAddresses: 'a', destinationOtherProtocolAddresses: { a: 1 } })).toEqual([
      "sourceOtherProtocolAddresses 'a' is not a list, kept as sent in _swapx_extra",
      'destinationOtherProtocolAddresses {"a":1} is not a list, kept as sent in _swapx_extra',
      "depositAmount '5' is not a finite number, kept as sent in _swapx_extra",
    ]);
  });

  it('the warning shows a value cut past 40 characters, a surrogate pair whole, control characters escaped; the swap by its key', () => {
    const at = (value: unknown, key = 'k') => encoded({ detectedAt: value }, key).unfit![0]!;
    expect(at(`${'x'.repeat(39)}😀tail`).reason).toBe(`'${'x'.repeat(39)}…' is not a date-time, kept as sent in _swapx_extra`);
    expect(at(`${'x'.repeat(38)}😀tail`).reason).toBe(`'${'x'.repeat(38)}😀…' is not a date-time, kept as sent in _swapx_extra`);
    expect(at('x'.repeat(40)).reason).toBe(`'${'x'.repeat(40)}' is not a date-time, kept as sent in _swapx_extra`);
    expect(at('a\nb\u0000c\u007f').reason).toBe("'a\\u000ab\\u0000c\\u007f' is not a date-time, kept as sent in _swapx_extra");
    expect(at({ y: 'x'.repeat(50) }).reason).toBe(`{"y":"${'x'.repeat(34)}… is not a date-time, kept as sent in _swapx_extra`);
    expect(at('soon', 'line\nbreak').id).toBe('line\\u000abreak');
  });
});

describe('read back by Postgres', () => {
  const db = usePostgres();
  let sql: Db;
  useDriver(db, (opened) => {
    sql = opened;
  });

  it('a row of every kind of value, written by COPY, reads back as the API sent it', async () => {
    await sql.unsafe(`CREATE TABLE t (${COLUMNS.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')})`);
    const swap: Record<string, unknown> = {
      id: 'a\tb',
      completedAt: '2026-11-10T01:02:03.456789',
      updatedAt: '2026-11-10T01:02:03.4567891+01:00',
      bridge: 'line\nbreak\\',
      depositAmount: 0.1,
      sourceOtherProtocolAddresses: ['p"q', 'r\\s', null],
      tags: [{ type: 'a\u0000', value: '\\u0000' }],
      'risk-score': { 'ü\t': [1.5, null, 'x\u0000'] },
    };
    const copy = await sql.unsafe('COPY t FROM STDIN').writable();
    await pipeline(Readable.from([encodeRow(swap, 'key\\1', versionOf(swap.updatedAt)).line]), copy);
    const [row] = await db.sql`
      SELECT _swapx_key, id, to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS completed, bridge, deposit_amount,
        array_to_json(source_other_protocol_addresses) AS list, tags, _swapx_updated_ns::text AS ns, deposited_at, _swapx_extra FROM t`;
    expect(row).toEqual({
      _swapx_key: 'key\\1',
      id: 'a\tb',
      completed: '2026-11-10T01:02:03.456789',
      bridge: 'line\nbreak\\',
      deposit_amount: 0.1,
      list: ['p"q', 'r\\s', null],
      tags: [{ type: 'a\uFFFD', value: '\\u0000' }],
      ns: `${Date.parse('2026-11-10T00:02:03.456Z')}789100`,
      deposited_at: null,
      _swapx_extra: { 'risk-score': { 'ü\t': [1.5, null, 'x\uFFFD'] } },
    });
    expect(SWAP_FIELDS.length).toBe(COLUMNS.length - 3);
  });
});
