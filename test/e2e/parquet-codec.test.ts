/**
 * Parquet's codec: ZSTD where the runtime's zlib has zstd (Node 22.15+), GZIP where it has not (Node 20), and a
 * file keeps the codec it was started with, so that a resume never mixes two. Read back with DuckDB. CI runs this
 * file on Node 20, 22 and 24.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetCompressors } from '../../src/output/parquet/compression.js';
import { encodeParquet, PARQUET_FIELDS, ParquetFile } from '../../src/output/parquet/writer.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { Rng } from '../../src/sandbox/random.js';
import { parquetCodec } from '../../src/formats/parquet/partitions.js';
import { sandboxEnv, tempDir } from '../helpers/cli.js';
import { asRead, parquetCodecs, parquetRows } from '../../scripts/support/duckdb.js';
import { runSwapx } from '../helpers/run.js';
import { abortWhenSaved } from '../helpers/swaps-fixture.js';
import { expectEqual } from '../helpers/equal.js';

const HAS_ZSTD = typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';
const range = ['--from', '2026-11-03T00:00:00Z', '--to', '2026-11-03T02:00:00Z'];

let sandbox: RunningSandbox;
let dir: string;
let swaps: Record<string, unknown>[];

async function swapx(args: readonly string[], options: { baseUrl?: string; signal?: AbortSignal } = {}) {
  const env = sandboxEnv(options.baseUrl ?? sandbox.url, path.join(dir, 'cfg'));
  const { code, stdout, stderr } = await runSwapx(args, { env, signal: options.signal });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = tempDir('swapx-parquet-codec-');
  sandbox = await startSandbox({ port: 0, seed: 17 });
  const r = await swapx(['swaps', ...range, '--jsonl', '-q']);
  expect(r.code).toBe(0);
  swaps = r.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
});
afterAll(async () => {
  await sandbox.close();
});

describe('the Parquet codec', () => {
  it(`is ${HAS_ZSTD ? 'ZSTD' : 'GZIP'} on Node ${process.version}, and DuckDB reads every row`, async () => {
    const file = path.join(dir, 'new.parquet');
    expect(await swapx(['swaps', ...range, '-o', file, '-q'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await parquetCodecs(file)).toEqual([HAS_ZSTD ? 'ZSTD' : 'GZIP']);
    expect(await parquetRows(file)).toEqual(swaps.map((swap) => asRead(swap, PARQUET_FIELDS)));
  });

  // One zstd context serves every page (codec.ts): each page must be the frame a fresh context writes.
  it.skipIf(!HAS_ZSTD)('writes each ZSTD page as zstdCompressSync at level 1 would, page after page', () => {
    const compress = parquetCompressors.ZSTD!;
    const level = { params: { [(zlib.constants as Record<string, number>).ZSTD_c_compressionLevel!]: 1 } };
    // @types/node follows Node 20, whose zlib has no zstd.
    const zstd = zlib as unknown as { zstdCompressSync: (input: Uint8Array, options: object) => Buffer; zstdDecompressSync: (input: Uint8Array) => Buffer };
    const fresh = (input: Uint8Array) => zstd.zstdCompressSync(input, level);
    const text = Buffer.from(JSON.stringify(swaps));
    // Random bytes do not compress: 300 kB of them is a frame of several 16 kB writes, past the reused buffer's first size.
    const rng = Rng.of(7, 0, 0, 0);
    const noise = Buffer.alloc(300_000, 0).map(() => rng.int(256));
    const pages = [text.subarray(0, 5000), noise, new Uint8Array(0), text, text.subarray(100, 120), noise.subarray(0, 70_000)];
    // Copied as they come: what compress returns is valid until its next call.
    const written = pages.map((page) => Buffer.from(compress(page)));
    expect(written.map((bytes) => bytes.toString('base64'))).toEqual(pages.map((page) => fresh(page).toString('base64')));
    expect(zstd.zstdDecompressSync(written[1]!).equals(noise)).toBe(true);
  });

  it('a file started as GZIP is resumed as GZIP, to the bytes of the same file written whole', async () => {
    const whole = encodeParquet(swaps, PARQUET_FIELDS, { codec: 'GZIP', rowGroupRows: 1000 });
    const first = new ParquetFile(PARQUET_FIELDS, { codec: 'GZIP' });
    const head = Buffer.concat([first.header(), first.rowGroup(swaps.slice(0, 1000))]);
    // A resume names no codec: the saved row group's metadata does.
    const resumed = new ParquetFile(PARQUET_FIELDS, { resume: { bytes: head.length, rowGroups: [first.groupState(0)] } });
    const parts: Buffer[] = [head];
    for (let start = 1000; start < swaps.length; start += 1000) parts.push(resumed.rowGroup(swaps.slice(start, start + 1000)));
    parts.push(resumed.footer());
    const file = path.join(dir, 'resumed.parquet');
    fs.writeFileSync(file, Buffer.concat(parts));
    expect(fs.readFileSync(file).equals(whole)).toBe(true);
    expect(await parquetCodecs(file)).toEqual(['GZIP']);
    expect(await parquetRows(file)).toEqual(swaps.map((swap) => asRead(swap, PARQUET_FIELDS)));
  });

  it.runIf(!HAS_ZSTD)('refuses to resume a ZSTD file where zlib has no zstd: exit 2, one line, nothing changed', async () => {
    const slow = await startSandbox({ port: 0, seed: 17, latencyMs: 60 });
    try {
      const file = path.join(dir, 'zstd.parquet');
      // Interrupt once a row group is checkpointed: 24 windows of 5 min at 60 ms each, so that about half the run
      // is still ahead then (in four 30-min windows, a loaded machine saw the run end before the watch fired).
      const watch = abortWhenSaved(file, (saved) => saved.formatState !== undefined);
      const cut = await swapx(['swaps', ...range, '--window', '5m', '--concurrency', '1', '-o', file, '-q'], {
        baseUrl: slow.url,
        signal: watch.signal,
      });
      watch.stop();
      expect(cut.code).toBe(130);
      // The partial as Node 22.15+ would have left it: its saved row groups name ZSTD.
      const rowGroups = `${file}.partial.rowgroups`;
      fs.writeFileSync(rowGroups, fs.readFileSync(rowGroups, 'utf8').replaceAll('"codec":"GZIP"', '"codec":"ZSTD"'));
      const files = () =>
        fs
          .readdirSync(dir)
          .filter((name) => name.startsWith('zstd.parquet'))
          .map((name) => [name, fs.readFileSync(path.join(dir, name))]);
      const before = files();
      expect(await swapx(['swaps', ...range, '--window', '5m', '-o', file, '--resume'], { baseUrl: slow.url })).toEqual({
        code: 2,
        stdout: '',
        stderr: `swapx: error: ${file}.partial is compressed with ZSTD, which Node.js ${process.version} cannot write: resume it with Node.js 22.15 or later, or add --force to start over\n`,
      });
      expect(files()).toEqual(before);
    } finally {
      await slow.close();
    }
  });
});

describe('a sync partition', () => {
  it(`is read in either codec Node ${process.version} has`, async () => {
    const codec = parquetCodec(PARQUET_FIELDS);
    const rows = swaps.slice(0, 300).map((swap) => codec.row(swap as never));
    const written = codec.encode(rows);
    expectEqual(await codec.read(written), rows);
    expectEqual(
      await codec.read(
        encodeParquet(
          rows.map((row) => row.payload as Record<string, unknown>),
          PARQUET_FIELDS,
          { codec: 'GZIP' },
        ),
      ),
      rows,
    );
  });

  it.runIf(!HAS_ZSTD)('of ZSTD pages fails naming the codec and the Node it needs, where zlib has no zstd', async () => {
    const codec = parquetCodec(PARQUET_FIELDS);
    const rows = swaps.slice(0, 10).map((swap) => codec.row(swap as never));
    // Pages labelled ZSTD, as Node 22.15+ writes them: here a stand-in compressor, removed at once.
    parquetCompressors.ZSTD = (input) => input;
    let zstd: Buffer;
    try {
      zstd = encodeParquet(
        rows.map((row) => row.payload as Record<string, unknown>),
        PARQUET_FIELDS,
        { codec: 'ZSTD' },
      );
    } finally {
      delete parquetCompressors.ZSTD;
    }
    const message = `it is compressed with ZSTD, which Node.js ${process.version} cannot read: sync with Node.js 22.15 or later`;
    await expect(codec.read(zstd)).rejects.toThrow(message);
    await expect(codec.readIndex!(zstd)).rejects.toThrow(message);
  });
});
