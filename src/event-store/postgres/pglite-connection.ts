/** What the ledger uses of a PGlite instance: a `PGlite` or a {@link PgliteThread}. */
export interface PgliteConnection {
  /** One parameterised statement; rows as PGlite parses them (jsonb → objects, int8 → number). */
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** A script of statements without parameters; one result per statement with its command tag. */
  exec(script: string): Promise<ReadonlyArray<{ readonly command?: string }>>;
  /** The data directory as an uncompressed tar (a Blob, or a thread's bytes: no copy). */
  dumpDataDir(compression: 'none'): Promise<Pick<Blob, 'arrayBuffer'>>;
  /** Closes the instance; PGlite writes a shutdown checkpoint. */
  close(): Promise<void>;
}
