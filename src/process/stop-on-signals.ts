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
 * Stops `app` gracefully on the first of the {@link STOP_SIGNALS} that `signals` hands over
 * (installed once start-up is complete: a signal held during start-up arrives at once), within
 * `graceMs` (milliseconds, LEDGER_SHUTDOWN_GRACE_MS) in all: logs one line, stops accepting at
 * once and drains HTTP ({@link HttpDrain}: new connections refused, requests on kept-alive
 * connections 503 `shutting-down`, live subscriptions ended), lets in-flight requests finish until
 * {@link CLOSE_RESERVE_MS} before the bound (then cuts them), stops the projectors and background
 * jobs and closes the store — PGlite writes its checkpoint — (`app.close()`, the modules' shutdown
 * hooks), then exits with code 0. When the bound runs out, or a second signal arrives, it exits
 * with code 1 at once (appends are transactions: nothing acknowledged is lost either way).
 * Used instead of Nest's `enableShutdownHooks()`, which re-raises the signal after closing
 * (exit status 128+n), closes HTTP only after the shutdown hooks (it kept serving meanwhile) and
 * does not bound the wait.
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
