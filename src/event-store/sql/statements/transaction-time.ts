/**
 * A select-list column `recorded_at`: the transaction's `now()`, which is what the appended
 * events were recorded with, rendered as `ledger_event_json` does — so a held copy needs no read.
 */
export const RECORDED_AT_COLUMN = `to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as recorded_at`;
