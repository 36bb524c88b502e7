import { TtlLruCache } from '../../../shared/caching/ttl-lru-cache';

describe('TtlLruCache', () => {
  test('an entry is served until its time to live has passed, then dropped', () => {
    const cache = new TtlLruCache<string>({ ttlMs: 1_000, maxEntries: 10 });
    cache.set('a', 'A', 0);
    expect(cache.get('a', 999)).toBe('A');
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('when full, the least recently used entry goes first (a read counts as a use)', () => {
    const cache = new TtlLruCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 0);
    expect(cache.get('a', 1)).toBe('A');
    cache.set('c', 'C', 2);
    expect(cache.get('b', 3)).toBeUndefined();
    expect(cache.get('a', 3)).toBe('A');
    expect(cache.get('c', 3)).toBe('C');
    expect(cache.size).toBe(2);
  });

  test('storing a key again replaces it and restarts its time to live', () => {
    const cache = new TtlLruCache<string>({ ttlMs: 100, maxEntries: 2 });
    cache.set('a', 'old', 0);
    cache.set('a', 'new', 50);
    expect(cache.get('a', 120)).toBe('new');
    expect(cache.size).toBe(1);
  });

  test('delete, deleteWhere and clear remove entries', () => {
    const cache = new TtlLruCache<number>({ ttlMs: 60_000, maxEntries: 10 });
    for (const key of ['org_a#1', 'org_a#2', 'org_b#1']) cache.set(key, 1, 0);
    cache.deleteWhere((key) => key.startsWith('org_a#'));
    expect(cache.get('org_a#1', 0)).toBeUndefined();
    expect(cache.get('org_b#1', 0)).toBe(1);
    cache.delete('org_b#1');
    expect(cache.size).toBe(0);
    cache.set('x', 2, 0);
    cache.clear();
    expect(cache.get('x', 0)).toBeUndefined();
  });

  test('a time to live of 0 keeps nothing; nonsense settings are refused', () => {
    const cache = new TtlLruCache<string>({ ttlMs: 0, maxEntries: 1 });
    cache.set('a', 'A', 0);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(() => new TtlLruCache({ ttlMs: 1, maxEntries: 0 })).toThrow(RangeError);
    expect(() => new TtlLruCache({ ttlMs: Number.NaN, maxEntries: 1 })).toThrow(RangeError);
  });
});
