import type { EventStore } from '../event-store/event-store.port.js';
import { ConflictsReadModel } from './conflicts/conflicts-read-model.js';
import type { ReadModel } from './core/read-model.js';
import { MetricsReadModel } from './outcome-counters/metrics-read-model.js';
import { OperationsReadModel } from './operation-views/operations-read-model.js';

/** Names of the read models, as used in routes and `ledger_projections`. */
export type ReadModelName = 'operations' | 'metrics' | 'conflicts';
export const READ_MODEL_NAMES: readonly ReadModelName[] = ['operations', 'metrics', 'conflicts'];

/** Every read model of the ledger (`conflicts` reads first payloads from `store`). */
export function createReadModels(store: EventStore): ReadModel[] {
  return [new OperationsReadModel(), new MetricsReadModel(), new ConflictsReadModel(store)];
}
