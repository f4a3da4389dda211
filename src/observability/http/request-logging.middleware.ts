import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { correlationOf } from './correlation.js';
import type { NodeMiddleware } from '../../common/node-middleware.js';
import { routeTemplateOf } from '../../common/route-template.js';
import { scrubSecrets } from '../logging/redaction.js';
import { LogRateLimit } from './log-rate-limit.js';

/** Probe and scrape routes: logged at debug when they succeed (they arrive every few seconds). */
const ROUTINE = /^\/(health(\/|$|\?)|metrics($|\?))/;

/** Status logged when the client closed before any answer (nginx's 499), never read as a success. */
export const CLIENT_CLOSED_REQUEST = 499;

/** The request-log line's fields, as docs/observability.md "Logs" lists them. */
export interface RequestLogLine {
  readonly requestId: string;
  readonly traceId?: string;
  readonly method: string;
  readonly route: string;
  readonly path?: string;
  /** The answer's status; {@link CLIENT_CLOSED_REQUEST} when `aborted`. */
  readonly status: number;
  readonly aborted?: boolean;
  /** Milliseconds from arrival to the last byte (or the connection's close). */
  readonly ms: number;
  readonly keyId?: string;
  readonly body?: unknown;
  /** The failure an error filter left on the response (`res.err`), only for a 5xx. */
  readonly err?: Error;
  /** Lines of this status, method and route left out before this one (rate limit); absent when 0. */
  readonly suppressed?: number;
}

/** Statuses logged at warn, at most a few lines per route (a flood of them is one cause). */
const WARN_STATUSES: ReadonlySet<number> = new Set([401, 503]);

/** A 401 and a 503 (expected, answered with `Retry-After`) are warn; any other 5xx is error. */
function levelOf(status: number, url: string | undefined): 'error' | 'warn' | 'info' | 'debug' {
  if (WARN_STATUSES.has(status)) return 'warn';
  if (status >= 500) return 'error';
  return status < 400 && ROUTINE.test(url ?? '') ? 'debug' : 'info';
}

type LoggedRequest = IncomingMessage & { caller?: { keyId?: string }; originalUrl?: string; body?: unknown };

/**
 * Middleware for every request: establishes its correlation ({@link correlationOf}), answers
 * `X-Request-Id` before any handler runs, and writes ONE {@link RequestLogLine} when the response
 * finishes or its connection closes; warn lines are rate-limited ({@link LogRateLimit}). No
 * headers, query string or payloads. Install it first, before authentication.
 *
 * Its usual fields hold no credential, so they skip pino's `redact` paths (a cost on every
 * field); a line with a body or an error goes through `logger`'s redaction.
 */
export function requestLogging(logger: Logger, limit: LogRateLimit = new LogRateLimit()): NodeMiddleware {
  const plain = logger.child({}, { redact: [] });
  const write = (req: LoggedRequest, res: ServerResponse, ms: number): void => {
    const aborted = !res.headersSent && !res.writableFinished;
    const status = aborted ? CLIENT_CLOSED_REQUEST : res.statusCode;
    const level = levelOf(status, req.url);
    if (!logger.isLevelEnabled(level)) return;
    const c = correlationOf(req);
    const route = routeTemplateOf(req);
    const admitted =
      level === 'warn' ? limit.admit(`${status} ${req.method} ${route}`, Date.now()) : undefined;
    if (admitted?.write === false) return;
    // The request id and an unmatched path are the client's own text: scrub a token sent there.
    const line: { -readonly [K in keyof RequestLogLine]: RequestLogLine[K] } = {
      requestId: scrubSecrets(c.correlationId),
      traceId: c.traceId ?? undefined,
      method: req.method ?? '',
      route,
      path:
        route === 'unmatched' ? scrubSecrets((req.originalUrl ?? req.url ?? '').split('?')[0]!) : undefined,
      status,
      aborted: aborted || undefined,
      ms,
      keyId: req.caller?.keyId || undefined,
      body: req.body !== undefined && logger.isLevelEnabled('debug') ? req.body : undefined,
      suppressed: admitted?.suppressed || undefined,
    };
    const err = (res as { err?: unknown }).err;
    if (status >= 500 && err instanceof Error) line.err = err;
    const via = line.body === undefined && line.err === undefined ? plain : logger;
    via[level](line, `${line.method} ${route} ${aborted ? 'aborted' : status}`);
  };
  return (req, res, next) => {
    const start = Date.now();
    res.setHeader('X-Request-Id', correlationOf(req).correlationId);
    const done = (): void => {
      res.removeListener('finish', done);
      res.removeListener('close', done);
      write(req as LoggedRequest, res, Date.now() - start);
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}

/**
 * Keeps the parsed body on the Node.js request, which is all the request log sees. A
 * `preValidation` hook: the body is parsed after the middleware ran.
 */
export function keepBodyForRequestLog(request: { readonly raw: object; readonly body?: unknown }): void {
  if (request.body !== undefined) (request.raw as { body?: unknown }).body = request.body;
}
