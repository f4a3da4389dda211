import {
  ANY as CLIENT_ANY,
  NO_STREAM as CLIENT_NO_STREAM,
  type AppendExpectedRevision,
  type CurrentRevision,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  ANY,
  EventIdConflictError,
  type ExpectedRevision,
  NO_STREAM,
  WrongExpectedVersionError,
} from '../event-store.port.js';

/**
 * The port's expected revision as the client's (https://developers.eventstore.com/clients/grpc/appending-events,
 * "Handling concurrency"): the same three cases, the same 0-based revisions.
 */
export function toClientExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === NO_STREAM) return CLIENT_NO_STREAM;
  if (expected === ANY) return CLIENT_ANY;
  return expected;
}

/** A current revision as the client reports it (`'no_stream'` or a bigint) in the port's terms. */
export function fromClientCurrentRevision(current: CurrentRevision): bigint | typeof NO_STREAM {
  return current === CLIENT_NO_STREAM ? NO_STREAM : current;
}

/**
 * The port's error for a refused append: {@link WrongExpectedVersionError} with what this append
 * sent (servers echo `no_stream` as 2^64-1); with `any`, the server refuses only a partial id
 * match (docs "Idempotence"), an {@link EventIdConflictError}.
 */
export function toPortAppendError(
  streamName: string,
  expected: ExpectedRevision,
  error: ClientWrongExpectedVersionError,
): WrongExpectedVersionError | EventIdConflictError {
  const actual = fromClientCurrentRevision(error.actualVersion as CurrentRevision);
  if (expected === ANY) {
    return new EventIdConflictError(
      streamName,
      `EventStoreDB refused an append to ${streamName}: some of its event ids are already stored, not all`,
      error,
    );
  }
  return new WrongExpectedVersionError(streamName, expected, actual);
}

export { ClientWrongExpectedVersionError };
