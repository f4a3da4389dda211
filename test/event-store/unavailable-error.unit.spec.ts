import { EventStoreUnavailableError } from '../../src/event-store/event-store.port.js';
import { isUnavailableError, toUnavailableError } from '../../src/event-store/postgres/unavailable-error.js';

describe('isUnavailableError', () => {
  it.each([
    ['refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    [
      'refused on IPv4 and IPv6',
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all failed'),
    ],
    ['admin shutdown', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['statement timeout', Object.assign(new Error('canceling statement'), { code: '57014' })],
    ['too many connections', Object.assign(new Error('sorry'), { code: '53300' })],
    ['connection exception class', Object.assign(new Error('x'), { code: '08006' })],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['dropped connection', new Error('Connection terminated unexpectedly')],
    ['closed PGlite', new Error('PGlite is closed')],
  ])('is true for %s', (_label, error) => {
    expect(isUnavailableError(error)).toBe(true);
    expect(toUnavailableError(error)).toBeInstanceOf(EventStoreUnavailableError);
    expect((toUnavailableError(error) as EventStoreUnavailableError).cause).toBe(error);
  });

  it.each([
    ['unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['syntax error', Object.assign(new Error('syntax'), { code: '42601' })],
    ['event id conflict', Object.assign(new Error('ids'), { code: 'LG001' })],
    ['plain error', new Error('boom')],
    ['non-error', 'boom'],
  ])('is false for %s', (_label, error) => {
    expect(isUnavailableError(error)).toBe(false);
    expect(toUnavailableError(error)).toBe(error);
  });
});
