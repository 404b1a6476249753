/**
 * What a sync checks against its options and the saved state before it fetches anything: the base URL (a move is
 * the user's to say), the store's settings, the fields a mirror needs, and where it starts. Each failure is a
 * UsageError (exit 2), thrown before the lock and again under it.
 */
import { UsageError } from '../api/errors.js';
import { formatUtc } from '../util/time.js';
import type { MirrorQuery, MirrorState, MirrorStore } from './store.js';

/** What of the run's options the checks read. */
export interface RunStart {
  /** the API this run reads */
  baseUrl: string;
  moveBaseUrl: boolean;
  since: number | undefined;
  until: number | undefined;
}

export interface Prepared<Q extends MirrorQuery> {
  query: Q;
  since: number;
  movedFrom: string | undefined;
}

/** Every check against the options and the saved state; `note` says a --since ignored. */
export function prepare<Q extends MirrorQuery>(
  options: RunStart,
  store: MirrorStore<Q>,
  saved: MirrorState<Q> | undefined,
  note?: (message: string) => void,
): Prepared<Q> {
  const from = saved?.query.baseUrl;
  const moved = from !== undefined && from !== options.baseUrl;
  if (moved && !options.moveBaseUrl) {
    throw new UsageError(
      `${store.name} holds a sync of another query (base URL was ${JSON.stringify(from)}, now ${JSON.stringify(options.baseUrl)}); if the API moved there, run again with --move-base-url to continue this mirror, else sync into a new --out dir`,
    );
  }
  const query = store.resolveQuery(options.baseUrl, saved?.query);
  checkFields(query, store.name);
  const { since, ignoredSince } = checkStart({ ...options, dir: store.name }, saved);
  if (ignoredSince && note) {
    note(
      `--since ignored: ${store.name} syncs from ${formatUtc(saved!.since)} and continues from its cursor ${formatUtc(saved!.cursor)} (a new start needs a new --out dir)`,
    );
  }
  return { query, since, movedFrom: moved ? from : undefined };
}

/** A mirror holds one row per swap, its latest version: that takes the id, completedAt and updatedAt of each row. */
function checkFields(query: MirrorQuery, name: string): void {
  const missing = ['id', 'completedAt', 'updatedAt'].filter((field) => !query.fields.includes(field));
  if (missing.length > 0) {
    throw new UsageError(
      `${name} syncs --fields without ${missing.join(' and ')}, which a mirror that keeps the latest version of each swap needs; sync into a new --out dir`,
    );
  }
}

/**
 * Where the run starts, checked against the state: the first run needs --since; later runs continue
 * from the cursor, and a --since that differs from the state's start is ignored (the caller warns).
 */
export function checkStart(
  options: { dir: string; since: number | undefined; until: number | undefined },
  saved: MirrorState | undefined,
): { since: number; ignoredSince: boolean } {
  if (!saved) {
    if (options.since === undefined) {
      throw new UsageError(`${options.dir} has no sync state yet: the first run needs --since <time>, where the sync starts (e.g. --since 2026-11-01)`);
    }
    return { since: options.since, ignoredSince: false };
  }
  if ((options.until ?? saved.cursor) < saved.cursor) {
    throw new UsageError(
      `--until ${formatUtc(options.until!)} is before the cursor of ${options.dir} (${formatUtc(saved.cursor)}): those swaps are synced already`,
    );
  }
  return { since: saved.since, ignoredSince: options.since !== undefined && options.since !== saved.since };
}
