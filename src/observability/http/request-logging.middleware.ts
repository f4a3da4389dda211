import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { correlationOf } from './correlation.js';
import type { NodeMiddleware } from '../../common/node-middleware.js';
import { routeTemplateOf } from '../../common/route-template.js';

/** Probe and scrape routes: logged at debug when they succeed (they arrive every few seconds). */
const ROUTINE = /^\/(health(\/|$|\?)|metrics($|\?))/;

/** The request-log line's fields (README "Observability"). */
export interface RequestLogLine {
  /** (Also bound as `requestId`: the correlation id, as echoed in `X-Request-Id`.) */
  readonly traceId?: string;
  readonly method: string;
  /** Route template, see {@link routeTemplateOf}. */
  readonly route: string;
  /** The path without its query, only when no route matched (`route` is `unmatched`). */
  readonly path?: string;
  readonly status: number;
  /** Milliseconds from the request's arrival to its last byte (or the connection's close). */
  readonly ms: number;
  /** Id of the API key (never its secret); absent when the request was not authenticated. */
  readonly keyId?: string;
  /** The parsed request body, only at level debug. */
  readonly body?: unknown;
}

/**
 * Middleware for every request: establishes its correlation ({@link correlationOf}),
 * answers `X-Request-Id: <correlationId>` (set before any handler runs, so refusals carry it too),
 * and when the response finishes writes ONE line through `logger` (pino-http):
 * `requestId` and {@link RequestLogLine} with message `"<METHOD> <route> <status>"`, at info — error for 5xx,
 * debug for successful health probes and scrapes. No headers, no query string, no payloads
 * (the body only when the logger is at debug). Install it first, before authentication.
 */
export function requestLogging(logger: Logger): NodeMiddleware {
  const line = (req: IncomingMessage, res: ServerResponse, ms: number): RequestLogLine => {
    const r = req as IncomingMessage & { caller?: { keyId?: string }; originalUrl?: string; body?: unknown };
    const c = correlationOf(r);
    const keyId = r.caller?.keyId;
    const route = routeTemplateOf(r);
    return {
      ...(c.traceId ? { traceId: c.traceId } : {}),
      method: r.method ?? '',
      route,
      ...(route === 'unmatched' ? { path: (r.originalUrl ?? r.url ?? '').split('?')[0] } : {}),
      status: res.statusCode,
      ms,
      ...(keyId ? { keyId } : {}),
      ...(logger.isLevelEnabled('debug') && r.body !== undefined ? { body: r.body } : {}),
    };
  };
  const middleware = pinoHttp({
    logger,
    // The line's fields are its own (above): the request is never logged whole. pino-http still
    // binds `req` to a per-request child logger, whose bindings pino serialises at once; the
    // standard serializer made that the whole header set (redacted) on every request. Without
    // wrapping, `err` keeps the root logger's scrubbing serializer.
    wrapSerializers: false,
    serializers: { req: () => undefined },
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    genReqId: (req, res) => {
      const id = correlationOf(req).correlationId;
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (req, res, err) =>
      err || res.statusCode >= 500
        ? 'error'
        : ROUTINE.test(req.url ?? '') && res.statusCode < 400
          ? 'debug'
          : 'info',
    customSuccessObject: (req, res, val: { responseTime: number }) => line(req, res, val.responseTime),
    customErrorObject: (req, res, err, val: { responseTime: number }) => ({
      ...line(req, res, val.responseTime),
      ...(res.statusCode >= 500 && err instanceof Error && !/^failed with status code/.test(err.message)
        ? { err }
        : {}),
    }),
    customSuccessMessage: (req, res) => `${req.method} ${routeTemplateOf(req)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeTemplateOf(req)} ${res.statusCode}`,
  });
  return (req, res, next) => {
    // pino-http names the request by `req.id` when there is one (Fastify's, copied by middie)
    // and then does not call genReqId: both the id and the echo are set here, before any answer.
    const id = correlationOf(req).correlationId;
    (req as { id?: unknown }).id = id;
    res.setHeader('X-Request-Id', id);
    middleware(req, res, next);
  };
}

/**
 * Keeps the parsed body of Fastify's `request` on its Node.js request, where the request log
 * (which sees only that one) shows it at level debug. Run it as a `preValidation` hook: the body
 * is parsed after the middleware ran.
 */
export function keepBodyForRequestLog(request: { readonly raw: object; readonly body?: unknown }): void {
  if (request.body !== undefined) (request.raw as { body?: unknown }).body = request.body;
}
