/**
 * Crash recovery, run under the lock before a sync fetches anything.
 *
 * A sync makes a part durable (fsync, rename) and only then writes the state
 * that records its ids. A run killed between the two (SIGKILL, power loss)
 * leaves a final part whose swaps the state does not know: the next run would
 * write them again. So on start:
 *   1. temporary files left by dead runs are deleted (their data was never
 *      recorded, and the cursor did not move past it: it is fetched again);
 *   2. the partitions from date(idsFrom) on are scanned for final parts not in
 *      the state's list of recent parts; their ids are read (jsonl or csv, gz
 *      or not) and recorded, and the parts listed.
 * The caller then writes the state, and those swaps are skipped from then on.
 * Parts before date(idsFrom) need no scan: no run writes swaps that old
 * (every run starts its re-scan at idsFrom or later).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { WrappedError } from '../api/errors.js';
import { LOCK_FILE, isAlive } from './lock.js';
import { readPartRows, type PartRow } from './part-ids.js';
import { PART_RE, PARTITION_RE, TEMP_PART_RE, utcDate } from './partitions.js';
import { STATE_FILE, type SyncState } from './state.js';

export interface Recovered {
  /** temporary files deleted */
  removed: number;
  /** parts found on disk but not in the state, now recorded */
  parts: string[];
  /** ids newly recorded from them */
  ids: number;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

const STATE_TEMP_RE = new RegExp(`^\\.${STATE_FILE.replace(/\./g, '\\.')}\\.\\d+-[0-9a-f]+\\.tmp$`);
const LOCK_TEMP_RE = new RegExp(`^${LOCK_FILE.replace(/\./g, '\\.')}\\.(\\d+)-[0-9a-f]+\\.(tmp|stale)$`);

/**
 * Leftovers at the top of the dir: the state's temporary files (only the lock holder writes the
 * state, so under the lock every one is a dead run's), and those of lock attempts whose process is gone.
 */
function isLeftover(name: string): boolean {
  if (STATE_TEMP_RE.test(name)) return true;
  const pid = Number(LOCK_TEMP_RE.exec(name)?.[1]);
  return Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid);
}

export async function recover(dir: string, state: SyncState): Promise<Recovered> {
  const result: Recovered = { removed: 0, parts: [], ids: 0 };
  const listed = new Set(state.parts);
  const firstDate = utcDate(state.idsFrom);
  for (const name of await listDir(dir)) {
    if (isLeftover(name)) {
      await fs.rm(path.join(dir, name), { force: true });
      result.removed += 1;
      continue;
    }
    const date = PARTITION_RE.exec(name)?.[1];
    if (date === undefined) continue;
    for (const file of (await listDir(path.join(dir, name))).sort()) {
      if (TEMP_PART_RE.test(file)) {
        // Only this process writes in a locked dir: every temporary part is a dead run's.
        await fs.rm(path.join(dir, name, file), { force: true });
        result.removed += 1;
        continue;
      }
      const relative = `${name}/${file}`;
      if (date < firstDate || !PART_RE.test(file) || listed.has(relative)) continue;
      const dateStart = Date.parse(`${date}T00:00:00Z`);
      let rows: PartRow[];
      try {
        rows = await readPartRows(path.join(dir, name, file));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new WrappedError(`cannot read ${path.join(dir, relative)} to record its swaps (${why}); move it out of ${dir} and run again`, { cause: error });
      }
      for (const row of rows) {
        const ms = Number.isNaN(row.completedMs) ? Math.max(dateStart, state.idsFrom) : row.completedMs;
        if (ms >= state.idsFrom && state.ids.add(row.id, ms)) result.ids += 1;
      }
      state.parts.push(relative);
      listed.add(relative);
      result.parts.push(relative);
    }
  }
  return result;
}
