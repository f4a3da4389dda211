/** A started OpenTelemetry SDK (see `start-tracing.ts`). */
export interface TracingHandle {
  /** Flushes pending spans and stops the SDK; safe to call twice. */
  shutdown(): Promise<void>;
}

/**
 * The handle lives in one process-wide slot, not in this module: the tracing preload loads the
 * compiled module (dist/src) while the server bundle carries its own copy of it, and both must
 * see the SDK the preload started (else the bundle's shutdown flushed nothing).
 */
const SLOT = Symbol.for('operation-ledger.tracing-handle');
const slot = globalThis as { [SLOT]?: TracingHandle | null };

/**
 * The SDK this process started, or null. Apart from `start-tracing.ts` so that the application
 * does not load the SDK when tracing is off (docs/decisions.md "Start-up").
 */
export function runningTracing(): TracingHandle | null {
  return slot[SLOT] ?? null;
}

/** Records (or, with null, forgets) the SDK this process runs; only `startTracing` calls it. */
export function setRunningTracing(handle: TracingHandle | null): void {
  slot[SLOT] = handle;
}

/** Flushes and stops the SDK if `startTracing` started it; otherwise does nothing. */
export async function shutdownTracing(): Promise<void> {
  await runningTracing()?.shutdown();
}
