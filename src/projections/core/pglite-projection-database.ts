import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { ListenerSet } from './listener-set.js';
import type { ProjectionDatabase, ProjectionLock } from './projection-database.js';

/** Locks held per embedded database (one process can open it, so the process is the whole world). */
const HELD = new WeakMap<object, Set<string>>();

/**
 * {@link ProjectionDatabase} for embedded PGlite: one process owns the database, so the locks are
 * an in-process registry keyed by the database object, and change signals are in-process events.
 */
export class PgliteProjectionDatabase implements ProjectionDatabase {
  readonly singleConnection = true;
  private readonly changes = new ListenerSet<string>();
  private readonly mine = new Set<string>();
  private readonly held: Set<string>;

  /**
   * @param executor the embedded database's executor.
   * @param identity the object identifying the database (the PGlite instance): locks taken through
   *   any {@link PgliteProjectionDatabase} of the same identity exclude each other.
   */
  constructor(
    readonly executor: SqlExecutor,
    identity: object = executor,
  ) {
    let held = HELD.get(identity);
    if (!held) HELD.set(identity, (held = new Set()));
    this.held = held;
  }

  async tryLock(name: string): Promise<ProjectionLock | null> {
    if (this.held.has(name)) return null;
    this.held.add(name);
    this.mine.add(name);
    let released = false;
    return {
      lost: false,
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(name);
        this.mine.delete(name);
      },
    };
  }

  async announceInTransaction(): Promise<void> {}

  onChanges(listener: (projection: string) => void): () => void {
    return this.changes.add(listener);
  }

  announceLocally(projection: string): void {
    this.changes.emit(projection);
  }

  async close(): Promise<void> {
    for (const name of this.mine) this.held.delete(name);
    this.mine.clear();
    this.changes.clear();
  }
}
