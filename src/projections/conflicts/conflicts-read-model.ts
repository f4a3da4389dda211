import type { EventStore, RecordedEvent } from '../../event-store/event-store.port.js';
import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import { AUDIT_STREAM_PREFIX, OPERATION_STREAM_PREFIX } from '../../ledger/index.js';
import type { FeedChange, ReadModel, StoredChange, TableNames } from '../core/read-model.js';
import { readConflictsFeed } from './conflicts-queries.js';
import { CONFLICTS_FEED } from './conflict-row.js';
import type { Column } from '../core/sql-rows.js';
import { diffJson } from './json-diff.js';

export { CONFLICTS_FEED } from './conflict-row.js';

const COLUMNS: readonly Column[] = [
  { name: 'event_id', type: 'uuid' },
  { name: 'position', type: 'bigint' },
  { name: 'tenant', type: 'text' },
  { name: 'operation_id', type: 'uuid' },
  { name: 'source', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'subject', type: 'text' },
  { name: 'revision', type: 'integer' },
  { name: 'attempt', type: 'integer' },
  { name: 'at', type: 'timestamptz' },
  { name: 'worker_id', type: 'text' },
  { name: 'existing_fingerprint', type: 'text' },
  { name: 'incoming_fingerprint', type: 'text' },
  { name: 'diff', type: 'jsonb' },
  { name: 'diff_truncated', type: 'boolean' },
];

/** First claim payloads by decision stream, looked up before the batch transaction. */
type Payloads = Map<string, Map<string, unknown>>;

/**
 * The conflict report: one row per PayloadConflictDetected, with a field-level diff against the
 * first claim's payload, read in {@link prepare} from the decision stream (immutable, so a
 * rebuild gives the same). Rows are keyed by event id.
 */
export class ConflictsReadModel implements ReadModel {
  readonly name = 'conflicts';
  readonly tables = ['conflicts'];
  readonly feeds = [CONFLICTS_FEED];

  constructor(private readonly store: EventStore) {}

  createTables(n: TableNames): string {
    return `
create table ${n.conflicts} (
  ${COLUMNS.map((c) => `${c.name} ${c.type}`).join(',\n  ')},
  primary key (event_id)
);
create index on ${n.conflicts} (tenant, position);
create index on ${n.conflicts} (tenant, action, position);
`;
  }

  readFeed(
    sql: SqlQueryable,
    _feed: string,
    tenant: string,
    after: bigint,
    limit: number,
  ): Promise<StoredChange[]> {
    return readConflictsFeed(sql, tenant, after, limit);
  }

  async prepare(events: readonly RecordedEvent[]): Promise<Payloads> {
    const payloads: Payloads = new Map();
    for (const event of events) {
      if (event.type !== 'PayloadConflictDetected') continue;
      const stream = decisionStreamOf(event.streamName);
      if (!stream || payloads.has(stream)) continue;
      const byFingerprint = new Map<string, unknown>();
      for (const e of await this.store.read(stream)) {
        const d = e.data as { fingerprint?: unknown; payload?: unknown };
        const isIntent = e.type === 'OperationClaimed' || e.type === 'ApprovalRequested';
        if (
          isIntent &&
          typeof d.fingerprint === 'string' &&
          d.payload != null &&
          !byFingerprint.has(d.fingerprint)
        ) {
          byFingerprint.set(d.fingerprint, d.payload);
        }
      }
      payloads.set(stream, byFingerprint);
    }
    return payloads;
  }

  async apply(
    tx: SqlExecutor,
    events: readonly RecordedEvent[],
    n: TableNames,
    prepared: unknown,
  ): Promise<FeedChange[]> {
    const payloads = (prepared as Payloads | undefined) ?? new Map();
    const rows = [];
    for (const event of events) {
      if (event.type !== 'PayloadConflictDetected') continue;
      const d = event.data as Record<string, unknown>;
      const key = d.key as {
        tenant: string;
        source: string;
        action: string;
        subject: string;
        revision: number;
      };
      const existing = payloads
        .get(decisionStreamOf(event.streamName) ?? '')
        ?.get(String(d.existingFingerprint));
      const diff =
        existing === undefined || d.incomingPayload === undefined
          ? null
          : diffJson(existing, d.incomingPayload);
      rows.push({
        event_id: event.id,
        position: event.globalPosition.toString(),
        tenant: String(d.tenant),
        operation_id: String(d.operationId),
        source: key.source,
        action: key.action,
        subject: key.subject,
        revision: key.revision,
        attempt: Number(d.attempt ?? 0),
        at: String(d.at),
        worker_id: (d.workerId as string | null) ?? null,
        existing_fingerprint: String(d.existingFingerprint),
        incoming_fingerprint: String(d.incomingFingerprint),
        diff: diff?.differences ?? null,
        diff_truncated: diff?.truncated ?? false,
      });
    }
    if (rows.length === 0) return [];
    const names = COLUMNS.map((c) => c.name).join(', ');
    await tx.queryPrepared(
      `rm_insert_${n.conflicts}`,
      `insert into ${n.conflicts} (${names})
       select ${names} from jsonb_to_recordset($1::text::jsonb) as x(${COLUMNS.map((c) => `${c.name} ${c.type}`).join(', ')})
       on conflict (event_id) do nothing`,
      [JSON.stringify(rows)],
    );
    return rows.map((row) => ({ feed: CONFLICTS_FEED, position: BigInt(row.position), tenant: row.tenant }));
  }
}

/** `operation-<key>` for an `audit-operation-<key>` stream name, else null. */
function decisionStreamOf(auditStream: string): string | null {
  if (!auditStream.startsWith(AUDIT_STREAM_PREFIX)) return null;
  return OPERATION_STREAM_PREFIX + auditStream.slice(AUDIT_STREAM_PREFIX.length);
}
