/**
 * A cache bounded by a total cost (e.g. swaps held), not by entry count, that keeps what was used recently: two
 * generations, each holding at most half the budget. A value set or found goes into the current one; when that is
 * full, it becomes the previous one and the previous one is dropped whole. Nothing is ever evicted one entry at a
 * time: a Map's first entry is found by walking past every entry deleted before it, which made an LRU over a Map
 * cost O(n) a miss once a scan outgrew it (a range larger than the cache: 1.2 M misses took 87 s).
 */
export class Lru<K, V> {
  private current = new Map<K, { value: V; cost: number }>();
  private previous = new Map<K, { value: V; cost: number }>();
  private currentCost = 0;

  constructor(private readonly budget: number) {}

  get(key: K): V | undefined {
    const entry = this.current.get(key);
    if (entry) return entry.value;
    const old = this.previous.get(key);
    if (!old) return undefined;
    this.previous.delete(key);
    this.keep(key, old);
    return old.value;
  }

  set(key: K, value: V, cost = 1): void {
    const old = this.current.get(key);
    if (old) {
      this.currentCost -= old.cost;
      this.current.delete(key);
    }
    this.previous.delete(key);
    this.keep(key, { value, cost });
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  private keep(key: K, entry: { value: V; cost: number }): void {
    if (this.currentCost + entry.cost > this.budget / 2 && this.current.size > 0) {
      this.previous = this.current;
      this.current = new Map();
      this.currentCost = 0;
    }
    this.current.set(key, entry);
    this.currentCost += entry.cost;
  }
}
