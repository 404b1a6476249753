/**
 * The present a sync plans with. The server's clock (its Date header) is the present, not ours, so that a skewed
 * local clock moves no cursor, but it is believed only up to CLOCK_SKEW_MS ahead of ours: a proxy with a broken
 * clock in 2099 would otherwise walk the cursor through empty windows to a time no swap has reached, and save a
 * re-scan time that turns later re-scans off. A server clock behind ours is believed: it only holds the cursor back.
 */
import { formatElapsed, formatUtc } from '../util/time.js';
import type { MirrorQuery, MirrorState } from './store.js';

/** How far ahead of this machine's clock the server's is believed. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export interface Present {
  /** epoch ms */
  present: number;
  /** what to say when the server's clock was not believed */
  warning?: string;
}

/** The present from the server's clock, read at `local` by ours, or ours alone when it could not be read. */
export function believe(server: number | undefined, local: number): Present {
  if (server === undefined) return { present: local };
  const bound = local + CLOCK_SKEW_MS;
  if (server <= bound) return { present: server };
  return {
    present: bound,
    warning: `the API's clock (${formatUtc(server)}) is ${formatElapsed(server - local)} ahead of this machine's: the sync takes this machine's clock plus ${formatElapsed(CLOCK_SKEW_MS)} as the present (check both clocks, and any proxy's Date header)`,
  };
}

/**
 * A state saved under a clock that was wrong holds times past `beyond` (the present and the skew believed): a cursor
 * there would pass swaps not yet completed, a re-scan time there would turn re-scans off. Each cursor is pulled back
 * to `to`, and the re-scan time forgotten (the next step re-scans). Returns what was pulled back, for a note, or
 * undefined when nothing was. Safe: a cursor moved back only fetches again what is merged as the same version.
 */
export function pullBack<Q extends MirrorQuery>(state: MirrorState<Q>, beyond: number, to: number): string | undefined {
  const moved: string[] = [];
  const at = Math.max(state.since, to);
  if (state.cursor > beyond) {
    moved.push(`cursor ${formatUtc(state.cursor)}`);
    state.cursor = at;
  }
  if (state.updatedCursor > beyond) {
    moved.push(`updates cursor ${formatUtc(state.updatedCursor)}`);
    state.updatedCursor = at;
  }
  if (state.rescanBase > state.cursor) state.rescanBase = state.cursor;
  if (state.rescannedTo !== undefined && state.rescannedTo > state.cursor) delete state.rescannedTo;
  if (state.rescannedAt !== undefined && state.rescannedAt > beyond) {
    moved.push(`re-scan time ${formatUtc(state.rescannedAt)}`);
    state.rescannedAt = undefined;
  }
  return moved.length === 0 ? undefined : moved.join(', ');
}
