import type { LedgerConfig } from '../config/ledger-config.js';
import type { ProjectionRuntimeOptions } from './projection-runtime.js';

/** Something that can report a warning (Nest's Logger, console). */
export interface WarnLogger {
  warn(message: string): void;
}

/**
 * Projection runtime options of a process from its configuration (LEDGER_PROJECTOR,
 * LEDGER_PROJECTOR_BATCH_SIZE, LEDGER_PROJECTOR_POLL_MS, LEDGER_PROJECTOR_LOCK_POLL_MS,
 * LEDGER_PROJECTOR_INTERVAL_MS (unset: the database's default)); projector failures are logged as warnings (they are
 * retried).
 */
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
