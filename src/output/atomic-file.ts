/** Files appear whole or not at all: written under a temporary name beside the target, synced, renamed. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';

export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

export async function writeFileAtomic(target: string, data: string | Buffer, options: { gzip?: boolean; mode?: number } = {}): Promise<void> {
  const bytes = options.gzip ? gzipSync(data) : typeof data === 'string' ? Buffer.from(data) : data;
  const temp = tempPathFor(target);
  try {
    const handle = await fs.open(temp, 'wx', options.mode ?? 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
