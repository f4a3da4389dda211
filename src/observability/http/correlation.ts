import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { rawRequestOf } from '../../common/raw-request.js';
import { parseTraceparent, parseTracestate } from './trace-context.js';

/** The correlation of one request, from its headers. */
export interface RequestCorrelation {
  /**
   * The caller's `X-Request-Id` (or `X-Correlation-Id`) when a plain token, else the `traceparent`'s
   * trace id, else a new UUID (docs/observability.md "Correlation and tracing").
   */
  readonly correlationId: string;
  /** Trace id of a valid `traceparent` (32 hex), else `null`. */
  readonly traceId: string | null;
  /** The valid `traceparent` header as received, else `null` (for event metadata). */
  readonly traceparent: string | null;
  /** The well-formed `tracestate` header (only with a valid `traceparent`), else `null`. */
  readonly tracestate: string | null;
}

/** What `X-Request-Id` may be to be kept: 1–128 of `A-Z a-z 0-9 . _ : -` (docs/api.md). */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The {@link RequestCorrelation} of request headers: W3C Trace Context
 * (https://www.w3.org/TR/trace-context/) and `X-Request-Id`/`X-Correlation-Id`; invalid values
 * are ignored, never refused.
 */
export function correlationFromHeaders(
  headers: IncomingHttpHeaders,
  newId: () => string = randomUUID,
): RequestCorrelation {
  const given = header(headers, 'x-request-id') ?? header(headers, 'x-correlation-id');
  const requestId = given !== undefined && SAFE_ID.test(given.trim()) ? given.trim() : null;
  const parent = parseTraceparent(header(headers, 'traceparent'));
  return {
    correlationId: requestId ?? parent?.traceId ?? newId(),
    traceId: parent?.traceId ?? null,
    traceparent: parent ? header(headers, 'traceparent')!.trim() : null,
    tracestate: parent ? parseTracestate(header(headers, 'tracestate')) : null,
  };
}

const CORRELATION = Symbol('ledger.correlation');

/** Computed once and kept on the Node.js request, so the log, the echo and event metadata agree. */
export function correlationOf(req: { headers: IncomingHttpHeaders }): RequestCorrelation {
  const holder = rawRequestOf<{ headers: IncomingHttpHeaders; [CORRELATION]?: RequestCorrelation }>(req);
  return (holder[CORRELATION] ??= correlationFromHeaders(holder.headers));
}

/** Event-metadata fields: `correlationId`, plus `traceparent`/`tracestate` when carried. */
export function correlationMetadata(c: RequestCorrelation): Record<string, string> {
  return {
    correlationId: c.correlationId,
    ...(c.traceparent ? { traceparent: c.traceparent } : {}),
    ...(c.tracestate ? { tracestate: c.tracestate } : {}),
  };
}
