import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { flushRootLogger } from './logging/create-logger.js';
import { shutdownTracing } from './tracing/tracing-handle.js';

/**
 * Ends the process's observability with the application: flushes spans still batched for the
 * OTLP exporter and stops the SDK (when `register-tracing.ts` started it), then flushes buffered
 * log lines. Import it in the root module.
 */
@Module({})
export class ObservabilityModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await shutdownTracing();
    flushRootLogger();
  }
}
