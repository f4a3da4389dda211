import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { EventStoreUnavailableError } from '../event-store/event-store.port.js';
import { ContentionError } from '../operations/core/contention.error.js';
import { problem, PROBLEM_CONTENT_TYPE, type ProblemDetails } from './problem.js';
import { ProblemException } from './problem.exception.js';

/** Seconds a client should wait before retrying after a 503 (RFC 9110 §10.2.3 Retry-After). */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

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
 * Renders every error as RFC 9457 `application/problem+json`: our ProblemExceptions as they are,
 * Nest HttpExceptions (unknown routes → 404 `not-found`), body-parser errors (413, bad JSON → 400),
 * an unreachable store → 503 `store-unavailable` and too many concurrent writers on one operation
 * → 503 `contention`, both with Retry-After. Anything else is a 500 whose
 * details are logged, never sent.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    let body: ProblemDetails;
    let headers: Record<string, string> = {};
    if (err instanceof ProblemException) {
      body = err.problem;
      headers = { ...err.headers };
    } else if (err instanceof EventStoreUnavailableError) {
      body = problem('store-unavailable', 503, 'the event store is unavailable; retry shortly');
      headers['Retry-After'] = String(UNAVAILABLE_RETRY_AFTER_S);
    } else if (err instanceof ContentionError) {
      body = problem('contention', 503, 'too many concurrent writers on this operation; retry shortly');
      headers['Retry-After'] = String(UNAVAILABLE_RETRY_AFTER_S);
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
