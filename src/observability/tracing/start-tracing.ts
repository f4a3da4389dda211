import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { ledgerInstrumentations } from './instrumentations.js';
import { serviceNameOf } from './tracing-config.js';
import { runningTracing, setRunningTracing, type TracingHandle } from './tracing-handle.js';

export { shutdownTracing, type TracingHandle } from './tracing-handle.js';

/** Options of {@link startTracing}. */
export interface StartTracingOptions {
  /**
   * Span processors to use instead of the OTLP exporter's batch processor (tests pass a
   * `SimpleSpanProcessor` over an `InMemorySpanExporter`).
   */
  readonly spanProcessors?: SpanProcessor[];
}

/**
 * Starts the OpenTelemetry Node SDK once per process: spans only, over OTLP/HTTP to the standard
 * `OTEL_EXPORTER_OTLP_*` settings. Instrumentations patch modules loaded AFTER this call, so it
 * runs from the `--import` preload. A second call returns the running handle.
 */
export function startTracing(
  env: NodeJS.ProcessEnv = process.env,
  options: StartTracingOptions = {},
): TracingHandle {
  const running = runningTracing();
  if (running) return running;
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceNameOf(env) }),
    ...(options.spanProcessors
      ? { spanProcessors: options.spanProcessors }
      : { traceExporter: new OTLPTraceExporter() }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: ledgerInstrumentations(),
  });
  sdk.start();
  let stopped: Promise<void> | null = null;
  const handle: TracingHandle = {
    shutdown: () => (stopped ??= sdk.shutdown().finally(() => setRunningTracing(null))),
  };
  setRunningTracing(handle);
  return handle;
}
