#!/usr/bin/env node
// How swapx's Parquet writer was chosen (docs/parquet.md): the same day of swaps (1 day at 2,000 swaps/hour,
// from the sandbox's data functions, as JSON Lines) written as Parquet by each candidate, each in its own
// process: CPU (user + system, every thread), peak RSS, file size, same bytes twice, written in row groups.
//
//   npm i --no-save parquet-wasm@0.8.0 apache-arrow@21.2.0      # the candidates that are not dependencies
//   node scripts/build-bench.js && node dist/bench/parquet-libs.js
//
// A candidate that is not installed is reported as skipped.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

type Row = Record<string, unknown>;
type Candidate = (input: string, out: string) => Promise<void>;

// The candidates that are not dependencies, as far as this script uses them (loaded by name, so the
// typecheck does not need them installed).
interface ArrowType {
  readonly typeId: number;
}
interface Arrow {
  Utf8: new () => ArrowType;
  Float64: new () => ArrowType;
  TimestampMicrosecond: new (timezone: string) => ArrowType;
  Field: new (name: string, type: ArrowType, nullable: boolean) => unknown;
  List: new (child: unknown) => ArrowType;
  Struct: new (children: unknown[]) => ArrowType;
  Table: new (columns: Record<string, unknown>) => unknown;
  vectorFromArray(values: unknown[], type: ArrowType): unknown;
  tableToIPC(table: unknown, format: 'stream'): Uint8Array;
}
interface ParquetWasm {
  Compression: { ZSTD: number };
  WriterPropertiesBuilder: new () => {
    setCompression(codec: number): { setCreatedBy(name: string): { build(): unknown } };
  };
  Table: { fromIPCStream(bytes: Uint8Array): unknown };
  writeParquet(table: unknown, properties: unknown): Uint8Array;
}
const load = <T>(name: string): Promise<T> => import(name);

const self = fileURLToPath(import.meta.url);
const FROM = '2026-10-01T00:00:00Z';
const TO = '2026-10-02T00:00:00Z';
const TIMES = ['timestamp', 'depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'];
const DOUBLES = ['depositAmount', 'withdrawnAmount', 'depositUsdAmount', 'withdrawnUsdAmount'];
const LISTS = ['sourceOtherProtocolAddresses', 'destinationOtherProtocolAddresses'];

async function readRows(file: string): Promise<Row[]> {
  return fs
    .readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line): Row => JSON.parse(line));
}

/** Each candidate: reads the JSON Lines file, writes `out`. Runs in a child process (argv: name, in, out). */
const CANDIDATES: Record<string, Candidate> = {
  // The reference: the same read, written back as JSON Lines (what swapx does for --jsonl).
  async 'JSON Lines (reference)'(input, out) {
    const rows = await readRows(input);
    fs.writeFileSync(out, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  },
  async 'hyparquet-writer'(input, out) {
    const { ParquetFile, PARQUET_FIELDS, ROW_GROUP_ROWS } = await import('../../src/output/parquet/writer.js');
    const rows = await readRows(input);
    const file = new ParquetFile(PARQUET_FIELDS);
    const fd = fs.openSync(out, 'w');
    fs.writeSync(fd, file.header());
    for (let start = 0; start < rows.length; start += ROW_GROUP_ROWS) fs.writeSync(fd, file.rowGroup(rows.slice(start, start + ROW_GROUP_ROWS)));
    fs.writeSync(fd, file.footer());
    fs.closeSync(fd);
  },
  async 'parquet-wasm + apache-arrow'(input, out) {
    const arrow = await load<Arrow>('apache-arrow');
    const parquet = await load<ParquetWasm>('parquet-wasm');
    const { PARQUET_FIELDS } = await import('../../src/output/parquet/writer.js');
    const rows = await readRows(input);
    const utf8 = new arrow.Utf8();
    const typeOf = (field: string): ArrowType =>
      TIMES.includes(field)
        ? new arrow.TimestampMicrosecond('UTC')
        : DOUBLES.includes(field)
          ? new arrow.Float64()
          : LISTS.includes(field)
            ? new arrow.List(new arrow.Field('element', utf8, true))
            : field === 'tags'
              ? new arrow.List(new arrow.Field('element', new arrow.Struct([new arrow.Field('type', utf8, true), new arrow.Field('value', utf8, true)]), true))
              : utf8;
    const columns: Record<string, unknown> = {};
    for (const field of PARQUET_FIELDS) {
      // Arrow's JS builders take a timestamp as epoch milliseconds.
      const values = rows.map((row) => (row[field] == null ? null : TIMES.includes(field) ? Date.parse(String(row[field])) : row[field]));
      columns[field] = arrow.vectorFromArray(values, typeOf(field));
    }
    const table = new arrow.Table(columns);
    const props = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.ZSTD).setCreatedBy('bench').build();
    const bytes = parquet.writeParquet(parquet.Table.fromIPCStream(arrow.tableToIPC(table, 'stream')), props);
    fs.writeFileSync(out, bytes);
  },
  async '@duckdb/node-api'(input, out) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const types = Object.fromEntries(
      (await import('../../src/output/parquet/writer.js')).PARQUET_FIELDS.map((f) => [
        f,
        TIMES.includes(f)
          ? 'TIMESTAMPTZ'
          : DOUBLES.includes(f)
            ? 'DOUBLE'
            : LISTS.includes(f)
              ? 'VARCHAR[]'
              : f === 'tags'
                ? 'STRUCT(type VARCHAR, value VARCHAR)[]'
                : 'VARCHAR',
      ]),
    );
    const columns = `{${Object.entries(types)
      .map(([k, v]) => `'${k}': '${v}'`)
      .join(', ')}}`;
    await db.run(
      `COPY (SELECT * FROM read_json('${input}', format = 'newline_delimited', columns = ${columns})) TO '${out}' (FORMAT parquet, COMPRESSION zstd)`,
    );
  },
};

function installSize(pkgs: readonly string[]): number | undefined {
  let bytes = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else bytes += fs.statSync(p).size;
    }
  };
  for (const pkg of pkgs) {
    const dir = path.resolve(path.dirname(self), '../../node_modules', pkg);
    if (!fs.existsSync(dir)) return undefined;
    walk(dir);
  }
  return bytes;
}

const PACKAGES: Record<string, readonly string[]> = {
  'JSON Lines (reference)': [],
  'hyparquet-writer': ['hyparquet-writer', 'hyparquet'],
  'parquet-wasm + apache-arrow': ['parquet-wasm', 'apache-arrow', 'flatbuffers', 'json-with-bigint', 'tslib'],
  '@duckdb/node-api': ['@duckdb/node-api', '@duckdb/node-bindings', `@duckdb/node-bindings-${process.platform}-${process.arch}`],
};
const STREAMING: Record<string, string> = {
  'JSON Lines (reference)': 'a window at a time',
  'hyparquet-writer': 'row group at a time; footer rebuilt from saved metadata (resume)',
  'parquet-wasm + apache-arrow': 'whole table, or a stream of record batches (transformParquetStream): no footer state to resume from',
  '@duckdb/node-api': 'COPY writes the whole file itself: no resume of a partial file',
};

if (process.argv[2] === 'child') {
  const [, , , name, input, out] = process.argv;
  const before = process.cpuUsage();
  const candidate = name === undefined ? undefined : CANDIDATES[name];
  if (!candidate || !input || !out)
    throw new Error(`usage: parquet-libs.js child <candidate> <input> <output>; candidates: ${Object.keys(CANDIDATES).join(', ')}`);
  await candidate(input, out);
  const cpu = process.cpuUsage(before);
  process.stdout.write(JSON.stringify({ cpuS: (cpu.user + cpu.system) / 1e6, rssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-parquet-libs-'));
const { swapsInWindow } = await import('../../src/sandbox/index.js');
const swaps = swapsInWindow({ from: FROM, to: TO }, { seed: 1, swapsPerHour: 2000 }).filter((s) => s.withdrawnAt < TO);
const input = path.join(tmp, 'day.jsonl');
const jsonl = swaps.map((s) => `${JSON.stringify(s)}\n`).join('');
fs.writeFileSync(input, jsonl);
const baseline = (() => {
  const before = process.cpuUsage();
  const text = swaps.map((s) => `${JSON.stringify(s)}\n`).join('');
  const cpu = process.cpuUsage(before);
  return { cpuS: (cpu.user + cpu.system) / 1e6, gzBytes: gzipSync(text).length };
})();

type LibraryRow =
  | { name: string; cpuS: number; rssMB: number; sizeMB: number; same: boolean; installMB: number | undefined }
  | { name: string; skipped: string };
const rows: LibraryRow[] = [];
for (const name of Object.keys(CANDIDATES)) {
  const run = (out: string): { cpuS: number; rssMB: number } =>
    JSON.parse(execFileSync(process.execPath, [self, 'child', name, input, out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  try {
    const a = run(path.join(tmp, 'a.parquet'));
    const b = run(path.join(tmp, 'b.parquet'));
    const hash = (f: string) =>
      crypto
        .createHash('sha256')
        .update(fs.readFileSync(path.join(tmp, f)))
        .digest('hex');
    rows.push({
      name,
      cpuS: Math.min(a.cpuS, b.cpuS),
      rssMB: Math.max(a.rssMB, b.rssMB),
      sizeMB: fs.statSync(path.join(tmp, 'a.parquet')).size / 1e6,
      same: hash('a.parquet') === hash('b.parquet'),
      // (named .parquet for every candidate; the reference holds JSON Lines)
      installMB: installSize(PACKAGES[name] ?? []),
    });
  } catch (error) {
    // execFileSync's error carries the child's stderr.
    const { stderr, message } = error as { stderr?: string; message?: string };
    rows.push({
      name,
      skipped:
        String(stderr || message)
          .split('\n')
          .find((l) => /Error|Cannot find/.test(l)) ?? 'failed',
    });
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

const mb = (n: number | undefined) => (n === undefined ? 'n/a' : `${(n / 1e6).toFixed(1)} MB`);
console.log(
  `${swaps.length.toLocaleString('en-US')} swaps (${FROM.slice(0, 10)}, 2,000/hour): JSON Lines ${(jsonl.length / 1e6).toFixed(1)} MB, gzipped ${(baseline.gzBytes / 1e6).toFixed(1)} MB`,
);
console.log('| library | CPU s | peak RSS MB | file MB | same bytes twice | install size | streaming |');
console.log('|---|---:|---:|---:|---|---:|---|');
for (const r of rows) {
  if ('skipped' in r) console.log(`| ${r.name} | skipped: ${r.skipped} | | | | | |`);
  else
    console.log(
      `| ${r.name} | ${r.cpuS.toFixed(2)} | ${r.rssMB.toFixed(0)} | ${r.sizeMB.toFixed(1)} | ${r.same ? 'yes' : 'no'} | ${mb(r.installMB)} | ${STREAMING[r.name]} |`,
    );
}
