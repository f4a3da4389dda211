/**
 * DI token of the ledger's SQL database ({@link SqlExecutor}): read models, checkpoints, API keys.
 * With the PostgreSQL or PGlite event store it is the store's own database.
 */
export const SQL_EXECUTOR = Symbol('SQL_EXECUTOR');
