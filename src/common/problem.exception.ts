import type { ProblemDetails } from './problem.js';

/**
 * An error that is answered as a given problem document, with optional headers (e.g.
 * `Retry-After` in seconds). Thrown by controllers and handlers; rendered by ProblemDetailsFilter.
 */
export class ProblemException extends Error {
  constructor(
    readonly problem: ProblemDetails,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(problem.detail);
  }
}
