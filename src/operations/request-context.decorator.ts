import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RequestWithCaller } from '../auth/request-caller.js';
import { correlationOf } from '../observability/index.js';
import { newRequestContext, type RequestContext } from './event-metadata.js';

/**
 * The request's correlation (`correlationOf`, docs/observability.md "Correlation and tracing"):
 * the caller's `X-Request-Id` (or `X-Correlation-Id`) when it is a plain token of at most 128
 * characters, else the trace id of a valid W3C `traceparent`, else a new UUID — the same id the
 * answer echoes in `X-Request-Id` and the request log shows; the `traceparent`/`tracestate` to
 * record in event metadata; a new causation id per command; the API key id of the authenticated
 * caller (recorded in event metadata as `keyId`).
 */
export const Ctx = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestContext => {
  const req = ctx.switchToHttp().getRequest<RequestWithCaller>();
  const c = correlationOf(req);
  const keyId = req.caller?.keyId;
  return {
    ...newRequestContext(c.correlationId),
    ...(keyId && keyId !== 'anonymous' ? { keyId } : {}),
    ...(c.traceparent ? { traceparent: c.traceparent } : {}),
    ...(c.tracestate ? { tracestate: c.tracestate } : {}),
    ...(c.traceId ? { traceId: c.traceId } : {}),
  };
});
