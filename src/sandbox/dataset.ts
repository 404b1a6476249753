/**
 * The swap data of one configuration (seed, rate, lateness), with the caches
 * that keep window scans cheap: minute skeletons (times only) and the JSON of
 * swaps already served. Pure apart from caching: the same inputs always give
 * the same output.
 */
import { FILTER_TIME_FIELD, type DateRangeFilter, type Swap } from '../api/types.js';
import { chainById } from './chains.js';
import { decodeId, openTx, SOURCE, type SwapRef } from './reversible-ids.js';
import { HEX_TX, txByteCandidates } from './formats.js';
import { Lru } from './lru.js';
import { seedKey } from './random.js';
import { buildSwap } from './swaps.js';
import {
  buildSkeleton,
  minuteCount,
  scanRange,
  T_COMPLETED,
  T_UPDATED,
  updatedAtOf,
  updatedScanRanges,
  versionAt,
  TIME_FIELDS,
  type MinuteSkeleton,
  type TimelineConfig,
} from './timeline.js';

export interface DataOptions {
  /** Seed of all generated data. Default 1. */
  seed?: number;
  /** Mean swaps per hour. Default 2000. */
  swapsPerHour?: number;
  /** Share (0..1) of swaps that become visible only lateByMs after completedAt. Default 0. */
  lateShare?: number;
  /** Extra visibility delay of late swaps, ms. Default 0. */
  lateByMs?: number;
  /**
   * How often swaps change after completion, as a multiple of the realistic rate (1): about 45 % get
   * their USD pricing minutes to hours later, 4 % a correction just past 48 h, 1.5 % one 5 days later.
   * 0: every swap keeps its first version. Default 1.
   */
  updateRate?: number;
}

export const DATA_DEFAULTS = { seed: 1, swapsPerHour: 2000, lateShare: 0, lateByMs: 0, updateRate: 1 } as const;

/** Skeleton rows kept (about 40 bytes each) and swaps' JSON kept (about 1.5 KB each). */
const SKELETON_BUDGET = 1_000_000;
const JSON_BUDGET = 50_000;
const INDEX_SPAN = 2 ** 24;
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** Anchor-minute ranges a window on `filter` scans. */
function anchorRanges(filter: DateRangeFilter, from: number, to: number): [number, number][] {
  const field = filterTimeIndex(filter);
  return field === T_UPDATED ? updatedScanRanges(from, to) : [scanRange(field, from, to)];
}

/** Index of a filter's time field in a skeleton row. */
export function filterTimeIndex(filter: DateRangeFilter): number {
  return TIME_FIELDS.indexOf(FILTER_TIME_FIELD[filter]);
}

export class SwapDataset {
  /** The seed folded to 32 bits; what every generator is keyed by. */
  readonly seed: number;
  private readonly config: TimelineConfig;
  private readonly skeletons = new Lru<number, MinuteSkeleton>(SKELETON_BUDGET);
  private readonly json = new Lru<number, Buffer>(JSON_BUDGET);

  constructor(options: DataOptions = {}) {
    this.seed = seedKey(options.seed ?? DATA_DEFAULTS.seed);
    this.config = {
      seed: this.seed,
      swapsPerHour: options.swapsPerHour ?? DATA_DEFAULTS.swapsPerHour,
      lateShare: options.lateShare ?? DATA_DEFAULTS.lateShare,
      lateByMs: options.lateByMs ?? DATA_DEFAULTS.lateByMs,
      updateRate: options.updateRate ?? DATA_DEFAULTS.updateRate,
    };
  }

  skeleton(minute: number): MinuteSkeleton {
    let sk = this.skeletons.get(minute);
    if (!sk) {
      sk = buildSkeleton(this.config, minute);
      this.skeletons.set(minute, sk, sk.count + 1);
    }
    return sk;
  }

  /** Visits swaps whose filter time lies in [from, to] (both inclusive) and that are visible at `now`, in anchor order. */
  private scan(from: number, to: number, filter: DateRangeFilter, now: number, visit: (sk: MinuteSkeleton, i: number) => void): void {
    const field = filterTimeIndex(filter);
    for (const [first, last] of anchorRanges(filter, from, to)) {
      for (let minute = first; minute <= last; minute++) this.scanMinute(minute, from, to, field, now, visit);
    }
  }

  private scanMinute(minute: number, from: number, to: number, field: number, now: number, visit: (sk: MinuteSkeleton, i: number) => void): void {
    const sk = this.skeleton(minute);
    const { times, lateBy } = sk;
    const visible = (i: number) => now >= (times[i * 5 + T_COMPLETED] as number) + (lateBy[i] as number);
    // Most minutes an updatedAt window scans lie days before it: only their corrected swaps can be in it.
    const apart = (sk.earliest[field] as number) > to || (sk.latest[field] as number) < from;
    if (field !== T_UPDATED) {
      if (apart) return;
      for (let i = 0; i < sk.count; i++) {
        const t = times[i * 5 + field] as number;
        if (t >= from && t <= to && visible(i)) visit(sk, i);
      }
      return;
    }
    // updatedAt is the one time that moves: a window on it sees each swap's version at `now`.
    const matches = (i: number) => {
      const t = updatedAtOf(sk, i, now);
      return t >= from && t <= to && visible(i);
    };
    if (apart) {
      for (const i of sk.corrected) if (matches(i)) visit(sk, i);
      return;
    }
    for (let i = 0; i < sk.count; i++) if (matches(i)) visit(sk, i);
  }

  /** The swap's latest version as of `now`. */
  private build(sk: MinuteSkeleton, index: number, withBalances: boolean, now: number): Swap {
    return buildSwap(
      this.seed,
      {
        minute: sk.minute,
        index,
        times: sk.times,
        at: index * 5,
        updateKind: sk.updateKind[index] as 0 | 1 | 2,
        version: versionAt(sk, index, now),
        updatedAt: updatedAtOf(sk, index, now),
      },
      withBalances,
    );
  }

  /** Swaps of a window, as the list operation returns them (deterministic, not sorted by time). */
  windowSwaps(from: number, to: number, filter: DateRangeFilter, now: number): Swap[] {
    const out: Swap[] = [];
    this.scan(from, to, filter, now, (sk, i) => out.push(this.build(sk, i, false, now)));
    return out;
  }

  /** Like windowSwaps, one swap at a time, for ranges too long to hold in memory. */
  *iterateWindow(from: number, to: number, filter: DateRangeFilter, now: number): Generator<Swap> {
    // Minute by minute, so the generator never holds more than one minute of matches.
    for (const [first, last] of anchorRanges(filter, from, to)) {
      for (let minute = first; minute <= last; minute++) {
        const batch: Swap[] = [];
        this.scanMinute(minute, from, to, filterTimeIndex(filter), now, (sk, i) => batch.push(this.build(sk, i, false, now)));
        yield* batch;
      }
    }
  }

  /** How many swaps windowSwaps would return, without building them. */
  countWindow(from: number, to: number, filter: DateRangeFilter, now: number): number {
    let n = 0;
    this.scan(from, to, filter, now, () => n++);
    return n;
  }

  /**
   * The same as windowSwaps, serialised as the UTF-8 bytes of a JSON array; reuses the bytes of swaps served
   * before. Kept as bytes, not strings: outside the JS heap, the cache is not copied by every young-generation
   * collection that finds it new, and a window is joined by copying bytes, not encoded again.
   */
  windowJson(from: number, to: number, filter: DateRangeFilter, now: number): Buffer {
    const parts: Buffer[] = [OPEN];
    this.scan(from, to, filter, now, (sk, i) => {
      const key = (sk.minute * INDEX_SPAN + i) * 4 + versionAt(sk, i, now);
      let bytes = this.json.get(key);
      if (bytes === undefined) {
        bytes = Buffer.from(JSON.stringify(this.build(sk, i, false, now)));
        this.json.set(key, bytes);
      }
      if (parts.length > 1) parts.push(COMMA);
      parts.push(bytes);
    });
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }

  /** The swap at (minute, index) with balanceChanges, if it exists and is visible at `now`. */
  swapAt(ref: SwapRef, now: number): Swap | undefined {
    if (!Number.isInteger(ref.minute) || ref.index >= minuteCount(this.seed, this.config.swapsPerHour, ref.minute)) return undefined;
    const sk = this.skeleton(ref.minute);
    const row = ref.index * 5;
    if (now < (sk.times[row + T_COMPLETED] as number) + (sk.lateBy[ref.index] as number)) return undefined;
    return this.build(sk, ref.index, true, now);
  }

  /** Lookup by system swap id or by source/destination transaction hash; [] when nothing matches. */
  find(identifier: string, now: number): Swap[] {
    const found: Swap[] = [];
    const add = (swap: Swap | undefined) => {
      if (swap && !found.some((s) => s.id === swap.id)) found.push(swap);
    };
    const idRef = decodeId(this.seed, identifier);
    if (idRef) {
      const swap = this.swapAt(idRef, now);
      if (swap && swap.id === identifier.toLowerCase()) add(swap);
    }
    for (const bytes of txByteCandidates(identifier)) {
      const ref = openTx(this.seed, bytes);
      if (!ref) continue;
      const swap = this.swapAt(ref, now);
      if (!swap) continue;
      const tx = ref.side === SOURCE ? swap.sourceTransaction : swap.destinationTransaction;
      const chain = chainById((ref.side === SOURCE ? swap.sourceChain : swap.destinationChain) ?? '');
      const hex = chain !== undefined && HEX_TX[chain.family];
      if (tx !== null && (hex ? tx.toLowerCase() === identifier.toLowerCase() : tx === identifier)) add(swap);
    }
    return found;
  }
}

const shared = new Map<string, SwapDataset>();

/**
 * One dataset (and cache) per data configuration, shared by the sandboxes and
 * the pure functions of this process, so expected data computed in a test or
 * benchmark reuses what the server already generated.
 */
export function datasetFor(options: DataOptions = {}): SwapDataset {
  const key = [
    options.seed ?? DATA_DEFAULTS.seed,
    options.swapsPerHour ?? DATA_DEFAULTS.swapsPerHour,
    options.lateShare ?? DATA_DEFAULTS.lateShare,
    options.lateByMs ?? DATA_DEFAULTS.lateByMs,
    options.updateRate ?? DATA_DEFAULTS.updateRate,
  ].join('|');
  let dataset = shared.get(key);
  if (!dataset) {
    // Holders keep their reference; dropping the map only stops sharing.
    if (shared.size >= 4) shared.clear();
    dataset = new SwapDataset(options);
    shared.set(key, dataset);
  }
  return dataset;
}
