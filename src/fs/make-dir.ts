/**
 * `mkdir -p` whose failure says why. Node's recursive mkdir reports a folder it cannot make on a read-only file
 * system (or in a folder the user may not write) as ENOENT, "no such file or directory", which sends the user
 * looking for a typo: the nearest folder that exists is asked instead, and its EROFS or EACCES is thrown.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The error to throw for `error`, a failed recursive mkdir of `dir`: the real cause where ENOENT hid it. */
function explained(error: unknown, dir: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  let existing = path.resolve(dir);
  while (!fsSync.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  try {
    fsSync.accessSync(existing, fsSync.constants.W_OK);
  } catch (cause) {
    return Object.assign(cause as Error, { path: dir });
  }
  return error;
}

export async function makeDir(dir: string, mode?: number): Promise<string | undefined> {
  try {
    return await fs.mkdir(dir, { recursive: true, mode });
  } catch (error) {
    throw explained(error, dir);
  }
}

export function makeDirSync(dir: string, mode?: number): string | undefined {
  try {
    return fsSync.mkdirSync(dir, { recursive: true, mode });
  } catch (error) {
    throw explained(error, dir);
  }
}
