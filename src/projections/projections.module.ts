import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Logger,
  Module,
  type OnModuleInit,
} from '@nestjs/common';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { createProjectionRuntime } from './create-projection-runtime.js';
import { ProjectionsAdminController } from './http/projections-admin.controller.js';
import { ReadModelsController } from './http/read-models.controller.js';
import { ReconciliationController } from './http/reconciliation.controller.js';
import { LedgerMetrics } from '../metrics/ledger-metrics.js';
import { MetricsController } from '../metrics/metrics.controller.js';
import { registerReadModelCollectors } from '../metrics/read-model-collectors.js';
import { ProjectionRuntime } from './projection-runtime.js';
import { projectorOptionsOf } from './projector-options.js';
import { ChangeHub } from './subscriptions/change-hub.js';
import { SubscriptionsController } from './subscriptions/subscriptions.controller.js';

/**
 * Read models, their routes, live subscriptions, operator commands and Prometheus `/metrics`.
 * On start it installs the read-model tables and (unless `LEDGER_PROJECTOR=off`) runs the
 * projectors; before shutdown it ends the SSE streams and stops the projectors (releasing their
 * locks). Needs EVENT_STORE, SQL_EXECUTOR, LEDGER_CONFIG, CLOCK and the auth module.
 */
@Module({})
export class ProjectionsModule implements OnModuleInit, BeforeApplicationShutdown {
  constructor(
    private readonly runtime: ProjectionRuntime,
    private readonly hub: ChangeHub,
    private readonly metrics: LedgerMetrics,
  ) {}

  /**
   * The module with the application's metrics registry (shared with the instrumented event store
   * and the HTTP latency middleware, so build it once per application).
   */
  static with(metrics: LedgerMetrics): DynamicModule {
    return {
      module: ProjectionsModule,
      // Global: the recovery jobs read the status view and share the runtime's locks.
      global: true,
      controllers: [
        ReadModelsController,
        ReconciliationController,
        SubscriptionsController,
        ProjectionsAdminController,
        MetricsController,
      ],
      providers: [
        { provide: LedgerMetrics, useValue: metrics },
        {
          provide: ProjectionRuntime,
          useFactory: (store: EventStore, sql: SqlExecutor, config: LedgerConfig) =>
            createProjectionRuntime(store, sql, projectorOptionsOf(config, new Logger('Projector'))),
          inject: [EVENT_STORE, SQL_EXECUTOR, LEDGER_CONFIG],
        },
        {
          provide: ChangeHub,
          useFactory: (runtime: ProjectionRuntime, config: LedgerConfig) =>
            new ChangeHub(runtime, {
              maxSubscriptions: config.maxSubscriptions,
              fanOutWritesPerS: config.sseFanOutWritesPerS,
            }),
          inject: [ProjectionRuntime, LEDGER_CONFIG],
        },
      ],
      exports: [LedgerMetrics, ProjectionRuntime],
    };
  }

  async onModuleInit(): Promise<void> {
    await this.runtime.start();
    registerReadModelCollectors(this.metrics, this.runtime);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.hub.closeAll();
    await this.runtime.stop();
  }
}
