import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import type { LoadOp } from '../harness.js';

/** The order every request of the Idempotency-Key bench sends (same size for every target). */
export const BENCH_ORDER = { sku: 'tea-2kg', qty: 3, note: 'leave at the door' };

/** One request of the bench: `POST /orders` with `key` (a Structured Field string), expecting 201. */
export async function postOrder(pool: Pool, key: string): Promise<{ replayed: boolean }> {
  const res = await pool.request({
    path: '/orders',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(BENCH_ORDER),
  });
  await res.body.text();
  if (res.statusCode !== 201) throw new Error(`POST /orders answered ${res.statusCode}`);
  return { replayed: res.headers['idempotent-replayed'] === 'true' };
}

/** A fresh key per request: the claim, the handler and the confirm every time. */
export function newKeyOp(pool: Pool): LoadOp {
  return async () => {
    await postOrder(pool, `"${randomUUID()}"`);
  };
}

/**
 * Request `i` repeats completed key `i mod n` (seeded by {@link seedKeys}): a replay.
 * @throws when an answer is not a replay (the guard ran the handler again).
 */
export function replayOp(pool: Pool, keys: readonly string[]): LoadOp {
  return async (i) => {
    const { replayed } = await postOrder(pool, keys[i % keys.length]!);
    if (!replayed) throw new Error('a repeated key was not replayed');
  };
}

/** Completes `n` keys through the app (each answered once), `concurrency` at a time. */
export async function seedKeys(pool: Pool, n: number, concurrency = 16): Promise<string[]> {
  const keys = Array.from({ length: n }, () => `"${randomUUID()}"`);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) await postOrder(pool, keys[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return keys;
}
