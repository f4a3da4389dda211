import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerMetrics } from './ledger-metrics.js';
import { MetricsController } from './metrics.controller.js';

/**
 * The application's Prometheus registry ({@link LedgerMetrics}, global so every room can publish
 * its collectors into it) and `GET /metrics`. Needs the auth module (the route's role check).
 */
@Module({})
export class PrometheusModule {
  /**
   * The module with `metrics`, the registry also given to the instrumented event store and the
   * HTTP latency middleware, so build it once per application.
   */
  static with(metrics: LedgerMetrics): DynamicModule {
    return {
      module: PrometheusModule,
      global: true,
      controllers: [MetricsController],
      providers: [{ provide: LedgerMetrics, useValue: metrics }],
      exports: [LedgerMetrics],
    };
  }
}
