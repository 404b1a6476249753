/**
 * Where a sync keeps its mirror: the seam between the engine (engine.ts and
 * step.ts plan the passes, the cursors and the re-scan, the same for every
 * destination) and a store, which holds one row per swap, its latest
 * version, and the state that says how far the mirror is current: a folder
 * of daily partitions (folder-store.ts) or a database table.
 *
 * The engine calls a store in this order: `readState` (before the lock, to
 * refuse bad input before any request), `open` (the lock, repairs, the state
 * again under the lock), then per step `add` for each row and `commit` at
 * each checkpoint, and `close` at the end, whatever happened. A store never
 * writes state that describes rows not durable with it: `commit` makes the
 * rows and the state durable together (a folder: partitions first, then the
 * state; a database: one transaction).
 */
import type { Swap } from '../api/types.js';

/** What every row of a mirror keeps: one row per swap id, in its completedAt partition, the latest by updatedAt. */
export const MIRROR_KEY_FIELDS: readonly string[] = ['id', 'completedAt', 'updatedAt'];

/** Which of MIRROR_KEY_FIELDS `fields` lacks. */
export function missingKeyFields(fields: readonly string[]): string[] {
  return MIRROR_KEY_FIELDS.filter((field) => !fields.includes(field));
}

/** What a mirror holds, saved with its cursors: a run of another query is refused. A store adds its own settings (a folder's format). */
export interface MirrorQuery {
  /** the API the rows come from; a mirror follows it to a new address only when the user says so */
  baseUrl: string;
  filter: 'Completed';
  /** the fields each row keeps: MIRROR_KEY_FIELDS among them */
  fields: string[];
}

/** The saved state of a mirror: its query and its cursors, all epoch ms. */
export interface MirrorState<Q extends MirrorQuery = MirrorQuery> {
  query: Q;
  /** the first run's --since: the mirror holds swaps completed from here */
  since: number;
  /** completions cursor: every swap completed in [since, cursor) and visible when fetched is held */
  cursor: number;
  /**
   * updates cursor: every row held reflects every version of its swap with an updatedAt before this.
   * The largest updatedAt held, never past the end of the Updated windows fetched (nor the server's clock then).
   */
  updatedCursor: number;
  /** the cursor when a re-scan last reached it; the next re-scan starts at rescanBase − lag */
  rescanBase: number;
  /** the server's clock when that re-scan's step began */
  rescannedAt: number | undefined;
  /** a re-scan cut short by a kill got this far: the next one continues here, not from its start */
  rescannedTo?: number;
}

/** The state of a new mirror that starts at `since`: every cursor there, no re-scan yet. */
export function newState<Q extends MirrorQuery>(query: Q, since: number): MirrorState<Q> {
  return { query, since, cursor: since, updatedCursor: since, rescanBase: since, rescannedAt: undefined };
}

/** A run of a sync, as the mirror keeps the last one. */
export interface RunRecord {
  /** epoch ms, this machine's clock */
  startedAt: number;
  endedAt?: number;
  outcome: 'running' | 'complete' | 'failed' | 'interrupted';
  /** why a failed run failed: its error's one line */
  message?: string;
}

/** Where a mirror stands (`swapx sync status`). */
export interface MirrorStatus<Q extends MirrorQuery = MirrorQuery> {
  state: MirrorState<Q>;
  /** the last run recorded, if any */
  lastRun: RunRecord | undefined;
  /** swaps held */
  swaps: number;
  /** what holds them: "12 partitions of jsonl", "table public.xflow_swaps" */
  holds: string;
}

/** A swap as the engine hands it to a store. */
export interface MirrorRow {
  swap: Swap;
  /** completedAt in epoch ms (the window reader refuses a swap without one) */
  completedMs: number;
}

/** What a commit changed. */
export interface Committed {
  /** swaps not held before, completed at or after the `newFrom` of the commit */
  newSwaps: number;
  /** swaps not held before, completed before it (late arrivals) */
  lateSwaps: number;
  /** swaps held in an older version, now replaced by a newer one */
  updatedSwaps: number;
  /** what was rewritten, in the order written: partition files relative to the folder, or a table's name */
  touched: string[];
  /**
   * Values the destination cannot hold as they are in their typed place (a time out of a column type's range, a
   * value too long for an index): each row was written with what fits, and the value kept as sent beside it. The
   * engine warns naming each and counts them (`unfitValues`); the mirror moves on.
   */
  unfit?: UnfitValue[];
  /** fields the spec does not name that the API sent with the rows, and that the store's rows leave out (fixed columns) */
  leftOut?: string[];
}

/** A value a destination kept aside: which swap, which field, and why. */
export interface UnfitValue {
  id: string;
  field: string;
  /** "is out of the range of timestamptz", "is 3,145,728 bytes, more than an index holds" */
  reason: string;
}

export interface MirrorStore<Q extends MirrorQuery = MirrorQuery> {
  /** what messages name: the directory, or the table and database */
  readonly name: string;
  /**
   * The query this run keeps: the store's own settings as given, else as `saved` has them, else the defaults, with
   * `baseUrl`. Throws UsageError naming a setting that differs from `saved`; the base URL is the engine's to compare.
   */
  resolveQuery(baseUrl: string, saved: Q | undefined): Q;
  /** The saved state, or undefined for a new mirror; read without the lock. Unreadable: UsageError, left as it is. */
  readState(): Promise<MirrorState<Q> | undefined>;
  /**
   * Takes the one-writer lock (SyncLockedError, exit 1, when another sync holds it), repairs what a killed run left,
   * and reads the state again under the lock. `note` tells the user what was repaired.
   */
  open(note: (message: string) => void): Promise<MirrorState<Q> | undefined>;
  /** Throws SyncLockedError when the lock is no longer this sync's (taken over, or its session lost). */
  checkLock(): Promise<void>;
  /**
   * Buffers a row until the next commit. The store decides what is newer: a later updatedAt, its digits past the
   * millisecond included; a key repeated before a commit is collapsed to its latest version; an older or the same
   * version as held changes nothing.
   */
  add(row: MirrorRow): Promise<void>;
  /** rows buffered */
  readonly buffered: number;
  /**
   * Makes every buffered row and `next` durable together, or neither: after a crash at any point the saved state
   * describes no row that is not held. A commit with no rows records `next` alone (the start of a new mirror).
   * Rows completed from `newFrom` on count as new, before it as late.
   */
  commit(next: MirrorState<Q>, newFrom: number): Promise<Committed>;
  /**
   * Releases the lock and what the store holds open. `discard`: the mirror is new and its first run failed having
   * committed nothing past its start: the store removes what it created, so such a run leaves nothing. (A first run
   * that failed after committing rows or cursors is kept, for the cron line to continue.)
   */
  close(discard: boolean): Promise<void>;
  /**
   * Records a run's start (outcome 'running') and, at its end, how it ended, for `swapx sync status`: best effort,
   * outside the commits (a run whose store failed may record no end; status then says so). Under the lock.
   */
  recordRun?(run: RunRecord): Promise<void>;
  /** Where the mirror stands, read without the lock (a sync may be running): undefined when it has no state. */
  readStatus?(): Promise<MirrorStatus<Q> | undefined>;
  /**
   * The process ends at once (a second Ctrl-C): release, synchronously, a lock that would outlive it (a lock file).
   * What is half-written stays as a crash leaves it, for the next run to repair. Not needed by a lock that ends with
   * its connection.
   */
  closeNow?(): void;
}
