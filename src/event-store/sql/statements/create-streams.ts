import type { SqlStatement } from './sql-statement.js';

/**
 * Creates streams that must not exist yet (`no_stream`) through `ledger_create_streams`
 * (sql/functions/ledger-create-streams.ts): `$1` = the requests as JSON text. One
 * {@link CreateStreamsRow} per request.
 */
export const CREATE_STREAMS: SqlStatement = {
  name: 'ledger_create_streams',
  text: 'select ord, ok, first_global, last_global, actual, first, current_events from ledger_create_streams($1)',
};

/** A row of {@link CREATE_STREAMS}. */
export interface CreateStreamsRow {
  readonly ord: number;
  readonly ok: boolean;
  readonly first_global: string | null;
  readonly last_global: string | null;
  readonly actual: string | null;
  readonly first: string | null;
  readonly current_events: unknown[] | null;
}
