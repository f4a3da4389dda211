import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

/**
 * `shared_buffers` of the embedded PGlite: PGlite allocates and touches all of it at every start,
 * and initdb's 128MB made starts seconds slower; a page outside the cache costs a read call
 * through the OS page cache (docs/decisions.md "PGlite's buffer cache").
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * V8's budget before a WebAssembly function is recompiled by its optimising compiler (TurboFan),
 * 100 times V8's default (1 800 000, "a rough approximation of bytes executed"). With the default,
 * every PostgreSQL function a start runs a little (recovery, catalog reads, the migrations'
 * checks) was recompiled on V8's background threads, half of a server start's CPU
 * (docs/decisions.md "Start-up"). Functions that stay hot under load still reach the optimised
 * tier.
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
