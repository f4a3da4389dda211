import type { LoggerService } from '@nestjs/common';
import type { HeldStopSignals } from './held-stop-signals.js';

/** The start-up bound armed by {@link boundStartupOnSignal}. */
export interface StartupBound {
  /** Disarms it: start-up is complete (the graceful stop has its own bound). Idempotent. */
  cancel(): void;
}

/**
 * Logs the first stop signal of start-up and from then on bounds the start-up by `graceMs` (ms,
 * LEDGER_SHUTDOWN_GRACE_MS), so a start-up that hangs still ends (`exit(1)`).
 */
export function boundStartupOnSignal(
  signals: Pick<HeldStopSignals, 'onStartupSignal'>,
  logger: LoggerService,
  graceMs: number,
  exit: (code: number) => void = (code) => process.exit(code),
): StartupBound {
  let deadline: NodeJS.Timeout | undefined;
  let cancelled = false;
  signals.onStartupSignal((signal, again) => {
    if (again) {
      logger.warn(`${signal} again during start-up: exiting at once`);
      return;
    }
    if (cancelled) return;
    logger.log(`${signal} received during start-up: stopping once started`);
    deadline = setTimeout(() => {
      logger.error(`start-up did not finish within ${graceMs} ms of ${signal}: exiting`);
      exit(1);
    }, graceMs);
    deadline.unref();
  });
  return {
    cancel: () => {
      cancelled = true;
      clearTimeout(deadline);
    },
  };
}
