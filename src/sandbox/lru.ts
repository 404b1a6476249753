/** A least-recently-used cache bounded by a total cost (e.g. swaps held), not by entry count. */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; cost: number }>();
  private total = 0;

  constructor(private readonly budget: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-insert: a Map iterates in insertion order, so the first key is the least recent.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, cost = 1): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.cost;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, cost });
    this.total += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.budget || this.entries.size <= 1) break;
      this.entries.delete(oldest);
      this.total -= entry.cost;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
