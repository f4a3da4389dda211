import { EventIdConflictError } from '../event-store.port.js';
import {
  EVENT_ID_CONSTRAINT,
  isUniqueViolation,
  STREAM_ID_CONSTRAINT,
  SqlState,
  sqlStateOf,
} from './sql-error.js';

/**
 * A database error of an append as the port reports it: an event id conflict (`LG001`, or a
 * unique violation on the event id) becomes {@link EventIdConflictError}; a stream id already
 * naming another stream an `Error` saying so; anything else is returned unchanged.
 */
export function toStoreError(streamName: string, error: unknown): unknown {
  if (sqlStateOf(error) === SqlState.eventIdConflict || isUniqueViolation(error, EVENT_ID_CONSTRAINT)) {
    return new EventIdConflictError(streamName, (error as Error).message, error);
  }
  if (isUniqueViolation(error, STREAM_ID_CONSTRAINT)) {
    return new Error(`Append to ${streamName}: its stream id already names another stream`, {
      cause: error,
    });
  }
  return error;
}
