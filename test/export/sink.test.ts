/** StdoutSink: every byte as made (or as shown on a terminal), and a full pipe's backpressure, drain or failure. */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type ExportSink, StdoutSink } from '../../src/export/sink.js';
import type { OutStream } from '../../src/output/stream.js';

/** A stream whose write says `full` (the pipe is full) or not, and records what it got. */
class FakeStream extends EventEmitter {
  written: (string | Buffer)[] = [];
  full = false;
  destroyed?: boolean;
  errored?: Error | null;
  write(chunk: string | Buffer): boolean {
    this.written.push(chunk);
    return !this.full;
  }
}

const sink = (stream: FakeStream, show?: (text: string) => string): ExportSink => new StdoutSink(stream as unknown as OutStream, show);
const listeners = (stream: FakeStream) => ['drain', 'error', 'close'].map((name) => stream.listenerCount(name));
/** Whether `promise` has settled after the pending callbacks ran: 'pending', 'resolved' or the rejection's message. */
async function settled(promise: Promise<void>): Promise<string> {
  let state = 'pending';
  promise.then(
    () => (state = 'resolved'),
    (error: Error) => (state = error.message),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

describe('StdoutSink', () => {
  it('starts from nothing', () => {
    expect(sink(new FakeStream()).state).toEqual({ windowsDone: 0, swaps: 0, dropped: 0, bytes: 0 });
  });

  it('writes text and bytes as made, the closing text too, and nothing for an empty piece', async () => {
    const stream = new FakeStream();
    const s = sink(stream);
    const bytes = Buffer.from('b\n');
    await s.append('a\n', { windowsDone: 1, swaps: 1, dropped: 0 });
    await s.append(bytes, { windowsDone: 2, swaps: 2, dropped: 0 });
    await s.append('', { windowsDone: 3, swaps: 2, dropped: 0 });
    await s.complete(']\n');
    await s.complete('');
    await s.close();
    expect(stream.written).toEqual(['a\n', bytes, ']\n']);
    expect(stream.written[1]).toBe(bytes);
    expect(s.state).toEqual({ windowsDone: 0, swaps: 0, dropped: 0, bytes: 0 });
  });

  it('on a terminal: each piece as shown, as text; nothing shown for an empty piece or for what shows as nothing', async () => {
    const stream = new FakeStream();
    const shown: string[] = [];
    const s = sink(stream, (text) => {
      shown.push(text);
      return text.replace(/\u001b/g, '');
    });
    await s.append(Buffer.from('a\u001b\n'), { windowsDone: 1, swaps: 1, dropped: 0 });
    await s.append('', { windowsDone: 2, swaps: 1, dropped: 0 });
    await s.complete('\u001b');
    expect(shown).toEqual(['a\u001b\n', '\u001b']);
    expect(stream.written).toEqual(['a\n']);
  });

  it('a full pipe: waits for its drain, then stops listening', async () => {
    const stream = new FakeStream();
    stream.full = true;
    const waiting = sink(stream).append('a', { windowsDone: 1, swaps: 1, dropped: 0 });
    expect(await settled(waiting)).toBe('pending');
    expect(listeners(stream)).toEqual([1, 1, 1]);
    stream.emit('drain');
    expect(await settled(waiting)).toBe('resolved');
    expect(listeners(stream)).toEqual([0, 0, 0]);
  });

  it("a full pipe that fails: the stream's error ends the wait", async () => {
    const stream = new FakeStream();
    stream.full = true;
    const waiting = sink(stream).complete('a');
    stream.emit('error', new Error('EPIPE'));
    expect(await settled(waiting)).toBe('EPIPE');
    expect(listeners(stream)).toEqual([0, 0, 0]);
  });

  it('a full pipe closed: an error, its own or a plain one; closed but not destroyed, the wait ends', async () => {
    const broken = new FakeStream();
    broken.full = true;
    const waiting = sink(broken).complete('a');
    broken.destroyed = true;
    broken.errored = new Error('ENOSPC');
    broken.emit('close');
    expect(await settled(waiting)).toBe('ENOSPC');

    const closed = new FakeStream();
    closed.full = true;
    const plain = sink(closed).complete('a');
    closed.destroyed = true;
    closed.errored = null;
    closed.emit('close');
    expect(await settled(plain)).toBe('standard output is closed');

    const open = new FakeStream();
    open.full = true;
    const ended = sink(open).complete('a');
    open.emit('close');
    expect(await settled(ended)).toBe('resolved');
  });

  it('a stream already destroyed fails at once, with its error or a plain one', async () => {
    const broken = new FakeStream();
    broken.full = true;
    broken.destroyed = true;
    broken.errored = new Error('EBADF');
    expect(await settled(sink(broken).complete('a'))).toBe('EBADF');
    expect(listeners(broken)).toEqual([0, 0, 0]);
    const closed = new FakeStream();
    closed.full = true;
    closed.destroyed = true;
    expect(await settled(sink(closed).complete('a'))).toBe('standard output is closed');
  });
});
