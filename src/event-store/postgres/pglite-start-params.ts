import { setFlagsFromString } from 'node:v8';
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
 * V8's budget before a WebAssembly function is recompiled by its optimising compiler (TurboFan),
 * 100 times V8's default (1 800 000, "a rough approximation of bytes executed"). With the default,
 * every PostgreSQL function a start runs a little (recovery, catalog reads, the migrations'
 * checks) was recompiled on V8's background threads: 2.7–3.0 of a server start's 5.3–5.9 CPU-s
 * on the 2-core machine, against 1.2 with this budget (0.65 with no optimised tier at all,
 * `--liftoff-only`). Functions that stay hot under load still reach the optimised tier.
 */
export const PGLITE_WASM_TIERING_BUDGET = 180_000_000;

let tieringSet = false;

/**
 * PGlite's start parameters (`postgres --single …`): PGlite's own defaults
 * (`PGlite.defaultStartParams`) plus `shared_buffers` = {@link PGLITE_SHARED_BUFFERS}. Every
 * PGlite the ledger opens (server, worker thread, restore, initdb template) starts with these.
 * The first call also sets {@link PGLITE_WASM_TIERING_BUDGET} (a V8 flag of the whole process,
 * read when a WebAssembly module is compiled, so before PGlite compiles its module) unless the
 * command line set `--wasm-tiering-budget` itself.
 */
export function pgliteStartParams(): string[] {
  if (!tieringSet) {
    tieringSet = true;
    if (!process.execArgv.some((a) => a.startsWith('--wasm-tiering-budget')))
      setFlagsFromString(`--wasm-tiering-budget=${PGLITE_WASM_TIERING_BUDGET}`);
  }
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}
