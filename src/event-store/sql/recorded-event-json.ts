import type { RecordedEvent } from '../event-store.port.js';

/**
 * One event as `ledger_event_json` (sql/functions/ledger-event-json.ts) renders it. Positions
 * are decimal strings because they can exceed 2^53 (JSON numbers would lose digits);
 * `recordedAt` is ISO 8601 UTC.
 */
export interface RecordedEventJson {
  readonly id: string;
  readonly type: string;
  readonly streamName: string;
  readonly streamPosition: string;
  readonly globalPosition: string;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
  readonly recordedAt: string;
}

/** Maps the JSON of one stored event to the port's {@link RecordedEvent} (bigint positions, Date). */
export function toRecordedEvent(json: RecordedEventJson): RecordedEvent {
  return {
    id: json.id,
    type: json.type,
    streamName: json.streamName,
    streamPosition: BigInt(json.streamPosition),
    globalPosition: BigInt(json.globalPosition),
    data: json.data,
    metadata: json.metadata,
    recordedAt: new Date(json.recordedAt),
  };
}
