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
 * The port's error for a refused append. With a concrete revision or `no_stream` it is the port's
 * {@link WrongExpectedVersionError}: `expected` is what this append sent (servers echo `no_stream`
 * on the Append RPC as revision 2^64-1, so the echo is not used), `actual` the stream's current
 * revision from the answer; `currentEvents` stays undefined — EventStoreDB's answer carries only
 * the revision, and the ledger re-reads. With `any` there is no revision to be wrong about: the
 * server refuses such an append only when some of its event ids are already in the stream but not
 * all ("corrupted idempotency", docs "Idempotence"), which is an {@link EventIdConflictError}.
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
