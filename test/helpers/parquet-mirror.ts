/** Reading a Parquet sync directory back with DuckDB, a real reader. */
import { asReadColumns, query } from '../../scripts/support/duckdb.js';

/** The mirror through the README's glob, times as epoch microseconds (text), ordered as the partitions are. */
export async function readMirror(dir: string, fields: readonly string[]): Promise<Record<string, unknown>[]> {
  return query(
    `SELECT ${asReadColumns(fields)}, "date"::VARCHAR AS "date" FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true, filename = true, file_row_number = true) ORDER BY filename, file_row_number`,
  );
}
