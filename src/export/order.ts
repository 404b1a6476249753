/**
 * What a window keeps and in which order. The API includes both ends of a
 * window, so a swap exactly on an edge comes back from two windows: each
 * window keeps only [from, to), which writes it once, and sorts by the
 * filter's timestamp then id, so output bytes do not depend on timing.
 */
import { DEFAULT_FILTER, FILTER_TIME_FIELD, type DateRangeFilter, type Swap } from '../api/types.js';
import { parseApiTime } from '../util/time.js';

export interface Kept {
  swaps: Swap[];
  /** returned twice in the window, or exactly on its end (which the next window owns): true edge duplicates */
  dropped: number;
  /**
   * returned although their filter time lies outside the window asked for (a server fault): not written by
   * this window, counted apart from edge duplicates and reported, never dropped silently
   */
  outside: Swap[];
}

interface Keyed {
  swap: Swap;
  ms: number;
  raw: string;
  id: string;
}

function compare(a: Keyed, b: Keyed): number {
  if (a.ms !== b.ms) return a.ms - b.ms;
  if (a.raw !== b.raw) return a.raw < b.raw ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Keeps the swaps whose filter time lies in [from, to), once each by id, sorted. */
export function keepWindow(swaps: readonly Swap[], from: number, to: number, filter: DateRangeFilter | undefined): Kept {
  const field = FILTER_TIME_FIELD[filter ?? DEFAULT_FILTER];
  const keyed: Keyed[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  const outside: Swap[] = [];
  for (const swap of swaps) {
    const raw = swap[field];
    const ms = typeof raw === 'string' ? parseApiTime(raw) : Number.NaN;
    // A swap without a readable filter time cannot be placed on an edge: the window that returned it keeps it.
    // The API includes both ends, so a swap exactly on `to` is the next window's: an edge duplicate.
    if (ms === to) {
      dropped += 1;
      continue;
    }
    if (!Number.isNaN(ms) && (ms < from || ms > to)) {
      outside.push(swap);
      continue;
    }
    const id = swap.id ?? '';
    if (id !== '' && seen.has(id)) {
      dropped += 1;
      continue;
    }
    if (id !== '') seen.add(id);
    keyed.push({ swap, ms: Number.isNaN(ms) ? Number.MAX_SAFE_INTEGER : ms, raw: typeof raw === 'string' ? raw : '', id });
  }
  keyed.sort(compare);
  return { swaps: keyed.map((k) => k.swap), dropped, outside };
}
