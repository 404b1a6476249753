/**
 * When swaps happen. A swap is anchored to the minute of its depositedAt (its
 * earliest time) and every later time is the previous one plus a bounded
 * delay, so a window query on any time field only needs the anchor minutes
 * [windowStart - MAX_OFFSET[field], windowEnd]. This layer is cheap (a few
 * PRNG draws per swap) and is all a window scan touches; full swaps are built
 * only for the matches.
 */
import { hash4, Rng } from './random.js';

export const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** No swaps before 2020-01-01 (the first bridges tracked) or after 2106 (ids keep epoch seconds in 32 bits). */
export const FIRST_MINUTE = Date.UTC(2020, 0, 1) / MINUTE;
export const LAST_MINUTE = Math.floor(0xffffffff / 60) - 1;

/** Per-minute counts stay far below the 24-bit index the ids and hashes carry. */
const MAX_PER_MINUTE = 1_000_000;

/** Indices of the times in a skeleton row, in lifecycle order. */
export const T_DEPOSITED = 0;
export const T_WITHDRAWN = 1;
export const T_DETECTED = 2;
export const T_COMPLETED = 3;
export const T_UPDATED = 4;
export const TIME_FIELDS = ['depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'] as const;

/**
 * Largest delay of each time after the previous one (inclusive):
 * depositedAt ≤ withdrawnAt ≤ detectedAt ≤ completedAt ≤ updatedAt.
 */
export const MAX_DELAY_MS = {
  withdrawnAfterDeposited: 15 * MINUTE,
  detectedAfterWithdrawn: 2 * MINUTE,
  completedAfterDetected: 3 * MINUTE,
  updatedAfterCompleted: 6 * HOUR,
} as const;

/** Largest offset of each time from the start of its anchor minute, by time index. */
export const MAX_OFFSET_MS: readonly number[] = (() => {
  const d = MAX_DELAY_MS;
  const w = MINUTE + d.withdrawnAfterDeposited;
  const det = w + d.detectedAfterWithdrawn;
  const c = det + d.completedAfterDetected;
  return [MINUTE, w, det, c, c + d.updatedAfterCompleted];
})();

const TAG_COUNT = 0xc0;
const TAG_TIMES = 0x71;
const TAG_LATE = 0x1a;
const TAG_FAR = 0x3f;

/** Swaps anchored in a minute: about swapsPerHour/60, with a daily swell and per-minute noise. */
export function minuteCount(seed: number, swapsPerHour: number, minute: number): number {
  if (!(swapsPerHour > 0) || minute < FIRST_MINUTE || minute > LAST_MINUTE) return 0;
  const base = swapsPerHour / 60;
  const diurnal = 1 + 0.25 * Math.sin(((minute % 1440) / 1440) * 2 * Math.PI - Math.PI / 2);
  const noise = 0.75 + (0.5 * hash4(seed, minute, 0, TAG_COUNT)) / 4294967296;
  const dither = hash4(seed, minute, 1, TAG_COUNT) / 4294967296;
  return Math.min(MAX_PER_MINUTE, Math.floor(base * diurnal * noise + dither));
}

/** Some times land exactly on whole minutes or seconds, so window edges matter. Ceil keeps the order. */
function snap(t: number, r: Rng): number {
  const u = r.float();
  if (u < 0.05) return Math.ceil(t / MINUTE) * MINUTE;
  if (u < 0.25) return Math.ceil(t / 1000) * 1000;
  return t;
}

/** 0: never updated after completion; 1: updated within minutes; 2: updated hours later. */
export type UpdateKind = 0 | 1 | 2;

/** Share of swaps whose USD pricing is processed after completion (a first update, minutes to hours later), at updateRate 1. */
export const NEAR_UPDATE_SHARE = 0.45;

/**
 * Corrections long after completion (re-pricing, a late mismatch verdict), at updateRate 1:
 * some just past the vendor's 48 h re-scan, a few days later. Each class spans a few hours only,
 * so a Filter=Updated window scans a few bounded ranges of anchor minutes, not days of them.
 */
export const FAR_UPDATES = [
  { share: 0.04, minMs: 48 * HOUR + MINUTE, maxMs: 51 * HOUR },
  { share: 0.015, minMs: 5 * 24 * HOUR, maxMs: 5 * 24 * HOUR + 3 * HOUR },
] as const;

/** Writes the five times of one swap into `out` at `at` (updatedAt: its first update, or completedAt); returns how it was updated. */
export function swapTimes(seed: number, minute: number, index: number, out: Float64Array, at: number, updateRate = 1): UpdateKind {
  const r = Rng.of(seed, minute, index, TAG_TIMES);
  let u = r.float();
  const deposited = minute * MINUTE + (u < 0.04 ? 0 : u < 0.25 ? r.int(60) * 1000 : r.int(MINUTE));
  // Bridge latency: mostly seconds to two minutes, a tail up to 14 min (+ ≤ 1 min snap).
  u = r.float();
  const bridgeDelay = u < 0.7 ? r.range(2000, 120_000) : u < 0.95 ? r.range(120_000, 480_000) : r.range(480_000, 840_000);
  const withdrawn = snap(deposited + bridgeDelay, r);
  const detected = snap(withdrawn + r.range(0, 60_000), r);
  const completed = snap(detected + r.range(500, 120_000), r);
  u = r.float();
  let kind: UpdateKind = 0;
  let updated = completed;
  // At rate 1: 55 % never updated, 30 % within minutes, 15 % hours later (the proportions stay at other rates).
  const near = Math.min(1, NEAR_UPDATE_SHARE * updateRate);
  if (u >= 1 - near) {
    kind = u < 1 - near * (15 / 45) ? 1 : 2;
    updated = snap(completed + (kind === 1 ? r.range(1000, 600_000) : r.range(600_000, 6 * HOUR - MINUTE)), r);
  }
  out[at] = deposited;
  out[at + 1] = withdrawn;
  out[at + 2] = detected;
  out[at + 3] = completed;
  out[at + 4] = updated;
  return kind;
}

/** The cheap per-minute layer: times, late flags and update kinds of every swap anchored there. */
export interface MinuteSkeleton {
  minute: number;
  count: number;
  /** count × 5 times (T_* order). */
  times: Float64Array;
  /** Extra delay before the swap becomes visible (lateByMs or 0). */
  lateBy: Float64Array;
  updateKind: Uint8Array;
  /** Time of the late correction, or 0 for none. */
  farAt: Float64Array;
  /**
   * The earliest and the latest of each time over the minute's swaps (T_* order; updatedAt's of the first
   * versions: the corrections are `corrected`), so a scan passes over a minute none of whose swaps can match.
   */
  earliest: Float64Array;
  latest: Float64Array;
  /** The swaps with a late correction (farAt ≠ 0), in order: only they can match an updatedAt past `latest`. */
  corrected: Uint32Array;
}

export interface TimelineConfig {
  seed: number;
  swapsPerHour: number;
  lateShare: number;
  lateByMs: number;
  /** Multiplier of the update shares; 0: no swap changes after completion. */
  updateRate: number;
}

export function buildSkeleton(config: TimelineConfig, minute: number): MinuteSkeleton {
  const count = minuteCount(config.seed, config.swapsPerHour, minute);
  const times = new Float64Array(count * 5);
  const lateBy = new Float64Array(count);
  const updateKind = new Uint8Array(count);
  const farAt = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    updateKind[i] = swapTimes(config.seed, minute, i, times, i * 5, config.updateRate);
    farAt[i] = farUpdateAt(config, minute, i, times[i * 5 + T_COMPLETED] as number);
    // A separate hash, so changing lateShare never changes the swaps themselves.
    if (config.lateShare > 0 && hash4(config.seed, minute, i, TAG_LATE) / 4294967296 < config.lateShare) lateBy[i] = config.lateByMs;
  }
  const earliest = new Float64Array(5).fill(Number.POSITIVE_INFINITY);
  const latest = new Float64Array(5).fill(Number.NEGATIVE_INFINITY);
  for (let i = 0; i < count * 5; i++) {
    const field = i % 5;
    const t = times[i] as number;
    if (t < (earliest[field] as number)) earliest[field] = t;
    if (t > (latest[field] as number)) latest[field] = t;
  }
  // Before its first update a swap shows its completedAt as updatedAt.
  if ((earliest[T_COMPLETED] as number) < (earliest[T_UPDATED] as number)) earliest[T_UPDATED] = earliest[T_COMPLETED] as number;
  const corrected = Uint32Array.from(farAt.keys()).filter((i) => farAt[i] !== 0);
  return { minute, count, times, lateBy, updateKind, farAt, earliest, latest, corrected };
}

/** A separate hash again: the update rate never changes a swap's first versions. */
function farUpdateAt(config: TimelineConfig, minute: number, index: number, completed: number): number {
  if (!(config.updateRate > 0)) return 0;
  const r = Rng.of(config.seed, minute, index, TAG_FAR);
  let u = r.float();
  for (const far of FAR_UPDATES) {
    const share = Math.min(1, far.share * config.updateRate);
    if (u < share) return Math.ceil((completed + r.range(far.minMs, far.maxMs)) / 1000) * 1000;
    u -= share;
  }
  return 0;
}

/** The updatedAt a swap shows at `now`: its latest version's time (versions at completedAt, the first update, the correction). */
export function updatedAtOf(sk: MinuteSkeleton, i: number, now: number): number {
  const far = sk.farAt[i] as number;
  if (far !== 0 && far <= now) return far;
  const updated = sk.times[i * 5 + T_UPDATED] as number;
  return updated <= now ? updated : (sk.times[i * 5 + T_COMPLETED] as number);
}

/** Which version a swap shows at `now`: 0 at completion, 1 after its first update, 2 after its correction. */
export function versionAt(sk: MinuteSkeleton, i: number, now: number): 0 | 1 | 2 {
  const far = sk.farAt[i] as number;
  if (far !== 0 && far <= now) return 2;
  return (sk.updateKind[i] as number) !== 0 && (sk.times[i * 5 + T_UPDATED] as number) <= now ? 1 : 0;
}

/**
 * Anchor-minute ranges that may hold a swap whose updatedAt at some clock lies in [from, to]:
 * the first update's range, and one per class of correction. Sorted and disjoint.
 */
export function updatedScanRanges(from: number, to: number): [number, number][] {
  const ranges: [number, number][] = [scanRange(T_UPDATED, from, to)];
  for (const far of FAR_UPDATES) {
    const first = Math.max(FIRST_MINUTE, Math.floor((from - MAX_OFFSET_MS[T_COMPLETED]! - far.maxMs - 1000) / MINUTE));
    const last = Math.min(LAST_MINUTE, Math.floor((to - far.minMs) / MINUTE));
    ranges.push([first, last]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [first, last] of ranges) {
    if (last < first) continue;
    const prev = merged[merged.length - 1];
    if (prev && first <= prev[1] + 1) prev[1] = Math.max(prev[1], last);
    else merged.push([first, last]);
  }
  return merged;
}

/** Anchor minutes that may hold a swap whose time `field` lies in [from, to]. */
export function scanRange(field: number, from: number, to: number): [number, number] {
  const first = Math.max(FIRST_MINUTE, Math.floor((from - (MAX_OFFSET_MS[field] ?? 0)) / MINUTE));
  const last = Math.min(LAST_MINUTE, Math.floor(to / MINUTE));
  return [first, last];
}
