import { BoundedLru } from '@operation-ledger/protocol';

describe('BoundedLru', () => {
  it('drops the least recently used entries until both its entry and its byte bounds hold', () => {
    const lru = new BoundedLru<string>(3, 100);
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    expect(lru.get('a')).toBe('A'); // a is now more recent than b
    expect(lru.set('c', 'C', 40)).toBe(true); // 120 bytes: b goes
    expect([lru.peek('a'), lru.peek('b'), lru.peek('c')]).toEqual(['A', undefined, 'C']);
    expect([lru.size, lru.bytes]).toEqual([2, 80]);
    lru.set('d', 'D', 1);
    lru.set('e', 'E', 1); // four entries: a, the oldest now, goes
    expect(lru.peek('a')).toBeUndefined();
    expect([lru.size, lru.bytes]).toEqual([3, 42]);
  });

  it('keeps no entry above its per-entry bound, and nothing at all with no room for entries', () => {
    const lru = new BoundedLru<string>(10, 1_000, 100);
    lru.set('a', 'old', 10);
    expect(lru.set('a', 'too large', 101)).toBe(false);
    expect([lru.peek('a'), lru.size, lru.bytes]).toEqual([undefined, 0, 0]);
    const none = new BoundedLru<string>(0, 1_000);
    expect(none.set('a', 'A', 1)).toBe(false);
    expect(none.size).toBe(0);
  });

  it('marks an entry used on get, not on peek', () => {
    const lru = new BoundedLru<string>(2, 100);
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    lru.peek('a');
    lru.set('c', 'C', 1);
    expect(lru.peek('a')).toBeUndefined();
    lru.get('b');
    lru.set('d', 'D', 1);
    expect([lru.peek('b'), lru.peek('c')]).toEqual(['B', undefined]);
  });
});
