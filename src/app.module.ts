import { Global, Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BackupModule } from './backup/backup.module.js';
import { ConsoleModule } from './console/console.module.js';
import { AuthModule } from './auth/auth.module.js';
import { LEDGER_CONFIG } from './config/config.token.js';
import type { LedgerConfig } from './config/ledger-config.js';
import type { EventStore } from './event-store/event-store.port.js';
import { EVENT_STORE } from './event-store/event-store.token.js';
import type { SqlExecutor } from './event-store/sql-executor.js';
import { SQL_EXECUTOR } from './event-store/sql-executor.token.js';
import { HealthController } from './health/health.controller.js';
import { CLOCK, systemClock, type Clock } from './common/clock.js';
import { OperationsModule } from './operations/operations.module.js';
import { InstrumentedEventStore } from './observability/prometheus/instrumented-event-store.js';
import { LedgerMetrics } from './observability/prometheus/ledger-metrics.js';
import { PrometheusModule } from './observability/prometheus/prometheus.module.js';
import { registerStorageGauges } from './observability/prometheus/storage-collectors.js';
import { ObservabilityModule } from './observability/index.js';
import { ProjectionsModule } from './projections/projections.module.js';
import { PoliciesModule } from './policies/policies.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { ReconciliationModule } from './reconciliation/reconciliation.module.js';

/**
 * What the composition root hands to the module: config, an opened store, the SQL database of
 * read models and keys, and the clock.
 */
export interface AppDependencies {
  readonly config: LedgerConfig;
  readonly store: EventStore;
  readonly sql: SqlExecutor;
  readonly clock?: Clock;
}

/** Provides config, store and clock to every module; closes the store on shutdown. */
@Global()
@Module({})
class InfrastructureModule implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  static with(deps: AppDependencies): DynamicModule {
    const providers = [
      { provide: LEDGER_CONFIG, useValue: deps.config },
      { provide: EVENT_STORE, useValue: deps.store },
      { provide: SQL_EXECUTOR, useValue: deps.sql },
      { provide: CLOCK, useValue: deps.clock ?? systemClock },
    ];
    return { module: InfrastructureModule, providers, exports: providers.map((p) => p.provide) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/** The ledger application. Built with {@link AppModule.with}. */
@Module({})
export class AppModule {
  static with(deps: AppDependencies): DynamicModule {
    // One Prometheus registry per application; appends are timed by decorating the store.
    const metrics = new LedgerMetrics();
    const store = new InstrumentedEventStore(deps.store, metrics);
    registerStorageGauges(metrics, deps.sql);
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.with({ ...deps, store }),
        CqrsModule.forRoot(),
        ObservabilityModule,
        AuthModule,
        OperationsModule,
        PoliciesModule,
        PrometheusModule.with(metrics),
        ProjectionsModule,
        JobsModule,
        ReconciliationModule,
        ConsoleModule,
        BackupModule,
      ],
      controllers: [HealthController],
    };
  }
}
