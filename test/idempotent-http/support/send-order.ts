import { randomUUID } from 'node:crypto';

/** An answer as the client saw it: status, headers (lower-case names) and the body's exact text. */
export interface SeenAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** A fresh Idempotency-Key as a client sends it: a UUID as a Structured Field string. */
export function freshKey(): string {
  return `"${randomUUID()}"`;
}

/**
 * `POST {url}/orders` with `body`, tenant `tenant` (header `x-tenant`) and `Idempotency-Key`
 * `key` exactly as given (null: none).
 */
export async function sendOrder(
  url: string,
  key: string | null,
  body: unknown,
  tenant = 'acme',
): Promise<SeenAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-tenant': tenant };
  if (key !== null) headers['idempotency-key'] = key;
  const res = await fetch(`${url}/orders`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The headers a replay must repeat (what the app set, minus per-answer transport headers). */
export function appHeaders(answer: SeenAnswer): Record<string, string> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'idempotent-replayed', 'transfer-encoding']);
  return Object.fromEntries([...answer.headers].filter(([n]) => !skip.has(n)));
}
