/**
 * The last run of a partitioned mirror, for `swapx sync status`: a small file of swapx's own beside the state
 * (`.swapx-last-run.json` in a folder), written when a run starts and when it ends, outside the commits. A run
 * killed leaves its start alone: status then says it recorded no end.
 */
import type { RunRecord } from '../../sync/store.js';
import { formatUtc } from '../../util/time.js';
import type { MirrorStorage } from './storage.js';

const RUN_NAME = 'last-run.json';

export async function writeRunRecord(storage: MirrorStorage, run: RunRecord): Promise<void> {
  const text = {
    startedAt: formatUtc(run.startedAt),
    ...(run.endedAt === undefined ? {} : { endedAt: formatUtc(run.endedAt) }),
    outcome: run.outcome,
    ...(run.message === undefined ? {} : { message: run.message }),
  };
  await storage.write(storage.meta(RUN_NAME), Buffer.from(`${JSON.stringify(text, null, 2)}\n`));
}

/** The last run recorded, or undefined (none, or a file that is not what swapx wrote: status is no place to fail). */
export async function readRunRecord(storage: MirrorStorage): Promise<RunRecord | undefined> {
  try {
    const bytes = await storage.read(storage.meta(RUN_NAME));
    if (bytes === undefined) return undefined;
    const raw = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    const startedAt = Date.parse(String(raw.startedAt));
    const outcome = raw.outcome;
    if (Number.isNaN(startedAt) || !['running', 'complete', 'failed', 'interrupted'].includes(String(outcome))) return undefined;
    const run: RunRecord = { startedAt, outcome: outcome as RunRecord['outcome'] };
    if (typeof raw.endedAt === 'string' && !Number.isNaN(Date.parse(raw.endedAt))) run.endedAt = Date.parse(raw.endedAt);
    if (typeof raw.message === 'string') run.message = raw.message;
    return run;
  } catch {
    return undefined;
  }
}

export async function removeRunRecord(storage: MirrorStorage): Promise<void> {
  await storage.remove(storage.meta(RUN_NAME));
}
