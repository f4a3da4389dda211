/**
 * `npm run demo`: GitHub webhook deliveries → Operation Ledger → simulated ticket system.
 * Starts the ledger (demo/start-ledger.ts) and the ticket system, runs the demo, prints the
 * summary and sets a non-zero exit code unless tickets created == distinct intents.
 */
import { once } from 'node:events';
import { parseDemoArgs, DEMO_USAGE } from './demo-options.js';
import { runDemo, startDemoTicketSystem } from './demo-run.js';
import { ledgerClient } from './ledger-endpoint.js';
import { startLedger } from './start-ledger.js';
import { formatHistory, formatSummary } from './summary.js';

async function main(): Promise<void> {
  const cli = parseDemoArgs(process.argv.slice(2));
  if (cli.help) {
    console.log(DEMO_USAGE);
    return;
  }
  const ledger = await startLedger({ externalUrl: cli.ledgerUrl });
  const ticketSystem = await startDemoTicketSystem(cli.options);
  try {
    const endpoint = { url: ledger.url, headers: ledger.headers };
    const report = await runDemo(cli.options, { ledger: endpoint, ticketSystem });
    console.log(formatSummary(report));
    if (report.sampleOperationId) {
      console.log(
        '\n' + formatHistory(await ledgerClient(endpoint).operations.history(report.sampleOperationId)),
      );
    }
    if (report.problems.length > 0) process.exitCode = 1;
    if (cli.keepOpen) {
      console.log(
        `\n  ledger ${ledger.url} and ticket system ${ticketSystem.url}/tickets stay up; Ctrl-C to stop.`,
      );
      await once(process, 'SIGINT');
    }
  } finally {
    await ticketSystem.close();
    await ledger.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
