import type { LedgerConfig } from '../config/ledger-config.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { openReadModelDatabase } from '../event-store/eventstoredb/read-model-database.js';
import { SqlEventStore } from '../event-store/sql-event-store.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';

/**
 * The SQL database of the read models for a process without the HTTP app (projector, CLI),
 * chosen as the app chooses it.
 * @returns the executor and how to release what was opened for it.
 */
export async function openProjectionSql(
  store: EventStore,
  config: LedgerConfig,
): Promise<{ sql: SqlExecutor; close(): Promise<void> }> {
  if (store instanceof SqlEventStore) return { sql: store.executor, close: async () => {} };
  const database = await openReadModelDatabase(config);
  return { sql: database.executor, close: () => database.close() };
}
