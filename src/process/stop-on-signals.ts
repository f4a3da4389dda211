import type { INestApplication, LoggerService } from '@nestjs/common';
import type { Server } from 'node:http';
import { STOP_SIGNALS, type HeldStopSignals } from './held-stop-signals.js';
import { HttpDrain } from './http-drain.js';

export { STOP_SIGNALS }; // its home is held-stop-signals.ts, which main.ts loads first

/** Part of the stop bound kept for stopping the projectors and closing the store, ms (at most half the bound). */
export const CLOSE_RESERVE_MS = 3000;

/** Options of {@link stopOnSignals}. */
export interface StopOptions {
  /** Ends the live subscriptions (each with its final `shutdown` event) when the drain begins. */
  readonly endStreams?: () => void;
  /** Ends the process; default `process.exit`. */
  readonly exit?: (code: number) => void;
}

/**
 * Stops `app` gracefully on the first stop signal, within `graceMs` (ms, LEDGER_SHUTDOWN_GRACE_MS)
 * in all (docs/production.md "Stopping"); exit code 1 when the bound runs out or a second signal
 * arrives (appends are transactions: nothing acknowledged is lost either way). Not Nest's
 * `enableShutdownHooks()`: it keeps serving HTTP until its hooks are done and does not bound the
 * wait.
 */
export function stopOnSignals(
  signals: Pick<HeldStopSignals, 'deliverTo'>,
  app: INestApplication,
  logger: LoggerService,
  graceMs: number,
  options: StopOptions = {},
): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
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
    const requestBoundMs = graceMs - Math.min(CLOSE_RESERVE_MS, graceMs / 2);
    void (async () => {
      try {
        const cut = await HttpDrain.of(app.getHttpServer() as Server).drain(
          requestBoundMs,
          options.endStreams,
        );
        if (cut > 0) logger.warn?.(`${cut} requests did not finish within ${requestBoundMs} ms: cut off`);
        await app.close();
        clearTimeout(deadline);
        exit(0);
      } catch (err: unknown) {
        clearTimeout(deadline);
        logger.error(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        exit(1);
      }
    })();
  };
  signals.deliverTo(onSignal);
}
