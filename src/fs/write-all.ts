/** Writes every byte: a single write(2) may write fewer (a filling disk, a quota), and the rest must not be lost. */
import type { FileHandle } from 'node:fs/promises';

/** Writes all of `bytes` at `position` (or at the file's current offset when undefined). */
export async function writeAll(handle: FileHandle, bytes: Buffer, position?: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position === undefined ? null : position + done);
    // A zero-byte write would loop forever; the OS reports a full disk as an error, so this is one too.
    if (bytesWritten === 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}
