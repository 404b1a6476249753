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

/** Writes the five times of one swap into `out` at `at`; returns how it was updated. */
export function swapTimes(seed: number, minute: number, index: number, out: Float64Array, at: number): UpdateKind {
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
  if (u >= 0.55) {
    kind = u < 0.85 ? 1 : 2;
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
}

export interface TimelineConfig {
  seed: number;
  swapsPerHour: number;
  lateShare: number;
  lateByMs: number;
}

export function buildSkeleton(config: TimelineConfig, minute: number): MinuteSkeleton {
  const count = minuteCount(config.seed, config.swapsPerHour, minute);
  const times = new Float64Array(count * 5);
  const lateBy = new Float64Array(count);
  const updateKind = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    updateKind[i] = swapTimes(config.seed, minute, i, times, i * 5);
    // A separate hash, so changing lateShare never changes the swaps themselves.
    if (config.lateShare > 0 && hash4(config.seed, minute, i, TAG_LATE) / 4294967296 < config.lateShare) lateBy[i] = config.lateByMs;
  }
  return { minute, count, times, lateBy, updateKind };
}

/** Anchor minutes that may hold a swap whose time `field` lies in [from, to]. */
export function scanRange(field: number, from: number, to: number): [number, number] {
  const first = Math.max(FIRST_MINUTE, Math.floor((from - (MAX_OFFSET_MS[field] ?? 0)) / MINUTE));
  const last = Math.min(LAST_MINUTE, Math.floor(to / MINUTE));
  return [first, last];
}
