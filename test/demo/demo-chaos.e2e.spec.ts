/**
 * End-to-end: the `npm run demo:chaos` flow at a smaller size. Real worker processes
 * (demo/chaos/chaos-worker.mjs on the built worker SDK) are SIGKILLed at kill points; the ledger's lease
 * sweeper and the recovery worker must bring every intent to Confirmed. The verdict counts
 * business effects — ticket records at the simulated destination — not statuses.
 */
import { DEFAULT_CHAOS_OPTIONS, type ChaosOptions } from '../../demo/chaos/chaos-options.js';
import {
  runChaos,
  startChaosLedger,
  startChaosTicketSystem,
  type ChaosReport,
} from '../../demo/chaos/chaos-run.js';
import { KILL_POINTS } from '../../demo/chaos/kill-plan.js';
import { ledgerClient, type LedgerEndpoint } from '../../demo/ledger-endpoint.js';
import type { RunningLedger } from '../../demo/start-ledger.js';
import type { Ticket, TicketSystem } from '../../demo/ticket-system.js';

const INTENTS = 16;
const options: ChaosOptions = {
  ...DEFAULT_CHAOS_OPTIONS,
  seed: 20240611,
  limit: INTENTS,
  workers: 4,
  killRate: 0.3,
  // Every kill point is hit at least once, `after-ticket-created` included (recovery by evidence).
  minKillsPerPoint: 1,
  faultRate: 0,
  // The run ends as soon as every intent is confirmed (about 10 s when the machine is idle); the
  // limit only bounds a run that cannot finish. 25 s ran out on a loaded 2-core machine.
  timeoutMs: 90_000,
};

describe('demo chaos: worker processes SIGKILLed at random points', () => {
  let ledger: RunningLedger | undefined;
  let ticketSystem: TicketSystem | undefined;
  let endpoint: LedgerEndpoint;
  let report: ChaosReport;

  beforeAll(async () => {
    ledger = await startChaosLedger(options);
    ticketSystem = await startChaosTicketSystem(options);
    endpoint = { url: ledger.url, headers: ledger.headers };
    report = await runChaos(options, { ledger: endpoint, ticketSystem });
  }, 120_000);

  afterAll(async () => {
    await ticketSystem?.close();
    await ledger?.close();
  });

  it('creates exactly one ticket per distinct intent, counted at the destination', async () => {
    const { tickets } = (await (await fetch(`${ticketSystem!.url}/tickets`)).json()) as { tickets: Ticket[] };

    expect(report.distinctIntents).toBe(INTENTS);
    expect(report.deliveries).toBeGreaterThan(INTENTS);
    expect(tickets).toHaveLength(INTENTS);
    expect(new Set(tickets.map((t) => t.externalRef)).size).toBe(INTENTS);
    expect(report.problems).toEqual([]);
  });

  it('confirms every intent with the ref of its single ticket', async () => {
    const { tickets } = (await (await fetch(`${ticketSystem!.url}/tickets`)).json()) as { tickets: Ticket[] };
    const client = ledgerClient(endpoint);
    for (const check of report.checks) {
      const mine = tickets.filter((t) => t.externalRef === check.intent.ticket.externalRef);
      expect(mine).toHaveLength(1);
      const status = await client.operations.get(check.operationId!);
      expect(status).toMatchObject({ state: 'confirmed', destinationRef: mine[0]!.id });
    }
    expect(report.checks).toHaveLength(INTENTS);
  });

  it('really killed worker processes at every point, after the ticket and before confirm included', () => {
    for (const point of KILL_POINTS) expect(report.killsByPoint[point]).toBeGreaterThanOrEqual(1);
    expect(report.fleet.killed).toBe(Object.values(report.killsByPoint).reduce((a, b) => a + b, 0));
    expect(report.fleet.spawned).toBe(options.workers + report.fleet.killed);
    expect(report.fleet.crashes).toEqual([]);
    expect(report.queue.redeliveredAfterCrash).toBeGreaterThan(0);
  });

  it('settled expired leases through the sweeper and unknown outcomes through evidence', async () => {
    expect(report.story.sweeperReleases + report.story.sweeperUnknowns).toBeGreaterThan(0);
    expect(report.recovery.found).toBeGreaterThanOrEqual(1);
    expect(report.story.evidenceFound).toBe(report.recovery.found);
    expect(report.story.evidenceNotFound).toBe(report.recovery.notFound);
    expect(report.story.duplicateEffects).toBe(0);

    const history = await ledgerClient(endpoint).operations.history(report.sampleOperationId!);
    const types = history.events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['StepStarted', 'OutcomeUnknown', 'RecoveryEvidenceSubmitted']),
    );
    expect(types.indexOf('OutcomeUnknown')).toBeLessThan(types.indexOf('RecoveryEvidenceSubmitted'));
  });
});
