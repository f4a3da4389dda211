import type { RecordedEvent } from '../../src/event-store/event-store.port.js';
import { KnownStreams } from '../../src/event-store/sql/known-streams.js';

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
    known.remember('a', 0n, 0n, [event('a', 0)], 100);
    known.remember('b', 0n, 0n, [event('b', 0)], 100);
    expect(known.get('a')?.revision).toBe(0n); // a is now more recent than b
    known.remember('c', 0n, 0n, [event('c', 0)], 100);
    expect(known.get('b')).toBeUndefined();
    expect(known.get('a')).toBeDefined();
    expect(known.get('c')).toBeDefined();
  });

  it('replaces a stream with its newer state and forgets on request', () => {
    const known = new KnownStreams(10, 1_000_000);
    known.remember('a', 0n, 0n, [event('a', 0)], 100);
    known.remember('a', 1n, 0n, [event('a', 0), event('a', 1)], 200);
    expect(known.get('a')?.events).toHaveLength(2);
    known.forget('a');
    expect(known.get('a')).toBeUndefined();
  });

  it('keeps the held bytes under its budget and never holds a stream above a sixteenth of it', () => {
    const known = new KnownStreams(100, 1_600);
    for (const name of ['a', 'b', 'c', 'd', 'e']) known.remember(name, 0n, 0n, [event(name, 0)], 100);
    expect(known.size).toEqual({ streams: 5, bytes: 500 });
    known.remember('big', 0n, 0n, [event('big', 0)], 101); // > 1 600 / 16
    expect(known.get('big')).toBeUndefined();
    for (let i = 0; i < 20; i++) known.remember(`s${i}`, 0n, 0n, [event(`s${i}`, 0)], 100);
    expect(known.size.bytes).toBeLessThanOrEqual(1_600);
    expect(known.get('a')).toBeUndefined(); // the oldest went first
    expect(known.get('s19')).toBeDefined();
    known.remember('s19', 1n, 0n, [event('s19', 0), event('s19', 1)], 50);
    expect(known.size.bytes).toBeLessThanOrEqual(1_600);
  });

  it('freezes the events it holds, deeply, since every refusal shares them', () => {
    const known = new KnownStreams(10, 1_000_000);
    const held = known.remember('a', 0n, 0n, [event('a', 0)], 100);
    const data = held.events[0]!.data as { nested: { list: number[] } };
    expect(() => data.nested.list.push(3)).toThrow(TypeError);
    expect(Object.isFrozen(held.events)).toBe(true);
  });
});
