import { ConfigError, loadConfig } from '../config/ledger-config.js';
import { openEventStore } from '../event-store/open-event-store.js';
import { createProjectionRuntime } from './create-projection-runtime.js';
import { openProjectionSql } from './open-projection-sql.js';

const USAGE = `usage: node dist/src/projections/projections-cli.js <command>
  status              checkpoint, lag, holder, state, generation and rebuild of every read model (JSON)
  rebuild <name>      start an online rebuild of read model <name> (the holder runs it); prints its status
Configuration comes from the environment, as for the ledger (DATABASE_URL, LEDGER_STORE …).`;

/**
 * Operator command line for the projector: `status` and `rebuild <name>` (a running process does
 * the rebuild). Exit codes: 0 ok, 2 usage or configuration error, 1 failure.
 */
async function main(argv: string[]): Promise<number> {
  const [command, name] = argv;
  if (command !== 'status' && command !== 'rebuild') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const store = await openEventStore(config);
  const database = await openProjectionSql(store, config);
  const runtime = createProjectionRuntime(store, database.sql, { project: false });
  try {
    await runtime.start();
    if (command === 'status') {
      process.stdout.write(`${JSON.stringify({ projections: await runtime.status() }, null, 2)}\n`);
      return 0;
    }
    if (!name || !runtime.model(name)) {
      process.stderr.write(
        `unknown read model ${JSON.stringify(name ?? '')}; known: ${runtime.names.join(', ')}\n`,
      );
      return 2;
    }
    process.stdout.write(`${JSON.stringify(await runtime.rebuild(name, 'cli'), null, 2)}\n`);
    return 0;
  } finally {
    await runtime.stop();
    await database.close();
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? 'configuration error: ' : ''}${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
