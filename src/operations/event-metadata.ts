import { randomUUID } from 'node:crypto';
import type { EventToAppend, RecordedEvent } from '../event-store/event-store.port.js';
import type { LedgerEvent } from '../ledger/index.js';

/** Correlation of one request: every event it appends carries these in its metadata (docs/domain.md "Streams and events"). */
export interface RequestContext {
  /** Id of the request/job that caused the events (X-Request-Id or generated). */
  readonly correlationId: string;
  /** Id of this command; the events' causationId. */
  readonly causationId: string;
  /** Id of the API key that made the request (recorded as `keyId` in event metadata), if any. */
  readonly keyId?: string;
  /** The request's W3C `traceparent` / `tracestate` (recorded in event metadata), if it had them. */
  readonly traceparent?: string;
  readonly tracestate?: string;
  /** Trace id of `traceparent`, for log lines. */
  readonly traceId?: string;
  /** The background job that acts, instead of a request: `sweeper`, `retention`, … (log lines). */
  readonly job?: string;
}

/** A fresh context for work that did not come from a request (`job` names it in log lines). */
export function newRequestContext(correlationId: string = randomUUID(), job?: string): RequestContext {
  return job
    ? { correlationId, causationId: randomUUID(), job }
    : { correlationId, causationId: randomUUID() };
}

/** Version of the event data shapes written by this code. */
export const EVENT_SCHEMA_VERSION = 1;

/**
 * Domain events → store events with fresh ids and correlation metadata: `correlationId`,
 * `causationId`, `schemaVersion`, the API key's `keyId` and the request's W3C trace context.
 */
export function toStoreEvents(events: readonly LedgerEvent[], ctx: RequestContext): EventToAppend[] {
  return events.map((e) => ({
    id: randomUUID(),
    type: e.type,
    data: e.data as unknown as Record<string, unknown>,
    metadata: {
      correlationId: ctx.correlationId,
      causationId: ctx.causationId,
      schemaVersion: EVENT_SCHEMA_VERSION,
      ...(ctx.keyId ? { keyId: ctx.keyId } : {}),
      ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
      ...(ctx.tracestate ? { tracestate: ctx.tracestate } : {}),
    },
  }));
}

/** A stored event as the domain sees it. */
export function toLedgerEvent(e: RecordedEvent): LedgerEvent {
  return { type: e.type, data: e.data } as unknown as LedgerEvent;
}
