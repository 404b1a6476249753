/**
 * `swapx swaps` to Parquet, in process through run(): every value read back with DuckDB against the
 * JSON Lines export of the same range, --fields, a resume after an interrupt, and the output-name rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { ROW_GROUP_ROWS } from '../../src/output/parquet/writer.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { abortWhenSaved } from '../helpers/swaps-fixture.js';
import { asRead, parquetColumns, parquetRowGroups, parquetRows, query } from '../../scripts/support/duckdb.js';

const SEED = 13;
// Four hours at the sandbox's 2,000 swaps an hour: about 8,000 swaps, so several row groups.
const range = ['--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T04:00:00Z'];

let sandbox: RunningSandbox;
let slow: RunningSandbox;
let dir: string;
let jsonl: Record<string, unknown>[];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function swapx(args: readonly string[], options: { baseUrl?: string; signal?: AbortSignal } = {}): Promise<Result> {
  const env = sandboxEnv(options.baseUrl ?? sandbox.url, path.join(dir, 'cfg'));
  const { code, stdout, stderr } = await runSwapx(args, { env, signal: options.signal });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = tempDir('swapx-parquet-e2e-');
  sandbox = await startSandbox({ port: 0, seed: SEED });
  slow = await startSandbox({ port: 0, seed: SEED, latencyMs: 60 });
  const r = await swapx(['swaps', ...range, '--jsonl', '-q']);
  expect(r.code).toBe(0);
  jsonl = r.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), slow.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('swapx swaps -o FILE.parquet', () => {
  it('holds every value of the JSON Lines export, in its order, in several row groups', async () => {
    const file = path.join(dir, 'all.parquet');
    const r = await swapx(['swaps', ...range, '-o', file, '-q']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(jsonl.length).toBeGreaterThan(6_000);
    // A row group closes at the first window edge with ROW_GROUP_ROWS or more: several groups, each about that size.
    const groups = (await query(`SELECT row_group_id, any_value(row_group_num_rows)::INT AS n FROM parquet_metadata('${file}') GROUP BY 1 ORDER BY 1`)).map(
      (g) => g.n as number,
    );
    expect(await parquetRowGroups(file)).toBe(groups.length);
    expect(groups.length).toBeGreaterThanOrEqual(3);
    expect(groups.reduce((a, b) => a + b, 0)).toBe(jsonl.length);
    for (const n of groups.slice(0, -1)) expect(n).toBeGreaterThanOrEqual(ROW_GROUP_ROWS);
    for (const n of groups) expect(n).toBeLessThan(2 * ROW_GROUP_ROWS);
    expect((await parquetColumns(file)).map((c) => c.split(' ')[0])).toEqual([...LIST_SWAP_FIELDS]);
    expect(await parquetRows(file)).toEqual(jsonl.map((record) => asRead(record, LIST_SWAP_FIELDS)));
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('all.parquet'))).toEqual(['all.parquet']);
  });

  it('is no larger than the same swaps as gzipped JSON Lines', async () => {
    const parquet = path.join(dir, 'size.parquet');
    const gz = path.join(dir, 'size.jsonl.gz');
    expect((await swapx(['swaps', ...range, '-o', parquet, '-q'])).code).toBe(0);
    expect((await swapx(['swaps', ...range, '-o', gz, '-q'])).code).toBe(0);
    expect(fs.statSync(parquet).size).toBeLessThan(fs.statSync(gz).size);
  });

  it('--format parquet with --fields writes those columns in that order', async () => {
    const file = path.join(dir, 'fields');
    const fields = ['withdrawnAt', 'id', 'tags', 'depositUsdAmount', 'destinationOtherProtocolAddresses'];
    const r = await swapx(['swaps', ...range, '--format', 'parquet', '--fields', fields.join(','), '-o', file, '-q']);
    expect(r.code).toBe(0);
    expect(await parquetColumns(file)).toEqual([
      'withdrawnAt TIMESTAMP WITH TIME ZONE',
      'id VARCHAR',
      'tags STRUCT("type" VARCHAR, "value" VARCHAR)[]',
      'depositUsdAmount DOUBLE',
      'destinationOtherProtocolAddresses VARCHAR[]',
    ]);
    expect(await parquetRows(file)).toEqual(jsonl.map((record) => asRead(record, fields)));
  });

  it('writes a valid empty file for a range without swaps', async () => {
    const file = path.join(dir, 'empty.parquet');
    const r = await swapx(['swaps', '--from', '2019-12-31T00:00:00Z', '--to', '2019-12-31T01:00:00Z', '-o', file, '-q']);
    expect(r.code).toBe(0);
    expect(await parquetRows(file)).toEqual([]);
    expect(await parquetColumns(file)).toHaveLength(LIST_SWAP_FIELDS.length);
  });

  it('resumes after an interrupt to the same bytes as an uninterrupted run', async () => {
    const whole = path.join(dir, 'whole.parquet');
    // The same data without latency: the bytes do not depend on how fast the answers came.
    expect((await swapx(['swaps', ...range, '-o', whole, '-q'])).code).toBe(0);

    const file = path.join(dir, 'cut.parquet');
    const manifest = `${file}.partial.manifest.json`;
    // Interrupt once a row group is checkpointed and the next one is under way.
    const watch = abortWhenSaved(file, (saved) => saved.formatState !== undefined);
    const cut = await swapx(['swaps', ...range, '--concurrency', '1', '-o', file], { baseUrl: slow.url, signal: watch.signal });
    watch.stop();
    expect(cut.code).toBe(130);
    expect(cut.stderr).toMatch(/interrupted; \d+\/8 windows saved in .*cut\.parquet\.partial; resume with: swapx swaps .* --resume\n$/);
    expect(fs.existsSync(file)).toBe(false);
    const saved = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { windowsDone: number; bytes: number };
    expect(saved.windowsDone).toBeGreaterThan(0);
    expect(saved.windowsDone).toBeLessThan(8);
    // A run that died after the checkpoint leaves bytes past it: the resume cuts them off.
    fs.appendFileSync(`${file}.partial`, 'half a row group');

    // The row groups' metadata is what rebuilds the footer: without it a resume refuses, and changes nothing.
    const rowGroups = `${file}.partial.rowgroups`;
    const kept = fs.readFileSync(rowGroups);
    fs.writeFileSync(rowGroups, '');
    // Not quiet: the refusal comes before any 'Resuming' line.
    const refused = await swapx(['swaps', ...range, '-o', file, '--resume'], { baseUrl: slow.url });
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: `swapx: error: ${rowGroups} does not hold the metadata of the ${(JSON.parse(fs.readFileSync(manifest, 'utf8')) as { formatState: string }).formatState} row group(s) the manifest counts, so the export cannot be resumed; add --force to start over\n`,
    });
    fs.writeFileSync(rowGroups, Buffer.concat([kept, Buffer.from('{"a row group written after the checkpoint"}\n')]));

    const resumed = await swapx(['swaps', ...range, '-o', file, '--resume', '-q'], { baseUrl: slow.url });
    expect(resumed).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.readFileSync(file).equals(fs.readFileSync(whole))).toBe(true);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('cut.parquet'))).toEqual(['cut.parquet']);
    expect(await parquetRows(file)).toEqual(jsonl.map((record) => asRead(record, LIST_SWAP_FIELDS)));
  });
});

describe('an interrupted Parquet export', () => {
  it('left by the swapx before formats were modules (its manifest counts the row groups as `parquet`) resumes to the same bytes', async () => {
    const whole = path.join(dir, 'whole-before.parquet');
    expect((await swapx(['swaps', ...range, '-o', whole, '-q'])).code).toBe(0);
    const file = path.join(dir, 'before.parquet');
    const manifest = `${file}.partial.manifest.json`;
    const watch = abortWhenSaved(file, (saved) => saved.formatState !== undefined);
    const cut = await swapx(['swaps', ...range, '--concurrency', '1', '-o', file], { baseUrl: slow.url, signal: watch.signal });
    watch.stop();
    expect(cut.code).toBe(130);
    // The manifest as the swapx before wrote it: the same count of row groups, under the name it had.
    const { formatState, ...before } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    expect(formatState).toMatch(/^[1-9][0-9]*$/);
    fs.writeFileSync(manifest, `${JSON.stringify({ ...before, version: 1, parquet: formatState }, null, 2)}\n`);

    const resumed = await swapx(['swaps', ...range, '-o', file, '--resume', '-q'], { baseUrl: slow.url });
    expect(resumed).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.readFileSync(file).equals(fs.readFileSync(whole))).toBe(true);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('before.parquet'))).toEqual(['before.parquet']);
  });

  it('before its first row group leaves nothing behind, not even the row-group file', async () => {
    const out = tempDir('swapx-parquet-cut-');
    const file = path.join(out, 'early.parquet');
    const controller = new AbortController();
    // The row-group file is made as the export starts: interrupt then, long before 2,000 swaps are in.
    const watch = setInterval(() => {
      if (fs.existsSync(`${file}.partial.rowgroups`)) controller.abort();
    }, 2);
    const r = await swapx(['swaps', ...range, '--concurrency', '1', '-o', file], { baseUrl: slow.url, signal: controller.signal });
    clearInterval(watch);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/(^|\n)swapx: interrupted\n$/);
    expect(fs.readdirSync(out)).toEqual([]);
  });
});

describe('list exports leave out balanceChanges (always empty in a list)', () => {
  it('CSV has every list field but balanceChanges', async () => {
    const r = await swapx(['swaps', '--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T00:30:00Z', '--csv', '-q']);
    expect(r.code).toBe(0);
    const [header, ...rows] = parse(r.stdout) as string[][];
    expect(header).toEqual([...LIST_SWAP_FIELDS]);
    expect(header).not.toContain('balanceChanges');
    expect(rows.length).toBeGreaterThan(0);
  });

  it('--fields balanceChanges is unknown for swaps: only swap has it', async () => {
    const r = await swapx(['swaps', ...range, '--fields', 'id,balanceChanges']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'swapx: error: --fields: balanceChanges is only in swapx swap: the list of swaps does not carry it\n' });
  });
});

describe('-o names', () => {
  it('-o - writes to stdout, the same as no -o, and makes no file', async () => {
    const short = ['swaps', '--from', '2026-11-02T00:00:00Z', '--to', '2026-11-02T00:30:00Z', '-q'];
    const plain = await swapx([...short, '--csv']);
    const dash = await swapx([...short, '--csv', '-o', '-']);
    expect(dash).toEqual(plain);
    expect(dash.stdout.split('\n').length).toBeGreaterThan(10);
    expect(fs.existsSync(path.resolve('-'))).toBe(false);
  });

  const bad: [string, (out: string) => string[], (out: string) => string][] = [
    [
      'an unknown extension',
      (out) => ['-o', `${out}.xlsx`],
      (out) => `-o ${out}.xlsx: swapx does not know the extension .xlsx (known: .json, .jsonl, .ndjson, .csv, .parquet, and .gz after a text one)`,
    ],
    [
      'an unknown extension before .gz',
      (out) => ['-o', `${out}.txt.gz`],
      (out) => `-o ${out}.txt.gz: swapx does not know the extension .txt (known: .json, .jsonl, .ndjson, .csv, .parquet, and .gz after a text one)`,
    ],
    [
      'a shorthand that contradicts the extension',
      (out) => ['--csv', '-o', `${out}.json`],
      (out) => `--csv contradicts -o ${out}.json, a .json file: give a matching extension, or leave one of them out`,
    ],
    [
      '--format that contradicts the extension',
      (out) => ['--format', 'jsonl', '-o', `${out}.parquet`],
      (out) => `--format jsonl contradicts -o ${out}.parquet, a .parquet file: give a matching extension, or leave one of them out`,
    ],
    [
      '--format parquet against .csv.gz',
      (out) => ['--format', 'parquet', '-o', `${out}.csv.gz`],
      (out) => `--format parquet contradicts -o ${out}.csv.gz, a .csv file: give a matching extension, or leave one of them out`,
    ],
    [
      'a gzipped Parquet name',
      (out) => ['-o', `${out}.parquet.gz`],
      (out) => `-o ${out}.parquet.gz: Parquet is compressed inside; name the file .parquet, without .gz`,
    ],
    ['Parquet to stdout', () => ['--format', 'parquet'], () => 'Parquet is written only to a file: add -o FILE.parquet'],
    ['Parquet to -o -', () => ['--format', 'parquet', '-o', '-'], () => 'Parquet is written only to a file: add -o FILE.parquet'],
  ];
  for (const [name, args, message] of bad) {
    it(`refuses ${name}: exit 2, one line, nothing written`, async () => {
      const out = path.join(tempDir('swapx-bad-o-'), 'out');
      const r = await swapx(['swaps', ...range, ...args(out)]);
      expect(r).toEqual({ code: 2, stdout: '', stderr: `swapx: error: ${message(out)}\n` });
      expect(fs.readdirSync(path.dirname(out))).toEqual([]);
    });
  }

  it('refuses --resume to -o - (stdout cannot be resumed)', async () => {
    const r = await swapx(['swaps', ...range, '-o', '-', '--resume']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'swapx: error: --resume needs -o FILE: only a file export can be resumed\n' });
  });

  it('refuses Parquet from a command that has no Parquet form', async () => {
    const out = path.join(tempDir('swapx-bad-o-'), 'chains.parquet');
    const r = await swapx(['chains', '-o', out]);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'swapx: error: Parquet output is for swapx swaps and swapx sync; use json, jsonl or csv here\n' });
    expect(fs.existsSync(out)).toBe(false);
  });

  it('refuses parquet as a profile default format', async () => {
    const r = await swapx(['config', 'set', 'format', 'parquet']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: "swapx: error: format: unknown format 'parquet' (use one of table, json, jsonl, csv)\n" });
  });
});
