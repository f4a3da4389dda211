import type { LedgerConfig } from '../config/ledger-config.js';
import type { ProjectionRuntimeOptions } from './projection-runtime.js';

/** Something that can report a warning (Nest's Logger, console). */
export interface WarnLogger {
  warn(message: string): void;
}

/** Projection runtime options from the `LEDGER_PROJECTOR*` configuration; failures logged as warnings. */
export function projectorOptionsOf(
  config: LedgerConfig,
  logger: WarnLogger = console,
): ProjectionRuntimeOptions {
  return {
    project: config.projector,
    batchSize: config.projectorBatchSize,
    pollMs: config.projectorPollMs,
    lockPollMs: config.projectorLockPollMs,
    minIntervalMs: config.projectorIntervalMs ?? undefined,
    onError: (model, error) =>
      logger.warn(
        `read model ${model}: ${error instanceof Error ? error.message : String(error)} (retrying)`,
      ),
  };
}
