/** writeAll: every byte written, however few one write(2) takes, at the position asked or the file's own offset. */
import { describe, expect, it } from 'vitest';
import type { FileHandle } from 'node:fs/promises';
import { writeAll } from '../../src/fs/write-all.js';

/** A handle whose writes take at most `chunk` bytes each, recording what they were asked. */
function shortWrites(chunk: number) {
  const calls: { bytes: string; position: number | null }[] = [];
  const handle = {
    write: async (buffer: Buffer, offset: number, length: number, position: number | null) => {
      const taken = Math.min(chunk, length);
      calls.push({ bytes: buffer.subarray(offset, offset + taken).toString(), position });
      return { bytesWritten: taken, buffer };
    },
  } as unknown as FileHandle;
  return { handle, calls };
}

describe('writeAll', () => {
  it('writes the rest after a short write, at the position moved on', async () => {
    const { handle, calls } = shortWrites(4);
    await writeAll(handle, Buffer.from('0123456789'), 100);
    expect(calls).toEqual([
      { bytes: '0123', position: 100 },
      { bytes: '4567', position: 104 },
      { bytes: '89', position: 108 },
    ]);
  });

  it('writes at the file offset when no position is given', async () => {
    const { handle, calls } = shortWrites(6);
    await writeAll(handle, Buffer.from('0123456789'));
    expect(calls).toEqual([
      { bytes: '012345', position: null },
      { bytes: '6789', position: null },
    ]);
  });

  it('writes nothing for no bytes', async () => {
    const { handle, calls } = shortWrites(6);
    await writeAll(handle, Buffer.alloc(0), 0);
    expect(calls).toEqual([]);
  });

  it('a write that takes nothing is ENOSPC, not a loop', async () => {
    const { handle } = shortWrites(0);
    await expect(writeAll(handle, Buffer.from('x'), 0)).rejects.toMatchObject({ code: 'ENOSPC', message: 'no space left on device' });
  });
});
