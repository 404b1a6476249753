/**
 * What a window keeps and in which order. The API includes both ends of a
 * window, so a swap exactly on an edge comes back from two windows: each
 * window keeps only [from, to), which writes it once, and sorts by the
 * filter's timestamp then id, so output bytes do not depend on timing.
 */
import { DEFAULT_FILTER, FILTER_TIME_FIELD, type DateRangeFilter, type Swap } from '../api/types.js';
import { parseApiTime } from '../util/time.js';

export interface Kept<T = Swap> {
  /** what the window keeps (the swaps, or what the caller made of each), sorted */
  swaps: T[];
  /** returned twice in the window, or exactly on its end (which the next window owns): true edge duplicates */
  dropped: number;
  /**
   * returned although their filter time lies outside the window asked for (a server fault): not written by
   * this window, counted apart from edge duplicates and reported, never dropped silently
   */
  outside: Swap[];
}

interface Keyed<T> {
  value: T;
  ms: number;
  /** the digits past the millisecond, in ns (the API's times carry up to seven fractional digits) */
  subMs: number;
  raw: string;
  id: string;
}

/** ".1234567" → 456,700 ns; none (".123", a whole second: a serializer trims trailing zeros) → 0. */
function subMsOf(raw: string): number {
  const digits = /\.\d{3}(\d{1,6})/.exec(raw)?.[1];
  return digits === undefined ? 0 : Number(digits.padEnd(6, '0'));
}

function compare<T>(a: Keyed<T>, b: Keyed<T>): number {
  if (a.ms !== b.ms) return a.ms - b.ms;
  if (a.subMs !== b.subMs) return a.subMs - b.subMs;
  if (a.raw !== b.raw) return a.raw < b.raw ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Sorts a window's swaps as they arrive, one at a time: keeps the swaps whose filter time lies in [from, to),
 * once each by id, and holds for each only what the caller makes of it (its encoded row, say), not the swap.
 */
export class WindowKeeper<T> {
  private readonly field: (typeof FILTER_TIME_FIELD)[DateRangeFilter];
  private readonly keyed: Keyed<T>[] = [];
  private readonly seen = new Set<string>();
  private dropped = 0;
  private readonly outside: Swap[] = [];

  constructor(
    private from: number,
    private to: number,
    filter: DateRangeFilter | undefined,
    private readonly make: (swap: Swap, raw: Buffer | undefined) => T,
  ) {
    this.field = FILTER_TIME_FIELD[filter ?? DEFAULT_FILTER];
  }

  /**
   * The part of the window the next swaps answer (a window split after timeouts is asked for in parts): its edges
   * decide what is an edge duplicate or outside, as for a window of its own; the ids seen and the order stay the
   * window's, so a swap that comes back from two parts is kept once.
   */
  part(from: number, to: number): void {
    this.from = from;
    this.to = to;
  }

  /** A swap as the client visits it (SwapVisitor). */
  readonly offer = (swap: Swap, bytes?: Buffer): void => {
    const raw = swap[this.field];
    const ms = typeof raw === 'string' ? parseApiTime(raw) : Number.NaN;
    // A swap without a readable filter time cannot be placed on an edge: the window that returned it keeps it.
    // The API includes both ends, so a swap exactly on `to` is the next window's: an edge duplicate.
    if (ms === this.to) {
      this.dropped += 1;
      return;
    }
    if (!Number.isNaN(ms) && (ms < this.from || ms > this.to)) {
      this.outside.push(swap);
      return;
    }
    // A swap without an id cannot be told from another: each is kept.
    const id = swap.id ?? '';
    if (id !== '') {
      if (this.seen.has(id)) {
        this.dropped += 1;
        return;
      }
      this.seen.add(id);
    }
    const text = typeof raw === 'string' ? raw : '';
    this.keyed.push({ value: this.make(swap, bytes), ms: Number.isNaN(ms) ? Number.MAX_SAFE_INTEGER : ms, subMs: subMsOf(text), raw: text, id });
  };

  result(): Kept<T> {
    this.keyed.sort(compare);
    return { swaps: this.keyed.map((k) => k.value), dropped: this.dropped, outside: this.outside };
  }
}
