import { randomUUID } from 'node:crypto';
import { encodeEvents, encodeExpectedRevision, isUuid } from '../../src/event-store/sql/append-encoding.js';

describe('encodeExpectedRevision', () => {
  it('passes no_stream and any, and writes revisions in decimal', () => {
    expect(encodeExpectedRevision('no_stream')).toBe('no_stream');
    expect(encodeExpectedRevision('any')).toBe('any');
    expect(encodeExpectedRevision(0n)).toBe('0');
    expect(encodeExpectedRevision(9007199254740993n)).toBe('9007199254740993');
  });

  it('rejects negative and non-bigint revisions', () => {
    expect(() => encodeExpectedRevision(-1n)).toThrow(RangeError);
    expect(() => encodeExpectedRevision(1 as unknown as bigint)).toThrow(RangeError);
    expect(() => encodeExpectedRevision('stream_exists' as unknown as bigint)).toThrow(RangeError);
  });
});

describe('encodeEvents', () => {
  it('defaults metadata to {} and keeps everything else as given', () => {
    const id = randomUUID();
    expect(encodeEvents('s', [{ id, type: 'T', data: { a: 1 } }])).toEqual([
      { id, type: 'T', data: { a: 1 }, metadata: {} },
    ]);
  });

  it.each([
    ['an empty stream name', '', [{ id: randomUUID(), type: 'T', data: {} }]],
    ['no events', 's', []],
    ['a non-UUID id', 's', [{ id: '42', type: 'T', data: {} }]],
    ['an empty type', 's', [{ id: randomUUID(), type: '', data: {} }]],
    ['array data', 's', [{ id: randomUUID(), type: 'T', data: [] }]],
    ['null metadata', 's', [{ id: randomUUID(), type: 'T', data: {}, metadata: null }]],
  ])('rejects %s', (_label, stream, events) => {
    expect(() => encodeEvents(stream, events as never)).toThrow(TypeError);
  });
});

describe('isUuid', () => {
  it('accepts canonical UUIDs in any case only', () => {
    expect(isUuid(randomUUID().toUpperCase())).toBe(true);
    expect(isUuid('{' + randomUUID() + '}')).toBe(false);
    expect(isUuid(randomUUID().replaceAll('-', ''))).toBe(false);
  });
});
