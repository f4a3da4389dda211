import { installEventStoreSchema } from '../sql/event-store-schema.js';
import { SqlEventStore } from '../sql-event-store.js';
import { openPglite, type OpenPgliteOptions } from './open-pglite.js';
import type { PgliteExecutor } from './pglite-executor.js';

/** Options of {@link PgliteEventStore}. */
export interface PgliteEventStoreOptions {
  /** Directory of the database files (created if missing); in memory when omitted. */
  readonly dataDir?: string;
  /** A `dumpDataDir()` tar to start a NEW database from instead of running initdb. */
  readonly loadDataDir?: Blob;
  /** Free space kept in reserve on the data directory's volume, bytes (writes 503 below it); default 24 MiB. */
  readonly diskReserveBytes?: number;
  /** Where storage transitions are reported (writes refused, database stopped or reopened). */
  readonly log?: OpenPgliteOptions['log'];
}

/**
 * The embedded event store: PostgreSQL in WebAssembly (PGlite), same schema and SQL as
 * {@link PostgresEventStore}. One connection: concurrent appends queue instead of racing.
 */
export class PgliteEventStore extends SqlEventStore {
  private constructor(
    private readonly pgliteExecutor: PgliteExecutor,
    release: () => Promise<void>,
  ) {
    super(pgliteExecutor, release);
  }

  /** The PGlite executor (and `.db`) for projections that keep tables in the same database. */
  override get executor(): PgliteExecutor {
    return this.pgliteExecutor;
  }

  /**
   * Starts PGlite (`openPglite`: locked for this process, volume guarded) and installs the schema.
   * @throws InsufficientStorageError naming the free space needed; DataDirInUseError when another
   *   live process holds the directory; the PGlite start-up error (e.g. an unreadable directory).
   */
  static async open(options: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
    const opened = await openPglite(options);
    try {
      const store = new PgliteEventStore(opened.executor, opened.close);
      await installEventStoreSchema(store.executor);
      return store;
    } catch (error) {
      await opened.close().catch(() => undefined);
      throw error;
    }
  }
}

/** Same as {@link PgliteEventStore.open}. */
export function createPgliteEventStore(options: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
  return PgliteEventStore.open(options);
}
