import type { INestApplication, LoggerService } from '@nestjs/common';

/** Signals that stop the ledger: SIGTERM (service managers, `kill`), SIGINT (Ctrl-C), SIGHUP. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * Stops `app` gracefully on the first {@link STOP_SIGNALS}: logs one line, stops accepting
 * connections, ends live SSE subscriptions with a final `shutdown` event, lets in-flight requests
 * finish, stops the projectors and background jobs and closes the store (`app.close()`, which runs
 * the modules' shutdown hooks), then exits with code 0. When that takes longer than `graceMs`
 * (milliseconds), or a second signal arrives, it exits with code 1 at once.
 * Used instead of Nest's `enableShutdownHooks()`, which re-raises the signal after closing
 * (exit status 128+n) and does not bound the wait.
 */
export function stopOnSignals(
  app: INestApplication,
  logger: LoggerService,
  graceMs: number,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn?.(`${signal} again: exiting without waiting for the shutdown to finish`);
      return exit(1);
    }
    stopping = true;
    logger.log(`${signal} received: shutting down (in-flight requests finish, subscriptions end)`);
    const deadline = setTimeout(() => {
      logger.error(`shutdown did not finish within ${graceMs} ms: exiting`);
      exit(1);
    }, graceMs);
    deadline.unref();
    app.close().then(
      () => {
        clearTimeout(deadline);
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(deadline);
        logger.error(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        exit(1);
      },
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
}
