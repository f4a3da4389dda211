// Open subscriptions re-check their key so a revoked key ends them; thousands of subscriptions of
// one key must cost one key look-up per interval, not one each.
import { jest } from '@jest/globals';
import { KeyRevocationWatch } from '../../src/projections/subscriptions/key-revocation-watch.js';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('looks each key up once per interval and ends every subscription of a revoked key', async () => {
  const revoked = new Set<string>();
  const lookups: string[] = [];
  const watch = new KeyRevocationWatch(async (id) => {
    lookups.push(id);
    return !revoked.has(id);
  }, 1000);
  const ended = { a: 0, b: 0 };
  const stops = [
    ...Array.from({ length: 1000 }, () => watch.watch('key-a', () => ended.a++)),
    ...Array.from({ length: 1000 }, () => watch.watch('key-b', () => ended.b++)),
  ];

  await jest.advanceTimersByTimeAsync(3000);
  expect(lookups.sort()).toEqual(['key-a', 'key-a', 'key-a', 'key-b', 'key-b', 'key-b']);
  expect(ended).toEqual({ a: 0, b: 0 });

  revoked.add('key-a');
  await jest.advanceTimersByTimeAsync(1000);
  expect(ended).toEqual({ a: 1000, b: 0 });

  for (const stop of stops) stop();
  expect(watch.size).toBe(0);
  lookups.length = 0;
  await jest.advanceTimersByTimeAsync(5000);
  expect(lookups).toEqual([]); // nothing watched, nothing looked up
});

it('a failed look-up (store unavailable) ends nothing; the next interval asks again', async () => {
  let down = true;
  const watch = new KeyRevocationWatch(async () => {
    if (down) throw new Error('store unavailable');
    return false;
  }, 1000);
  let ended = 0;
  watch.watch('key', () => ended++);
  await jest.advanceTimersByTimeAsync(2000);
  expect(ended).toBe(0);
  down = false;
  await jest.advanceTimersByTimeAsync(1000);
  expect(ended).toBe(1);
});
