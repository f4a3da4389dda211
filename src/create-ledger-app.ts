import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication, LoggerService, LogLevel } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { exactJsonBody } from './common/json-body.js';
import { ProblemDetailsFilter } from './common/problem-details.filter.js';
import { ledgerValidationPipe } from './common/validation.js';
import type { LedgerConfig } from './config/ledger-config.js';
import type { EventStore } from './event-store/event-store.port.js';
import { openEventStore } from './event-store/open-event-store.js';
import { SqlEventStore } from './event-store/sql-event-store.js';
import type { SqlExecutor } from './event-store/sql-executor.js';
import type { Clock } from './operations/core/clock.js';
import { setupOpenApi } from './openapi.js';

/** Options of {@link createLedgerApp}. */
export interface CreateLedgerAppOptions {
  /** Use this store instead of opening the configured one (tests share one PGlite). */
  readonly store?: EventStore;
  /** The SQL database for read models and keys; default: the SQL event store's own. */
  readonly sql?: SqlExecutor;
  /** A controllable clock (tests of lease expiry). Default: the system clock. */
  readonly clock?: Clock;
  /** Nest logger setting; `false` silences it. */
  readonly logger?: false | LogLevel[] | LoggerService;
}

/**
 * Builds the ledger HTTP application (not yet listening): opens the configured event store
 * (installing its schema), exact-JSON body parsing with size limits, problem+json errors,
 * class-validator DTO validation, and the OpenAPI document at /docs.
 * @throws EventStoreUnavailableError when the store cannot be opened.
 */
export async function createLedgerApp(
  config: LedgerConfig,
  options: CreateLedgerAppOptions = {},
): Promise<INestApplication> {
  const store = options.store ?? (await openEventStore(config));
  const sql = options.sql ?? sqlOf(store);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.with({ config, store, sql, clock: options.clock }),
    { bodyParser: false, logger: options.logger ?? ['log', 'warn', 'error'] },
  );
  app.disable('x-powered-by');
  app.use('/v1/claims/batch', ...exactJsonBody(config.maxBatchBodyBytes));
  app.use(...exactJsonBody(config.maxBodyBytes));
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.useGlobalPipes(ledgerValidationPipe());
  setupOpenApi(app);
  return app;
}

/** The SQL database of a SQL event store. @throws Error for a store without one (pass `sql`). */
function sqlOf(store: EventStore): SqlExecutor {
  if (store instanceof SqlEventStore) return store.executor;
  throw new Error('this event store has no SQL database: pass options.sql for read models and keys');
}
