import { Command, CommanderError } from 'commander';
import { downloadBackup, LedgerUnavailableError } from './download-backup.js';
import { restoreDataDir } from './restore-data-dir.js';

/**
 * `npm run ledger-admin -- backup|restore`: backups of the embedded store (docs/production.md
 * "Backups"). Exit status: 0 done, 1 refused, 2 usage, 3 the ledger unreachable or 503.
 */
function buildProgram(out: (line: string) => void): Command {
  const program = new Command('ledger-admin')
    .description('Back up and restore the embedded store (PGlite) of Operation Ledger')
    .exitOverride()
    .showHelpAfterError();
  program
    .command('backup')
    .description('write a consistent backup of a running ledger (.tar.gz) to <file>')
    .argument('<file>', 'where to write the backup')
    .option('--url <url>', 'the ledger (default: LEDGER_URL or http://127.0.0.1:3000)')
    .option('--token <token>', 'an admin API key for all tenants (default: LEDGER_TOKEN)')
    .action(async (file: string, options: { url?: string; token?: string }) => {
      const url = options.url ?? process.env['LEDGER_URL'] ?? 'http://127.0.0.1:3000';
      const token = options.token ?? process.env['LEDGER_TOKEN'];
      if (!token)
        throw new CommanderError(
          2,
          'ledger-admin.token',
          'error: an admin token is needed: --token or LEDGER_TOKEN',
        );
      const backup = await downloadBackup(url, token, file);
      out(
        `backup written to ${file}: ${backup.bytes} bytes, events up to global position ${backup.lastPosition}`,
      );
    });
  program
    .command('restore')
    .description('restore a backup into a data directory (the ledger must not run on it)')
    .argument('<file>', 'a backup written by `ledger-admin backup` or POST /v1/admin/backup')
    .argument('<dataDir>', 'the data directory to create (LEDGER_DATA_DIR of the ledger to start on it)')
    .option('--force', 'replace the contents of a non-empty directory')
    .action(async (file: string, dataDir: string, options: { force?: boolean }) => {
      const restored = await restoreDataDir(file, dataDir, options.force === true);
      out(
        `restored ${restored.events} events (up to global position ${restored.lastPosition}) into ${dataDir}; start the ledger with LEDGER_DATA_DIR=${dataDir}`,
      );
    });
  return program;
}

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram((line) => process.stdout.write(line + '\n')).parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'ledger-admin.token') process.stderr.write(err.message + '\n');
      return err.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof LedgerUnavailableError) return 3;
    return 1; // AdminCliError, DataDirInUseError, or an unexpected failure
  }
}

main(process.argv).then((code) => process.exit(code));
