/**
 * What the PGlite executor, WAL checkpoints and snapshots use of a PGlite instance: a `PGlite`
 * (in memory, in this thread) satisfies it as it is, and so does a {@link PgliteThread} (a data
 * directory's instance on a worker thread).
 */
export interface PgliteConnection {
  /** One parameterised statement; rows as PGlite parses them (jsonb → objects, int8 → number). */
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** A script of statements without parameters; one result per statement with its command tag. */
  exec(script: string): Promise<ReadonlyArray<{ readonly command?: string }>>;
  /**
   * The data directory as an uncompressed tar (what PGlite `loadDataDir` reads): PGlite's Blob,
   * or the bytes a thread handed over (no copy into a Blob first: the tar is as big as the data).
   */
  dumpDataDir(compression: 'none'): Promise<Pick<Blob, 'arrayBuffer'>>;
  /** Closes the instance; PGlite writes a shutdown checkpoint. */
  close(): Promise<void>;
}
