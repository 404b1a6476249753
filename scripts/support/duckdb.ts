/** Reading what swapx wrote with a real Parquet reader (DuckDB), never with our own code. */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { SWAP_TIME_FIELDS } from '../../src/api/types.js';

let open: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;

function connect(): Promise<DuckDBConnection> {
  open ??= DuckDBInstance.create(':memory:').then(async (instance) => ({ instance, connection: await instance.connect() }));
  return open.then(({ connection }) => connection);
}

/**
 * Closes the database `query` reads with; the next query opens a new, empty one. The tests call it after each file:
 * files share a worker's modules, and a view one file made was there for the next (`View with name "swaps" already
 * exists`, depending on which files shared a worker).
 */
export async function closeDuckDb(): Promise<void> {
  const opened = open;
  open = undefined;
  if (!opened) return;
  const { instance, connection } = await opened;
  connection.closeSync();
  instance.closeSync();
}

const quote = (file: string) => `'${file.replace(/'/g, "''")}'`;

/** Rows of a SQL query as JSON-friendly values (BIGINT as text, lists as arrays, structs as objects). */
export async function query(sql: string): Promise<Record<string, unknown>[]> {
  const reader = await (await connect()).runAndReadAll(sql);
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

/** `column type` of each column, in order, as DuckDB sees the file. */
export async function parquetColumns(file: string): Promise<string[]> {
  const rows = await query(`DESCRIBE SELECT * FROM read_parquet(${quote(file)})`);
  return rows.map((row) => `${String(row.column_name)} ${String(row.column_type)}`);
}

/**
 * Every row of the file with times as epoch microseconds (text), so a value is compared whole:
 * a TIMESTAMP read as a JS Date would drop its microseconds.
 */
export async function parquetRows(file: string): Promise<Record<string, unknown>[]> {
  const columns = await parquetColumns(file);
  const select = columns.map((column) => {
    const [name, ...type] = column.split(' ');
    return type.join(' ').startsWith('TIMESTAMP') ? `epoch_us("${name}")::VARCHAR AS "${name}"` : `"${name}"`;
  });
  return query(`SELECT ${select.join(', ')} FROM read_parquet(${quote(file)})`);
}

export async function parquetRowGroups(file: string): Promise<number> {
  const [row] = await query(`SELECT num_row_groups FROM parquet_file_metadata(${quote(file)})`);
  return Number(row!.num_row_groups);
}

/** The compression codecs of the file's column chunks, each once, in order (DuckDB's parquet_metadata). */
export async function parquetCodecs(file: string): Promise<string[]> {
  const rows = await query(`SELECT DISTINCT compression FROM parquet_metadata(${quote(file)}) ORDER BY compression`);
  return rows.map((row) => String(row.compression));
}

export { quote as sqlString };

/** A select list of these Parquet columns as asRead gives them: times (TIMESTAMP) as epoch microseconds, in text. */
export function asReadColumns(fields: readonly string[]): string {
  return fields.map((f) => (SWAP_TIME_FIELDS.has(f) ? `epoch_us("${f}")::VARCHAR AS "${f}"` : `"${f}"`)).join(', ');
}

/**
 * What DuckDB must return for a record as the API sent it (or as JSON Lines holds it): these fields,
 * absent as null, times as epoch microseconds at the millisecond precision the sandbox sends.
 */
export function asRead(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = record[field] ?? null;
    out[field] = value !== null && SWAP_TIME_FIELDS.has(field) ? (BigInt(Date.parse(value as string)) * 1000n).toString() : value;
  }
  return out;
}
