import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { announceBootstrap } from './auth/announce-bootstrap.js';
import { bootstrapAdminKey } from './auth/bootstrap-admin-key.js';
import type { SqlExecutor } from './event-store/sql-executor.js';
import { SQL_EXECUTOR } from './event-store/sql-executor.token.js';
import { ConfigError, loadConfig, type LedgerConfig } from './config/ledger-config.js';
import { createLedgerApp } from './create-ledger-app.js';
import { ledgerNestLogger } from './observability/index.js';
import { ChangeHub } from './projections/subscriptions/change-hub.js';
import { InsufficientStorageError } from './event-store/postgres/free-space.js';
import { IncompleteRestoreError } from './event-store/postgres/restore-marker.js';
import {
  LISTEN_BACKLOG,
  PortUnavailableError,
  reservePort,
  type ReservedPort,
} from './process/reserve-port.js';
import { boundStartupOnSignal } from './process/bound-startup-on-signal.js';
import type { HeldStopSignals } from './process/held-stop-signals.js';
import { missingDatabaseLine } from './process/missing-database.js';
import { stopOnSignals } from './process/stop-on-signals.js';

/** What main.ts did before the application's modules loaded (see there). */
export interface EarlyStart {
  /** The stop signals, held since main.ts's first statement until start-up is complete. */
  readonly signals: HeldStopSignals;
  /** The configuration, when it loaded (else it is loaded again here, and its error reported). */
  readonly config?: LedgerConfig;
  /** The bound socket, when the port was reserved. */
  readonly reserved?: ReservedPort;
  /** Why the port could not be reserved. */
  readonly portError?: unknown;
}

/**
 * Runs the ledger from environment configuration (docs/configuration.md) once main.ts has loaded
 * the modules: the first admin key (docs/security.md "The first key"), then stops on SIGTERM,
 * SIGINT or SIGHUP (docs/production.md "Stopping"). Failures are logged and exit 1.
 */
export function runLedger(early: EarlyStart): void {
  start(early).catch((err: unknown) => fail(err, early.config?.databaseUrl ?? null));
}

async function start(early: EarlyStart): Promise<void> {
  Logger.overrideLogger(ledgerNestLogger()); // JSON lines from the first message on
  const logger = new Logger('Ledger');
  let config = early.config;
  try {
    config ??= loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      logger.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const startupDeadline = boundStartupOnSignal(early.signals, logger, config.shutdownGraceMs);
  if (early.portError) throw early.portError;
  const reserved = early.reserved ?? (await reservePort(config.host, config.port));
  const app = await createLedgerApp(config);
  if (config.auth === 'enabled') {
    announceBootstrap(
      await bootstrapAdminKey(app.get<SqlExecutor>(SQL_EXECUTOR), config),
      logger,
      undefined,
      {
        interactive: process.stdout.isTTY === true,
        dataDir: config.dataDir,
      },
    );
  }
  // Node's server.listen(handle): the HTTP server takes over the socket bound above, then serves
  // the connections that arrived while the application was being built.
  await app.listen(reserved.server as never, LISTEN_BACKLOG as never);
  reserved.handOver(app.getHttpServer());
  const { port } = app.getHttpServer().address() as AddressInfo;
  const where =
    config.store === 'pglite'
      ? `embedded PGlite in ${config.dataDir}`
      : config.store === 'eventstoredb'
        ? 'EventStoreDB'
        : 'PostgreSQL';
  logger.log(
    `listening on http://${config.host}:${port} (store: ${where}); API docs at /docs, console at /console`,
  );
  // Start-up is complete: the signals go to the graceful stop from now on (a held one at once).
  startupDeadline.cancel();
  stopOnSignals(early.signals, app, logger, config.shutdownGraceMs, {
    endStreams: () => app.get(ChangeHub).closeAll(),
  });
}

function fail(err: unknown, databaseUrl: string | null): void {
  const logger = new Logger('Ledger');
  // Refusals an operator fixes outside the ledger: one line, no stack.
  const missingDatabase = missingDatabaseLine(err, databaseUrl);
  if (missingDatabase) logger.error(missingDatabase);
  else if (
    err instanceof PortUnavailableError ||
    err instanceof InsufficientStorageError ||
    err instanceof IncompleteRestoreError
  )
    logger.error(err.message);
  else logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
}
