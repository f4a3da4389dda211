import { PGlite } from '@electric-sql/pglite';
import { installEventStoreSchema } from '../sql/event-store-schema.js';
import { SqlEventStore } from '../sql-event-store.js';
import { PgliteExecutor } from './pglite-executor.js';

/** Options of {@link PgliteEventStore}. */
export interface PgliteEventStoreOptions {
  /** Directory of the database files (created if missing); in memory when omitted. */
  readonly dataDir?: string;
}

/**
 * The embedded event store: PostgreSQL 18 in WebAssembly (PGlite), same schema and SQL as
 * {@link PostgresEventStore}, for `npm start` with nothing installed. One connection: statements
 * are serialised, so concurrent appends queue instead of racing (results are the same).
 * Create it with {@link PgliteEventStore.open} / {@link createPgliteEventStore}.
 */
export class PgliteEventStore extends SqlEventStore {
  private constructor(private readonly pgliteExecutor: PgliteExecutor) {
    super(pgliteExecutor, () => pgliteExecutor.db.close());
  }

  /** The PGlite executor (and `.db`) for projections that keep tables in the same database. */
  override get executor(): PgliteExecutor {
    return this.pgliteExecutor;
  }

  /**
   * Starts PGlite (about 2 s) and installs or upgrades the schema.
   * @throws the PGlite start-up error (e.g. an unreadable data directory).
   */
  static async open(options: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
    const db = new PGlite(options.dataDir);
    await db.waitReady;
    const store = new PgliteEventStore(new PgliteExecutor(db));
    try {
      await installEventStoreSchema(store.executor);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
    return store;
  }
}

/** Same as {@link PgliteEventStore.open}. */
export function createPgliteEventStore(options: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
  return PgliteEventStore.open(options);
}
