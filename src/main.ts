import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config/ledger-config.js';
import { createLedgerApp } from './create-ledger-app.js';

/** Starts the ledger from environment configuration (README "Configuration"). */
async function main(): Promise<void> {
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
  await app.listen(config.port, config.host);
  const where = config.store === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  logger.log(`listening on http://${config.host}:${config.port} (store: ${where}); API docs at /docs`);
}

main().catch((err: unknown) => {
  new Logger('Ledger').error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
