import { Logger } from '@nestjs/common';
import { ConfigError, type LedgerConfig } from '../config/ledger-config.js';
import type { EventStore } from './event-store.port.js';
import { PgliteEventStore } from './postgres/pglite-event-store.js';
import { PostgresEventStore } from './postgres/postgres-event-store.js';

/**
 * Opens the configured event store and installs/upgrades its schema. The EventStoreDB client
 * (gRPC) is loaded only for that store.
 * @throws EventStoreUnavailableError when it cannot be reached; InsufficientStorageError;
 *   ConfigError for an EventStoreDB connection string the client rejects.
 */
export async function openEventStore(config: LedgerConfig): Promise<EventStore> {
  if (config.store === 'eventstoredb') {
    const { EventStoreDbEventStore } = await import('./eventstoredb/eventstoredb-event-store.js');
    return EventStoreDbEventStore.open({
      connectionString: config.eventStoreConnectionString!,
      timeoutMs: config.storeTimeoutMs,
    }).catch((error: unknown) => {
      throw error instanceof TypeError
        ? new ConfigError(`EVENTSTORE_CONNECTION_STRING: ${error.message}`)
        : error;
    });
  }
  if (config.store === 'postgres') {
    return PostgresEventStore.open({
      connectionString: config.databaseUrl!,
      poolSize: config.poolSize,
      statementTimeoutMs: config.storeTimeoutMs,
    });
  }
  return PgliteEventStore.open({
    dataDir: config.dataDir,
    diskReserveBytes: config.diskReserveBytes,
    log: new Logger('EmbeddedStore'),
  });
}
