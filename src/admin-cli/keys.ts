import { CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config/ledger-config.js';
import { buildKeysProgram, KeysCliError } from './keys-program.js';
import { openKeyDatabase } from './open-key-database.js';

/**
 * `npm run keys -- <command>`: API key management against the configured database (see
 * `npm run keys -- --help` and docs/security.md). Exit status: 0 done, 1 refused (unknown or
 * revoked key, bad input, database unreachable), 2 usage or configuration error.
 */
async function main(argv: string[]): Promise<number> {
  const program = buildKeysProgram({
    openSql: () => openKeyDatabase(loadConfig()),
    out: (line) => process.stdout.write(line + '\n'),
  });
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(
      `error: ${err instanceof KeysCliError ? err.message : err instanceof Error ? err.message : String(err)}\n`,
    );
    return 1;
  }
}

main(process.argv).then((code) => process.exit(code));
