import { errorFromProblem, toProblem } from '../problem.js';
import { sleep, type Transport } from '../http/transport.js';
import { tenantPath } from '../http/routes.js';

/** The tenant feeds (`GET /v1/tenants/{tenant}/{feed}/changes`). */
export type Feed = 'operations' | 'review-queue' | 'metrics' | 'conflicts';

/** One Server-Sent Event: `id` is the change's global position (the checkpoint). */
export interface FeedEvent<T = Record<string, unknown>> {
  readonly id: string | null;
  /** `operation`, `review`, `metrics`, `conflict`; `ready` first; `reset` after pruned history. */
  readonly event: string;
  readonly data: T;
}

/** Filters of a feed (by feed: state, action, source, subjectPrefix, reason). */
export interface FeedFilter {
  readonly tenant: string;
  readonly [filter: string]: string | undefined;
}

/** Options of `subscribe`. */
export interface SubscribeOptions {
  /** Resume after this event id (a checkpoint seen earlier). */
  readonly lastEventId?: string;
  /** Ends the iteration. */
  readonly signal?: AbortSignal;
  /** Wait before reconnecting, ms, unless the server's `retry:` says otherwise. @defaultValue 1000 */
  readonly reconnectMs?: number;
  /** Reconnects in a row without a single event before giving up. @defaultValue 10 */
  readonly maxReconnects?: number;
}

/**
 * An async iterator over a feed (SSE, WHATWG HTML §9.2) that resumes by itself: after a dropped
 * connection it reconnects with `Last-Event-ID` = the last id seen, so no change is missed or
 * repeated. 4xx answers (bad filter, auth) throw at once as typed errors. Break out of the loop
 * or abort `signal` to close it.
 */
export async function* subscribe(
  transport: Transport,
  feed: Feed,
  filter: FeedFilter,
  options: SubscribeOptions = {},
): AsyncGenerator<FeedEvent> {
  const { tenant, ...query } = filter;
  const path = tenantPath(tenant, `/${feed}/changes`);
  let lastEventId = options.lastEventId;
  let retryMs = options.reconnectMs ?? 1000;
  let failures = 0;
  const local = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, local.signal]) : local.signal;
  try {
    while (!signal.aborted) {
      let res: Response;
      try {
        const headers: Record<string, string> = { ...transport.defaultHeaders, accept: 'text/event-stream' };
        if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
        res = await transport.fetch(transport.url(path, query), { method: 'GET', headers, signal });
      } catch (err) {
        if (signal.aborted) return;
        if (++failures > (options.maxReconnects ?? 10)) throw err;
        await sleep(retryMs, signal).catch(() => undefined);
        continue;
      }
      if (res.status >= 400 && res.status !== 503 && res.status !== 429) {
        const text = await res.text();
        throw errorFromProblem(toProblem(res.status, safeJson(text)), `GET ${path}`, res.headers);
      }
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel();
        if (++failures > (options.maxReconnects ?? 10)) throw new Error(`GET ${path}: ${res.status}`);
        await sleep(retryMs, signal).catch(() => undefined);
        continue;
      }
      try {
        for await (const block of blocks(res.body)) {
          const parsed = parseBlock(block);
          if (parsed.retry !== undefined) retryMs = parsed.retry;
          if (!parsed.event) continue;
          if (parsed.event.id !== null) lastEventId = parsed.event.id;
          failures = 0;
          yield parsed.event;
        }
      } catch {
        if (signal.aborted) return;
      }
      if (++failures > (options.maxReconnects ?? 10))
        throw new Error(`GET ${path}: the stream keeps closing`);
      await sleep(retryMs, signal).catch(() => undefined);
    }
  } finally {
    local.abort();
  }
}

/** Splits the byte stream into event blocks (separated by a blank line). */
async function* blocks(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
    }
  }
}

function parseBlock(block: string): { event: FeedEvent | null; retry?: number } {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  let retry: number | undefined;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }
  if (data.length === 0) return { event: null, retry };
  return { event: { id, event, data: safeJson(data.join('\n')) as Record<string, unknown> }, retry };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
