// The pure parts of the Idempotency-Key adapters: the header's syntax
// (draft-ietf-httpapi-idempotency-key-header-09 §2.1), the fingerprint input (§2.4), the recorded
// answer's round trip through the confirm's outputs, and the replay cache's bounds and expiry.
import { answerFromOutputs, answerToOutputs } from '../../packages/client/src/idempotent-http/http-answer.js';
import { fingerprintInput } from '../../packages/client/src/idempotent-http/fingerprint-input.js';
import { readIdempotencyKey } from '../../packages/client/src/idempotent-http/idempotency-key-header.js';
import { ReplayCache } from '../../packages/client/src/idempotent-http/replay-cache.js';

const answer = (body: string | Buffer) => ({
  status: 201,
  headers: [['location', '/orders/1'] as const],
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

it('§2.1 Syntax: the key is an sf-string; parameters are ignored; anything else is malformed', () => {
  expect(readIdempotencyKey('"8e03978e-40d5"')).toEqual({ kind: 'key', key: '8e03978e-40d5' });
  expect(readIdempotencyKey('"a\\"b";expires=1')).toEqual({ kind: 'key', key: 'a"b' });
  expect(readIdempotencyKey(undefined)).toEqual({ kind: 'absent' });
  for (const bad of ['abc', '12', '""', '"x', ':YWJj:', `"${'k'.repeat(257)}"`])
    expect(readIdempotencyKey(bad)).toMatchObject({ kind: 'malformed' });
  expect(readIdempotencyKey(['"a"', '"b"'])).toMatchObject({ kind: 'malformed' });
});

it('§2.4 Fingerprint: method, route template and body, without the excluded fields; the body is not altered', () => {
  const body = { sku: 'tea', traceId: 't-1', meta: { requestId: 'r', keep: 1 } };
  const input = fingerprintInput({ method: 'POST', route: '/orders', body, idempotencyKey: '"k"' }, [
    'traceId',
    '/meta/requestId',
  ]);
  expect(input).toEqual({ method: 'POST', route: '/orders', body: { sku: 'tea', meta: { keep: 1 } } });
  expect(body.traceId).toBe('t-1');
  expect(body.meta.requestId).toBe('r');
});

it('records an answer so its replay is the same bytes: text as text, other bytes as base64, an oversized body without it', () => {
  const text = answer('{"b":1,"a":2}');
  expect(answerFromOutputs(answerToOutputs(text, 1000))).toEqual(text);
  const binary = answer(Buffer.from([0xff, 0x00, 0xfe]));
  expect(answerToOutputs(binary, 1000)).toMatchObject({ bodyBase64: '/wD+' });
  expect(answerFromOutputs(answerToOutputs(binary, 1000))).toEqual(binary);
  expect(answerFromOutputs(answerToOutputs(text, 5))).toEqual({ ...text, body: null });
  expect(answerFromOutputs({ destinationRef: 'INV-1' })).toBeNull();
});

it('keeps confirmed answers until their retention ends, and within its bounds, least recently used out first', () => {
  let now = 1_000;
  const cache = new ReplayCache(2, 1_000, () => now);
  cache.set('a', answer('A'), 2_000);
  cache.set('b', answer('B'), null);
  expect(cache.get('a')?.body?.toString()).toBe('A'); // a is now the most recently used
  cache.set('c', answer('C'), null);
  expect([cache.get('a'), cache.get('b'), cache.get('c')].map((x) => x?.body?.toString())).toEqual([
    'A',
    undefined,
    'C',
  ]);
  now = 2_000;
  expect(cache.get('a')).toBeUndefined();
  expect(cache.size).toBe(1);
  cache.set('big', answer('x'.repeat(2_000)), null);
  expect(cache.get('big')).toBeUndefined();
  // the byte bound: two answers of 400 bytes fit in 1 000, a third pushes the older out
  const bytes = new ReplayCache(10, 1_000, () => now);
  for (const k of ['p', 'q', 'r']) bytes.set(k, answer(k.repeat(400)), null);
  expect([bytes.get('p'), bytes.get('q'), bytes.get('r')].map((x) => x?.body?.length)).toEqual([
    undefined,
    400,
    400,
  ]);
  const none = new ReplayCache(0, 1_000, () => now);
  none.set('a', answer('A'), null);
  expect([none.get('a'), none.size]).toEqual([undefined, 0]);
});
