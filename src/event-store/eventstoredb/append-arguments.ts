import { EventIdConflictError, type EventToAppend, type ExpectedRevision } from '../event-store.port.js';
import { encodeEvents, encodeExpectedRevision, isUuid } from '../sql/append-encoding.js';
import type { EventToWrite } from './recorded-event-mapping.js';

/**
 * Checks one append's arguments with the SQL stores' rules and errors, and normalises the events.
 * @throws TypeError for an empty stream name, no events, a non-UUID event id or stream id, an empty
 *   type, non-object data/metadata; RangeError for a negative revision; EventIdConflictError when
 *   one id appears twice (EventStoreDB would store both copies).
 */
export function checkAppend(
  streamName: string,
  events: readonly EventToAppend[],
  expected: ExpectedRevision,
  streamId: string | undefined,
): EventToWrite[] {
  const normalized = (encodeEvents(streamName, events) as EventToWrite[]).map((event) => ({
    ...event,
    id: event.id.toLowerCase(),
  }));
  encodeExpectedRevision(expected);
  if (streamId !== undefined && !isUuid(streamId)) {
    throw new TypeError(`streamId must be a UUID, got ${String(streamId)}`);
  }
  const seen = new Set<string>();
  for (const { id } of normalized) {
    if (seen.has(id)) {
      throw new EventIdConflictError(
        streamName,
        `Event id ${id} appears twice in one append to ${streamName}`,
      );
    }
    seen.add(id);
  }
  return normalized;
}
