import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { callerHolderOf } from '../auth/request-caller.js';
import { correlationOf } from '../observability/index.js';

/**
 * Correlation of one request, carried in the metadata of every event it appends (docs/domain.md
 * "Streams and events"). Jobs make one with {@link newRequestContext}.
 */
export interface RequestContext {
  /** Id of the request/job that caused the events (X-Request-Id or generated). */
  readonly correlationId: string;
  /** Id of this command; the events' causationId. */
  readonly causationId: string;
  /** Id of the API key that made the request (recorded as `keyId` in event metadata), if any. */
  readonly keyId?: string;
  /** Name of that API key (recorded as `keyName` in event metadata: who acted, for people). */
  readonly keyName?: string;
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

/**
 * The request's correlation (docs/observability.md "Correlation and tracing"), a new causation
 * id, and the authenticated key's id and name.
 */
export const Ctx = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestContext => {
  const req = ctx.switchToHttp().getRequest<{ headers: IncomingHttpHeaders }>();
  const c = correlationOf(req);
  const caller = callerHolderOf(req).caller;
  const keyId = caller?.keyId;
  return {
    ...newRequestContext(c.correlationId),
    ...(keyId && keyId !== 'anonymous' ? { keyId, keyName: caller!.name } : {}),
    ...(c.traceparent ? { traceparent: c.traceparent } : {}),
    ...(c.tracestate ? { tracestate: c.tracestate } : {}),
    ...(c.traceId ? { traceId: c.traceId } : {}),
  };
});
