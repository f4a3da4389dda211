import { installEventStoreSchema } from '../sql/event-store-schema.js';
import { SqlEventStore } from '../sql-event-store.js';
import { openPglite, type OpenPgliteOptions } from './open-pglite.js';
import type { PgliteExecutor } from './pglite-executor.js';

/** Options of {@link PgliteEventStore}. */
export interface PgliteEventStoreOptions {
  /** Directory of the database files (created if missing); in memory when omitted. */
  readonly dataDir?: string;
  /**
   * A data-directory dump to start a NEW database from (PGlite `loadDataDir`: a tar from
   * `dumpDataDir()`), instead of running initdb (seconds of CPU); the schema is still installed or
   * upgraded. PGlite refuses it when `dataDir` already holds a database. Tests restore a freshly
   * initialised cluster this way (test/support/pglite-snapshot.ts).
   */
  readonly loadDataDir?: Blob;
  /** Free space kept in reserve on the data directory's volume, bytes (writes 503 below it); default 24 MiB. */
  readonly diskReserveBytes?: number;
  /** Where storage transitions are reported (writes refused, database stopped or reopened). */
  readonly log?: OpenPgliteOptions['log'];
}

/**
 * The embedded event store: PostgreSQL 18 in WebAssembly (PGlite), same schema and SQL as
 * {@link PostgresEventStore}, for `npm start` with nothing installed. One connection: statements
 * are serialised, so concurrent appends queue instead of racing (results are the same).
 * Create it with {@link PgliteEventStore.open} / {@link createPgliteEventStore}.
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
   * Starts PGlite and installs or upgrades the schema. A data directory is locked for
   * this process first (`ledger.pid`), so a second ledger or the key CLI cannot open it at the same
   * time, and its volume is guarded (`openPglite`: refused below the free space it needs, writes
   * 503 below the reserve, reopened by itself after a storage failure).
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
