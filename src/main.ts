import { Logger } from '@nestjs/common';
import { announceBootstrap } from './auth/announce-bootstrap.js';
import { bootstrapAdminKey } from './auth/bootstrap-admin-key.js';
import type { SqlExecutor } from './event-store/sql-executor.js';
import { SQL_EXECUTOR } from './event-store/sql-executor.token.js';
import { ConfigError, loadConfig } from './config/ledger-config.js';
import { createLedgerApp } from './create-ledger-app.js';
import { ledgerNestLogger } from './observability/index.js';

/**
 * Starts the ledger from environment configuration (README "Configuration"). With auth enabled,
 * the first run creates an admin key and prints it once, or installs LEDGER_ADMIN_TOKEN
 * (README "Security"); with LEDGER_AUTH=disabled it warns loudly and listens on loopback only.
 */
async function main(): Promise<void> {
  Logger.overrideLogger(ledgerNestLogger()); // JSON lines from the first message on
  const logger = new Logger('Ledger');
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      logger.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await createLedgerApp(config);
  app.enableShutdownHooks();
  if (config.auth === 'enabled') {
    announceBootstrap(await bootstrapAdminKey(app.get<SqlExecutor>(SQL_EXECUTOR), config), logger);
  }
  await app.listen(config.port, config.host);
  const where =
    config.store === 'pglite'
      ? `embedded PGlite in ${config.dataDir}`
      : config.store === 'eventstoredb'
        ? 'EventStoreDB'
        : 'PostgreSQL';
  logger.log(`listening on http://${config.host}:${config.port} (store: ${where}); API docs at /docs`);
}

main().catch((err: unknown) => {
  new Logger('Ledger').error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
