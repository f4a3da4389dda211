import type { SqlStatement } from './sql-statement.js';

/** Channel on which appends are announced to other processes (payload empty; a hint, never data). */
export const APPENDED_CHANNEL = 'ledger_events_appended';

/**
 * The wake-up NOTIFY a PostgreSQL store sends after an append committed (PostgresEventStore;
 * outside the append's transaction, see migration 6).
 */
export const NOTIFY_APPENDED: SqlStatement = {
  name: 'ledger_notify_appended',
  text: `select pg_notify('${APPENDED_CHANNEL}', '')`,
};
