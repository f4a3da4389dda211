import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { UNAVAILABLE_RETRY_AFTER_S } from '../../common/problem-details.filter.js';
import { EventStoreUnavailableError } from '../../event-store/event-store.port.js';
import { ContentionError } from '../core/contention.error.js';

/** An HTTP answer as data: what a single route sends, and what a batch slot holds. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** A successful answer. */
export function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, body, headers };
}

/**
 * The answer an error would get from the problem filter, as data (for batch slots).
 * Unexpected errors are rethrown: a batch must not hide a bug as one slot's 500.
 */
export function answerForError(err: unknown): HttpAnswer {
  if (err instanceof ProblemException)
    return { status: err.problem.status, body: err.problem, headers: err.headers };
  if (err instanceof EventStoreUnavailableError || err instanceof ContentionError) {
    const p = toUnavailableProblem(err);
    return { status: p.problem.status, body: p.problem, headers: p.headers };
  }
  throw err;
}

/** ContentionError / store outage → 503 with Retry-After (s). */
export function toUnavailableProblem(err: EventStoreUnavailableError | ContentionError): ProblemException {
  const retry = { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) };
  if (err instanceof ContentionError) {
    return new ProblemException(
      problem('contention', 503, 'too many concurrent writers on this operation; retry shortly'),
      retry,
    );
  }
  return new ProblemException(
    problem('store-unavailable', 503, 'the event store is unavailable; retry shortly'),
    retry,
  );
}
