import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus registry of one ledger application (not prom-client's global one, so several
 * apps in one process do not clash), with the metrics recorded directly (docs/observability.md
 * "Metrics"); other rooms register their scrape-time collectors into it.
 */
export class LedgerMetrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'ledger_http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly appendDuration = new Histogram({
    name: 'ledger_event_store_append_duration_seconds',
    help: 'Event store append latency in seconds, by operation and outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly wrongExpectedVersion = new Counter({
    name: 'ledger_event_store_wrong_expected_version_total',
    help: 'Appends refused because the stream had moved on (WrongExpectedVersion), by tenant',
    labelNames: ['tenant'] as const,
    registers: [this.registry],
  });

  constructor(options: { readonly processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false)
      collectDefaultMetrics({ register: this.registry, prefix: 'ledger_' });
  }

  /** The exposition text (Prometheus text format 0.0.4) and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
