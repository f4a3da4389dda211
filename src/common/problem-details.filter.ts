import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { problemForError } from './error-problem.js';
import { unreadBodyRefusal } from './json-body.js';
import { problem, PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem.js';

function fromHttpException(err: HttpException): ProblemDetails {
  const status = err.getStatus();
  const res = err.getResponse();
  const message = typeof res === 'string' ? res : ((res as { message?: unknown }).message ?? err.message);
  const detail = Array.isArray(message) ? message.join('; ') : String(message);
  if (status === 404) return problem('not-found', 404, detail);
  if (status === 401) return problem('unauthenticated', 401, detail);
  if (status === 403) return problem('forbidden', 403, detail);
  if (status === 429) return problem('rate-limited', 429, detail);
  if (status === 413) return problem('payload-too-large', 413, detail);
  if (status === 415) return problem('unsupported-media-type', 415, detail);
  if (status === 400) return problem('validation', 400, detail);
  return problem(status >= 500 ? 'internal' : 'http-' + status, status, detail);
}

/**
 * The problem of Fastify's refusal while reading the body (an HttpException caused by a
 * FastifyError): 413, 415 or 400 `invalid-json`; null for anything else.
 */
function fromBodyReading(
  err: HttpException,
  headers: IncomingHttpHeaders | undefined,
): ProblemDetails | null {
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('FST_ERR_CTP_')) return null;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return problem('payload-too-large', 413, 'the request body exceeds the size limit');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type = headers?.['content-type'];
    return unreadBodyRefusal(type ? type.split(';')[0]!.trim().toLowerCase() : null).problem;
  }
  return err.getStatus() === 400 ? problem('invalid-json', 400, err.message) : null;
}

/**
 * Renders every error as RFC 9457 problem+json: documented ones via {@link problemForError},
 * anything else a 500 whose details are logged, never sent. A stream already started is left alone.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(err: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<FastifyReply>();
    let body: ProblemDetails;
    let headers: Record<string, string> = {};
    const known = problemForError(err);
    if (known) {
      body = known.problem;
      headers = { ...known.headers };
    } else if (err instanceof HttpException) {
      body =
        fromBodyReading(err, http.getRequest<{ headers?: IncomingHttpHeaders }>()?.headers) ??
        fromHttpException(err);
    } else {
      this.logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      body = problem('internal', 500, 'an unexpected error occurred');
    }
    if (res.raw.headersSent || res.sent) return;
    // Fastify marks a refusal while reading the body `Connection: close`. For a body over the
    // limit that is refused before any of it was read, Node instead discards the rest and keeps
    // the connection, so a client still sending it reads the 413 rather than a reset (EPIPE).
    if (body.status === 413 && err instanceof HttpException) res.removeHeader('connection');
    void res
      .status(body.status)
      .headers({ ...headers, 'Content-Type': PROBLEM_CONTENT_TYPE })
      .send(JSON.stringify(body));
  }
}
