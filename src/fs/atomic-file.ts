/**
 * Files appear whole or not at all: written under a temporary name beside the
 * target, synced, renamed, and the directory synced so the rename survives a
 * power cut. Shared by the export (manifest, -o files) and the sync (state, partitions).
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeAll } from './write-all.js';

export function tempPathFor(target: string): string {
  // Unique enough beside the pid (the file is opened exclusively, so a clash fails, never overwrites); not
  // node:crypto, whose loading would cost every command's start-up.
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${Math.random().toString(16).slice(2, 10)}.tmp`);
}

export async function writeFileAtomic(target: string, data: string | Buffer, options: { gzip?: boolean; mode?: number } = {}): Promise<void> {
  // (A string is written as UTF-8, as Buffer.from would encode it.)
  const bytes = options.gzip ? (await import('node:zlib')).gzipSync(data) : data;
  const temp = tempPathFor(target);
  try {
    const handle = await fs.open(temp, 'wx', options.mode ?? 0o644);
    try {
      // Every byte: a write(2) on a filling disk may write fewer, and the rest must not be lost.
      await writeAll(handle, typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
      await handle.sync();
    } catch (error) {
      // The write's error is the one to report, not a close that fails after it.
      await handle.close().catch(() => {});
      throw error;
    }
    await handle.close();
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(path.dirname(target));
}

/** Makes a rename or a new name in `dir` durable; a file system that cannot sync a directory is left as it is. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!cannotSyncDirectory(error)) throw error;
  } finally {
    await handle?.close();
  }
}

/** Some file systems (and Windows) refuse to open or sync a directory: the rename has happened all the same. */
function cannotSyncDirectory(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EISDIR' || code === 'EINVAL' || code === 'EPERM' || code === 'EACCES' || code === 'ENOTSUP';
}

/** `writeFileAtomic` for a caller that must not wait (the profile store, read and written before a command starts; undici's code cache). */
export function writeFileAtomicSync(target: string, data: string | Buffer, mode: number): void {
  const temp = tempPathFor(target);
  try {
    const fd = fsSync.openSync(temp, 'wx', mode);
    try {
      fsSync.writeFileSync(fd, data);
      fsSync.fsyncSync(fd);
    } finally {
      fsSync.closeSync(fd);
    }
    fsSync.renameSync(temp, target);
  } catch (error) {
    fsSync.rmSync(temp, { force: true });
    throw error;
  }
  let fd: number | undefined;
  try {
    fd = fsSync.openSync(path.dirname(target), 'r');
    fsSync.fsyncSync(fd);
  } catch (error) {
    if (!cannotSyncDirectory(error)) throw error;
  } finally {
    if (fd !== undefined) fsSync.closeSync(fd);
  }
}
