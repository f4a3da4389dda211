import type { Migration } from '../migration.js';

/**
 * Position arithmetic and the read functions.
 *
 * - `ledger_transaction_base_position()`: the first global position the current transaction may
 *   use, `pg_current_xact_id() << 20` (assigns the transaction id if it has none yet).
 * - `ledger_visible_position_limit()`: exclusive upper bound of what a reader may return,
 *   `pg_snapshot_xmin(pg_current_snapshot()) << 20`. Every transaction with a lower id has ended
 *   before the snapshot, and every event below the bound was written by such a transaction, so an
 *   event that is not visible now can never later appear below the bound: a checkpoint never skips
 *   a late commit. (With a plain sequence this fails: a transaction can get its id first and its
 *   sequence value second, and commit below a checkpoint already handed out.)
 * - `ledger_event_json(e)`: one event as the JSON object the TypeScript side maps (positions as
 *   decimal strings, since they exceed 2^53 on old clusters; `recordedAt` ISO 8601 UTC, microseconds).
 * - `ledger_read_stream(stream, from_revision)` and `ledger_read_all(after, limit)`.
 */
export const readFunctionsMigration: Migration = {
  version: 2,
  name: 'read functions',
  sql: `
create function ledger_transaction_base_position() returns bigint
language sql volatile
as $$ select (pg_current_xact_id()::text::bigint) << 20 $$;

create function ledger_visible_position_limit() returns bigint
language sql stable
as $$ select (pg_snapshot_xmin(pg_current_snapshot())::text::bigint) << 20 $$;

create function ledger_event_json(e ledger_events) returns jsonb
language sql stable
as $$
  select jsonb_build_object(
    'id', e.event_id,
    'type', e.type,
    'streamName', e.stream_name,
    'streamPosition', e.stream_position::text,
    'globalPosition', e.global_position::text,
    'data', e.data,
    'metadata', e.metadata,
    'recordedAt', to_char(e.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
$$;

create function ledger_read_stream(p_stream text, p_from_revision bigint)
returns table (event jsonb)
language sql stable
as $$
  select ledger_event_json(e) from ledger_events e
  where e.stream_name = p_stream and e.stream_position >= p_from_revision
  order by e.stream_position
$$;

create function ledger_read_all(p_after bigint, p_limit integer)
returns table (event jsonb)
language sql stable
as $$
  select ledger_event_json(e) from ledger_events e
  where e.global_position > p_after and e.global_position < ledger_visible_position_limit()
  order by e.global_position
  limit p_limit
$$;
`,
};
