import type { RecordedEvent } from '../event-store.port.js';

/** One event as `ledger_event_json` renders it; positions are decimal strings (beyond 2^53). */
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
