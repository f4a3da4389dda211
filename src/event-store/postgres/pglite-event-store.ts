import { PGlite } from '@electric-sql/pglite';
import { installEventStoreSchema } from '../sql/event-store-schema.js';
import { SqlEventStore } from '../sql-event-store.js';
import { lockDataDir } from './data-dir-lock.js';
import { PgliteExecutor } from './pglite-executor.js';

/** Options of {@link PgliteEventStore}. */
export interface PgliteEventStoreOptions {
  /** Directory of the database files (created if missing); in memory when omitted. */
  readonly dataDir?: string;
  /**
   * A data-directory dump to start a NEW database from (PGlite `loadDataDir`: a tar from
   * `dumpDataDir()`), instead of running initdb (2–3 CPU-s); the schema is still installed or
   * upgraded. PGlite refuses it when `dataDir` already holds a database. Tests restore a freshly
   * initialised cluster this way (test/support/pglite-snapshot.ts).
   */
  readonly loadDataDir?: Blob;
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
    unlock: () => void,
  ) {
    super(pgliteExecutor, async () => {
      await pgliteExecutor.db.close();
      unlock();
    });
  }

  /** The PGlite executor (and `.db`) for projections that keep tables in the same database. */
  override get executor(): PgliteExecutor {
    return this.pgliteExecutor;
  }

  /**
   * Starts PGlite (about 2 s) and installs or upgrades the schema. A data directory is locked for
   * this process first (`ledger.pid`), so a second ledger or the key CLI cannot open it at the same
   * time.
   * @throws DataDirInUseError when another live process holds the directory; the PGlite start-up
   *   error (e.g. an unreadable data directory).
   */
  static async open(options: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
    const inMemory = !options.dataDir || options.dataDir.startsWith('memory://');
    const unlock = inMemory ? () => undefined : lockDataDir(options.dataDir!);
    let db: PGlite | undefined;
    try {
      // One options object: PGlite ignores the second argument when the first is not a string.
      db = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
      await db.waitReady;
      const store = new PgliteEventStore(new PgliteExecutor(db), unlock);
      await installEventStoreSchema(store.executor);
      return store;
    } catch (error) {
      await db?.close().catch(() => undefined);
      unlock();
      throw error;
    }
  }
}

/** Same as {@link PgliteEventStore.open}. */
export function createPgliteEventStore(options: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
  return PgliteEventStore.open(options);
}
