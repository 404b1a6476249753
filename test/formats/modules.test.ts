/**
 * Each format module's writer and codec against the contract the export loop and the partition writer rely on:
 * a text writer flushes every window (its header first, its footer last) and its bytes are those of the format's
 * whole-result encoder; Parquet flushes only at row-group edges, with the count of groups as its checkpoint and
 * its side file until the end; a mirror codec names its file by the format's extension and reads back what it wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { LIST_SWAP_FIELDS, SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { FORMATS, MIRROR_FORMATS } from '../../src/formats/registry.js';
import type { ExportWriter, ExportWriterOptions } from '../../src/formats/writer.js';
import { tempDir } from '../helpers/cli.js';
import { parquetRows } from '../../scripts/support/duckdb.js';
import { ONE_SWAP } from '../helpers/one-swap.js';

const swaps = ['a', 'b', 'c'].map((id, i) => ({ ...ONE_SWAP, id, completedAt: `2026-11-01T00:0${i + 2}:00Z` }) as unknown as Swap);
const fields = ['id', 'completedAt', 'updatedAt', 'bridge'];
const start = { windowsDone: 0, swaps: 0, bytes: 0 };
const options = (partial?: string): ExportWriterOptions => ({ fields, allFields: LIST_SWAP_FIELDS, excelSafe: false, filter: undefined, partial });

/** Each window's swaps through the writer, as the export loop hands them: what each flush returned, and the footer. */
async function write(writer: ExportWriter, windows: readonly (readonly Swap[])[]) {
  const flushes: ({ bytes: Buffer; formatState: string | undefined } | undefined)[] = [];
  const take = (flushed: Awaited<ReturnType<ExportWriter['flush']>>) =>
    flushes.push(flushed && { bytes: Buffer.from(flushed.bytes), formatState: flushed.formatState });
  for (const window of windows) {
    const collector = writer.collector();
    writer.add(collector.batch(window.map((swap) => collector.item(swap, undefined))), window.length);
    take(await writer.flush(false));
  }
  take(await writer.flush(true));
  const footer = Buffer.from(writer.footer());
  await writer.close(true);
  return { flushes, footer, bytes: Buffer.concat([...flushes.flatMap((f) => (f ? [f.bytes] : [])), footer]) };
}

describe.each(FORMATS.filter((format) => !format.fileOnly).map((format) => [format.name, format] as const))('the %s writer', (_, format) => {
  it('flushes every window, with no state of its own, and nothing after the last', async () => {
    const { flushes } = await write(await format.exportWriter(options(), start), [swaps.slice(0, 2), [], swaps.slice(2)]);
    expect(flushes.map((f) => f?.formatState)).toEqual([undefined, undefined, undefined, undefined]);
    expect(flushes.map((f) => f === undefined)).toEqual([false, false, false, true]);
    expect(flushes[1]!.bytes.length).toBe(0);
    expect(format.sideFiles).toBeUndefined();
  });

  it('writes, window by window, the bytes of its whole-result encoder (when it has one)', async () => {
    if (!format.encoder) return;
    const { bytes } = await write(await format.exportWriter(options(), start), [swaps.slice(0, 1), [], swaps.slice(1)]);
    const encoder = format.encoder(options());
    expect(bytes.toString()).toBe(encoder.header() + encoder.batch(swaps, true) + encoder.footer(true));
  });

  it('a resume after windows that held swaps: no header, and what joins the next swap to them', async () => {
    const whole = await write(await format.exportWriter(options(), start), [swaps.slice(0, 1), swaps.slice(1)]);
    const resumed = await write(await format.exportWriter(options(), { windowsDone: 1, swaps: 1, bytes: whole.flushes[0]!.bytes.length }), [swaps.slice(1)]);
    expect(Buffer.concat([whole.flushes[0]!.bytes, resumed.bytes]).equals(whole.bytes)).toBe(true);
  });
});

describe.each(FORMATS.filter((format) => format.fileOnly).map((format) => [format.name, format] as const))('the %s writer (to a file only)', (_, format) => {
  it('flushes at row-group edges with the count of groups, keeps its side file until the end, and reads back', async () => {
    const dir = tempDir('swapx-formats-');
    const partial = path.join(dir, `out${format.extensions[0]}.partial`);
    const sideFiles = format.sideFiles?.(partial) ?? [];
    const writer = await format.exportWriter(options(partial), start);
    for (const file of sideFiles) expect(fs.existsSync(file)).toBe(true);
    const { flushes, bytes } = await write(writer, [swaps.slice(0, 2), swaps.slice(2)]);
    // A few swaps make no row group until the last flush: one group, one checkpoint.
    expect(flushes.map((f) => f?.formatState)).toEqual([undefined, undefined, '1']);
    for (const file of sideFiles) expect(fs.existsSync(file)).toBe(false);
    const file = path.join(dir, `out${format.extensions[0]}`);
    fs.writeFileSync(file, bytes);
    expect((await parquetRows(file)).map((row) => row.id)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a resume whose side files do not hold what its state counts', async () => {
    const partial = path.join(tempDir('swapx-formats-'), `out${format.extensions[0]}.partial`);
    await expect(format.checkResume?.(partial, '2')).rejects.toBeInstanceOf(UsageError);
    await expect(format.checkResume?.(partial, undefined)).resolves.toBeUndefined();
  });
});

describe.each(MIRROR_FORMATS.map((format) => [format.name, format] as const))('the %s partition codec', (_, format) => {
  it.each(format.gzip ? [false, true] : [false])('gzip %s: a file named by its extension, read back to rows that re-encode to it', async (gzip) => {
    const codec = await format.mirror!.codec({ gzip, fields: ['id', 'completedAt', 'updatedAt'], allFields: SWAP_FIELDS });
    expect(codec.extension).toBe(`${format.extensions[0]}${gzip ? '.gz' : ''}`);
    const rows = swaps.map((swap) => codec.row(swap));
    expect(rows.map((row) => row.key)).toEqual(['a', 'b', 'c']);
    const bytes = codec.encode(rows);
    const read = await codec.read(bytes);
    expect(read.map((row) => [row.key, row.completedMs, row.updatedMs])).toEqual(rows.map((row) => [row.key, row.completedMs, row.updatedMs]));
    expect(codec.encode(read).equals(bytes)).toBe(true);
  });
});
