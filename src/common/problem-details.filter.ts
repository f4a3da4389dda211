import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { problemForError } from './error-problem.js';
import { problem, PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem.js';

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

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
 * Renders every error as RFC 9457 `application/problem+json`: the documented ones as
 * {@link problemForError} maps them (ProblemExceptions as they are, 503s with Retry-After), Nest
 * HttpExceptions (unknown routes → 404 `not-found`), body-parser errors (413, bad JSON → 400).
 * Anything else is a 500 whose details are logged, never sent.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    let body: ProblemDetails;
    let headers: Record<string, string> = {};
    const known = problemForError(err);
    if (known) {
      body = known.problem;
      headers = { ...known.headers };
    } else if (err instanceof HttpException) {
      body = fromHttpException(err);
    } else if (isBodyParserError(err)) {
      body =
        err.type === 'entity.too.large'
          ? problem('payload-too-large', 413, 'the request body exceeds the size limit')
          : problem('invalid-json', 400, err.message ?? 'the body could not be read');
    } else {
      this.logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      body = problem('internal', 500, 'an unexpected error occurred');
    }
    if (res.headersSent) return;
    res.status(body.status).set({ ...headers, 'Content-Type': PROBLEM_CONTENT_TYPE });
    res.send(JSON.stringify(body));
  }
}

function isBodyParserError(err: unknown): err is BodyParserError {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as BodyParserError;
  return typeof e.type === 'string' && typeof e.status === 'number' && e.status >= 400 && e.status < 500;
}
