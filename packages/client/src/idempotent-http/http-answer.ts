import type { Json } from '../types.js';

/** An HTTP answer as the adapters capture, record and replay it. */
export interface HttpAnswer {
  readonly status: number;
  /** Header name (lower case) and value, in the order they are written. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body's bytes; null when recorded without it (over `maxResponseBytes`). */
  readonly body: Buffer | null;
}

/**
 * The confirm's `outputs` for an answer: `{ status, headers, body }` with the body as UTF-8 text
 * when it survives the round trip byte for byte, else `bodyBase64`; `bodyOmittedBytes` instead
 * of either when it is longer than `maxBytes`. The body is kept as a string (never as parsed
 * JSON) so a replay is the same bytes whatever key order the store keeps. Pure.
 */
export function answerToOutputs(answer: HttpAnswer, maxBytes: number): Json {
  const out: { [k: string]: Json } = {
    status: answer.status,
    headers: answer.headers.map(([n, v]) => [n, v]),
  };
  const body = answer.body;
  if (body === null || body.length > maxBytes) out.bodyOmittedBytes = body?.length ?? 0;
  else {
    const text = body.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(body)) out.body = text;
    else out.bodyBase64 = body.toString('base64');
  }
  return out;
}

/**
 * The answer recorded by {@link answerToOutputs}, or null when `outputs` is not one (an
 * operation of the same key recorded by something else than these adapters). Pure.
 */
export function answerFromOutputs(outputs: unknown): HttpAnswer | null {
  if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs)) return null;
  const o = outputs as Record<string, unknown>;
  if (typeof o.status !== 'number' || !Array.isArray(o.headers)) return null;
  const headers = (o.headers as unknown[]).filter(
    (h): h is [string, string] =>
      Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string',
  );
  const body =
    typeof o.body === 'string'
      ? Buffer.from(o.body, 'utf8')
      : typeof o.bodyBase64 === 'string'
        ? Buffer.from(o.bodyBase64, 'base64')
        : null;
  return { status: o.status, headers, body };
}

/** Bytes of `value` as a framework would send it: Buffer as is, string as UTF-8, else JSON. */
export function bodyBytes(value: unknown): Buffer | null {
  if (value === undefined || value === null) return Buffer.alloc(0);
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  return null;
}

/**
 * The values of the headers to keep, from a response's `getHeader` (lower-case names; a list
 * joined with `, ` as RFC 9110 §5.3 combines field lines). Pure.
 */
export function keptHeaders(
  names: readonly string[],
  getHeader: (name: string) => number | string | readonly string[] | undefined,
): [string, string][] {
  const out: [string, string][] = [];
  for (const name of names) {
    const v = getHeader(name);
    if (v === undefined) continue;
    out.push([name, typeof v === 'object' ? v.join(', ') : String(v)]);
  }
  return out;
}
