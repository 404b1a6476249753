/**
 * A commit's batch and its merge: the rows waiting for it (one per key, the latest version, as COPY text), their
 * COPY into a temporary table, and the one INSERT … ON CONFLICT that merges them into the mirror table.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { COLUMNS, type Column, KEY_COLUMN, LOADED_COLUMN, quoteIdent, VERSION_COLUMN } from './columns.js';
import type { UnfitValue } from '../../sync/store.js';
import type { Sql } from './driver.js';
import { qualified, type TableName } from './schema.js';

/** COPY data is sent in messages of about this many characters (256 Ki). */
const CHUNK_CHARS = 262_144;

/** A row waiting for the commit: its COPY line, and the values it keeps in _swapx_extra because their column cannot hold them. */
export interface Pending {
  line: string;
  version: bigint | undefined;
  placedMs: number;
  unfit?: UnfitValue[];
}

/**
 * Whether a version replaces the one held for its key: a larger updatedAt does, and so does the same one or one
 * without a readable updatedAt when the held one has none (the later arrival is the server's later word); an
 * unreadable one never replaces a readable one. The same rule as the merge's, and as the folder mirror's.
 */
export function replaces(version: bigint | undefined, held: bigint | undefined): boolean {
  if (held === undefined) return true;
  return version !== undefined && version >= held;
}

/**
 * COPY of the batch into the temporary table (every column swapx writes). The data is made into chunks as the
 * server takes them, so Node joins the next chunk while Postgres parses the last.
 */
export async function copyRows(tx: Sql, pending: ReadonlyMap<string, Pending>): Promise<void> {
  const copy = tx.unsafe(`COPY swapx_batch (${COLUMNS.map((c) => quoteIdent(c.name)).join(', ')}) FROM STDIN`);
  // A COPY the server refuses once its last data was sent is reported to the query, not to its stream, which then
  // never finishes: the query's rejection is watched too, or a refused row would hang the run.
  const refused = new Promise<never>((_resolve, reject) => {
    const query = copy as unknown as { reject: (error: unknown) => void };
    const rejectQuery = query.reject;
    query.reject = (error) => {
      reject(error);
      rejectQuery(error);
    };
  });
  const writable = await copy.writable();
  await Promise.race([pipeline(Readable.from(chunks([...pending.values()])), writable), refused]);
}

/** The rows' lines joined into chunks of `size` characters or just over (the last may be shorter), made as they are read. */
export function* chunks(rows: readonly { line: string }[], size = CHUNK_CHARS): Generator<Buffer> {
  let chunk = '';
  for (const row of rows) {
    chunk += row.line;
    if (chunk.length >= size) {
      yield Buffer.from(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') yield Buffer.from(chunk);
}

/**
 * The merge, one statement: each row of the batch (one per key) inserted, or replacing the held row when newer:
 * every column of `columns` (every column swapx writes), so that no row holds a value of an older version. A
 * held row without a readable updatedAt is older than any with one, and is replaced by another without one only when
 * the row differs (the folder mirror's rule). Returns the counts, by completedAt against the cursor ($1), the keys
 * of inserted rows without a completedAt (counted by the caller), and which of the keys in $2 (the JSON text of a
 * list: the rows with values kept aside; the driver knows no array type) were written.
 */
export function mergeSql(name: TableName, columns: readonly Column[]): string {
  const cols = columns.map((c) => quoteIdent(c.name));
  const key = quoteIdent(KEY_COLUMN);
  const version = quoteIdent(VERSION_COLUMN);
  const updates = columns.filter((c) => c.name !== KEY_COLUMN).map((c) => `${quoteIdent(c.name)} = EXCLUDED.${quoteIdent(c.name)}`);
  const rowOf = (alias: string) => `(${cols.map((c) => `${alias}.${c}`).join(', ')})`;
  return `
    WITH merged AS (
      INSERT INTO ${qualified(name)} AS held (${cols.join(', ')})
      SELECT ${cols.join(', ')} FROM swapx_batch
      ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')}, ${quoteIdent(LOADED_COLUMN)} = now()
      WHERE held.${version} < EXCLUDED.${version}
         OR (held.${version} IS NULL AND EXCLUDED.${version} IS NOT NULL)
         OR (held.${version} IS NULL AND EXCLUDED.${version} IS NULL AND ${rowOf('held')} IS DISTINCT FROM ${rowOf('EXCLUDED')})
      RETURNING (held.xmax = 0) AS inserted, held.completed_at, held.${key} AS key
    )
    SELECT count(*) FILTER (WHERE inserted AND completed_at >= $1::timestamptz) AS new_swaps,
           count(*) FILTER (WHERE inserted AND completed_at < $1::timestamptz) AS late_swaps,
           count(*) FILTER (WHERE NOT inserted) AS updated_swaps,
           coalesce(json_agg(key) FILTER (WHERE inserted AND completed_at IS NULL), '[]') AS undated,
           coalesce(json_agg(key) FILTER (WHERE key = ANY (ARRAY(SELECT jsonb_array_elements_text($2::text::jsonb)))), '[]') AS unfit
    FROM merged`;
}
