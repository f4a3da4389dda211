import { createRequire } from 'node:module';
import { LedgerRequestError, LedgerUnavailableError } from '@operation-ledger/client';
import { Command, CommanderError, Option } from 'commander';
import { kitFor, type RunState } from './command-kit.js';
import { registerActions } from './commands/actions.js';
import { registerBackfill } from './commands/backfill.js';
import { registerKeys } from './commands/keys.js';
import { registerLogin } from './commands/login.js';
import { registerOps } from './commands/ops.js';
import { registerPolicies } from './commands/policies.js';
import { registerReconcile } from './commands/reconcile.js';
import { registerReports } from './commands/reports.js';
import { registerReview } from './commands/review.js';
import { DEFAULT_URL } from './context.js';
import { describeError, EXIT, exitCodeOf } from './exit-codes.js';
import type { CliIo } from './io.js';

export { EXIT } from './exit-codes.js';
export type { CliIo, OutputStream } from './io.js';

/**
 * The `ledger` program (commander). Errors are thrown, never `process.exit`: {@link runCli}
 * turns them into exit statuses. Global options may come before or after the command.
 */
export function buildProgram(io: CliIo, state: RunState): Command {
  const program = new Command('ledger')
    .description(
      'Operate an Operation Ledger over its HTTP API: review and resolve operations, audit their history, watch queues, backfill past batches.',
    )
    .addOption(new Option('--url <url>', `the ledger's base URL (env LEDGER_URL; default ${DEFAULT_URL})`))
    .addOption(new Option('--token <token>', 'API key olk_… (env LEDGER_TOKEN)'))
    .addOption(
      new Option('--tenant <tenant>', "tenant to act on (env LEDGER_TENANT; default the key's tenant)"),
    )
    .addOption(new Option('--profile <name>', 'named profile from `ledger login` (env LEDGER_PROFILE)'))
    .option('--json', 'machine-readable output: JSON, one line per item for lists (NDJSON)')
    .option('--no-progress', 'no progress bars (they are drawn only when stderr is a terminal)')
    .option('--verbose', "more detail: the read model's checkpoint under lists")
    .version((createRequire(import.meta.url)('../package.json') as { version: string }).version)
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .addHelpText(
      'after',
      `
Exit status: 0 ok, 1 refused or not found, 2 usage (bad options, or input the ledger calls invalid),
3 the ledger is unavailable (unreachable, timed out, 503, 429).

Examples:
  $ ledger login --url http://127.0.0.1:3000 --token olk_… --tenant acme
  $ ledger review --reason unknown --older-than 1h
  $ ledger ops history acme/shop/invoice.create/order:812
  $ ledger <command> --help`,
    );
  const kit = kitFor(io, state);
  registerLogin(program, kit);
  registerOps(program, kit);
  registerReview(program, kit);
  registerActions(program, kit);
  registerReports(program, kit);
  registerReconcile(program, kit);
  registerPolicies(program, kit);
  registerBackfill(program, kit);
  registerKeys(program, kit);
  return program;
}

/**
 * Runs `ledger` with `argv` (the arguments after the program name) and returns its exit status
 * ({@link EXIT}); errors go to `io.stderr` as one readable line.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const state: RunState = { code: EXIT.ok };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return state.code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    io.stderr.write(`ledger: ${describeError(err)}\n`);
    // Without any key, a 401 — or nothing answering, at the default URL most often — means the
    // CLI was never signed in: say how, not only what failed.
    const signInFirst =
      (err instanceof LedgerRequestError && err.status === 401) || err instanceof LedgerUnavailableError;
    if (state.tokenMissing && signInFirst)
      io.stderr.write(
        'ledger: no API key was given: sign in once with `ledger login --url URL --token olk_…`, or set LEDGER_TOKEN\n',
      );
    return exitCodeOf(err);
  }
}
