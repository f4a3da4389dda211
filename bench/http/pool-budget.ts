/** Connections of PostgreSQL kept free of the benchmark's servers (psql, the CPU meters, autovacuum). */
const RESERVED_CONNECTIONS = 20;

/** Connections a ledger server opens beside its pool (projector, notification listener, lock). */
export const LEDGER_EXTRA_CONNECTIONS = 4;

/** The pool size every server gets unless the budget is smaller: the ledger's default. */
export const DEFAULT_BENCH_POOL = 20;

/**
 * The pool size each PostgreSQL server of one run gets, so that all of them fit in the server's
 * `max_connections` at once: every server keeps its pool between rounds, and a server that cannot
 * connect answers 500, which is a broken baseline, not a slow one. The same size for every server
 * (ledger and hand-rolled), at most {@link DEFAULT_BENCH_POOL}.
 * @throws RangeError when not even a pool of 2 fits.
 */
export function benchPoolSize(maxConnections: number, ledgerServers: number, otherServers: number): number {
  const servers = ledgerServers + otherServers;
  if (servers === 0) return DEFAULT_BENCH_POOL;
  const free = maxConnections - RESERVED_CONNECTIONS - ledgerServers * LEDGER_EXTRA_CONNECTIONS;
  const size = Math.min(DEFAULT_BENCH_POOL, Math.floor(free / servers));
  if (size < 2) {
    throw new RangeError(
      `PostgreSQL's max_connections (${maxConnections}) leaves no pool for ${servers} servers: raise it or pick fewer targets`,
    );
  }
  return size;
}
