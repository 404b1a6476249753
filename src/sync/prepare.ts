/**
 * What a sync checks against its options and the saved state before it fetches anything: the base URL (a move is
 * the user's to say), the store's settings, the fields a mirror needs, and where it starts. Each failure is a
 * MirrorRefusedError (exit 2; errors.ts), thrown before the lock and again under it.
 */
import { MirrorRefusedError } from './errors.js';
import { type MirrorQuery, type MirrorState, type MirrorStore, missingKeyFields } from './store.js';

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
  /** a start was given that is not the mirror's: it continues from its cursor (the engine says so) */
  ignoredSince: boolean;
}

/** Every check against the options and the saved state. */
export function prepare<Q extends MirrorQuery>(options: RunStart, store: MirrorStore<Q>, saved: MirrorState<Q> | undefined): Prepared<Q> {
  const from = saved?.query.baseUrl;
  const moved = from !== undefined && from !== options.baseUrl;
  if (moved && !options.moveBaseUrl) {
    throw new MirrorRefusedError(store.name, { reason: 'base-url', was: from, now: options.baseUrl });
  }
  const query = store.resolveQuery(options.baseUrl, saved?.query);
  checkFields(query, store.name);
  const { since, ignoredSince } = checkStart({ ...options, dir: store.name }, saved);
  return { query, since, movedFrom: moved ? from : undefined, ignoredSince };
}

/** A mirror holds one row per swap, its latest version: that takes the id, completedAt and updatedAt of each row. */
function checkFields(query: MirrorQuery, name: string): void {
  const missing = missingKeyFields(query.fields);
  if (missing.length > 0) throw new MirrorRefusedError(name, { reason: 'fields', missing });
}

/**
 * Where the run starts, checked against the state: the first run needs a start; later runs continue
 * from the cursor, and a start that differs from the state's is ignored (the caller says so).
 */
export function checkStart(
  options: { dir: string; since: number | undefined; until: number | undefined },
  saved: MirrorState | undefined,
): { since: number; ignoredSince: boolean } {
  if (!saved) {
    if (options.since === undefined) throw new MirrorRefusedError(options.dir, { reason: 'no-start' });
    return { since: options.since, ignoredSince: false };
  }
  if ((options.until ?? saved.cursor) < saved.cursor) {
    throw new MirrorRefusedError(options.dir, { reason: 'until', until: options.until!, cursor: saved.cursor });
  }
  return { since: saved.since, ignoredSince: options.since !== undefined && options.since !== saved.since };
}
