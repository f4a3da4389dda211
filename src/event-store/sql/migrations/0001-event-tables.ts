import type { Migration } from '../migration.js';

/**
 * The two tables of the event store.
 *
 * - `ledger_streams`: one row per stream holding the revision of its last event (0-based, so a
 *   stream row always has >= 1 event) and its optional UUID alias. Appends lock this row
 *   (`FOR UPDATE`) to serialise writers of one stream; writers of different streams never wait
 *   for each other.
 * - `ledger_events`: the log. `global_position` is NOT a sequence but `(64-bit transaction id <<
 *   20) + index within the transaction`, so the reader's high-water mark (`pg_snapshot_xmin << 20`)
 *   is exact. Positions are sparse; only their order means anything.
 */
export const eventTablesMigration: Migration = {
  version: 1,
  name: 'event tables',
  sql: `
create table ledger_streams (
  stream_name     text   not null,
  stream_position bigint not null,
  stream_id       uuid,
  constraint ledger_streams_pkey primary key (stream_name),
  constraint ledger_streams_stream_id_key unique (stream_id),
  constraint ledger_streams_name_check check (stream_name <> ''),
  constraint ledger_streams_position_check check (stream_position >= 0)
);

create table ledger_events (
  global_position bigint      not null,
  event_id        uuid        not null,
  stream_name     text        not null,
  stream_position bigint      not null,
  type            text        not null,
  data            jsonb       not null,
  metadata        jsonb       not null,
  recorded_at     timestamptz not null default now(),
  constraint ledger_events_pkey primary key (global_position),
  constraint ledger_events_event_id_key unique (event_id),
  constraint ledger_events_stream_position_key unique (stream_name, stream_position),
  constraint ledger_events_stream_fkey foreign key (stream_name) references ledger_streams (stream_name),
  constraint ledger_events_position_check check (stream_position >= 0),
  constraint ledger_events_type_check check (type <> ''),
  constraint ledger_events_data_check check (jsonb_typeof(data) = 'object'),
  constraint ledger_events_metadata_check check (jsonb_typeof(metadata) = 'object')
);

comment on column ledger_events.global_position is
  '(transaction id << 20) + index within the transaction: global order = transaction-id order';
`,
};
