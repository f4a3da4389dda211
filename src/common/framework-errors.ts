import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';

/**
 * Fastify's `frameworkErrors` option: its router's refusals before any route runs (bad
 * percent-encoding, a parameter over `maxParamLength`) as problem+json `validation`.
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
