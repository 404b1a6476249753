/**
 * Issue 32.7: docs/lake.md's statements for the lake's readers cannot drift from what a sync writes. The Trino,
 * Athena and BigQuery tables declare the columns of the day objects, in their order, each typed as that engine types
 * the Parquet type (read with DuckDB from objects a sync wrote to the S3 server); the partition column is the day of
 * the key; and the DuckDB recipe runs as written. DuckDB's httpfs extension cannot be installed here (it downloads at
 * INSTALL), so the recipe reads the day objects fetched into a folder under the same keys.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { query } from '../../scripts/support/duckdb.js';
import { runSwapx } from '../helpers/run.js';
import { fetchObjects, useBucket } from '../helpers/s3.js';

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/lake.md'), 'utf8');
const SQL = [...DOC.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
/** The block whose first line is `-- NAME…`. */
function block(name: string): string {
  const found = SQL.filter((sql) => sql.startsWith(`-- ${name}`));
  expect([name, found.length]).toEqual([name, 1]);
  return found[0]!;
}

/** A DuckDB type as a tree: a name, a list of an element, or a struct of named fields. */
type Type = { name: string } | { list: Type } | { struct: [string, Type][] };

function parseDuckType(text: string): Type {
  const type = text.trim();
  if (type.endsWith('[]')) return { list: parseDuckType(type.slice(0, -2)) };
  const struct = /^STRUCT\((.*)\)$/.exec(type);
  if (struct)
    return {
      struct: splitTopLevel(struct[1]!).map((field) => {
        const [, name, rest] = /^"?([^"\s]+)"?\s+(.*)$/.exec(field)!;
        return [name!, parseDuckType(rest!)];
      }),
    };
  return { name: type };
}

/** Commas outside parentheses and angle brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '<') depth++;
    else if (c === ')' || c === '>') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '') parts.push(last);
  return parts;
}

interface Dialect {
  scalars: Record<string, string>;
  list(element: string): string;
  struct(fields: [string, string][]): string;
}

/** How each engine's DDL types the Parquet columns (DuckDB's names for them as keys). */
const DIALECTS: Record<'trino' | 'athena' | 'bigquery', Dialect> = {
  trino: {
    scalars: { VARCHAR: 'varchar', 'TIMESTAMP WITH TIME ZONE': 'timestamp', DOUBLE: 'double', DATE: 'date' },
    list: (element) => `array(${element})`,
    struct: (fields) => `row(${fields.map(([name, type]) => `${name} ${type}`).join(', ')})`,
  },
  athena: {
    scalars: { VARCHAR: 'string', 'TIMESTAMP WITH TIME ZONE': 'timestamp', DOUBLE: 'double', DATE: 'string' },
    list: (element) => `array<${element}>`,
    struct: (fields) => `struct<${fields.map(([name, type]) => `${name}:${type}`).join(',')}>`,
  },
  bigquery: {
    scalars: { VARCHAR: 'STRING', 'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP', DOUBLE: 'FLOAT64', DATE: 'DATE' },
    list: (element) => `ARRAY<${element}>`,
    struct: (fields) => `STRUCT<${fields.map(([name, type]) => `${name} ${type}`).join(', ')}>`,
  },
};

function render(type: Type, dialect: Dialect): string {
  if ('list' in type) return dialect.list(render(type.list, dialect));
  if ('struct' in type) return dialect.struct(type.struct.map(([name, field]) => [name, render(field, dialect)]));
  const scalar = dialect.scalars[type.name];
  if (scalar === undefined) throw new Error(`no DDL type for the Parquet column type ${type.name}: add it to the test and to docs/lake.md`);
  return scalar;
}

/** The `name type` items between the parentheses that follow `opening` in a statement. */
function columnList(sql: string, opening: RegExp): string[] {
  const at = opening.exec(sql);
  if (!at) throw new Error(`no ${opening} in ${sql.slice(0, 80)}`);
  const from = at.index + at[0].length;
  let depth = 1;
  let i = from;
  for (; depth > 0; i++) {
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')') depth--;
  }
  return splitTopLevel(sql.slice(from, i - 1)).map((item) => item.replace(/["`]/g, '').replace(/\s+/g, ' '));
}

let sandbox: RunningSandbox;
let copy: string;
/** `name type` of each column of the day objects, as DuckDB reads them with the key's partition. */
let columns: [string, Type][];
const lake = useBucket();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, swapsPerHour: 120, now: () => Date.parse('2026-11-08T00:00:00Z') });
  const dir = tempDir('swapx-lake-recipes-');
  const env = { ...sandboxEnv(sandbox.url, path.join(dir, 'cfg')), ...lake.env };
  const sync = await runSwapx(['sync', '--out', `s3://${lake.bucket}/xflow/swaps`, '--since', '2026-11-06', '-q'], { env });
  expect([sync.code, sync.stderr]).toEqual([0, '']);
  copy = path.join(dir, 'lake');
  await fetchObjects(`s3://${lake.bucket}/xflow/swaps`, lake.env, 'date=', copy);
  const described = await query(`DESCRIBE SELECT * FROM read_parquet('${copy}/date=*/part.parquet', hive_partitioning = true)`);
  columns = described.map((row) => [String(row.column_name), parseDuckType(String(row.column_type))]);
  // A sync and a download on a machine shared with other runs: past the default 30 s at its busiest.
}, 90_000);
afterAll(async () => {
  await sandbox.close();
});

describe("docs/lake.md's tables", () => {
  it('are read from day objects holding the Parquet types the docs name, the day last from the key', async () => {
    expect(columns.length).toBe(33);
    expect(columns.at(-1)).toEqual(['date', { name: 'DATE' }]);
    // the times: microseconds, adjusted to UTC (DuckDB shows the latter as WITH TIME ZONE)
    const file = path.join(copy, 'date=2026-11-06/part.parquet');
    const times = await query(`SELECT name, converted_type FROM parquet_schema('${file}') WHERE converted_type LIKE 'TIMESTAMP%'`);
    expect(times.map((row) => `${String(row.name)} ${String(row.converted_type)}`)).toEqual(
      ['timestamp', 'depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'].map((name) => `${name} TIMESTAMP_MICROS`),
    );
  });

  it("Trino's declares every column, typed, the partition column last", () => {
    const sql = block('Trino');
    const expected = columns.map(([name, type]) => `${name} ${render(type, DIALECTS.trino)}`);
    expect(columnList(sql, /CREATE TABLE hive\.xflow\.swaps \(/)).toEqual(expected);
    expect(sql).toContain("external_location = 's3://my-lake/xflow/swaps/',\n  format = 'PARQUET',\n  partitioned_by = ARRAY['date']");
    expect(sql).toContain("CALL hive.system.sync_partition_metadata('xflow', 'swaps', 'ADD');");
  });

  it("Athena's declares every column, typed, and projects the day partitions onto the keys", () => {
    const sql = block('Athena');
    const data = columns.slice(0, -1).map(([name, type]) => `${name} ${render(type, DIALECTS.athena)}`);
    expect(columnList(sql, /CREATE EXTERNAL TABLE xflow_swaps \(/)).toEqual(data);
    expect(columnList(sql, /PARTITIONED BY \(/)).toEqual([`date ${render(columns.at(-1)![1], DIALECTS.athena)}`]);
    expect(sql).toContain("STORED AS PARQUET\nLOCATION 's3://my-lake/xflow/swaps/'");
    for (const property of [
      "'projection.date.type' = 'date'",
      "'projection.date.format' = 'yyyy-MM-dd'",
      "'projection.date.interval.unit' = 'DAYS'",
      `'storage.location.template' = 's3://my-lake/xflow/swaps/date=\${date}/'`,
    ])
      expect(sql).toContain(property);
  });

  it("BigQuery's declares every column, typed, and reads only the day folders", () => {
    const sql = block('BigQuery');
    const data = columns.slice(0, -1).map(([name, type]) => `${name} ${render(type, DIALECTS.bigquery)}`);
    expect(columnList(sql, /CREATE EXTERNAL TABLE xflow\.swaps \(/)).toEqual(data);
    expect(columnList(sql, /WITH PARTITION COLUMNS \(/)).toEqual([`date ${render(columns.at(-1)![1], DIALECTS.bigquery)}`]);
    expect(sql).toContain("uris = ['gs://my-lake/xflow/swaps/date=*'],\n  hive_partition_uri_prefix = 'gs://my-lake/xflow/swaps',");
  });
});

describe("docs/lake.md's DuckDB recipe", () => {
  it('reads each day object once, with its swaps', async () => {
    const lines = block('DuckDB').trim().split('\n');
    expect(lines.filter((line) => line.startsWith('CREATE SECRET'))).toEqual([
      'CREATE SECRET lake (TYPE s3, PROVIDER credential_chain);',
      "CREATE SECRET lake (TYPE s3, PROVIDER credential_chain, ENDPOINT '127.0.0.1:7480', URL_STYLE 'path', USE_SSL false);",
    ]);
    const [view, select] = lines.filter((line) => !line.startsWith('--') && !line.startsWith('CREATE SECRET'));
    await query(view!.replace("'s3://my-lake/xflow/swaps/", `'${copy}/`));
    const rows = await query(select!);
    const perDay = await query(
      `SELECT strftime(date, '%Y-%m-%d') AS date, count(*) AS swaps FROM read_parquet('${copy}/date=*/part.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY 1`,
    );
    expect(rows.map((row) => [String(row.date), Number(row.swaps)])).toEqual(perDay.map((row) => [String(row.date), Number(row.swaps)]));
    expect(perDay.map((row) => String(row.date))).toEqual(['2026-11-06', '2026-11-07']);
    expect(rows.every((row) => Number(row.usd) > 0)).toBe(true);
  });
});
