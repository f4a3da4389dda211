/** A started OpenTelemetry SDK (see `start-tracing.ts`). */
export interface TracingHandle {
  /** Flushes pending spans and stops the SDK; safe to call twice. */
  shutdown(): Promise<void>;
}

/** A process-wide slot: the preload's compiled module and the bundle's copy must see one SDK. */
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
