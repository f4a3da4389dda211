/**
 * `npm run demo:chaos`: the demo's GitHub webhook deliveries, handled by real worker processes
 * that the parent SIGKILLs at random points; the ledger's lease sweeper and a recovery worker
 * bring every operation to Confirmed. Prints the summary and the history of an operation settled
 * by evidence; exits non-zero unless tickets created == distinct intents, each confirmed once.
 */
import { ledgerClient } from '../ledger-endpoint.js';
import { formatHistory } from '../summary.js';
import { CHAOS_USAGE, parseChaosArgs } from './chaos-options.js';
import { runChaos, startChaosLedger, startChaosTicketSystem } from './chaos-run.js';
import { formatChaosSummary } from './chaos-summary.js';

async function main(): Promise<void> {
  const cli = parseChaosArgs(process.argv.slice(2));
  if (cli.help) {
    console.log(CHAOS_USAGE);
    return;
  }
  const ledger = await startChaosLedger(cli.options);
  const ticketSystem = await startChaosTicketSystem(cli.options);
  try {
    const endpoint = { url: ledger.url, headers: ledger.headers };
    const report = await runChaos(cli.options, { ledger: endpoint, ticketSystem });
    console.log(formatChaosSummary(report));
    if (report.sampleOperationId) {
      const history = await ledgerClient(endpoint).operations.history(report.sampleOperationId);
      console.log('\n' + formatHistory(history));
    }
    if (report.problems.length > 0) process.exitCode = 1;
  } finally {
    await ticketSystem.close();
    await ledger.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
