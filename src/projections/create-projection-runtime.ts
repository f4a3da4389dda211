import type { EventStore } from '../event-store/event-store.port.js';
import { SqlEventStore } from '../event-store/sql-event-store.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { type LagProbe, ReadAllLagProbe, SqlLagProbe } from './core/lag-probe.js';
import { projectionDatabaseFor } from './core/open-projection-database.js';
import { unwrapEventStore } from '../metrics/instrumented-event-store.js';
import { ProjectionRuntime, type ProjectionRuntimeOptions } from './projection-runtime.js';
import { createReadModels } from './read-models.js';

/**
 * The projection runtime of a process: every read model, kept in `sql` (the ledger's SQL
 * database), fed from `store`. Lag is measured in SQL when the store is the SQL event store, else
 * by reading ahead through the port.
 */
export function createProjectionRuntime(
  store: EventStore,
  sql: SqlExecutor,
  options: ProjectionRuntimeOptions = {},
): ProjectionRuntime {
  const inner = unwrapEventStore(store);
  const lag: LagProbe =
    inner instanceof SqlEventStore ? new SqlLagProbe(inner.executor) : new ReadAllLagProbe(store);
  return new ProjectionRuntime(store, projectionDatabaseFor(sql), createReadModels(store), lag, options);
}
