/** A started OpenTelemetry SDK (see `start-tracing.ts`). */
export interface TracingHandle {
  /** Flushes pending spans and stops the SDK; safe to call twice. */
  shutdown(): Promise<void>;
}

let current: TracingHandle | null = null;

/**
 * The SDK this process started, or null. Kept apart from `start-tracing.ts` so that the
 * application (which stops tracing on shutdown) does not import the SDK, its exporter and the
 * instrumentations — about 2.5 CPU-s of module loading — when tracing is off.
 */
export function runningTracing(): TracingHandle | null {
  return current;
}

/** Records (or, with null, forgets) the SDK this process runs; only `startTracing` calls it. */
export function setRunningTracing(handle: TracingHandle | null): void {
  current = handle;
}

/** Flushes and stops the SDK if `startTracing` started it; otherwise does nothing. */
export async function shutdownTracing(): Promise<void> {
  await current?.shutdown();
}
