import { PGlite } from '@electric-sql/pglite';

/**
 * `shared_buffers` of the embedded PGlite (PostgreSQL's buffer cache, inside PGlite's WebAssembly
 * memory). initdb writes PostgreSQL's default, 128MB, and PGlite allocates and touches all of it
 * at every start: measured on the 2-core machine, a start on an existing data directory took
 * 3.4–4.4 s and 1.7–1.9 CPU-s with 128MB, 1.8–2.0 s and 1.1–1.2 CPU-s with 16MB, 2.4 s and
 * 1.2 CPU-s with 32MB. Pages outside the cache are read through the operating system's page
 * cache (PGlite's files are ordinary files), so a smaller cache costs a read call, not a disk
 * access, on a warm machine. See docs/decisions.md "PGlite's buffer cache".
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * PGlite's start parameters (`postgres --single …`): PGlite's own defaults
 * (`PGlite.defaultStartParams`) plus `shared_buffers` = {@link PGLITE_SHARED_BUFFERS}. Every
 * PGlite the ledger opens (server, worker thread, restore, initdb template) starts with these.
 */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}
