import {
  type BatchAppendOutcome,
  type ExpectedRevision,
  NO_STREAM,
  wrongExpectedVersion,
} from '../event-store.port.js';
import { type RecordedEventJson, toRecordedEvent } from './recorded-event-json.js';
import { RECORDED_AT_COLUMN } from './statements/transaction-time.js';

/**
 * The columns of `ledger_append` / `ledger_append_batch` as selected by {@link APPEND_COLUMNS}:
 * int8 cast to text (pg returns int8 as string, PGlite as number or bigint: text is uniform).
 */
export interface AppendRow {
  readonly ok: boolean;
  /** Revision seen by the check; `'-1'` = no stream. */
  readonly actual: string;
  readonly next_revision: string | null;
  readonly first_global: string | null;
  readonly last_global: string | null;
  readonly deduplicated: boolean;
  /** The stream's events when `ok` is false, else null. */
  readonly current_events: RecordedEventJson[] | null;
  /** When the appended events were recorded (ISO 8601 UTC; see `RECORDED_AT_COLUMN`). */
  readonly recorded_at: string;
}

/** Select list turning the append functions' result into an {@link AppendRow}. */
export const APPEND_COLUMNS =
  'ok, actual::text as actual, next_revision::text as next_revision, ' +
  'first_global::text as first_global, last_global::text as last_global, deduplicated, current_events, ' +
  RECORDED_AT_COLUMN;

/**
 * Maps one append row to the port's outcome: `ok: false` becomes a {@link WrongExpectedVersionError}
 * carrying the actual revision (`'no_stream'` for -1) and the stream's events as of the check.
 */
export function toAppendOutcome(
  streamName: string,
  expected: ExpectedRevision,
  row: AppendRow,
): BatchAppendOutcome {
  if (!row.ok) {
    const actual = row.actual === '-1' ? NO_STREAM : BigInt(row.actual);
    const currentEvents = (row.current_events ?? []).map(toRecordedEvent);
    return {
      ok: false,
      error: wrongExpectedVersion(streamName, expected, actual, currentEvents),
    };
  }
  return {
    ok: true,
    nextExpectedRevision: BigInt(required(row.next_revision)),
    firstGlobalPosition: BigInt(required(row.first_global)),
    lastGlobalPosition: BigInt(required(row.last_global)),
    deduplicated: row.deduplicated,
  };
}

function required(value: string | null): string {
  if (value === null) throw new Error('ledger_append returned ok without positions');
  return value;
}
