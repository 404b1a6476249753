// What a user without swapx's Parquet would run after a JSON Lines export: DuckDB's
// `COPY (SELECT * FROM read_json_auto('x.jsonl')) TO 'x.parquet'`, with its defaults. A process of its own,
// so that the Parquet part measures its CPU (all of DuckDB's threads) as it measures swapx's.
// Usage: node dist/bench/duckdb-copy.js IN.jsonl OUT.parquet
import { DuckDBInstance } from '@duckdb/node-api';

const [jsonl, parquet] = process.argv.slice(2);
if (!jsonl || !parquet) throw new Error('usage: duckdb-copy IN.jsonl OUT.parquet');
const quote = (file: string) => `'${file.replace(/'/g, "''")}'`;
const connection = await (await DuckDBInstance.create(':memory:')).connect();
await connection.run(`COPY (SELECT * FROM read_json_auto(${quote(jsonl)})) TO ${quote(parquet)}`);
connection.closeSync();
