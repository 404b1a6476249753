/**
 * The export loop driving Parquet's writer, against a client whose answers each test chooses: row groups cut where
 * the rows since the last cut reach the size, the last one however small, each recorded in the state file before its
 * bytes go out; the tallies, the events and the summary; a resume that cuts the state file back to its checkpoint.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Swap } from '../../src/api/types.js';
import { type ExportEvent, type ExportJob, exportSwaps } from '../../src/export/exporter.js';
import type { ExportSink, SinkState, Tally } from '../../src/export/sink.js';
import { parquetExportWriter } from '../../src/formats/parquet/export-writer.js';
import type { Window } from '../../src/windows/plan.js';
import { BASE, MIN, type Served, serve, swap, troubledWindow } from '../helpers/served-windows.js';
import { tempDir } from '../helpers/cli.js';
import { parquetRowGroups, query } from '../../scripts/support/duckdb.js';

const windows: Window[] = [0, 1, 2].map((index) => ({ index, from: BASE + index * 10 * MIN, to: BASE + (index + 1) * 10 * MIN }));

/** A file sink in memory: the bytes appended, each append's tally and format state, and the footer. */
class MemorySink implements ExportSink {
  bytes: Buffer[] = [];
  appends: { done: Tally; formatState: string | undefined }[] = [];
  constructor(readonly state: SinkState = { windowsDone: 0, swaps: 0, dropped: 0, bytes: 0 }) {}
  async append(text: string | Buffer, done: Tally, formatState?: string): Promise<void> {
    this.bytes.push(Buffer.from(text));
    this.appends.push({ done, formatState });
  }
  async complete(text: string | Buffer): Promise<void> {
    this.bytes.push(Buffer.from(text));
  }
  async close(): Promise<void> {}
  /** The file the pieces make, written to `dir`. */
  file(dir: string): string {
    const file = path.join(dir, 'out.parquet');
    fs.writeFileSync(file, Buffer.concat(this.bytes));
    return file;
  }
}

/** The export of `windows` (or extra's) into `sink` through Parquet's writer: the column id, row groups of 3 rows (or extra's). */
async function exportSwapsParquet(served: Served, sink: ExportSink, stateFile: string, extra: Partial<ExportJob> & { rowGroupRows?: number } = {}) {
  const { rowGroupRows = 3, ...job } = extra;
  const writer = await parquetExportWriter({ fields: ['id'], stateFile, rowGroupRows }, sink.state);
  return exportSwaps({ client: served.client, filter: undefined, windows, concurrency: 1, writer, sink, ...job });
}

const byWindow = (table: Record<number, readonly Swap[]>) => (from: number) => table[(from - BASE) / (10 * MIN)] ?? [];

describe('the Parquet export writer', () => {
  it('cuts a row group once the rows since the last cut reach its size, writes the rest as the last, and counts', async () => {
    const dir = tempDir('swapx-parquet-export-');
    const stateFile = path.join(dir, 'out.parquet.partial.rowgroups');
    const sink = new MemorySink();
    const events: ExportEvent[] = [];
    const stateLines: number[] = [];
    const summary = await exportSwapsParquet(serve(byWindow({ 0: troubledWindow(0), 1: troubledWindow(1), 2: troubledWindow(2) })), sink, stateFile, {
      onEvent: (event) => {
        events.push(event);
        stateLines.push(fs.readFileSync(stateFile, 'utf8').split('\n').length - 1);
      },
    });
    // Two rows a window, three to a group: a group after window 2 (4 rows), the last after window 3 (2 rows).
    expect(sink.appends).toEqual([
      { done: { windowsDone: 2, swaps: 4, dropped: 2 }, formatState: '1' },
      { done: { windowsDone: 3, swaps: 6, dropped: 3 }, formatState: '2' },
    ]);
    expect(events).toEqual([1, 2, 3].map((n) => ({ type: 'window', windowsTotal: 3, windowsDone: n, swaps: 2 * n, dropped: n })));
    // Each group's metadata is in the state file before its bytes go out.
    expect(stateLines).toEqual([0, 1, 1]);
    expect(summary).toEqual({
      windowsDone: 3,
      swaps: 6,
      dropped: 3,
      windowsTotal: 3,
      splits: 0,
      swapsThisRun: 6,
      outside: 3,
      conflicts: 3,
      withBalanceChanges: 6,
    });
    const file = sink.file(dir);
    expect(await parquetRowGroups(file)).toBe(2);
    expect(await query(`SELECT id FROM read_parquet('${file}')`)).toEqual(['k0', 'c0', 'k1', 'c1', 'k2', 'c2'].map((id) => ({ id })));
    // Complete: the state file is gone.
    expect(fs.existsSync(stateFile)).toBe(false);
  });

  it('with no swap at all: an empty file, no row group, no state file left', async () => {
    const dir = tempDir('swapx-parquet-export-');
    const stateFile = path.join(dir, 'state');
    const sink = new MemorySink();
    const summary = await exportSwapsParquet(
      serve(() => []),
      sink,
      stateFile,
    );
    expect(sink.appends).toEqual([]);
    expect(summary).toMatchObject({ windowsDone: 3, swaps: 0, swapsThisRun: 0 });
    expect(await parquetRowGroups(sink.file(dir))).toBe(0);
    expect(fs.existsSync(stateFile)).toBe(false);
  });

  it('a failure after a row group keeps its state; one before any removes the state file', async () => {
    const dir = tempDir('swapx-parquet-export-');
    const kept = path.join(dir, 'kept');
    const failLast = serve((from) =>
      from === windows[2]!.from ? new Error('no route to host') : [swap(`a${from}`, (from - BASE) / MIN + 1), swap(`b${from}`, (from - BASE) / MIN + 2)],
    );
    await expect(exportSwapsParquet(failLast, new MemorySink(), kept)).rejects.toThrow();
    expect(fs.readFileSync(kept, 'utf8').split('\n')).toHaveLength(2);

    const gone = path.join(dir, 'gone');
    await expect(
      exportSwapsParquet(
        serve(() => new Error('no route to host')),
        new MemorySink(),
        gone,
      ),
    ).rejects.toThrow();
    expect(fs.existsSync(gone)).toBe(false);
  });

  it('a state file removed meanwhile (by hand) fails neither a complete export nor changes why one failed', async () => {
    const dir = tempDir('swapx-parquet-export-');
    const stateFile = path.join(dir, 'state');
    const sink = new MemorySink();
    const summary = await exportSwapsParquet(serve(byWindow({ 0: [swap('a', 1)], 2: [swap('b', 21)] })), sink, stateFile, {
      onEvent: () => fs.rmSync(stateFile, { force: true }),
    });
    expect(summary).toMatchObject({ windowsDone: 3, swaps: 2 });
    expect(await query(`SELECT id FROM read_parquet('${sink.file(dir)}')`)).toEqual([{ id: 'a' }, { id: 'b' }]);
    const failing = serve(() => {
      fs.rmSync(stateFile, { force: true });
      return new Error('no route to host');
    });
    await expect(exportSwapsParquet(failing, new MemorySink(), stateFile)).rejects.toThrow(/no route to host/);
    expect(fs.existsSync(stateFile)).toBe(false);
  });

  it('a resume cuts the state file back to the row groups its checkpoint counts, and goes on from there', async () => {
    const dir = tempDir('swapx-parquet-export-');
    const stateFile = path.join(dir, 'state');
    // Four windows, a row group each: two before the failure, two after the resume.
    const four: Window[] = [0, 1, 2, 3].map((index) => ({ index, from: BASE + index * 10 * MIN, to: BASE + (index + 1) * 10 * MIN }));
    const table = { 0: [swap('a', 1), swap('b', 2)], 1: [swap('c', 11)], 2: [swap('d', 21), swap('e', 22)], 3: [swap('f', 31)] };
    const states = (into: string[], file: string) => () => void into.push(fs.readFileSync(file, 'utf8'));
    // A whole run, to take its first row groups and their state as a checkpoint.
    const whole = new MemorySink();
    const wholeStates: string[] = [];
    const wholeState = path.join(dir, 'whole-state');
    await exportSwapsParquet(serve(byWindow(table)), whole, wholeState, { windows: four, rowGroupRows: 1, onEvent: states(wholeStates, wholeState) });
    const first = new MemorySink();
    const failing = serve((from) => (from === four[2]!.from ? new Error('no route to host') : byWindow(table)(from)));
    await expect(exportSwapsParquet(failing, first, stateFile, { windows: four, rowGroupRows: 1 })).rejects.toThrow();
    expect(first.appends.map((a) => a.formatState)).toEqual(['1', '2']);
    expect(fs.readFileSync(stateFile, 'utf8')).toBe(wholeStates[1]);
    // A run that died after the checkpoint left a line past it.
    fs.appendFileSync(stateFile, '{"a row group past the checkpoint"}\n');

    const checkpoint = Buffer.concat(first.bytes);
    const resumed = new MemorySink({ windowsDone: 2, swaps: 3, dropped: 0, bytes: checkpoint.length, formatState: '2' });
    resumed.bytes.push(checkpoint);
    const resumedStates: string[] = [];
    const summary = await exportSwapsParquet(serve(byWindow(table)), resumed, stateFile, {
      windows: four,
      rowGroupRows: 1,
      onEvent: states(resumedStates, stateFile),
    });
    // Each group's line goes where the last one ended: the state is the whole run's, line for line.
    expect(resumedStates).toEqual(wholeStates.slice(2));
    expect(summary).toMatchObject({ windowsDone: 4, swaps: 6, swapsThisRun: 3 });
    expect(Buffer.concat(resumed.bytes).equals(Buffer.concat(whole.bytes))).toBe(true);
  });
});
