import type { LedgerConfig } from '../config/ledger-config.js';
import { openEventStore } from '../event-store/open-event-store.js';
import { SqlEventStore } from '../event-store/sql-event-store.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { installApiKeySchema } from '../auth/sql/api-key-schema.js';

/** The configured SQL database, opened for key management; `close()` when done. */
export interface KeyDatabase {
  readonly sql: SqlExecutor;
  close(): Promise<void>;
}

/**
 * Opens the configured key database, installing the schemas if needed (PGlite is single-process:
 * not the data directory of a running ledger).
 * @throws EventStoreUnavailableError when PostgreSQL cannot be reached; Error for a store
 *   without a SQL database.
 */
export async function openKeyDatabase(config: LedgerConfig): Promise<KeyDatabase> {
  const store = await openEventStore(config);
  if (!(store instanceof SqlEventStore)) {
    await store.close();
    throw new Error(`the ${config.store} store keeps no API keys; point the CLI at the SQL database`);
  }
  await installApiKeySchema(store.executor);
  return { sql: store.executor, close: () => store.close() };
}
