import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';

/**
 * Fastify's `frameworkErrors` option: the refusals its router makes before any route, middleware
 * or filter runs — a path that is not valid percent-encoding (`FST_ERR_BAD_URL`, e.g. `/%ff`), a
 * path parameter over `maxParamLength` — answered as RFC 9457 problem+json `validation` with the
 * error's status (400 unless Fastify says otherwise), instead of Fastify's own
 * `{"statusCode","code","error","message"}` JSON.
 */
export function frameworkErrorAsProblem(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply
    .code(status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problem('validation', status, `the request path is not valid: ${error.message}`)));
}
