#!/usr/bin/env node
// How swapx's Parquet writer was chosen (docs/parquet.md): the same day of swaps (1 day at 2,000 swaps/hour,
// from the sandbox's data functions, as JSON Lines) written as Parquet by each candidate, each in its own
// process: CPU (user + system, every thread), peak RSS, file size, same bytes twice, written in row groups.
//
//   npm run build
//   npm i --no-save parquet-wasm@0.8.0 apache-arrow@21.2.0      # the candidates that are not dependencies
//   node scripts/bench/parquet-libs.js
//
// A candidate that is not installed is reported as skipped.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const self = fileURLToPath(import.meta.url);
const FROM = '2026-10-01T00:00:00Z';
const TO = '2026-10-02T00:00:00Z';
const TIMES = ['timestamp', 'depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'];
const DOUBLES = ['depositAmount', 'withdrawnAmount', 'depositUsdAmount', 'withdrawnUsdAmount'];
const LISTS = ['sourceOtherProtocolAddresses', 'destinationOtherProtocolAddresses'];

async function readRows(file) {
  return fs
    .readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Each candidate: reads the JSON Lines file, writes `out`. Runs in a child process (argv: name, in, out). */
const CANDIDATES = {
  // The reference: the same read, written back as JSON Lines (what swapx does for --jsonl).
  async 'JSON Lines (reference)'(input, out) {
    const rows = await readRows(input);
    fs.writeFileSync(out, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  },
  async 'hyparquet-writer'(input, out) {
    const { ParquetFile, PARQUET_FIELDS, ROW_GROUP_ROWS } = await import('../../dist/output/parquet.js');
    const rows = await readRows(input);
    const file = new ParquetFile(PARQUET_FIELDS);
    const fd = fs.openSync(out, 'w');
    fs.writeSync(fd, file.header());
    for (let start = 0; start < rows.length; start += ROW_GROUP_ROWS) fs.writeSync(fd, file.rowGroup(rows.slice(start, start + ROW_GROUP_ROWS)));
    fs.writeSync(fd, file.footer());
    fs.closeSync(fd);
  },
  async 'parquet-wasm + apache-arrow'(input, out) {
    const arrow = await import('apache-arrow');
    const parquet = await import('parquet-wasm');
    const { PARQUET_FIELDS } = await import('../../dist/output/parquet.js');
    const rows = await readRows(input);
    const utf8 = new arrow.Utf8();
    const typeOf = (field) =>
      TIMES.includes(field)
        ? new arrow.TimestampMicrosecond('UTC')
        : DOUBLES.includes(field)
          ? new arrow.Float64()
          : LISTS.includes(field)
            ? new arrow.List(new arrow.Field('element', utf8, true))
            : field === 'tags'
              ? new arrow.List(new arrow.Field('element', new arrow.Struct([new arrow.Field('type', utf8, true), new arrow.Field('value', utf8, true)]), true))
              : utf8;
    const columns = {};
    for (const field of PARQUET_FIELDS) {
      // Arrow's JS builders take a timestamp as epoch milliseconds.
      const values = rows.map((row) => (row[field] == null ? null : TIMES.includes(field) ? Date.parse(row[field]) : row[field]));
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
      (await import('../../dist/output/parquet.js')).PARQUET_FIELDS.map((f) => [
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

function installSize(pkgs) {
  let bytes = 0;
  const walk = (dir) => {
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

const PACKAGES = {
  'JSON Lines (reference)': [],
  'hyparquet-writer': ['hyparquet-writer', 'hyparquet'],
  'parquet-wasm + apache-arrow': ['parquet-wasm', 'apache-arrow', 'flatbuffers', 'json-with-bigint', 'tslib'],
  '@duckdb/node-api': ['@duckdb/node-api', '@duckdb/node-bindings', `@duckdb/node-bindings-${process.platform}-${process.arch}`],
};
const STREAMING = {
  'JSON Lines (reference)': 'a window at a time',
  'hyparquet-writer': 'row group at a time; footer rebuilt from saved metadata (resume)',
  'parquet-wasm + apache-arrow': 'whole table, or a stream of record batches (transformParquetStream): no footer state to resume from',
  '@duckdb/node-api': 'COPY writes the whole file itself: no resume of a partial file',
};

if (process.argv[2] === 'child') {
  const [, , , name, input, out] = process.argv;
  const before = process.cpuUsage();
  await CANDIDATES[name](input, out);
  const cpu = process.cpuUsage(before);
  process.stdout.write(JSON.stringify({ cpuS: (cpu.user + cpu.system) / 1e6, rssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'swapx-parquet-libs-'));
const { swapsInWindow } = await import('../../dist/sandbox/index.js');
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

const rows = [];
for (const name of Object.keys(CANDIDATES)) {
  const run = (out) => JSON.parse(execFileSync(process.execPath, [self, 'child', name, input, out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  try {
    const a = run(path.join(tmp, 'a.parquet'));
    const b = run(path.join(tmp, 'b.parquet'));
    const hash = (f) =>
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
      installMB: installSize(PACKAGES[name]),
    });
  } catch (error) {
    rows.push({
      name,
      skipped:
        String(error.stderr || error.message)
          .split('\n')
          .find((l) => /Error|Cannot find/.test(l)) ?? 'failed',
    });
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

const mb = (n) => (n === undefined ? 'n/a' : `${(n / 1e6).toFixed(1)} MB`);
console.log(
  `${swaps.length.toLocaleString('en-US')} swaps (${FROM.slice(0, 10)}, 2,000/hour): JSON Lines ${(jsonl.length / 1e6).toFixed(1)} MB, gzipped ${(baseline.gzBytes / 1e6).toFixed(1)} MB`,
);
console.log('| library | CPU s | peak RSS MB | file MB | same bytes twice | install size | streaming |');
console.log('|---|---:|---:|---:|---|---:|---|');
for (const r of rows) {
  if (r.skipped) console.log(`| ${r.name} | skipped: ${r.skipped} | | | | | |`);
  else
    console.log(
      `| ${r.name} | ${r.cpuS.toFixed(2)} | ${r.rssMB.toFixed(0)} | ${r.sizeMB.toFixed(1)} | ${r.same ? 'yes' : 'no'} | ${mb(r.installMB)} | ${STREAMING[r.name]} |`,
    );
}
