import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

/** `shared_buffers` of the embedded PGlite (docs/decisions.md "PGlite's buffer cache"). */
export const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * V8's budget before a WebAssembly function is recompiled by TurboFan, 100 times the default, so
 * functions a start runs only a little are not recompiled (docs/decisions.md "Start-up"); hot ones
 * still are.
 */
export const PGLITE_WASM_TIERING_BUDGET = 180_000_000;

let tieringSet = false;

/**
 * PGlite's start parameters: its defaults plus {@link PGLITE_SHARED_BUFFERS}, for every PGlite the
 * ledger opens. The first call also sets {@link PGLITE_WASM_TIERING_BUDGET} (a process-wide V8
 * flag) unless the command line set `--wasm-tiering-budget`.
 */
export function pgliteStartParams(): string[] {
  if (!tieringSet) {
    tieringSet = true;
    if (!process.execArgv.some((a) => a.startsWith('--wasm-tiering-budget')))
      setFlagsFromString(`--wasm-tiering-budget=${PGLITE_WASM_TIERING_BUDGET}`);
  }
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}
