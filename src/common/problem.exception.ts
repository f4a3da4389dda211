import type { ProblemDetails } from './problem.js';

/**
 * An error answered as a given problem document, with optional headers (e.g. `Retry-After` in
 * seconds); thrown only at the HTTP edge. It carries no stack trace: it is an intended answer, not
 * a defect, and capturing one was costly (docs/decisions.md "Claim path").
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
