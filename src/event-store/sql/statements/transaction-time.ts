/**
 * A select-list column `recorded_at`: the transaction's `now()` as `ledger_event_json` renders
 * `recordedAt` (ISO 8601 UTC, microseconds). `recorded_at` defaults to `now()` in
 * `ledger_events` (migration 1), so on a statement that appends, this is the time its events were
 * recorded with — what a held copy of the stream needs without reading the events back.
 */
export const RECORDED_AT_COLUMN = `to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as recorded_at`;
