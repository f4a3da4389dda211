import {
  jsonEvent,
  type EventData,
  type JSONType,
  type RecordedEvent as ClientRecordedEvent,
} from '@eventstore/db-client';
import type { RecordedEvent } from '../event-store.port.js';

/** A normalised event to append (see `encodeEvents`): id, type, JSON data and metadata objects. */
export interface EventToWrite {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
}

/** Positions at or above this are the "no position" marker (2^64-1) of servers before 22.6. */
const NO_POSITION = 2n ** 63n;

/** A JSON event whose id IS the ledger's UUID, so the server recognises a retry (docs "Idempotence"). */
export function toEventData(event: EventToWrite): EventData {
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: event.data as JSONType,
    metadata: event.metadata,
  });
}

/**
 * A stored event in the port's shape. `globalPosition` is its commit position: for gRPC appends
 * commit = prepare, so it alone identifies and orders the event.
 * @throws Error when the event has no usable position (servers before 22.6 send none on stream
 *   reads), was written in an explicit transaction (commit ≠ prepare; legacy TCP API), or is not
 *   a JSON object (never written by the ledger).
 */
export function toRecordedEvent(event: ClientRecordedEvent): RecordedEvent {
  const position = event.position;
  if (!position || position.commit >= NO_POSITION) {
    throw new Error(
      `EventStoreDB returned no log position for ${event.streamId}@${event.revision}: the ledger needs EventStoreDB 22.6 or later`,
    );
  }
  if (position.commit !== position.prepare) {
    throw new Error(
      `Event ${event.id} of ${event.streamId} was written in an explicit transaction (commit ${position.commit} ≠ prepare ${position.prepare}); the ledger's streams must only be written through its adapter`,
    );
  }
  if (!event.isJson || !isObject(event.data)) {
    throw new Error(
      `Event ${event.id} of ${event.streamId} is not a JSON object; the ledger writes only JSON events`,
    );
  }
  return {
    id: event.id,
    type: event.type,
    streamName: event.streamId,
    streamPosition: event.revision,
    globalPosition: position.commit,
    data: event.data,
    metadata: isObject(event.metadata) ? event.metadata : {},
    recordedAt: event.created,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && !Array.isArray(value)
  );
}
