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
  /** returned twice in the window alike, or exactly on its end (which the next window owns): true edge duplicates */
  dropped: number;
  /**
   * ids returned twice in the window with different content (a server fault, or a swap updated while it was being
   * served): counted apart from duplicates and reported; the version with the later updatedAt is kept
   */
  conflicts: number;
  /**
   * kept swaps that carry balanceChanges (the spec gives both operations one schema; a list may send them): the
   * formats of fixed columns (CSV, Parquet) leave them out, and must say so
   */
  withBalanceChanges: number;
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
  /** each id kept: where, its updatedAt, and what it was (its bytes, or the swap) to tell a repeat from a new version */
  private readonly seen = new Map<string, { at: number; updatedAt: unknown; content: Buffer | Swap; balance: boolean }>();
  private dropped = 0;
  private conflicts = 0;
  private withBalanceChanges = 0;
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

  /** A swap as the window reader visits it (SwapVisitor, read-window.ts). */
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
    const text = typeof raw === 'string' ? raw : '';
    const entry = { value: undefined as T, ms: Number.isNaN(ms) ? Number.MAX_SAFE_INTEGER : ms, subMs: subMsOf(text), raw: text, id };
    const held = id === '' ? undefined : this.seen.get(id);
    const balance = swap.balanceChanges != null;
    if (held) {
      if (sameContent(held.content, bytes ?? swap)) {
        this.dropped += 1;
        return;
      }
      this.conflicts += 1;
      // As sync keeps a swap: the later updatedAt wins, and at the same one the server's latest word.
      if (laterUpdate(held.updatedAt, swap.updatedAt) < 0) return;
      entry.value = this.make(swap, bytes);
      this.keyed[held.at] = entry;
      // The count is of the versions kept: the replaced one's balance changes are no longer written.
      this.withBalanceChanges += Number(balance) - Number(held.balance);
      this.seen.set(id, { at: held.at, updatedAt: swap.updatedAt, content: bytes ?? swap, balance });
      return;
    }
    if (id !== '') this.seen.set(id, { at: this.keyed.length, updatedAt: swap.updatedAt, content: bytes ?? swap, balance });
    if (balance) this.withBalanceChanges += 1;
    entry.value = this.make(swap, bytes);
    this.keyed.push(entry);
  };

  result(): Kept<T> {
    this.seen.clear();
    this.keyed.sort(compare);
    return {
      swaps: this.keyed.map((k) => k.value),
      dropped: this.dropped,
      conflicts: this.conflicts,
      withBalanceChanges: this.withBalanceChanges,
      outside: this.outside,
    };
  }
}

/** Whether two copies of a swap are the same: byte for byte, or as JSON where a copy came without its bytes. */
function sameContent(a: Buffer | Swap, b: Buffer | Swap): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  const text = (x: Buffer | Swap) => (Buffer.isBuffer(x) ? x.toString('utf8') : JSON.stringify(x));
  return text(a) === text(b);
}

/**
 * Negative when `next` is older than `held`: by updatedAt's millisecond, then its digits past it (the API writes
 * seven); an unreadable or equal one is not older (the copy served later is the server's latest word).
 */
function laterUpdate(held: unknown, next: unknown): number {
  if (typeof held !== 'string' || typeof next !== 'string') return 0;
  const a = parseApiTime(held);
  const b = parseApiTime(next);
  if (Number.isNaN(a) || Number.isNaN(b)) return 0;
  if (a !== b) return b - a;
  const fraction = (t: string) => (/\.(\d+)/.exec(t)?.[1] ?? '').padEnd(9, '0');
  return fraction(next) < fraction(held) ? -1 : 0;
}
