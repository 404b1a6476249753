import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/sandbox/lru.js';

describe('the sandbox cache', () => {
  it('holds at most its budget, and what was used since the last half-budget of sets', () => {
    const cache = new Lru<number, string>(10);
    for (let i = 0; i < 5; i++) cache.set(i, `v${i}`);
    // 0..4 fill the current half; 5 starts a new one, 0..4 are the previous one.
    cache.set(5, 'v5');
    expect(cache.get(0)).toBe('v0');
    for (let i = 6; i < 10; i++) cache.set(i, `v${i}`);
    // 0 was used again: it moved to the current half with 5..9, which is full: 1..4 go with the next set.
    cache.set(10, 'v10');
    expect([0, 1, 2, 3, 4, 5, 9, 10].map((k) => cache.get(k))).toEqual(['v0', undefined, undefined, undefined, undefined, 'v5', 'v9', 'v10']);
    expect(cache.size).toBeLessThanOrEqual(10);
  });

  it('counts each entry at its cost; a value set again replaces the one held', () => {
    const cache = new Lru<string, number>(100);
    cache.set('a', 1, 40);
    cache.set('a', 2, 40);
    expect([cache.get('a'), cache.size]).toEqual([2, 1]);
    cache.set('b', 3, 40);
    expect([cache.get('a'), cache.get('b')]).toEqual([2, 3]);
    // 40 + 40 + 60 is over the budget: the one used longest ago goes.
    cache.set('c', 4, 60);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 3, 4]);
  });

  it('stays fast when a scan outgrows it (each miss costs the same, not a walk over the entries)', () => {
    // 600,000 misses: a Map-based LRU, which walked past its deleted entries at each eviction, ran past the test's
    // timeout (87 s for 1.2 M); this takes a fraction of a second.
    const cache = new Lru<number, number>(50_000);
    for (let round = 0; round < 10; round++) for (let i = 0; i < 60_000; i++) if (cache.get(i) === undefined) cache.set(i, i);
    expect(cache.size).toBeLessThanOrEqual(50_000);
  });
});
