/**
 * The ids a sync has written over its re-scan horizon, grouped by the UTC
 * hour of their completedAt (`{"2026-11-20T10": ["id", ...]}`), so the set
 * stays compact on disk and is pruned an hour at a time.
 */

const HOUR_MS = 3_600_000;

/** "2026-11-20T10" for any time in that UTC hour. */
export function hourKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13);
}

/** The start of the UTC hour a key names; NaN when it is not a key. */
export function hourKeyStart(key: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}$/.test(key) ? Date.parse(`${key}:00:00Z`) : Number.NaN;
}

export function floorHour(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

export class IdSet {
  private readonly byHour = new Map<string, Set<string>>();
  private readonly all = new Set<string>();

  static fromJSON(record: Record<string, readonly string[]>): IdSet {
    const set = new IdSet();
    for (const [key, ids] of Object.entries(record)) {
      const start = hourKeyStart(key);
      for (const id of ids) set.add(id, start);
    }
    return set;
  }

  get size(): number {
    return this.all.size;
  }

  has(id: string): boolean {
    return this.all.has(id);
  }

  /** Records `id` under the hour of `completedMs`; false when it was already there. */
  add(id: string, completedMs: number): boolean {
    if (this.all.has(id)) return false;
    this.all.add(id);
    const key = hourKey(completedMs);
    let bucket = this.byHour.get(key);
    if (!bucket) {
      bucket = new Set();
      this.byHour.set(key, bucket);
    }
    bucket.add(id);
    return true;
  }

  /** Forgets every hour that starts before `fromMs` (an hour boundary). */
  pruneBefore(fromMs: number): void {
    for (const [key, bucket] of this.byHour) {
      if (hourKeyStart(key) < fromMs) {
        for (const id of bucket) this.all.delete(id);
        this.byHour.delete(key);
      }
    }
  }

  /** Hours in order, ids sorted: the same set always serialises to the same bytes. */
  toJSON(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const key of [...this.byHour.keys()].sort()) out[key] = [...this.byHour.get(key)!].sort();
    return out;
  }
}
