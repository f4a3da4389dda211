import type { SqlStatement } from './sql-statement.js';

/**
 * How many events a database holds and the global position of the last (`-1` when none), as
 * one row `{events: number, lastPosition: string}` — for tools that handle a whole data
 * directory (backup, restore) and report what it holds.
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
