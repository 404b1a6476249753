/**
 * Crash recovery, run under the lock before a sync fetches anything.
 *
 * A sync rewrites a partition atomically (temporary file, fsync, rename,
 * fsync of the folder) and only then writes the state. A run killed at any
 * point leaves each partition either old or new, plus maybe temporary files;
 * the state is at most behind the data, so the next run fetches some windows
 * again and merges the same versions into the partitions: no change. So:
 *   1. temporary files left by dead runs are deleted;
 *   2. a partition holding more than its one file (the append-only parts of a
 *      mirror written before swapx tracked updates, or a dead run's half of
 *      that fold) is folded into one file: every row of every file merged by
 *      id, the latest version kept, written atomically; then the old parts are
 *      deleted. Killed in between, the fold runs again with the same result.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { WrappedError } from '../../api/errors.js';
import { LOCK_FILE, isAlive } from '../../fs/lock.js';
import { INDEX_NAME } from '../partitions/id-index.js';
import type { LocalStorage } from './local-storage.js';
import { mergeRow, OLD_PART_RE, PARTITION_FILE_RE, PARTITION_RE, partitionFile, readPartition, writePartition } from '../partitions/partitions.js';
import type { PartitionCodec, StoredRow } from '../../formats/stored-row.js';
import { STATE_NAME } from '../partitions/state-file.js';

export interface Recovered {
  /** temporary files deleted */
  removed: number;
  /** partitions folded into one file */
  folded: string[];
}

/** A temporary file of the state's (tempPathFor's names: `.NAME.PID-TAG.tmp`). */
const stateTempRe = (storage: LocalStorage) => new RegExp(`^\\.${storage.meta(STATE_NAME).replace(/\./g, '\\.')}\\.\\d+-[0-9a-f]+\\.tmp$`);
const LOCK_TEMP_RE = new RegExp(`^${LOCK_FILE.replace(/\./g, '\\.')}\\.(\\d+)-[0-9a-f]+\\.(tmp|stale)$`);

/**
 * Leftovers at the top of the dir: the state's temporary files (only the lock holder writes the
 * state, so under the lock every one is a dead run's), and those of lock attempts whose process is gone.
 */
function isLeftover(name: string, stateTemp: RegExp): boolean {
  if (stateTemp.test(name)) return true;
  const pid = Number(LOCK_TEMP_RE.exec(name)?.[1]);
  // This process's pid is alive, and so is 0 (our process group).
  return Number.isSafeInteger(pid) && !isAlive(pid);
}

export async function recover(storage: LocalStorage, codec: PartitionCodec): Promise<Recovered> {
  const result: Recovered = { removed: 0, folded: [] };
  const dir = storage.name;
  const stateTemp = stateTempRe(storage);
  for (const name of await storage.list('')) {
    if (isLeftover(name, stateTemp)) {
      // Only the lock holder removes these: each is there until it does.
      await fs.rm(path.join(dir, name));
      result.removed += 1;
      continue;
    }
    if (name === storage.meta(INDEX_NAME)) {
      result.removed += await storage.tidy(name);
      continue;
    }
    const date = PARTITION_RE.exec(name)?.[1];
    if (date === undefined) continue;
    // Only this process writes in a locked dir: every temporary file in a partition is a dead run's.
    result.removed += await storage.tidy(name);
    const files = (await storage.list(name)).filter((file) => OLD_PART_RE.test(file) || PARTITION_FILE_RE.test(file));
    const target = partitionFile(date, codec);
    const old = files.filter((file) => `${name}/${file}` !== target);
    if (old.length === 0) continue;
    // The one file first (if a dead fold wrote it: a missing one reads as no rows), then the parts in the order they were written.
    const rows = new Map<string, StoredRow>();
    for (const file of [path.posix.basename(target), ...old]) {
      let read: StoredRow[];
      try {
        read = await readPartition(storage, `${name}/${file}`, codec);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new WrappedError(`cannot read ${storage.describe(`${name}/${file}`)} to fold it into ${target} (${why}); move it out of ${dir} and run again`, {
          cause: error,
        });
      }
      for (const row of read) mergeRow(rows, row);
    }
    await writePartition(storage, target, [...rows.values()], codec);
    for (const file of old) await storage.remove(`${name}/${file}`);
    result.folded.push(target);
  }
  return result;
}
