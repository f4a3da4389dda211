import type { LedgerConfig } from '../config/ledger-config.js';
import type { EventStore } from './event-store.port.js';
import { PgliteEventStore } from './postgres/pglite-event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';

/**
 * Opens the configured event store and installs/upgrades its schema: PostgreSQL (pool of
 * `poolSize`, statement timeout `storeTimeoutMs`) or embedded PGlite in `dataDir`.
 * @throws EventStoreUnavailableError when it cannot be reached.
 */
export async function openEventStore(config: LedgerConfig): Promise<EventStore> {
  if (config.store === 'postgres') {
    return PostgresEventStore.open({
      connectionString: config.databaseUrl!,
      poolSize: config.poolSize,
      statementTimeoutMs: config.storeTimeoutMs,
    });
  }
  return PgliteEventStore.open({ dataDir: config.dataDir });
}
