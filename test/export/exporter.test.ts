/**
 * exportSwaps against a client whose answers each test chooses: what goes to the sink window by window (headers,
 * JSON's commas, a resume's start), the tallies and the summary, and how many windows are fetched at once.
 */
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/api/errors.js';
import { LIST_SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { exportSwaps, type ExportEvent, type ExportJob } from '../../src/export/exporter.js';
import type { ExportSink, SinkState, Tally } from '../../src/export/sink.js';
import { textWriter } from '../../src/formats/text-writer.js';
import { createEncoder, type MachineFormat } from '../../src/output/encode.js';
import type { Window } from '../../src/windows/plan.js';
import { BASE, MIN, type Served, serve, swap, troubledWindow } from '../helpers/served-windows.js';

/** Ten-minute windows from BASE. */
const windows: Window[] = [0, 1, 2].map((index) => ({ index, from: BASE + index * 10 * MIN, to: BASE + (index + 1) * 10 * MIN }));

/** A sink that keeps each piece as text, from `state` (a resume's checkpoint). */
class MemorySink implements ExportSink {
  pieces: { text: string; done: Tally }[] = [];
  completed: string[] = [];
  constructor(readonly state: SinkState = { windowsDone: 0, swaps: 0, dropped: 0, bytes: 0 }) {}
  async append(text: string | Buffer, done: Tally): Promise<void> {
    this.pieces.push({ text: text.toString(), done });
  }
  async complete(text: string | Buffer): Promise<void> {
    this.completed.push(text.toString());
  }
  async close(): Promise<void> {}
}

function job(served: Served, sink: ExportSink, format: MachineFormat, extra: Partial<ExportJob> = {}): ExportJob {
  return {
    client: served.client,
    filter: undefined,
    windows,
    concurrency: 1,
    writer: textWriter(createEncoder(format, { fields: ['id'], allFields: LIST_SWAP_FIELDS }), sink.state),
    sink,
    ...extra,
  };
}

const byWindow = (table: Record<number, readonly Swap[]>) => (from: number) => table[(from - BASE) / (10 * MIN)] ?? [];

describe('exportSwaps', () => {
  it("JSON: the '[' before the first window, a comma only between swaps, the footer after; a tally and an event per window", async () => {
    const served = serve(byWindow({ 0: [swap('b', 2), swap('a', 1)], 2: [swap('c', 25)] }));
    const sink = new MemorySink();
    const events: ExportEvent[] = [];
    const summary = await exportSwaps(job(served, sink, 'json', { onEvent: (event) => void events.push(event) }));
    expect(sink.pieces).toEqual([
      { text: '[\n{"id":"a"},\n{"id":"b"}', done: { windowsDone: 1, swaps: 2, dropped: 0 } },
      { text: '', done: { windowsDone: 2, swaps: 2, dropped: 0 } },
      { text: ',\n{"id":"c"}', done: { windowsDone: 3, swaps: 3, dropped: 0 } },
    ]);
    expect(sink.completed).toEqual(['\n]\n']);
    expect(events).toEqual([1, 2, 3].map((n) => ({ type: 'window', windowsTotal: 3, windowsDone: n, swaps: n === 3 ? 3 : 2, dropped: 0 })));
    expect(summary).toEqual({
      windowsDone: 3,
      swaps: 3,
      dropped: 0,
      windowsTotal: 3,
      splits: 0,
      swapsThisRun: 3,
      outside: 0,
      conflicts: 0,
      withBalanceChanges: 0,
    });
    expect(served.asked).toEqual(windows.map((w) => w.from));
  });

  it('JSON with no swap at all: an empty array', async () => {
    const sink = new MemorySink();
    await exportSwaps(
      job(
        serve(() => []),
        sink,
        'json',
      ),
    );
    expect(sink.pieces.map((p) => p.text)).toEqual(['[', '', '']);
    expect(sink.completed).toEqual([']\n']);
  });

  it('CSV: the header once, before the first window, even when it is empty', async () => {
    const sink = new MemorySink();
    await exportSwaps(job(serve(byWindow({ 1: [swap('a', 11)], 2: [swap('b', 21)] })), sink, 'csv'));
    expect(sink.pieces.map((p) => p.text)).toEqual(['id\n', 'a\n', 'b\n']);
    expect(sink.completed).toEqual(['']);
  });

  it('a resume: only the windows after the checkpoint, no header, tallies from it, a comma before its first swap', async () => {
    const served = serve(byWindow({ 0: [swap('a', 1)], 1: [], 2: [swap('c', 25), swap('d', 26)] }));
    const sink = new MemorySink({ windowsDone: 1, swaps: 4, dropped: 2, bytes: 30 });
    const events: ExportEvent[] = [];
    const summary = await exportSwaps(job(served, sink, 'json', { onEvent: (event) => void events.push(event) }));
    expect(served.asked).toEqual([windows[1]!.from, windows[2]!.from]);
    expect(sink.pieces).toEqual([
      { text: '', done: { windowsDone: 2, swaps: 4, dropped: 2 } },
      { text: ',\n{"id":"c"},\n{"id":"d"}', done: { windowsDone: 3, swaps: 6, dropped: 2 } },
    ]);
    expect(sink.completed).toEqual(['\n]\n']);
    expect(events.map((e) => e.windowsDone)).toEqual([2, 3]);
    expect(summary).toMatchObject({ windowsDone: 3, swaps: 6, dropped: 2, windowsTotal: 3, swapsThisRun: 2 });
  });

  it('a resume that finds no more swaps still closes the array its first run opened', async () => {
    const sink = new MemorySink({ windowsDone: 2, swaps: 1, dropped: 0, bytes: 14 });
    const summary = await exportSwaps(
      job(
        serve(() => []),
        sink,
        'json',
      ),
    );
    expect(sink.pieces).toEqual([{ text: '', done: { windowsDone: 3, swaps: 1, dropped: 0 } }]);
    expect(sink.completed).toEqual(['\n]\n']);
    expect(summary.swapsThisRun).toBe(0);
  });

  it('counts, over every window, the duplicates dropped, the rows outside, the conflicts and the balance changes', async () => {
    const rows = (from: number): Swap[] => troubledWindow((from - BASE) / (10 * MIN));
    const sink = new MemorySink();
    const summary = await exportSwaps(job(serve(rows), sink, 'jsonl', { windows: windows.slice(0, 2) }));
    expect(sink.pieces).toEqual([
      { text: '{"id":"k0"}\n{"id":"c0"}\n', done: { windowsDone: 1, swaps: 2, dropped: 1 } },
      { text: '{"id":"k1"}\n{"id":"c1"}\n', done: { windowsDone: 2, swaps: 4, dropped: 2 } },
    ]);
    expect(summary).toEqual({
      windowsDone: 2,
      swaps: 4,
      dropped: 2,
      windowsTotal: 2,
      splits: 0,
      swapsThisRun: 4,
      outside: 2,
      conflicts: 2,
      withBalanceChanges: 4,
    });
  });

  it('a window that times out is fetched in halves: the splits are counted', async () => {
    let timedOut = false;
    const served = serve((from) => {
      if (from === windows[1]!.from && !timedOut) {
        timedOut = true;
        return new TimeoutError('timed out', { method: 'GET', path: '/v1/external/swaps' });
      }
      return from === BASE + 15 * MIN ? [swap('h', 16)] : [];
    });
    const sink = new MemorySink();
    const summary = await exportSwaps(job(served, sink, 'jsonl'));
    expect(served.asked).toEqual([windows[0]!.from, windows[1]!.from, windows[1]!.from, BASE + 15 * MIN, windows[2]!.from]);
    expect(summary).toMatchObject({ swaps: 1, splits: 1 });
    expect(sink.pieces.map((p) => p.text)).toEqual(['', '{"id":"h"}\n', '']);
  });

  it("frees each response body once its window is encoded (what it wrote is the encoder's own copy)", async () => {
    const served = serve(byWindow({ 0: [swap('a', 1)], 1: [swap('b', 11)] }));
    const sink = new MemorySink();
    // Every field: the JSON formats write the swaps' bytes as sent, parts of the bodies.
    const encoder = createEncoder('jsonl', { fields: LIST_SWAP_FIELDS, allFields: LIST_SWAP_FIELDS });
    await exportSwaps(job(served, sink, 'jsonl', { writer: textWriter(encoder, sink.state) }));
    expect(served.bodies).toHaveLength(3);
    expect(served.bodies.map((body) => body.length)).toEqual([0, 0, 0]);
    expect(sink.pieces.map((p) => (JSON.parse(p.text || 'null') as Swap | null)?.id)).toEqual(['a', 'b', undefined]);
  });

  it('fetches one window first, then as many at once as the concurrency allows while they are small', async () => {
    const served = serve(byWindow({ 0: [swap('a', 1)], 1: [swap('b', 11)], 2: [swap('c', 21)] }), 20);
    const more = [3, 4, 5].map((index) => ({ index, from: BASE + index * 10 * MIN, to: BASE + (index + 1) * 10 * MIN }));
    await exportSwaps(job(served, new MemorySink(), 'jsonl', { windows: [...windows, ...more], concurrency: 3 }));
    expect(served.peak).toBe(3);
  });
});
