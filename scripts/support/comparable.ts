/** Swaps in the form tests compare them in, whichever store they were read back from. */
import type postgres from 'postgres';
import { SWAP_FIELDS, SWAP_TIME_FIELDS } from '../../src/api/types.js';
import { snakeCase } from '../../src/mirror/postgres/columns.js';

/** A swap's fields in spec order: each time as epoch ms (the API writes them in several ways), the rest as JSON has them, a missing one null. */
export function comparableSwap(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of SWAP_FIELDS) {
    const value = record[field] ?? null;
    out[field] = SWAP_TIME_FIELDS.has(field) && value !== null ? Date.parse(String(value)) : value;
  }
  return out;
}

/** A Postgres mirror table read back by Postgres as the API's objects (each column under its field's name), by id, comparable. */
export async function tableSwaps(sql: postgres.Sql, table: string): Promise<Record<string, unknown>[]> {
  const rows = await sql.unsafe(`SELECT to_jsonb(t) AS row FROM ${table} t ORDER BY id`);
  return rows.map(({ row }) => comparableSwap(Object.fromEntries(SWAP_FIELDS.map((field) => [field, (row as Record<string, unknown>)[snakeCase(field)]]))));
}
