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
    const known = new KnownStreams(2);
    known.remember('a', 0n, 0n, [event('a', 0)]);
    known.remember('b', 0n, 0n, [event('b', 0)]);
    expect(known.get('a')?.revision).toBe(0n); // a is now more recent than b
    known.remember('c', 0n, 0n, [event('c', 0)]);
    expect(known.get('b')).toBeUndefined();
    expect(known.get('a')).toBeDefined();
    expect(known.get('c')).toBeDefined();
  });

  it('replaces a stream with its newer state and forgets on request', () => {
    const known = new KnownStreams(10);
    known.remember('a', 0n, 0n, [event('a', 0)]);
    known.remember('a', 1n, 0n, [event('a', 0), event('a', 1)]);
    expect(known.get('a')?.events).toHaveLength(2);
    known.forget('a');
    expect(known.get('a')).toBeUndefined();
  });

  it('freezes the events it holds, deeply, since every refusal shares them', () => {
    const known = new KnownStreams(10);
    const held = known.remember('a', 0n, 0n, [event('a', 0)]);
    const data = held.events[0]!.data as { nested: { list: number[] } };
    expect(() => data.nested.list.push(3)).toThrow(TypeError);
    expect(Object.isFrozen(held.events)).toBe(true);
  });
});
