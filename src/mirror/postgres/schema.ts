/**
 * The mirror table and swapx's state table: created when missing, checked
 * (never trusted) when they exist. Changes are additive only: a column swapx
 * writes that a table made by an older swapx lacks is added; a user's own
 * column, or one of another type, is never dropped or rewritten — a table of
 * another shape is refused, naming the column, and left as it is.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../../api/errors.js';
import { MirrorRefusedError } from '../../sync/errors.js';
import { COLUMNS, KEY_COLUMN, LOADED_COLUMN, quoteIdent } from './columns.js';
import type { Db, Sql } from './driver.js';

export const STATE_TABLE = 'swapx_sync_state';

export interface TableName {
  schema: string;
  table: string;
}

export function qualified(name: TableName): string {
  return `${quoteIdent(name.schema)}.${quoteIdent(name.table)}`;
}

/** The state table's columns: one row per mirror table of the schema. */
const STATE_COLUMNS: readonly { name: string; type: string; notNull: boolean }[] = [
  { name: 'mirror', type: 'text', notNull: true },
  { name: 'query', type: 'jsonb', notNull: true },
  { name: 'since', type: 'timestamp with time zone', notNull: true },
  { name: 'completed_cursor', type: 'timestamp with time zone', notNull: true },
  { name: 'updated_cursor', type: 'timestamp with time zone', notNull: true },
  { name: 'rescan_base', type: 'timestamp with time zone', notNull: true },
  { name: 'rescanned_at', type: 'timestamp with time zone', notNull: false },
  { name: 'rescanned_to', type: 'timestamp with time zone', notNull: false },
  { name: 'swapx_version', type: 'text', notNull: true },
  { name: 'updated_at', type: 'timestamp with time zone', notNull: true },
];

/**
 * The state table's columns of a mirror's last run (`swapx sync status`), written outside the commits: added to a
 * state table an older swapx made (nullable, no rewrite of the table).
 */
export const RUN_COLUMNS: readonly { name: string; type: string; notNull: boolean }[] = [
  { name: 'last_run_started_at', type: 'timestamp with time zone', notNull: false },
  { name: 'last_run_ended_at', type: 'timestamp with time zone', notNull: false },
  { name: 'last_run_outcome', type: 'text', notNull: false },
  { name: 'last_run_message', type: 'text', notNull: false },
];

/** Postgres's longest identifier, in bytes (a table name swapx takes is ASCII: one byte a character). */
const MAX_NAME = 63;

/**
 * An index's name: `<table>_<suffix>`; when that is too long, a prefix of the table's name, a digest of the whole
 * name and the suffix. Cut alone, two tables whose names share a long prefix would ask for the same index name (the
 * second table then fails to be created); the digest is of the name alone, so a table's index is found again by it.
 */
function indexName(table: string, suffix: string): string {
  if (table.length + 1 + suffix.length <= MAX_NAME) return `${table}_${suffix}`;
  const digest = createHash('sha256').update(table).digest('hex').slice(0, 8);
  return `${table.slice(0, MAX_NAME - suffix.length - digest.length - 2)}_${digest}_${suffix}`;
}

/** The name an older swapx gave a long table's index (its name cut alone): that index is the table's, not made again. */
function legacyIndexName(table: string, suffix: string): string {
  return `${table.slice(0, MAX_NAME - suffix.length - 1)}_${suffix}`;
}

/** The indexes a support lookup (by either transaction hash, by id) and a range query (by completedAt) need: suffix → column. */
const INDEXES = new Map([
  ['source_tx_idx', 'source_transaction'],
  ['destination_tx_idx', 'destination_transaction'],
  ['completed_at_idx', 'completed_at'],
  ['id_idx', 'id'],
]);

interface ExistingColumn {
  name: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

interface Existing {
  kind: string;
  columns: Map<string, ExistingColumn>;
  primaryKey: string[];
}

async function describeTable(sql: Sql, name: TableName): Promise<Existing | undefined> {
  const [relation] = await sql<{ oid: number; kind: string }[]>`
    SELECT c.oid::int AS oid, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${name.schema} AND c.relname = ${name.table}`;
  if (!relation) return undefined;
  const columns = await sql<{ name: string; type: string; not_null: boolean; has_default: boolean }[]>`
    SELECT attname AS name, format_type(atttypid, atttypmod) AS type, attnotnull AS not_null, atthasdef AS has_default
    FROM pg_attribute WHERE attrelid = ${relation.oid} AND attnum > 0 AND NOT attisdropped ORDER BY attnum`;
  const key = await sql<{ name: string }[]>`
    SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
    WHERE i.indrelid = ${relation.oid} AND i.indisprimary`;
  return {
    kind: relation.kind,
    columns: new Map(columns.map((c) => [c.name, { name: c.name, type: c.type, notNull: c.not_null, hasDefault: c.has_default }])),
    primaryKey: key.map((k) => k.name).sort(),
  };
}

async function schemaExists(sql: Sql, schema: string): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`;
  return rows.length > 0;
}

/** Refuses a table swapx cannot write as its own, naming the first reason. */
function check(existing: Existing, name: TableName, wanted: readonly { name: string; type: string }[], key: string, what: string): void {
  const refuse = (why: string) => {
    const table = `${name.schema}.${name.table}`;
    throw new MirrorRefusedError(table, { reason: 'table-unfit', table, what, why });
  };
  if (existing.kind !== 'r' && existing.kind !== 'p') refuse('it is not a table');
  for (const column of wanted) {
    const held = existing.columns.get(column.name);
    if (held && held.type !== column.type) refuse(`column ${column.name} is ${held.type}, swapx writes ${column.type}`);
  }
  if (existing.columns.has(key) && (existing.primaryKey.length !== 1 || existing.primaryKey[0] !== key)) {
    refuse(`its primary key is ${existing.primaryKey.length ? `(${existing.primaryKey.join(', ')})` : 'missing'}, not (${key})`);
  }
  if (!existing.columns.has(key)) refuse(`it has no ${key} column`);
  const known = new Set(wanted.map((c) => c.name));
  for (const column of existing.columns.values()) {
    if (!known.has(column.name) && column.notNull && !column.hasDefault)
      refuse(`column ${column.name} is NOT NULL without a default, and swapx does not fill it`);
  }
}

export interface Ensured {
  /** the table did not exist and was created */
  created: boolean;
  /** the state table did not exist and was created */
  createdState: boolean;
  /** columns swapx writes that were missing and were added */
  added: string[];
  /** every column the table has (swapx's and the user's): name → type */
  columns: Map<string, string>;
}

/** Postgres waits this long for a lock on the table before a schema change, rather than queueing readers behind it. */
const DDL_LOCK_TIMEOUT = '10s';

/**
 * Creates the mirror table and the state table when missing, or checks them and adds the columns swapx writes that
 * they lack. Runs in one transaction, under the mirror's advisory lock (no other swapx writes meanwhile).
 * `lockTimeout` is a Postgres interval (tests wait a second, not ten).
 */
export async function ensureTables(sql: Db, name: TableName, lockTimeout = DDL_LOCK_TIMEOUT): Promise<Ensured> {
  if (!(await schemaExists(sql, name.schema))) {
    throw new UsageError(`the schema ${name.schema} does not exist in this database; create it (CREATE SCHEMA ${quoteIdent(name.schema)}) or name another`);
  }
  const state: TableName = { schema: name.schema, table: STATE_TABLE };
  if (name.table === STATE_TABLE) throw new UsageError(`${STATE_TABLE} is the table of swapx's own state: name another table for the swaps`);
  return sql.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL lock_timeout = '${lockTimeout}'`);
    // Mirrors of two tables of one schema share the state table: its creation is made by one of them at a time.
    await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`swapx sync state ${name.schema}`}, 0))`;
    const wanted = COLUMNS.map((c) => ({ name: c.name, type: c.type }));
    const existing = await describeTable(tx, name);
    let created = false;
    const added: string[] = [];
    if (!existing) {
      const columns = [
        ...COLUMNS.map((c) => `${quoteIdent(c.name)} ${c.type}${c.name === KEY_COLUMN ? ' PRIMARY KEY' : ''}`),
        `${quoteIdent(LOADED_COLUMN)} timestamp with time zone NOT NULL DEFAULT now()`,
      ];
      await tx.unsafe(`CREATE TABLE ${qualified(name)} (${columns.join(', ')})`);
      await tx.unsafe(
        `COMMENT ON TABLE ${qualified(name)} IS 'Cross-chain swaps mirrored by swapx sync: one row per swap, its latest version (cursors in ${STATE_TABLE})'`,
      );
      created = true;
    } else {
      check(existing, name, [...wanted, { name: LOADED_COLUMN, type: 'timestamp with time zone' }], KEY_COLUMN, 'a swaps mirror');
      for (const column of COLUMNS) {
        if (existing.columns.has(column.name)) continue;
        await tx.unsafe(`ALTER TABLE ${qualified(name)} ADD COLUMN ${quoteIdent(column.name)} ${column.type}`);
        added.push(column.name);
      }
      if (!existing.columns.has(LOADED_COLUMN)) {
        await tx.unsafe(`ALTER TABLE ${qualified(name)} ADD COLUMN ${quoteIdent(LOADED_COLUMN)} timestamp with time zone NOT NULL DEFAULT now()`);
        added.push(LOADED_COLUMN);
      }
    }
    // Only the missing ones (a new table's, or one a user dropped): even CREATE INDEX IF NOT EXISTS waits for a lock
    // that writers of the table hold.
    const held = new Set(
      (await tx<{ name: string }[]>`SELECT indexname AS name FROM pg_indexes WHERE schemaname = ${name.schema} AND tablename = ${name.table}`).map(
        (i) => i.name,
      ),
    );
    for (const [suffix, column] of INDEXES) {
      const index = indexName(name.table, suffix);
      if (held.has(index) || held.has(legacyIndexName(name.table, suffix))) continue;
      await tx.unsafe(`CREATE INDEX ${quoteIdent(index)} ON ${qualified(name)} (${quoteIdent(column)})`);
    }

    const stateExisting = await describeTable(tx, state);
    const createdState = !stateExisting;
    if (!stateExisting) {
      const columns = [...STATE_COLUMNS, ...RUN_COLUMNS].map(
        (c) => `${quoteIdent(c.name)} ${c.type}${c.notNull ? ' NOT NULL' : ''}${c.name === 'mirror' ? ' PRIMARY KEY' : ''}`,
      );
      await tx.unsafe(`CREATE TABLE IF NOT EXISTS ${qualified(state)} (${columns.join(', ')})`);
      await tx.unsafe(`COMMENT ON TABLE ${qualified(state)} IS 'swapx sync: the cursors of each mirror table of this schema, committed with its rows'`);
    } else {
      check(stateExisting, state, [...STATE_COLUMNS, ...RUN_COLUMNS], 'mirror', "swapx's state table");
      const missing = STATE_COLUMNS.filter((c) => !stateExisting.columns.has(c.name));
      if (missing.length > 0) {
        throw new UsageError(
          `${state.schema}.${state.table} lacks the column ${missing[0]!.name}: it was not made by swapx, or was edited; it was left as it is`,
        );
      }
      for (const column of RUN_COLUMNS.filter((c) => !stateExisting.columns.has(c.name))) {
        await tx.unsafe(`ALTER TABLE ${qualified(state)} ADD COLUMN ${quoteIdent(column.name)} ${column.type}`);
      }
    }
    const final = (await describeTable(tx, name))!;
    return { created, createdState, added, columns: new Map([...final.columns.values()].map((c) => [c.name, c.type])) };
  });
}
