import { type BeforeApplicationShutdown, Global, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { createProjectionRuntime } from './create-projection-runtime.js';
import { ProjectionsAdminController } from './http/projections-admin.controller.js';
import { ReadModelsController } from './http/read-models.controller.js';
import { ReconciliationController } from './http/outcome-report.controller.js';
import { LedgerMetrics } from '../observability/prometheus/ledger-metrics.js';
import { registerReadModelCollectors } from './collectors/read-model-collectors.js';
import { ProjectionRuntime } from './projection-runtime.js';
import { projectorOptionsOf } from './projector-options.js';
import { ChangeHub } from './subscriptions/change-hub.js';
import { SubscriptionsController } from './subscriptions/subscriptions.controller.js';

/**
 * Read models, their routes, live subscriptions and collectors; runs the projectors unless
 * `LEDGER_PROJECTOR=off`. Global: the background jobs read the status view and share its locks.
 */
@Global()
@Module({
  controllers: [
    ReadModelsController,
    ReconciliationController,
    SubscriptionsController,
    ProjectionsAdminController,
  ],
  providers: [
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
  exports: [ProjectionRuntime],
})
export class ProjectionsModule implements OnModuleInit, BeforeApplicationShutdown {
  constructor(
    private readonly runtime: ProjectionRuntime,
    private readonly hub: ChangeHub,
    private readonly metrics: LedgerMetrics,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.runtime.start();
    registerReadModelCollectors(this.metrics, this.runtime);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.hub.closeAll();
    await this.runtime.stop();
  }
}
