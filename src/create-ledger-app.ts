import { frameworkErrorAsProblem } from './common/framework-errors.js';
import { concurrentBodies } from './common/concurrent-bodies.js';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication, LoggerService, LogLevel } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AppModule } from './app.module.js';
import { ApiKeyService } from './auth/api-key.service.js';
import { restrictToLoopback } from './auth/auth-disabled.js';
import { authenticationMiddleware } from './auth/authentication.middleware.js';
import { installApiKeySchema } from './auth/sql/api-key-schema.js';
import { exactJsonBody } from './common/json-body.js';
import { limitSlowRequests } from './common/request-deadline.js';
import { awaitEarlierAnswers } from './common/pipelined-requests.js';
import { storableQuery } from './common/storable-query.js';
import { ProblemDetailsFilter } from './common/problem-details.filter.js';
import { ledgerValidationPipe } from './common/validation.js';
import type { LedgerConfig } from './config/ledger-config.js';
import type { EventStore } from './event-store/event-store.port.js';
import { openEventStore } from './event-store/open-event-store.js';
import { SqlEventStore } from './event-store/sql-event-store.js';
import type { SqlExecutor } from './event-store/sql-executor.js';
import type { Clock } from './common/clock.js';
import { setupOpenApi } from './openapi.js';
import { httpMetricsMiddleware } from './observability/prometheus/http-metrics.middleware.js';
import { HttpDrain } from './process/http-drain.js';
import { LedgerFastifyAdapter } from './process/ledger-fastify-adapter.js';
import { LedgerMetrics } from './observability/prometheus/ledger-metrics.js';
import {
  correlationOf,
  keepBodyForRequestLog,
  ledgerNestLogger,
  recordRouteTemplate,
  requestObservability,
} from './observability/index.js';

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
 * Builds the ledger HTTP application on Fastify (not yet listening): opens the configured store,
 * authenticates every /v1 route before its body is read (docs/security.md), and tracks requests
 * for a graceful stop (`HttpDrain`).
 * @throws EventStoreUnavailableError when the store cannot be opened.
 */
export async function createLedgerApp(
  config: LedgerConfig,
  options: CreateLedgerAppOptions = {},
): Promise<INestApplication> {
  const store = options.store ?? (await openEventStore(config));
  const sql = options.sql ?? (await sqlOf(store, config));
  await installApiKeySchema(sql);
  const adapter = new LedgerFastifyAdapter({
    bodyLimit: config.maxBodyBytes,
    // Paths are matched as on Express, where clients first met them: a trailing slash and the
    // letter case do not matter, and no path parameter is too long (Fastify answers 414 over
    // 100 characters; step names may have 128 and tenants more, docs/api.md).
    routerOptions: {
      ignoreTrailingSlash: true,
      caseSensitive: false,
      maxParamLength: MAX_PATH_PARAMETER_LENGTH,
    },
    genReqId: (req: IncomingMessage) => correlationOf(req).correlationId, // one id in logs, X-Request-Id and events
    frameworkErrors: frameworkErrorAsProblem, // a bad path is problem+json like every other refusal
  });
  // Before Nest's middleware (NestFactory.create registers it): a request refused there (401,
  // 429, 503) is logged and timed under the route Fastify matched, not `unmatched`.
  adapter.getInstance().addHook('onRequest', awaitEarlierAnswers); // first: nothing acts on it before
  adapter.getInstance().addHook('onRequest', (request, _reply, done) => {
    recordRouteTemplate(request);
    done();
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.with({ config, store, sql, clock: options.clock }),
    adapter,
    { bodyParser: false, logger: options.logger ?? ledgerNestLogger() },
  );
  const fastify = app.getHttpAdapter().getInstance();
  configureHttpServer(app, config);
  // Fastify's parser-error answer closes the socket without `Connection: close`, so a keep-alive
  // client sends into a dead socket; limitSlowRequests installs answerClientErrors instead.
  app.getHttpServer().removeAllListeners('clientError');
  limitSlowRequests(app.getHttpServer() as Server, config.requestTimeoutMs);
  app.use(requestObservability(options.logger)); // correlation, X-Request-Id, request log: first
  app.use(httpMetricsMiddleware(app.get(LedgerMetrics)));
  app.use(HttpDrain.of(app.getHttpServer() as Server).refuseWhileDraining); // 503 once stopping
  app.use(
    '/v1',
    authenticationMiddleware(app.get(ApiKeyService), config.auth === 'disabled', config.storeTimeoutMs),
  );
  if (config.auth === 'disabled') restrictToLoopback(app);
  app.use('/v1', storableQuery);
  const batchSlots = concurrentBodies(config.maxConcurrentBatches);
  app.use('/v1/claims/batch', batchSlots.take);
  fastify.addHook('onSend', batchSlots.releaseOnAnswer); // a batch's slot lives until it is answered
  exactJsonBody(fastify);
  fastify.addHook('preValidation', (request, _reply, done) => {
    keepBodyForRequestLog(request);
    done();
  });
  fastify.addHook('onRoute', (route) => {
    if (route.url === BATCH_ROUTE) route.bodyLimit = config.maxBatchBodyBytes;
  });
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.useGlobalPipes(ledgerValidationPipe());
  setupOpenApi(app);
  return app;
}

/** Longest path parameter the router accepts, characters (Node bounds the request line anyway). */
const MAX_PATH_PARAMETER_LENGTH = 16 * 1024;

/** The route whose bodies may be up to `maxBatchBodyBytes` (every other: `maxBodyBytes`). */
const BATCH_ROUTE = '/v1/claims/batch';

/** How much longer than it advertises the server keeps an idle connection open, ms. */
export const KEEP_ALIVE_GRACE_MS = 15_000;

/**
 * Keep-alive: advertises `config.keepAliveTimeoutMs`, closes idle connections only
 * {@link KEEP_ALIVE_GRACE_MS} later (docs/decisions.md "Keep-alive").
 */
function configureHttpServer(app: NestFastifyApplication, config: LedgerConfig): void {
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = config.keepAliveTimeoutMs + KEEP_ALIVE_GRACE_MS;
  const advertised = `timeout=${Math.floor(config.keepAliveTimeoutMs / 1000)}`;
  app.use((_req: unknown, res: ServerResponse, next: () => void) => {
    res.setHeader('Keep-Alive', advertised);
    next();
  });
}

/**
 * The SQL database of read models and keys: a SQL store's own, else (EventStoreDB) the one
 * `config` names, closed with the store.
 * @throws Error for another store without one (pass `sql`); EventStoreUnavailableError.
 */
async function sqlOf(store: EventStore, config: LedgerConfig): Promise<SqlExecutor> {
  if (store instanceof SqlEventStore) return store.executor;
  if (config.store === 'eventstoredb') {
    // Loaded only for this store (see openEventStore).
    const { EventStoreDbEventStore } = await import('./event-store/eventstoredb/eventstoredb-event-store.js');
    const { openReadModelDatabase } = await import('./event-store/eventstoredb/read-model-database.js');
    if (store instanceof EventStoreDbEventStore) {
      const database = await openReadModelDatabase(config);
      store.releaseOnClose(() => database.close());
      return database.executor;
    }
  }
  throw new Error('this event store has no SQL database: pass options.sql for read models and keys');
}
