import type { SqlStatement } from './sql-statement.js';

/**
 * How many events a database holds and the last global position (`-1` when none): one row
 * `{events: number, lastPosition: string}`, for backup and restore.
 */
export const STORED_EVENTS_SUMMARY: SqlStatement = {
  name: 'ledger_stored_events_summary',
  text: `select count(*)::int as events, coalesce(max(global_position), -1)::text as "lastPosition" from ledger_events`,
};

/** The global position of the last stored event (`-1` when none), as one row `{lastPosition: string}`. */
export const LAST_GLOBAL_POSITION: SqlStatement = {
  name: 'ledger_last_global_position',
  text: `select coalesce(max(global_position), -1)::text as "lastPosition" from ledger_events`,
};
