import { createParser } from 'eventsource-parser';
import { authHeaders } from './api.js';

/** One Server-Sent Event of a ledger feed, its data parsed. */
export interface FeedEvent {
  readonly id: string | undefined;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** Connection state shown to the operator. `resumed` carries the Last-Event-ID used. */
export type FeedStatus =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'live'; readonly resumedAfter: string | null }
  | { readonly kind: 'reconnecting'; readonly inMs: number; readonly reason: string }
  | { readonly kind: 'stopped'; readonly reason: string };

/** Options of {@link subscribe}. */
export interface SubscribeOptions {
  readonly onEvent: (event: FeedEvent) => void;
  readonly onStatus?: (status: FeedStatus) => void;
  /** Resume after this event id on the first connection too. */
  readonly lastEventId?: string;
}

/** Longest wait between reconnection attempts, ms. */
const MAX_BACKOFF_MS = 15_000;

/**
 * Follows a ledger SSE feed with `fetch` streaming (EventSource cannot send `Authorization`, and
 * a token never goes into a URL), reconnecting with `Last-Event-ID` as the WHATWG HTML
 * event-stream model does; stops for good on a 4xx.
 * @returns a function that closes the subscription.
 */
export function subscribe(path: string, options: SubscribeOptions): () => void {
  const abort = new AbortController();
  let lastEventId = options.lastEventId;
  let retryMs = 2_000;
  let failures = 0;
  let reconnecting = false;
  const status = (s: FeedStatus) => options.onStatus?.(s);

  const connectOnce = async (): Promise<'again' | 'stop'> => {
    status({ kind: 'connecting' });
    const headers = authHeaders({ accept: 'text/event-stream' });
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const res = await fetch(path, { headers, signal: abort.signal, cache: 'no-store', credentials: 'omit' });
    if (res.status === 429 || res.status === 503) {
      retryMs = Math.max(retryMs, Number(res.headers.get('retry-after') ?? '2') * 1000);
      throw new Error(`HTTP ${res.status}`);
    }
    if (!res.ok || !res.body) {
      status({ kind: 'stopped', reason: `HTTP ${res.status}: ${(await res.text()).slice(0, 300)}` });
      return 'stop';
    }
    status({ kind: 'live', resumedAfter: reconnecting ? (lastEventId ?? null) : null });
    failures = 0;
    const parser = createParser({
      onEvent(message) {
        if (message.id !== undefined) lastEventId = message.id;
        let data: Record<string, unknown> = {};
        try {
          data = JSON.parse(message.data) as Record<string, unknown>;
        } catch {
          return; // not one of the ledger's events
        }
        options.onEvent({ id: message.id, type: message.event ?? 'message', data });
      },
      onRetry(ms) {
        retryMs = ms;
      },
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'again';
      parser.feed(value);
    }
  };

  void (async () => {
    while (!abort.signal.aborted) {
      let reason = 'the server ended the stream';
      try {
        if ((await connectOnce()) === 'stop') return;
      } catch (error) {
        if (abort.signal.aborted) return;
        failures++;
        reason = error instanceof Error ? error.message : String(error);
      }
      reconnecting = true;
      const inMs = Math.min(MAX_BACKOFF_MS, retryMs * 2 ** Math.max(0, failures - 1));
      status({ kind: 'reconnecting', inMs, reason });
      await new Promise((resolve) => setTimeout(resolve, inMs));
    }
  })();
  return () => abort.abort();
}
