import type { RecordedEvent } from '../../src/event-store/event-store.port.js';
import { heapBytesOf, KnownStreams } from '../../src/event-store/sql/known-streams.js';

const event = (streamName: string, n: number): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'Happened',
  streamName,
  streamPosition: BigInt(n),
  globalPosition: BigInt(1000 + n),
  data: { n, nested: { list: [1, 2] } },
  metadata: {},
  recordedAt: new Date(0),
});

describe('KnownStreams', () => {
  it('holds streams up to its capacity, dropping the least recently used', () => {
    const known = new KnownStreams(2, 1_000_000);
    known.remember('a', 0n, 0n, [event('a', 0)]);
    known.remember('b', 0n, 0n, [event('b', 0)]);
    expect(known.get('a')?.revision).toBe(0n); // a is now more recent than b
    known.remember('c', 0n, 0n, [event('c', 0)]);
    expect(known.get('b')).toBeUndefined();
    expect(known.get('a')).toBeDefined();
    expect(known.get('c')).toBeDefined();
  });

  it('replaces a stream with its newer state and forgets on request', () => {
    const known = new KnownStreams(10, 1_000_000);
    known.remember('a', 0n, 0n, [event('a', 0)]);
    known.remember('a', 1n, 0n, [event('a', 0), event('a', 1)]);
    expect(known.get('a')?.events).toHaveLength(2);
    known.forget('a');
    expect(known.get('a')).toBeUndefined();
  });

  it('keeps the estimated heap under its budget and never holds a stream above a sixteenth of it', () => {
    const one = heapBytesOf([event('s0', 0)]);
    const known = new KnownStreams(100, one * 16 * 4); // room for 64 such streams
    for (let i = 0; i < 10; i++) known.remember(`s${i}`, 0n, 0n, [event(`s${i}`, 0)]);
    expect(known.size).toEqual({ streams: 10, bytes: 10 * one });
    for (let i = 10; i < 100; i++) known.remember(`s${i}`, 0n, 0n, [event(`s${i}`, 0)]);
    expect(known.size.bytes).toBeLessThanOrEqual(one * 64);
    expect(known.get('s0')).toBeUndefined(); // the oldest went first
    expect(known.get('s99')).toBeDefined();
  });

  it('counts objects, not JSON characters: many small members make a stream too large to hold', () => {
    const known = new KnownStreams(100, 16 * 1024 * 1024); // at most 1 MiB a stream
    const tiny = { ...event('tiny', 0), data: { x: Array.from({ length: 80_000 }, () => ({})) } };
    expect(JSON.stringify(tiny.data).length).toBeLessThan(300_000); // small as JSON …
    expect(heapBytesOf(tiny.data)).toBeGreaterThan(4_000_000); // … large in memory
    known.remember('tiny', 0n, 0n, [tiny]);
    expect(known.get('tiny')).toBeUndefined();
    expect(known.size.bytes).toBe(0);
  });

  it('freezes the events it holds, deeply, since every refusal shares them', () => {
    const known = new KnownStreams(10, 1_000_000);
    const held = known.remember('a', 0n, 0n, [event('a', 0)]);
    const data = held.events[0]!.data as { nested: { list: number[] } };
    expect(() => data.nested.list.push(3)).toThrow(TypeError);
    expect(Object.isFrozen(held.events)).toBe(true);
  });

  it('grows a copy by an append that expected its revision, and drops one the append proves stale', () => {
    const known = new KnownStreams(10, 1_000_000);
    known.remember('a', 0n, 0n, [event('a', 0)]);
    known.extend('a', 0n, [event('a', 1), event('a', 2)]);
    expect(known.get('a')?.revision).toBe(2n);
    expect(known.get('a')?.events.map((e) => e.streamPosition)).toEqual([0n, 1n, 2n]);

    known.extend('a', 5n, [event('a', 6)]); // the stream was at 5: what was held is behind it
    expect(known.get('a')).toBeUndefined();

    known.extend('b', 0n, [event('b', 1)]); // not held: a tail alone is not the whole stream
    expect(known.get('b')).toBeUndefined();
  });
});
