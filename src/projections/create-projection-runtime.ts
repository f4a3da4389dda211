import type { EventStore } from '../event-store/event-store.port.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { StoreLagProbe } from './core/lag-probe.js';
import { projectionDatabaseFor } from './core/open-projection-database.js';
import { ProjectionRuntime, type ProjectionRuntimeOptions } from './projection-runtime.js';
import { createReadModels } from './read-models.js';

/**
 * The projection runtime of a process: every read model, kept in `sql` (the ledger's SQL
 * database), fed from `store`, whose port also measures the lag ({@link StoreLagProbe}).
 */
export function createProjectionRuntime(
  store: EventStore,
  sql: SqlExecutor,
  options: ProjectionRuntimeOptions = {},
): ProjectionRuntime {
  const lag = new StoreLagProbe(store);
  return new ProjectionRuntime(store, projectionDatabaseFor(sql), createReadModels(store), lag, options);
}
