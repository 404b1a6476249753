import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/sandbox/lru.js';

describe('the sandbox cache', () => {
  it('holds at most its budget: the least recently used go first', () => {
    const cache = new Lru<number, string>(4);
    for (let i = 0; i < 4; i++) cache.set(i, `v${i}`);
    // 0 used again: 1 is now the least recent, and goes when 4 comes.
    expect(cache.get(0)).toBe('v0');
    cache.set(4, 'v4');
    expect([0, 1, 2, 3, 4].map((k) => cache.get(k))).toEqual(['v0', undefined, 'v2', 'v3', 'v4']);
    expect(cache.size).toBe(4);
  });

  it('counts each entry at its cost; a value set again replaces the one held; one entry over the budget stays alone', () => {
    const cache = new Lru<string, number>(100);
    cache.set('a', 1, 40);
    cache.set('a', 2, 40);
    expect([cache.get('a'), cache.size]).toEqual([2, 1]);
    cache.set('b', 3, 40);
    expect([cache.get('a'), cache.get('b')]).toEqual([2, 3]);
    // 40 + 40 + 60 is over the budget: a, used longest ago, goes.
    cache.set('c', 4, 60);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 3, 4]);
    cache.set('d', 5, 150);
    expect([cache.get('b'), cache.get('c'), cache.get('d'), cache.size]).toEqual([undefined, undefined, 5, 1]);
  });

  it('keeps a working set as large as its budget through any number of passes', () => {
    const cache = new Lru<number, number>(1000);
    for (let round = 0; round < 3; round++) for (let i = 0; i < 1000; i++) if (cache.get(i) === undefined) cache.set(i, i);
    expect(Array.from({ length: 1000 }, (_, i) => cache.get(i)).filter((v) => v === undefined)).toEqual([]);
  });

  it('stays fast when a scan outgrows it (each miss costs the same, not a walk over the entries)', () => {
    // 600,000 misses: the Map-based LRU, which walked past its deleted entries at each eviction, ran past the test's
    // timeout (87 s for 1.2 M); this takes a fraction of a second.
    const cache = new Lru<number, number>(50_000);
    for (let round = 0; round < 10; round++) for (let i = 0; i < 60_000; i++) if (cache.get(i) === undefined) cache.set(i, i);
    expect(cache.size).toBe(50_000);
  });
});
