import type { SqlStatement } from './sql-statement.js';
import { RECORDED_AT_COLUMN } from './transaction-time.js';

/** `ledger_create_streams` with `$1` = the requests as JSON text; one row per request. */
export const CREATE_STREAMS: SqlStatement = {
  name: 'ledger_create_streams',
  text: `select ord, ok, first_global, last_global, actual, first, current_events, ${RECORDED_AT_COLUMN} from ledger_create_streams($1)`,
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
  /** When the created streams' events were recorded (ISO 8601 UTC; see `RECORDED_AT_COLUMN`). */
  readonly recorded_at: string;
}
