/**
 * The mirror table and the state table (src/mirror/postgres/schema.ts) against the real server: what a first open creates
 * (columns, key, indexes, comments, the state table), what a later one checks and adds, the tables it refuses and
 * why, and the lock two mirrors of a schema share while they create the state table.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { UsageError } from '../../../src/api/errors.js';
import { inUsersTerms } from '../../../src/commands/sync/errors.js';
import { COLUMNS } from '../../../src/mirror/postgres/columns.js';
import type { Db } from '../../../src/mirror/postgres/driver.js';
import { ensureTables, qualified, STATE_TABLE } from '../../../src/mirror/postgres/schema.js';
import { useDriver, usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();
let sql: Db;
useDriver(db, (opened) => {
  sql = opened;
});

let schemas = 0;
/** A schema of its own (each test's state table is its own too). */
async function schema(): Promise<string> {
  const name = `s${++schemas}`;
  await db.sql.unsafe(`CREATE SCHEMA ${name}`);
  return name;
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  // In the user's terms, as the sync command says it (a table refused as data: MirrorRefusedError).
  return (inUsersTerms(error) as Error).message;
};

const EVERY_COLUMN = new Map([...COLUMNS.map((c) => [c.name, c.type] as [string, string]), ['_swapx_loaded_at', 'timestamp with time zone']]);

async function columnsOf(s: string, table: string) {
  return db.sql`
    SELECT column_name AS name, is_nullable AS nullable, column_default AS def FROM information_schema.columns
    WHERE table_schema = ${s} AND table_name = ${table} ORDER BY ordinal_position`;
}
const indexesOf = async (s: string, table: string) =>
  (await db.sql`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = ${s} AND tablename = ${table} ORDER BY 1`).map((i) => i.def);

describe('qualified', () => {
  it('quotes schema and table', () => {
    expect(qualified({ schema: 'a"b', table: 'C d' })).toBe('"a""b"."C d"');
    expect(STATE_TABLE).toBe('swapx_sync_state');
  });
});

describe('ensureTables', () => {
  it('creates the table, its key and indexes, its comment, and the state table', async () => {
    const s = await schema();
    const ensured = await ensureTables(sql, { schema: s, table: 'swaps' });
    expect(ensured).toEqual({ created: true, createdState: true, added: [], columns: EVERY_COLUMN });
    const columns = await columnsOf(s, 'swaps');
    expect(columns.map((c) => c.name)).toEqual([...EVERY_COLUMN.keys()]);
    expect(columns.filter((c) => c.nullable === 'NO').map((c) => [c.name, c.def])).toEqual([
      ['_swapx_key', null],
      ['_swapx_loaded_at', 'now()'],
    ]);
    expect(await indexesOf(s, 'swaps')).toEqual([
      `CREATE INDEX swaps_completed_at_idx ON ${s}.swaps USING btree (completed_at)`,
      `CREATE INDEX swaps_destination_tx_idx ON ${s}.swaps USING btree (destination_transaction)`,
      `CREATE INDEX swaps_id_idx ON ${s}.swaps USING btree (id)`,
      `CREATE UNIQUE INDEX swaps_pkey ON ${s}.swaps USING btree (_swapx_key)`,
      `CREATE INDEX swaps_source_tx_idx ON ${s}.swaps USING btree (source_transaction)`,
    ]);
    const state = await db.sql`
      SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns
      WHERE table_schema = ${s} AND table_name = 'swapx_sync_state' ORDER BY ordinal_position`;
    expect(state.map((c) => `${c.name} ${c.type}${c.nullable === 'NO' ? ' NOT NULL' : ''}`)).toEqual([
      'mirror text NOT NULL',
      'query jsonb NOT NULL',
      'since timestamp with time zone NOT NULL',
      'completed_cursor timestamp with time zone NOT NULL',
      'updated_cursor timestamp with time zone NOT NULL',
      'rescan_base timestamp with time zone NOT NULL',
      'rescanned_at timestamp with time zone',
      'rescanned_to timestamp with time zone',
      'swapx_version text NOT NULL',
      'updated_at timestamp with time zone NOT NULL',
      'last_run_started_at timestamp with time zone',
      'last_run_ended_at timestamp with time zone',
      'last_run_outcome text',
      'last_run_message text',
    ]);
    expect(await indexesOf(s, 'swapx_sync_state')).toEqual([`CREATE UNIQUE INDEX swapx_sync_state_pkey ON ${s}.swapx_sync_state USING btree (mirror)`]);
    const comments = await db.sql`
      SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${s} AND c.relkind = 'r' ORDER BY 1`;
    expect(comments).toEqual([
      { name: 'swaps', comment: 'Cross-chain swaps mirrored by swapx sync: one row per swap, its latest version (cursors in swapx_sync_state)' },
      { name: 'swapx_sync_state', comment: 'swapx sync: the cursors of each mirror table of this schema, committed with its rows' },
    ]);
  });

  it('a second table of the schema shares its state table; opening again creates nothing and adds nothing', async () => {
    const s = await schema();
    await ensureTables(sql, { schema: s, table: 'one' });
    expect(await ensureTables(sql, { schema: s, table: 'two' })).toMatchObject({ created: true, createdState: false, added: [] });
    expect(await ensureTables(sql, { schema: s, table: 'one' })).toEqual({ created: false, createdState: false, added: [], columns: EVERY_COLUMN });
  });

  it('a name that fits is <table>_<suffix>; a longer one keeps a prefix, adds a digest of the whole name, and stays within 63 bytes', async () => {
    const s = await schema();
    const long = `t${'x'.repeat(62)}`;
    await ensureTables(sql, { schema: s, table: long });
    const names = (await db.sql`SELECT indexname AS name FROM pg_indexes WHERE schemaname = ${s} AND tablename = ${long}`).map((i) => i.name).sort();
    const digest = createHash('sha256').update(long).digest('hex').slice(0, 8);
    expect(names).toEqual(
      [
        `${long.slice(0, 37)}_${digest}_completed_at_idx`,
        `${long.slice(0, 35)}_${digest}_destination_tx_idx`,
        `${long.slice(0, 47)}_${digest}_id_idx`,
        // Postgres names the primary key's index itself.
        `${long.slice(0, 58)}_pkey`,
        `${long.slice(0, 40)}_${digest}_source_tx_idx`,
      ].sort(),
    );
    expect(names.every((n) => n.length <= 63)).toBe(true);
    // Opened again, each index is found by its name: none is made twice.
    await ensureTables(sql, { schema: s, table: long });
    expect(await db.sql`SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = ${s} AND tablename = ${long}`).toEqual([{ n: 5 }]);
    // A name that fits exactly is kept whole.
    const fits = `f${'x'.repeat(48)}`;
    await ensureTables(sql, { schema: s, table: fits });
    expect(await indexesOf(s, fits)).toContain(`CREATE INDEX ${fits}_source_tx_idx ON ${s}.${fits} USING btree (source_transaction)`);
  });

  it('two tables whose long names share a prefix get indexes of their own, in one schema', async () => {
    const s = await schema();
    const [one, two] = ['a', 'b'].map((end) => `${'p'.repeat(55)}${end.repeat(5)}`) as [string, string];
    await ensureTables(sql, { schema: s, table: one });
    await ensureTables(sql, { schema: s, table: two });
    const columns = async (table: string) =>
      (await db.sql`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = ${s} AND tablename = ${table}`).map(
        (i) => /\((\w+)\)$/.exec(i.def)![1],
      );
    expect((await columns(one)).sort()).toEqual(['_swapx_key', 'completed_at', 'destination_transaction', 'id', 'source_transaction']);
    expect((await columns(two)).sort()).toEqual(['_swapx_key', 'completed_at', 'destination_transaction', 'id', 'source_transaction']);
  });

  it('a long table of an older swapx keeps its indexes under their old names: none is made again beside them', async () => {
    const s = await schema();
    const long = `t${'x'.repeat(62)}`;
    await db.sql.unsafe(`CREATE TABLE ${s}.${long} (_swapx_key text PRIMARY KEY, source_transaction text, id text)`);
    await db.sql.unsafe(`CREATE INDEX ${long.slice(0, 49)}_source_tx_idx ON ${s}.${long} (source_transaction)`);
    await db.sql.unsafe(`CREATE INDEX ${long.slice(0, 56)}_id_idx ON ${s}.${long} (id)`);
    await ensureTables(sql, { schema: s, table: long });
    const defs = await indexesOf(s, long);
    expect(defs.filter((d) => d.endsWith('(source_transaction)'))).toEqual([
      `CREATE INDEX ${long.slice(0, 49)}_source_tx_idx ON ${s}.${long} USING btree (source_transaction)`,
    ]);
    expect(defs.filter((d) => d.endsWith('(id)'))).toEqual([`CREATE INDEX ${long.slice(0, 56)}_id_idx ON ${s}.${long} USING btree (id)`]);
    expect(defs.length).toBe(5);
  });

  it('adds what a table of an older swapx lacks (columns, the loaded column, an index), keeping the rest', async () => {
    const s = await schema();
    const name = { schema: s, table: 'older' };
    await ensureTables(sql, name);
    await db.sql.unsafe(
      `ALTER TABLE ${s}.older DROP COLUMN tags, DROP COLUMN _swapx_updated_ns, DROP COLUMN _swapx_extra, DROP COLUMN _swapx_loaded_at, ADD COLUMN mine text NOT NULL DEFAULT 'x'`,
    );
    await db.sql.unsafe(`DROP INDEX ${s}.older_id_idx`);
    await db.sql.unsafe(`INSERT INTO ${s}.older (_swapx_key) VALUES ('k')`);
    const ensured = await ensureTables(sql, name);
    expect(ensured).toMatchObject({ created: false, createdState: false, added: ['tags', '_swapx_updated_ns', '_swapx_extra', '_swapx_loaded_at'] });
    expect([...ensured.columns.keys()].slice(-5)).toEqual(['mine', 'tags', '_swapx_updated_ns', '_swapx_extra', '_swapx_loaded_at']);
    expect(ensured.columns.get('tags')).toBe('jsonb');
    expect(ensured.columns.get('_swapx_extra')).toBe('jsonb');
    expect(ensured.columns.get('mine')).toBe('text');
    expect(ensured.columns.get('_swapx_loaded_at')).toBe('timestamp with time zone');
    const [row] = await db.sql.unsafe(`SELECT _swapx_key, mine, _swapx_loaded_at IS NOT NULL AS loaded FROM ${s}.older`);
    expect(row).toEqual({ _swapx_key: 'k', mine: 'x', loaded: true });
    const loaded = (await columnsOf(s, 'older')).find((c) => c.name === '_swapx_loaded_at');
    expect(loaded).toEqual({ name: '_swapx_loaded_at', nullable: 'NO', def: 'now()' });
    expect((await indexesOf(s, 'older')).filter((d) => d.includes('older_id_idx'))).toEqual([`CREATE INDEX older_id_idx ON ${s}.older USING btree (id)`]);
  });

  it("takes a partitioned table, and the user's own columns that swapx need not fill", async () => {
    const s = await schema();
    await db.sql.unsafe(`CREATE TABLE ${s}.parted (_swapx_key text PRIMARY KEY, mine text, counted int NOT NULL DEFAULT 0) PARTITION BY HASH (_swapx_key)`);
    await db.sql.unsafe(`CREATE TABLE ${s}.parted_0 PARTITION OF ${s}.parted FOR VALUES WITH (MODULUS 1, REMAINDER 0)`);
    const ensured = await ensureTables(sql, { schema: s, table: 'parted' });
    expect(ensured.created).toBe(false);
    expect(ensured.added.length).toBe(EVERY_COLUMN.size - 1);
  });

  it.each([
    ['a view', (s: string) => `CREATE VIEW ${s}.t AS SELECT 'k'::text AS _swapx_key`, 'it is not a table'],
    ['a column of another type', (s: string) => `CREATE TABLE ${s}.t (_swapx_key text PRIMARY KEY, tags text)`, 'column tags is text, swapx writes jsonb'],
    [
      'the loaded column of another type',
      (s: string) => `CREATE TABLE ${s}.t (_swapx_key text PRIMARY KEY, _swapx_loaded_at date)`,
      'column _swapx_loaded_at is date, swapx writes timestamp with time zone',
    ],
    ['no primary key', (s: string) => `CREATE TABLE ${s}.t (_swapx_key text)`, 'its primary key is missing, not (_swapx_key)'],
    [
      'a key of two columns (named in order of their names)',
      (s: string) => `CREATE TABLE ${s}.t (id text, _swapx_key text, PRIMARY KEY (id, _swapx_key))`,
      'its primary key is (_swapx_key, id), not (_swapx_key)',
    ],
    ['another key column', (s: string) => `CREATE TABLE ${s}.t (_swapx_key text, id text PRIMARY KEY)`, 'its primary key is (id), not (_swapx_key)'],
    ['no key column', (s: string) => `CREATE TABLE ${s}.t (id text PRIMARY KEY)`, 'it has no _swapx_key column'],
    [
      'a NOT NULL column of the user without a default',
      (s: string) => `CREATE TABLE ${s}.t (_swapx_key text PRIMARY KEY, owner text NOT NULL)`,
      'column owner is NOT NULL without a default, and swapx does not fill it',
    ],
  ])('refuses %s, naming it, and leaves it as it is', async (_what, ddl, why) => {
    const s = await schema();
    await db.sql.unsafe(ddl(s));
    const relations = () => db.sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ${s} ORDER BY 1`;
    const columns = () => db.sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = ${s} ORDER BY 1, 2`;
    const before = await relations();
    const columnsBefore = await columns();
    expect(await refusal(ensureTables(sql, { schema: s, table: 't' }))).toBe(
      `${s}.t exists but is not a swaps mirror swapx can write (${why}); it was left as it is: name another table with --table`,
    );
    // Nothing was added: not a column, not an index, not the state table.
    expect(await relations()).toEqual(before);
    expect(await columns()).toEqual(columnsBefore);
  });

  it('refuses a state table of another shape, or one that lacks a column', async () => {
    const s = await schema();
    await db.sql.unsafe(`CREATE TABLE ${s}.swapx_sync_state (mirror text PRIMARY KEY, since text)`);
    expect(await refusal(ensureTables(sql, { schema: s, table: 'swaps' }))).toBe(
      `${s}.swapx_sync_state exists but is not swapx's state table swapx can write (column since is text, swapx writes timestamp with time zone); it was left as it is: name another table with --table`,
    );
    await db.sql.unsafe(`DROP TABLE ${s}.swapx_sync_state`);
    await db.sql.unsafe(`CREATE TABLE ${s}.swapx_sync_state (mirror text PRIMARY KEY, query jsonb NOT NULL)`);
    expect(await refusal(ensureTables(sql, { schema: s, table: 'swaps' }))).toBe(
      `${s}.swapx_sync_state lacks the column since: it was not made by swapx, or was edited; it was left as it is`,
    );
    // The refusal rolled back the mirror table it would have created.
    expect(await db.sql`SELECT to_regclass(${`${s}.swaps`}) AS t`).toEqual([{ t: null }]);
  });

  it('refuses a schema that does not exist, and the state table named as the mirror', async () => {
    expect(await refusal(ensureTables(sql, { schema: 'No Where', table: 'swaps' }))).toBe(
      'the schema No Where does not exist in this database; create it (CREATE SCHEMA "No Where") or name another',
    );
    const s = await schema();
    expect(await refusal(ensureTables(sql, { schema: s, table: 'swapx_sync_state' }))).toBe(
      "swapx_sync_state is the table of swapx's own state: name another table for the swaps",
    );
    expect(await db.sql`SELECT to_regclass(${`${s}.swapx_sync_state`}) AS t`).toEqual([{ t: null }]);
  });

  it("waits for another mirror of the schema creating the state table (the schema's lock), then goes on", async () => {
    const s = await schema();
    const other = await db.sql.reserve();
    try {
      await other`SELECT pg_advisory_lock(hashtextextended(${`swapx sync state ${s}`}, 0))`;
      let done = false;
      const ensuring = ensureTables(sql, { schema: s, table: 'swaps' }).then((r) => {
        done = true;
        return r;
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(done).toBe(false);
      await other`SELECT pg_advisory_unlock(hashtextextended(${`swapx sync state ${s}`}, 0))`;
      expect(await ensuring).toMatchObject({ created: true, createdState: true });
    } finally {
      other.release();
    }
  });
});

describe('a schema change', () => {
  it('gives up on a table another session holds, after its lock timeout, rather than queue readers behind it', async () => {
    const s = await schema();
    await ensureTables(sql, { schema: s, table: 'held' });
    await db.sql.unsafe(`ALTER TABLE ${s}.held DROP COLUMN tags`);
    const other = await db.sql.reserve();
    try {
      await other`BEGIN`;
      await other.unsafe(`LOCK TABLE ${s}.held IN ACCESS SHARE MODE`);
      const started = Date.now();
      const error = await ensureTables(sql, { schema: s, table: 'held' }, '1s').catch((e: unknown) => e);
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
      expect(error).toMatchObject({ code: '55P03', message: `canceling statement due to lock timeout` });
      await other`ROLLBACK`;
    } finally {
      other.release();
    }
  }, 30_000);
});
