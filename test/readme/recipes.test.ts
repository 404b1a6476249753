/**
 * Issue 22.15: the README's DuckDB recipes read every format with proper types (JSON Lines and JSON times as
 * TIMESTAMPTZ, although the bytes stay as the API sent them), run here as written with DuckDB itself, on exports
 * swapx made from a sandbox; and the README's library example runs as written against one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { query } from '../../scripts/support/duckdb.js';
import { runSwapx } from '../helpers/run.js';
import { fetchObjects, useBucket } from '../helpers/s3.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
const SQL = [...README.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
const TIMES = ['timestamp', 'depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'];

let sandbox: RunningSandbox;
let dir: string;
const lake = useBucket();
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, swapsPerHour: 120, clients: ['demo:demo', 'acme:demo'], now: () => Date.parse('2026-11-08T00:00:00Z') });
  dir = tempDir('swapx-recipes-');
  const env = sandboxEnv(sandbox.url, path.join(dir, 'cfg'));
  const range = ['--from', '2026-11-01T00:00:00Z', '--to', '2026-11-01T06:00:00Z', '-q'];
  for (const file of ['week.jsonl', 'week.json', 'week.csv', 'week.parquet', 'day.jsonl.gz']) {
    const r = await runSwapx(['swaps', ...range, '-o', path.join(dir, file)], { env });
    expect([file, r.code, r.stderr]).toEqual([file, 0, '']);
  }
  const sync = await runSwapx(['sync', '--out', path.join(dir, 'data/xflow/swaps'), '--since', '2026-11-06', '-q'], { env });
  expect([sync.code, sync.stderr]).toEqual([0, '']);
});
afterAll(async () => {
  await sandbox.close();
});

/** The recipe with its file names pointing into the scratch folder. */
const here = (sql: string) =>
  sql.replace(/'(week\.\w+|day\.jsonl\.gz)'/g, (_, name: string) => `'${path.join(dir, name)}'`).replaceAll("'/data/", `'${dir}/data/`);

async function types(): Promise<Record<string, string>> {
  const rows = await query('DESCRIBE swaps');
  return Object.fromEntries(rows.map((row) => [String(row.column_name), String(row.column_type)]));
}

describe('README DuckDB recipes', () => {
  it('are four for an export (a view per format, one query), one for a mirror and one for the lake', () => {
    expect(SQL).toHaveLength(6);
    expect(SQL[0]).toContain("read_json_auto('week.jsonl')");
    expect(SQL[1]).toContain("read_csv('week.csv')");
    expect(SQL[2]).toContain("read_parquet('week.parquet')");
  });
  it('read JSON Lines, JSON, gzipped JSON Lines, CSV and Parquet with the same types and the same answer', async () => {
    const views: [string, string][] = [
      ['week.jsonl', SQL[0]!],
      ['week.json', SQL[0]!.replace("'week.jsonl'", "'week.json'")],
      ['day.jsonl.gz', SQL[0]!.replace("'week.jsonl'", "'day.jsonl.gz'")],
      ['week.csv', SQL[1]!],
      ['week.parquet', SQL[2]!],
    ];
    const answers: unknown[] = [];
    for (const [file, view] of views) {
      await query(here(view));
      const typed = await types();
      expect([file, ...TIMES.map((name) => typed[name])]).toEqual([file, ...TIMES.map(() => 'TIMESTAMP WITH TIME ZONE')]);
      expect([file, typed.depositAmount, typed.withdrawnUsdAmount]).toEqual([file, 'DOUBLE', 'DOUBLE']);
      const rows = await query(here(SQL[3]!));
      expect(rows.length).toBeGreaterThan(3);
      answers.push(rows.map((row) => ({ ...row, usd: Math.round(Number(row.usd) * 100) })));
    }
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    // the times are the instants the API sent (a JSON Lines row read back as text is the same instant)
    const [first] = await query(`SELECT id, withdrawnAt FROM read_json_auto('${path.join(dir, 'week.jsonl')}') ORDER BY withdrawnAt, id LIMIT 1`);
    await query(here(SQL[0]!));
    const [typed] = await query(`SELECT epoch_ms(withdrawnAt) AS ms FROM swaps WHERE id = '${String(first!.id)}'`);
    expect(Number(typed!.ms)).toBe(Date.parse(String(first!.withdrawnAt)));
  });
  it("the mirror's recipe reads the partitions, each swap once", async () => {
    const rows = await query(here(SQL[4]!));
    expect(rows.map((row) => String(row.date))).toEqual(['2026-11-06', '2026-11-07']);
    expect(rows.every((row) => Number(row.swaps) > 0)).toBe(true);
  });
  // DuckDB's httpfs extension is downloaded at INSTALL, from a host these machines cannot reach: the recipe's query
  // reads the lake's objects, fetched from the S3 server into a folder under the same keys (the secret is DuckDB's).
  it("the lake's recipe reads its day objects, each swap once", async () => {
    const env = { ...sandboxEnv(sandbox.url, path.join(dir, 'cfg')), ...lake.env };
    const sync = await runSwapx(['sync', '--out', `s3://${lake.bucket}/xflow/swaps`, '--since', '2026-11-06', '-q'], { env });
    expect([sync.code, sync.stderr]).toEqual([0, '']);
    const copy = path.join(dir, 'lake');
    await fetchObjects(`s3://${lake.bucket}/xflow/swaps`, lake.env, 'date=', copy);
    const [secret, select] = SQL[5]!.trim().split('\n');
    expect(secret).toMatch(/^CREATE SECRET \(TYPE s3, PROVIDER credential_chain\);/);
    const rows = await query(select!.replace("'s3://my-lake/xflow/swaps/", `'${copy}/`));
    expect(rows.map((row) => String(row.date))).toEqual(['2026-11-06', '2026-11-07']);
    const mirror = await query(here(SQL[4]!));
    expect(rows.map((row) => Number(row.swaps))).toEqual(mirror.map((row) => Number(row.swaps)));
  });
});

describe('README library example', () => {
  it('runs as written against a sandbox', async () => {
    const block = /```ts\n([\s\S]*?)```/.exec(README)![1]!;
    const dist = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/index.js')).href;
    const code = transformSync(block.replace("from 'swapx'", `from '${dist}'`), { loader: 'ts', format: 'esm' }).code;
    const file = path.join(dir, 'example.mjs');
    fs.writeFileSync(file, code);
    const logged: unknown[][] = [];
    const log = console.log;
    const saved = { base: process.env.SWAPX_BASE_URL, key: process.env.XFLOW_KEY };
    // The default sandbox holds the README's hash.
    const dense = await startSandbox({ port: 0, clients: ['acme:demo'] });
    Object.assign(process.env, { SWAPX_BASE_URL: dense.url, XFLOW_KEY: 'demo' });
    console.log = (...args: unknown[]) => logged.push(args);
    try {
      await import(pathToFileURL(file).href);
    } finally {
      console.log = log;
      for (const [name, value] of [
        ['SWAPX_BASE_URL', saved.base],
        ['XFLOW_KEY', saved.key],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await dense.close();
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]![0]).toBeGreaterThan(0);
    expect(typeof logged[0]![1]).toBe('string');
  });
});
