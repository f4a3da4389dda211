import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { correlationOf } from './correlation.js';
import type { NodeMiddleware } from '../../common/node-middleware.js';
import { routeTemplateOf } from '../../common/route-template.js';
import { scrubSecrets } from '../logging/redaction.js';
import { LogRateLimit } from './log-rate-limit.js';

/** Probe and scrape routes: logged at debug when they succeed (they arrive every few seconds). */
const ROUTINE = /^\/(health(\/|$|\?)|metrics($|\?))/;

/**
 * The status logged for a request whose client closed the connection before any answer was sent:
 * 499, nginx's "client closed request", so such a line is never read as a success.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** The request-log line's fields (docs/running.md "Observability"). */
export interface RequestLogLine {
  /** The correlation id, as echoed in `X-Request-Id` (the line's first field). */
  readonly requestId: string;
  readonly traceId?: string;
  readonly method: string;
  /** Route template, see {@link routeTemplateOf}. */
  readonly route: string;
  /** The path without its query, only when no route matched (`route` is `unmatched`). */
  readonly path?: string;
  /**
   * The answer's status; {@link CLIENT_CLOSED_REQUEST} when the client went away before any
   * answer was sent (then `aborted` is true).
   */
  readonly status: number;
  /** True when the connection closed before an answer was sent. */
  readonly aborted?: boolean;
  /** Milliseconds from the request's arrival to its last byte (or the connection's close). */
  readonly ms: number;
  /** Id of the API key (never its secret); absent when the request was not authenticated. */
  readonly keyId?: string;
  /** The parsed request body, only at level debug. */
  readonly body?: unknown;
  /** The failure an error filter left on the response (`res.err`), only for a 5xx. */
  readonly err?: Error;
  /**
   * How many lines of this status, method and route were left out before this one (a 401 or 503
   * flood, see {@link requestLogging}); absent when none was.
   */
  readonly suppressed?: number;
}

/** Statuses logged at warn, at most a few lines per route (a flood of them is one cause). */
const WARN_STATUSES: ReadonlySet<number> = new Set([401, 503]);

/**
 * The level of a request's line: a 401 (a missing or wrong key) and a 503 (a dependency down or
 * full: an expected, answered condition with `Retry-After`) at warn; any other 5xx at error;
 * a successful health probe or scrape at debug; everything else at info.
 */
function levelOf(status: number, url: string | undefined): 'error' | 'warn' | 'info' | 'debug' {
  if (WARN_STATUSES.has(status)) return 'warn';
  if (status >= 500) return 'error';
  return status < 400 && ROUTINE.test(url ?? '') ? 'debug' : 'info';
}

type LoggedRequest = IncomingMessage & { caller?: { keyId?: string }; originalUrl?: string; body?: unknown };

/**
 * Middleware for every request: establishes its correlation ({@link correlationOf}), answers
 * `X-Request-Id: <correlationId>` before any handler runs (refusals carry it too), and when the
 * response finishes or its connection closes writes ONE {@link RequestLogLine},
 * `"<METHOD> <route> <status>"`: error for 5xx, warn for 401 and 503 (rate-limited by
 * {@link LogRateLimit}, so a flood of refusals does not flood the log), debug for successful
 * probes and scrapes, else info. No headers, query string or payloads (the body only at debug).
 * Install it first, before authentication.
 *
 * Its usual fields — ids, a route pattern, numbers — hold no credential, so they skip pino's
 * `redact` paths (a cost on every field of every line); a line with a body or an error goes
 * through `logger`'s redaction and error scrubbing.
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
    // Absent fields stay undefined: pino leaves them out, and the order is that of the docs.
    // The request id and an unmatched path are the client's own text: a token sent there is
    // scrubbed as in every other line (the rest of the line holds no credential by construction).
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
 * Keeps the parsed body of Fastify's `request` on its Node.js request, where the request log
 * (which sees only that one) shows it at level debug. Run it as a `preValidation` hook: the body
 * is parsed after the middleware ran.
 */
export function keepBodyForRequestLog(request: { readonly raw: object; readonly body?: unknown }): void {
  if (request.body !== undefined) (request.raw as { body?: unknown }).body = request.body;
}
