import { EventStoreUnavailableError, StorageUnavailableError } from '../event-store/event-store.port.js';
import { ContentionError } from './contention.error.js';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/** Seconds a client should wait before retrying after a 503 (RFC 9110 §10.2.3 Retry-After). */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/**
 * The problem an error is answered with, when it is one the API documents: a ProblemException as
 * it is; an unreachable store → 503 `store-unavailable` (a full disk too, its reason as the detail:
 * {@link StorageUnavailableError}); too many concurrent writers on one
 * stream → 503 `contention` (both with Retry-After in seconds). Anything else: undefined (a bug,
 * answered 500 by the filter and never hidden in a batch slot).
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
