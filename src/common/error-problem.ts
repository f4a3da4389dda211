import { EventStoreUnavailableError, StorageUnavailableError } from '../event-store/event-store.port.js';
import { ContentionError } from './contention.error.js';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/** Seconds a client should wait before retrying after a 503 (RFC 9110 §10.2.3 Retry-After). */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/**
 * The problem an error the API documents is answered with (a ProblemException, 503
 * `store-unavailable` or `contention` with Retry-After); undefined for a bug, answered 500.
 */
export function problemForError(err: unknown): ProblemException | undefined {
  if (err instanceof ProblemException) return err;
  const retry = { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) };
  if (err instanceof EventStoreUnavailableError) {
    const detail =
      err instanceof StorageUnavailableError
        ? `${err.reason}; retry shortly`
        : 'the event store is unavailable; retry shortly';
    return new ProblemException(problem('store-unavailable', 503, detail), retry);
  }
  if (err instanceof ContentionError) {
    return new ProblemException(
      problem('contention', 503, 'too many concurrent writers on this operation; retry shortly'),
      retry,
    );
  }
  return undefined;
}
