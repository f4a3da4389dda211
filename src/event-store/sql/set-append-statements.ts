/**
 * Calls of the set-based append functions of migration 8 (`ledger_create_streams`,
 * `ledger_append_any`; semantics there): `$1` = the requests as JSON text. Prepared per connection
 * where the executor can.
 */

/** Creates streams that must not exist yet (`no_stream`); one {@link CreateStreamsRow} per request. */
export const CREATE_STREAMS_STATEMENT =
  'select ord, ok, first_global, last_global, actual, first, current_events from ledger_create_streams($1)';

/** A row of {@link CREATE_STREAMS_STATEMENT}. */
export interface CreateStreamsRow {
  readonly ord: number;
  readonly ok: boolean;
  readonly first_global: string | null;
  readonly last_global: string | null;
  readonly actual: string | null;
  readonly first: string | null;
  readonly current_events: unknown[] | null;
}

/** Appends with expected revision `any`, optionally `onlyIf`; one {@link AppendAnyRow} per request. */
export const APPEND_ANY_STATEMENT =
  'select ord, next_revision, first_global, condition_actual from ledger_append_any($1)';

/** A row of {@link APPEND_ANY_STATEMENT}. */
export interface AppendAnyRow {
  readonly ord: number;
  readonly next_revision: string | null;
  readonly first_global: string | null;
  readonly condition_actual: string | null;
}
