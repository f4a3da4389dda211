import type { ProblemDetails } from './problem.js';

/**
 * An error that is answered as a given problem document, with optional headers (e.g.
 * `Retry-After` in seconds). Thrown at the HTTP edge (controllers, pipes, guards, middleware;
 * handlers return refusals as values); rendered by ProblemDetailsFilter.
 *
 * It carries no stack trace (`stack` is the name and message only): a problem is an answer the
 * ledger meant to give, not a defect to locate, and capturing the stack through Nest's pipeline
 * was the costliest line of a refusal (docs/decisions.md "Claim path").
 * Errors that are defects keep theirs and are logged with it (ProblemDetailsFilter).
 */
export class ProblemException extends Error {
  constructor(
    readonly problem: ProblemDetails,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(problem.detail);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
