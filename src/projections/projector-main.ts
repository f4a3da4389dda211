import { ConfigError, loadConfig } from '../config/ledger-config.js';
import { openEventStore } from '../event-store/open-event-store.js';
import { createProjectionRuntime } from './create-projection-runtime.js';
import { openProjectionSql } from './open-projection-sql.js';
import { projectorOptionsOf } from './projector-options.js';

/**
 * A projector process without the HTTP API, configured as the ledger is (docs/configuration.md);
 * it competes for each read model's lock. Prints `{"started": <instanceId>}` when running.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openEventStore(config);
  const database = await openProjectionSql(store, config);
  const runtime = createProjectionRuntime(store, database.sql, {
    ...projectorOptionsOf(config),
    project: true,
  });
  await runtime.start();
  process.stdout.write(`${JSON.stringify({ started: runtime.instanceId, pid: process.pid })}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    await database.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? 'configuration error: ' : ''}${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(error instanceof ConfigError ? 2 : 1);
});
