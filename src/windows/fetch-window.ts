/**
 * Fetching one window. A window whose request keeps timing out after its
 * retries is split in halves, down to one minute, before it counts as failed:
 * a dense window can be too slow to serve whole.
 */
import type { SwapxClient } from '../api/client.js';
import { TimeoutError } from '../api/errors.js';
import type { DateRangeFilter, Swap } from '../api/types.js';
import { WindowKeeper, type Kept } from './order.js';
import { WINDOW_MS } from '../api/bounds.js';
import type { Window } from './plan.js';
import { windowReader, type ReadWindow } from './read-window.js';

export interface FetchStats {
  /** windows split after timing out */
  splits: number;
}

/**
 * The window's swaps, kept and sorted (order.ts). With `make`, each kept swap becomes what `make` returns
 * as it arrives (`raw`: its canonical bytes, see SwapVisitor), so the window's swaps are never all held as objects.
 * `source`: the client whose window reader (read-window.ts) asks, or a reader of its own (tests).
 */
export function fetchWindow(
  source: SwapxClient | ReadWindow,
  window: Pick<Window, 'from' | 'to'>,
  filter: DateRangeFilter | undefined,
  stats?: FetchStats,
  signal?: AbortSignal,
): Promise<Kept>;
export function fetchWindow<T>(
  source: SwapxClient | ReadWindow,
  window: Pick<Window, 'from' | 'to'>,
  filter: DateRangeFilter | undefined,
  stats: FetchStats,
  signal: AbortSignal | undefined,
  make: (swap: Swap, raw: Buffer | undefined) => T,
): Promise<Kept<T>>;
export async function fetchWindow<T>(
  source: SwapxClient | ReadWindow,
  window: Pick<Window, 'from' | 'to'>,
  filter: DateRangeFilter | undefined,
  stats: FetchStats = { splits: 0 },
  signal?: AbortSignal,
  make: (swap: Swap, raw: Buffer | undefined) => T = (swap) => swap as T,
): Promise<Kept<T>> {
  // One keeper for the window, whatever its requests: a split's parts are de-duplicated and sorted together (a swap
  // without a readable filter time comes back from each part, and sorts last in the window, not in each part).
  const keeper = new WindowKeeper(window.from, window.to, filter, make);
  const read = typeof source === 'function' ? source : windowReader(source);
  const fetchPart = async (from: number, to: number): Promise<void> => {
    keeper.part(from, to);
    try {
      await read({ from, to, filter }, keeper.offer, signal);
    } catch (error) {
      // A timeout comes before the first swap is visited (the body is read whole first): the part has added nothing.
      const span = to - from;
      if (!(error instanceof TimeoutError) || span < 2 * WINDOW_MS.min) throw error;
      stats.splits += 1;
      // Halves on whole seconds, so the sub-windows' edges stay exact in the query.
      const mid = from + Math.max(WINDOW_MS.min, Math.floor(span / 2 / 1000) * 1000);
      await fetchPart(from, mid);
      await fetchPart(mid, to);
    }
  };
  await fetchPart(window.from, window.to);
  return keeper.result();
}
