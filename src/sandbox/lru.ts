/**
 * A least-recently-used cache bounded by a total cost (e.g. swaps held), not by entry count. The order of use is a
 * list of its own: a Map alone finds its least recent entry by walking past every entry deleted before it, which made
 * each miss cost O(n) once a scan outgrew the cache (1.2 M misses took 87 s).
 */
interface Entry<K, V> {
  key: K;
  value: V;
  cost: number;
  /** toward the least recent */
  older: Entry<K, V> | undefined;
  /** toward the most recent */
  newer: Entry<K, V> | undefined;
}

export class Lru<K, V> {
  private readonly entries = new Map<K, Entry<K, V>>();
  private oldest: Entry<K, V> | undefined;
  private newest: Entry<K, V> | undefined;
  private total = 0;

  constructor(private readonly budget: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.unlink(entry);
    this.append(entry);
    return entry.value;
  }

  set(key: K, value: V, cost = 1): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.cost;
      this.unlink(old);
    }
    const entry: Entry<K, V> = { key, value, cost, older: undefined, newer: undefined };
    this.entries.set(key, entry);
    this.append(entry);
    this.total += cost;
    // The least recent go first; the entry just set stays, whatever it costs.
    while (this.total > this.budget && this.entries.size > 1 && this.oldest) {
      const evicted = this.oldest;
      this.unlink(evicted);
      this.entries.delete(evicted.key);
      this.total -= evicted.cost;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private append(entry: Entry<K, V>): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry<K, V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }
}
