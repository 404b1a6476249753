/**
 * The Postgres mirror's store (src/mirror/postgres/mirror.ts) against a real server: the table it makes, the rows it
 * holds (read back by Postgres, not by swapx), the version rule, exactly-once commits, the one-writer lock,
 * and readers that are never blocked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Swap } from '../../../src/api/types.js';
import { SyncLockedError } from '../../../src/fs/lock.js';
import { PostgresMirror } from '../../../src/mirror/postgres/mirror.js';

// The version a run writes with its cursors.
const OPEN = { version: '0.0.0-test' };
import { parseTarget, type PgTarget } from '../../../src/mirror/postgres/target.js';
import { swapsInWindow } from '../../../src/sandbox/index.js';
import type { SyncState } from '../../../src/mirror/partitions/state-file.js';
import { usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();
const data = { seed: 5, swapsPerHour: 120 };
const FROM = '2026-11-10T00:00:00Z';
const TO = '2026-11-10T06:00:00Z';
/** The swaps of [FROM, TO) as the API serves them at `now` (later clocks: later versions of some). */
const swapsAt = (now: string): Swap[] => swapsInWindow({ from: FROM, to: TO, filter: 'Completed', now: Date.parse(now) }, data);
const early = () => swapsAt('2026-11-10T06:00:00Z');
const late = () => swapsAt('2026-11-14T00:00:00Z');

const state = (cursor: string): SyncState => ({
  query: { baseUrl: 'http://127.0.0.1:1', filter: 'Completed', format: 'jsonl', fields: ['id', 'completedAt', 'updatedAt'], gzip: false },
  since: Date.parse(FROM),
  cursor: Date.parse(cursor),
  updatedCursor: Date.parse(cursor),
  rescanBase: Date.parse(FROM),
  rescannedAt: undefined,
});

const opened: PostgresMirror[] = [];
afterEach(async () => {
  for (const mirror of opened.splice(0)) await mirror.close();
});

let tables = 0;
/** A target naming a table of its own (each test writes its own table). */
function target(extra: Partial<PgTarget> = {}): PgTarget {
  return { ...parseTarget(db.url, { env: db.env, table: `swaps_${++tables}` }), ...extra };
}

async function open(t: PgTarget): Promise<PostgresMirror> {
  const mirror = await PostgresMirror.open(t, OPEN);
  opened.push(mirror);
  return mirror;
}

async function load(mirror: PostgresMirror, swaps: readonly Swap[], cursor = FROM) {
  for (const swap of swaps) mirror.add(swap as unknown as Record<string, unknown>, Date.parse(swap.completedAt));
  return mirror.commit(state(TO), Date.parse(cursor));
}

/** Every row, as Postgres reads it back: times in ms, the rest as the driver types them. */
async function rows(table: string): Promise<Record<string, unknown>[]> {
  return db.sql.unsafe(
    `SELECT _swapx_key AS key, id, (extract(epoch FROM completed_at) * 1000)::bigint AS completed_ms, (extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms,
            _swapx_updated_ns::text AS ns, deposit_usd_amount, withdrawn_amount, source_other_protocol_addresses, tags, jsonb_typeof(tags) AS tags_type,
            usd_mismatch_status, source_transaction, xmin::text AS xmin
     FROM ${table} ORDER BY _swapx_key`,
  );
}

/** What the API serves, in the shape of rows(): the same version of each swap. */
function expected(swaps: readonly Swap[]): Record<string, unknown>[] {
  return [...swaps]
    .sort((a, b) => (a.id! < b.id! ? -1 : 1))
    .map((s) => ({
      key: s.id,
      id: s.id,
      completed_ms: String(Date.parse(s.completedAt)),
      updated_ms: String(Date.parse(s.updatedAt)),
      ns: `${Date.parse(s.updatedAt)}000000`,
      deposit_usd_amount: s.depositUsdAmount,
      withdrawn_amount: s.withdrawnAmount,
      source_other_protocol_addresses: s.sourceOtherProtocolAddresses,
      tags: s.tags,
      tags_type: s.tags === null ? null : 'array',
      usd_mismatch_status: s.usdMismatchStatus,
      source_transaction: s.sourceTransaction,
    }));
}

const withoutXmin = (list: Record<string, unknown>[]) => list.map(({ xmin: _x, ...row }) => row);

describe('the table', () => {
  it('is created with snake_case columns of native types, the key, the indexes, and the state table beside it', async () => {
    const t = target();
    await open(t);
    const columns = await db.sql`
      SELECT column_name AS name, data_type AS type, udt_name AS udt FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ${t.table} ORDER BY ordinal_position`;
    expect(columns.map((c) => `${c.name} ${c.type === 'ARRAY' ? `${c.udt}` : c.type}`)).toEqual([
      '_swapx_key text',
      'id text',
      'timestamp timestamp with time zone',
      'deposited_at timestamp with time zone',
      'withdrawn_at timestamp with time zone',
      'detected_at timestamp with time zone',
      'completed_at timestamp with time zone',
      'updated_at timestamp with time zone',
      'bridge text',
      'bridge_key text',
      'source_chain text',
      'destination_chain text',
      'source_account text',
      'destination_account text',
      'source_interacted_with text',
      'protocol_key text',
      'source_protocol_address text',
      'destination_protocol_address text',
      'intermediate_swap_id text',
      'source_other_protocol_addresses _text',
      'destination_other_protocol_addresses _text',
      'source_transaction text',
      'destination_transaction text',
      'source_token text',
      'destination_token text',
      'source_token_contract text',
      'destination_token_contract text',
      'deposit_amount double precision',
      'withdrawn_amount double precision',
      'deposit_usd_amount double precision',
      'withdrawn_usd_amount double precision',
      'usd_mismatch_status text',
      'tags jsonb',
      'balance_changes jsonb',
      '_swapx_updated_ns bigint',
      '_swapx_extra jsonb',
      '_swapx_loaded_at timestamp with time zone',
    ]);
    const indexes = await db.sql`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = ${t.table} ORDER BY indexname`;
    expect(indexes.map((i) => i.indexdef)).toEqual([
      `CREATE INDEX ${t.table}_completed_at_idx ON public.${t.table} USING btree (completed_at)`,
      `CREATE INDEX ${t.table}_destination_tx_idx ON public.${t.table} USING btree (destination_transaction)`,
      `CREATE INDEX ${t.table}_id_idx ON public.${t.table} USING btree (id)`,
      `CREATE UNIQUE INDEX ${t.table}_pkey ON public.${t.table} USING btree (_swapx_key)`,
      `CREATE INDEX ${t.table}_source_tx_idx ON public.${t.table} USING btree (source_transaction)`,
    ]);
    const [stateTable] = await db.sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'swapx_sync_state'`;
    expect(stateTable).toEqual({ n: 1 });
  });

  it('holds each swap as the API sent it: times, amounts, address lists, and tags as JSON arrays (not strings)', async () => {
    const t = target();
    const mirror = await open(t);
    const swaps = early();
    expect(swaps.length).toBeGreaterThan(500);
    expect(swaps.some((s) => s.tags && s.tags.length > 0)).toBe(true);
    expect(await load(mirror, swaps)).toEqual({ newSwaps: swaps.length, lateSwaps: 0, updatedSwaps: 0 });
    expect(withoutXmin(await rows(t.table))).toEqual(expected(swaps));
    // The state's query is a JSON object too.
    const [q] = await db.sql`SELECT jsonb_typeof(query) AS type, query->>'baseUrl' AS base FROM swapx_sync_state WHERE mirror = ${t.table}`;
    expect(q).toEqual({ type: 'object', base: 'http://127.0.0.1:1' });
    expect(await mirror.readState()).toEqual(state(TO));
  });

  it('jsonb takes what JSON holds: a lone surrogate and a NUL become U+FFFD, a backslash before "u0000" stays text', async () => {
    const t = target();
    const mirror = await open(t);
    const tags = [
      { type: 'a\uD800b', value: 'x\u0000y' },
      { type: '\\u0000', value: '😀' },
    ];
    await load(mirror, [{ ...early()[0]!, tags } as Swap]);
    const [row] = await db.sql.unsafe(`SELECT tags FROM ${t.table}`);
    expect(row!.tags).toEqual([
      { type: 'a\uFFFDb', value: 'x\uFFFDy' },
      { type: '\\u0000', value: '😀' },
    ]);
  });

  it('keeps balance changes as jsonb, a text that holds tabs, newlines and backslashes, and a NUL as U+FFFD', async () => {
    const t = target();
    const mirror = await open(t);
    const swap = { ...early()[0]!, bridge: 'a\tb\nc\\d\r', sourceToken: 'x\u0000y', sourceOtherProtocolAddresses: ['p"q', 'r\\s', null] } as unknown as Swap;
    swap.balanceChanges = [{ account: 'a', chain: 'c', token: 't', tokenContract: '0x', decimals: 6, rawAmount: '1', direction: 'in', amount: '0.000001' }];
    await load(mirror, [swap]);
    const [row] = await db.sql.unsafe(
      `SELECT bridge, source_token, array_to_json(source_other_protocol_addresses) AS list, balance_changes, jsonb_typeof(balance_changes) AS type FROM ${t.table}`,
    );
    expect(row).toEqual({ bridge: 'a\tb\nc\\d\r', source_token: 'x\uFFFDy', list: ['p"q', 'r\\s', null], balance_changes: swap.balanceChanges, type: 'array' });
  });
  it('two tables whose 60-character names share 55 are both mirrored in one schema, each with its indexes', async () => {
    const [one, two] = ['a', 'b'].map((end) => target({ table: `${'s'.repeat(55)}${end.repeat(5)}` })) as [PgTarget, PgTarget];
    const swaps = early().slice(0, 3);
    expect(await load(await open(one), swaps)).toEqual({ newSwaps: 3, lateSwaps: 0, updatedSwaps: 0 });
    expect(await load(await open(two), swaps)).toEqual({ newSwaps: 3, lateSwaps: 0, updatedSwaps: 0 });
    for (const t of [one, two]) {
      const indexed = await db.sql`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'public' AND tablename = ${t.table}`;
      expect(indexed.map((i) => /\((\w+)\)$/.exec(i.def)![1]).sort()).toEqual([
        '_swapx_key',
        'completed_at',
        'destination_transaction',
        'id',
        'source_transaction',
      ]);
      expect(indexed.every((i) => i.name.startsWith(t.table.slice(0, 30)))).toBe(true);
    }
  });
});

describe('versions', () => {
  it('a later version replaces the held one; an older one, or the same one replayed, changes no row', async () => {
    const t = target();
    const mirror = await open(t);
    const older = early();
    await load(mirror, older);
    const first = await rows(t.table);
    const newer = late();
    const changed = newer.filter((s, i) => s.updatedAt !== older[i]!.updatedAt).length;
    expect(changed).toBeGreaterThan(50);
    expect(await load(mirror, newer)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: changed });
    const second = await rows(t.table);
    expect(withoutXmin(second)).toEqual(expected(newer));
    // Older versions, then the latest again: not a row is rewritten (same xmin: no new tuple).
    expect(await load(mirror, older)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 });
    expect(await load(mirror, newer)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 });
    expect(await rows(t.table)).toEqual(second);
    expect(first.length).toBe(second.length);
  });

  it('a later tick in the same millisecond of updatedAt is newer (seven fractional digits), an earlier one is not', async () => {
    const t = target();
    const mirror = await open(t);
    const base = early()[0]!;
    const ms = base.updatedAt.replace(/(\.\d{3})?Z$/, (_m, f: string | undefined) => f ?? '.000');
    const at = (tick: string, usd: number) => ({ ...base, updatedAt: `${ms}${tick}Z`, depositUsdAmount: usd }) as Swap;
    await load(mirror, [at('0001', 100)]);
    expect(await load(mirror, [at('9999', 200)])).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 1 });
    expect(await load(mirror, [at('5000', 300)])).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 });
    const [row] = await db.sql.unsafe(`SELECT deposit_usd_amount AS usd, _swapx_updated_ns::text AS ns FROM ${t.table}`);
    expect(row).toEqual({ usd: 200, ns: `${Date.parse(base.updatedAt)}999900` });
  });

  it('a key repeated inside one batch is merged once, as its latest version, wherever it stands in the batch', async () => {
    const t = target();
    const mirror = await open(t);
    const older = early().slice(0, 20);
    const newer = late().slice(0, 20);
    // The latest first, then older copies, then the latest again: no "ON CONFLICT … a second time" (SQLSTATE 21000).
    expect(await load(mirror, [...newer, ...older, ...older, ...newer])).toEqual({ newSwaps: 20, lateSwaps: 0, updatedSwaps: 0 });
    expect(withoutXmin(await rows(t.table))).toEqual(expected(newer));
  });

  it('tells new swaps from late ones by the cursor given', async () => {
    const t = target();
    const mirror = await open(t);
    const swaps = early();
    const cursor = '2026-11-10T03:00:00Z';
    const lateCount = swaps.filter((s) => Date.parse(s.completedAt) < Date.parse(cursor)).length;
    expect(await load(mirror, swaps, cursor)).toEqual({ newSwaps: swaps.length - lateCount, lateSwaps: lateCount, updatedSwaps: 0 });
  });

  it('a time without a zone is UTC, whatever the time zone of the server or the session', async () => {
    await db.admin.unsafe(`ALTER DATABASE ${db.database} SET timezone = 'America/New_York'`);
    const t = target();
    const mirror = await open(t);
    const [a] = early();
    await load(mirror, [{ ...a!, completedAt: '2026-11-10T01:02:03.456', detectedAt: '2026-11-10T01:00:00+0100' } as Swap]);
    const [row] = await db.sql.unsafe(
      `SELECT (extract(epoch FROM completed_at) * 1000)::bigint::text AS completed, (extract(epoch FROM detected_at) * 1000)::bigint::text AS detected FROM ${t.table}`,
    );
    expect(row).toEqual({ completed: String(Date.parse('2026-11-10T01:02:03.456Z')), detected: String(Date.parse('2026-11-10T00:00:00Z')) });
  });

  it('a swap without a readable completedAt is held with completed_at NULL, new or late by the time it was placed at', async () => {
    const t = target();
    const mirror = await open(t);
    const [a, b] = early();
    mirror.add({ ...a!, completedAt: 'soon' } as unknown as Record<string, unknown>, Date.parse('2026-11-10T01:00:00Z'));
    mirror.add({ ...b!, completedAt: null } as unknown as Record<string, unknown>, Date.parse('2026-11-10T05:00:00Z'));
    // 'soon' is no time: kept as sent, and said so.
    expect(await mirror.commit(state(TO), Date.parse('2026-11-10T03:00:00Z'))).toEqual({
      newSwaps: 1,
      lateSwaps: 1,
      updatedSwaps: 0,
      unfit: [{ id: a!.id, field: 'completedAt', reason: "'soon' is not a date-time, kept as sent in _swapx_extra" }],
    });
    const held = await db.sql.unsafe(`SELECT id, _swapx_extra AS extra FROM ${t.table} WHERE completed_at IS NULL ORDER BY id = $1 DESC`, [a!.id!]);
    expect(held).toEqual([
      { id: a!.id, extra: { completedAt: 'soon' } },
      { id: b!.id, extra: null },
    ]);
  });

  it('a swap without an id is keyed by its content: the same content is one row, other content another', async () => {
    const t = target();
    const mirror = await open(t);
    const [a, b] = early();
    const noId = (s: Swap) => ({ ...s, id: null }) as Swap;
    expect(await load(mirror, [noId(a!), noId(a!), noId(b!)])).toEqual({ newSwaps: 2, lateSwaps: 0, updatedSwaps: 0 });
    expect(await load(mirror, [noId(a!)])).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 });
    const keys = await db.sql.unsafe(`SELECT _swapx_key AS key, id FROM ${t.table} ORDER BY 1`);
    expect(keys.map((k) => [/^sha256:[0-9a-f]{64}$/.test(k.key), k.id])).toEqual([
      [true, null],
      [true, null],
    ]);
  });

  it('a newer version replaces the whole row: a field the older one had and the newer lacks leaves no trace', async () => {
    const t = target();
    const mirror = await open(t);
    const [a] = early();
    const older = { ...a!, riskScore: 'older-version', 'risk-note': 'older-version', depositUsdAmount: 1 } as unknown as Swap;
    const newer = { ...a!, updatedAt: '2030-01-01T00:00:00Z', depositUsdAmount: null } as Swap;
    await load(mirror, [older]);
    await mirror.close();
    // The newer version comes in a later run, which has not seen the field.
    expect(await load(await open(t), [newer])).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 1 });
    // The row is the one the newer version alone makes in a table of its own.
    const alone = target();
    await load(await open(alone), [newer]);
    const row = async (table: string) => (await db.sql.unsafe(`SELECT to_jsonb(t) - '_swapx_loaded_at' AS row FROM ${table} t`))[0]!.row;
    const held = await row(t.table);
    expect(JSON.stringify(held)).not.toContain('older-version');
    expect(held).toMatchObject({ deposit_usd_amount: null, _swapx_extra: null });
    expect(held).toEqual(await row(alone.table));
  });
});

describe('fields the spec does not name', () => {
  /** Names that were dropped (a dash, an accent, 64 characters and more), collided (fooBar and foo_bar), or broke the object. */
  const hostile = JSON.parse(
    `{"risk-score":1,"naïve":"é","${'n'.repeat(200)}":[1,{"a":null}],"fooBar":"camel","foo_bar":"snake","__proto__":{"p":1},"":"empty","a\\"b":"quote","tab\\tname":2}`,
  ) as Record<string, unknown>;

  it('are kept as sent in _swapx_extra, whatever their names, and add no column', async () => {
    const t = target();
    const mirror = await open(t);
    const columns = () => db.sql`SELECT column_name AS name FROM information_schema.columns WHERE table_name = ${t.table} ORDER BY ordinal_position`;
    const before = await columns();
    const [a, b] = early();
    expect(await load(mirror, [{ ...a!, ...hostile } as Swap, b!])).toEqual({ newSwaps: 2, lateSwaps: 0, updatedSwaps: 0 });
    const held = await db.sql.unsafe(`SELECT id, _swapx_extra AS extra, bridge FROM ${t.table} ORDER BY id = $1 DESC`, [a!.id!]);
    expect(held).toEqual([
      {
        id: a!.id,
        bridge: a!.bridge,
        extra: {
          'risk-score': 1,
          naïve: 'é',
          ['n'.repeat(200)]: [1, { a: null }],
          fooBar: 'camel',
          foo_bar: 'snake',
          ['__proto__']: { p: 1 },
          '': 'empty',
          'a"b': 'quote',
          'tab\tname': 2,
        },
      },
      { id: b!.id, bridge: b!.bridge, extra: null },
    ]);
    expect(Object.keys(held[0]!.extra)).toContain('__proto__');
    expect(await columns()).toEqual(before);
  });

  it("need no DDL: a reader's open transaction holds up no commit that brings new ones", async () => {
    const t = target();
    const mirror = await open(t);
    const [a, b] = early();
    await load(mirror, [a!]);
    const reader = await db.sql.reserve();
    try {
      await reader`BEGIN`;
      await reader.unsafe(`SELECT count(*) FROM ${t.table}`);
      const started = Date.now();
      expect(await load(mirror, [{ ...b!, ...hostile } as Swap])).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
      expect(Date.now() - started).toBeLessThan(5_000);
      await reader`COMMIT`;
    } finally {
      reader.release();
    }
  });
});

describe('exactly once', () => {
  it('a commit that fails writes neither rows nor cursors', async () => {
    const t = target();
    const mirror = await open(t);
    await load(mirror, early().slice(0, 10));
    // A check the batch breaks makes the merge fail after the COPY: the transaction is rolled back whole.
    await db.admin.unsafe(`ALTER TABLE ${t.table} ADD CONSTRAINT no_thorchain CHECK (bridge IS DISTINCT FROM 'THORChain') NOT VALID`);
    const swaps = early();
    expect(swaps.slice(10).some((s) => s.bridge === 'THORChain')).toBe(true);
    await db.admin.unsafe(`UPDATE ${t.table} SET bridge = 'x'`);
    for (const swap of swaps.slice(10)) mirror.add(swap as unknown as Record<string, unknown>, Date.parse(swap.completedAt));
    await expect(mirror.commit(state('2026-11-10T05:00:00Z'), Date.parse(FROM))).rejects.toThrow(
      `Postgres at 127.0.0.1:${db.server.port}: write public.${t.table} failed (new row for relation "${t.table}" violates check constraint "no_thorchain", SQLSTATE 23514)`,
    );
    const [n] = await db.sql.unsafe(`SELECT count(*)::int AS n FROM ${t.table}`);
    expect(n).toEqual({ n: 10 });
    expect((await mirror.readState())!.cursor).toBe(Date.parse(TO));
  });

  it('one writer: a second mirror of the table is refused at once, and the lock dies with its session', async () => {
    const t = target();
    const first = await open(t);
    const error = await PostgresMirror.open(t, OPEN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncLockedError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^swapx_test@127\\.0\\.0\\.1:${db.server.port}/${db.database} public\\.${t.table} is being written by another swapx sync \\(Postgres backend \\d+ from 127\\.0\\.0\\.1, connected since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\); this run stopped$`,
      ),
    );
    // Another table is not locked by it.
    await open(target());
    // The session ends without a word (a killed process): its lock goes with it.
    // This database's only: other files' syncs run on the same server.
    await db.admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'swapx sync' AND datname = current_database()`;
    const next = await open(t);
    expect(await load(next, early().slice(0, 3))).toEqual({ newSwaps: 3, lateSwaps: 0, updatedSwaps: 0 });
    // The first mirror lost its session, and the lock went to another: it does not write on a new session.
    first.add(early()[5] as unknown as Record<string, unknown>, 0);
    await expect(first.commit(state(TO), 0)).rejects.toThrow(
      new RegExp(
        `^the connection to .* public\\.${t.table} was lost, and another swapx sync took its lock meanwhile \\(Postgres backend \\d+ from 127\\.0\\.0\\.1, connected since .*\\); this run stopped$`,
      ),
    );
    await next.close();
    // With the lock free again, a connection lost is made again and the lock taken on it: the run goes on.
    expect(await first.commit(state(TO), 0)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
  });

  it('readers are never blocked: while a commit is under way, merged but not committed, a reader reads the table as it was', async () => {
    const t = target();
    const mirror = await open(t);
    await load(mirror, early().slice(0, 100));
    // The test holds the state row: the commit merges its rows, then waits there, its transaction open.
    const holder = await db.sql.reserve();
    try {
      await holder`BEGIN`;
      await holder`SELECT * FROM swapx_sync_state WHERE mirror = ${t.table} FOR UPDATE`;
      const newer = late();
      for (const swap of newer) mirror.add(swap as unknown as Record<string, unknown>, Date.parse(swap.completedAt));
      const committing = mirror.commit(state(TO), Date.parse(FROM));
      for (let waiting = 0; waiting === 0; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        [{ n: waiting }] =
          (await db.admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'swapx sync' AND datname = current_database() AND wait_event_type = 'Lock'`) as unknown as [
            { n: number },
          ];
      }
      // A reader that would give up after 200 ms waiting for a lock reads at once, and sees the rows as committed.
      const reader = await db.sql.reserve();
      try {
        await reader`SET lock_timeout = '200ms'`;
        expect(await reader.unsafe(`SELECT count(*)::int AS n FROM ${t.table}`)).toEqual([{ n: 100 }]);
      } finally {
        reader.release();
      }
      await holder`COMMIT`;
      expect(await committing).toEqual({ newSwaps: newer.length - 100, lateSwaps: 0, updatedSwaps: expect.any(Number) });
    } finally {
      holder.release();
    }
  });

  it('readers are never blocked: a merge goes on while a reader holds the table, and takes no lock a reader waits for', async () => {
    const t = target();
    const mirror = await open(t);
    await load(mirror, early().slice(0, 100));
    const reader = await db.sql.reserve();
    try {
      await reader`BEGIN`;
      await reader.unsafe(`SELECT count(*) FROM ${t.table}`);
      // The reader holds ACCESS SHARE until it ends: anything stronger than ROW EXCLUSIVE's peers would wait here.
      const newer = late();
      expect(await load(mirror, newer)).toEqual({ newSwaps: newer.length - 100, lateSwaps: 0, updatedSwaps: expect.any(Number) });
      await reader`COMMIT`;
    } finally {
      reader.release();
    }
  });
});
