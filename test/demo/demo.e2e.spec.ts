/**
 * End-to-end: the `npm run demo` flow at a smaller size (40 intents), against a real ledger over
 * HTTP. It counts business effects — ticket records at the simulated destination — not statuses.
 */
import {
  DEFAULT_DEMO_OPTIONS,
  runDemo,
  startDemoTicketSystem,
  type DemoOptions,
  type DemoReport,
} from '../../demo/demo-run.js';
import { ledgerClient, type LedgerEndpoint } from '../../demo/ledger-endpoint.js';
import { RECOVERY_ACTOR } from '../../demo/recovery.js';
import { startLedger, type RunningLedger } from '../../demo/start-ledger.js';
import type { Ticket, TicketSystem } from '../../demo/ticket-system.js';

const INTENTS = 40;
const options: DemoOptions = {
  ...DEFAULT_DEMO_OPTIONS,
  seed: 20240611,
  limit: INTENTS,
  concurrency: 6,
  // High enough that 40 intents all but surely see several unknown outcomes (P(none) ≈ 1e-6).
  faultRate: 0.3,
  lostRate: 0.05,
  conflicts: 3,
};

describe('demo: GitHub webhook deliveries → ledger → ticket system', () => {
  let ledger: RunningLedger | undefined;
  let ticketSystem: TicketSystem | undefined;
  let endpoint: LedgerEndpoint;
  let report: DemoReport;

  beforeAll(async () => {
    ledger = await startLedger();
    ticketSystem = await startDemoTicketSystem(options);
    endpoint = { url: ledger.url, headers: ledger.headers };
    report = await runDemo(options, { ledger: endpoint, ticketSystem });
  }, 120_000);

  afterAll(async () => {
    await ticketSystem?.close();
    await ledger?.close();
  });

  it('creates exactly one ticket per distinct intent, counted at the destination', async () => {
    const res = await fetch(`${ticketSystem!.url}/tickets`);
    const { tickets } = (await res.json()) as { tickets: Ticket[] };

    expect(report.distinctIntents).toBe(INTENTS);
    expect(report.deliveries).toBeGreaterThan(INTENTS);
    expect(tickets).toHaveLength(INTENTS);
    expect(new Set(tickets.map((t) => t.externalRef)).size).toBe(INTENTS);
    expect(report.ticketsCreated).toBe(INTENTS);
    expect(report.unsettled).toEqual([]);
    expect(report.problems).toEqual([]);
  });

  it('prevents every redelivery from repeating the effect', () => {
    // Each delivery ends in exactly one way; only one per intent (or a recovery re-run) may create.
    expect(report.duplicatesPrevented).toBe(
      report.deliveries - report.conflictAnswers - (report.created + report.unknownReported - reruns(report)),
    );
    expect(report.duplicatesPrevented).toBeGreaterThan(0);
  });

  it('reports unknown outcomes and resolves every one of them', () => {
    expect(report.unknownReported).toBeGreaterThan(0);
    expect(report.recovery.resolutions.length).toBeGreaterThanOrEqual(report.unknownReported);
    expect(report.recovery.stillUnknown).toEqual([]);
    expect(report.recovery.ambiguous).toEqual([]);
  });

  it('detects exactly the injected conflicts', () => {
    expect(report.conflictsInjected).toBe(options.conflicts);
    expect(report.conflictsDetected).toBe(report.conflictsInjected);
  });

  it('records unknown → resolved in the operation history, in order', async () => {
    const resolved = report.recovery.resolutions.find((r) => r.resolution === 'confirmed' && r.round === 1);
    expect(resolved).toBeDefined();
    const history = await ledgerClient(endpoint).operations.history(resolved!.operationId);
    const story = ['OperationClaimed', 'StepStarted', 'OutcomeUnknown', 'OperationResolved'];

    expect(history.events.map((e) => e.type).filter((t) => story.includes(t))).toEqual(story);
    const resolution = history.events.find((e) => e.type === 'OperationResolved')!;
    expect(resolution.data).toMatchObject({
      resolution: 'confirmed',
      destinationRef: resolved!.destinationRef,
      actor: RECOVERY_ACTOR,
    });
  });
});

/** Deliveries that recovery added by re-running a claim resolved `not_found`. */
function reruns(report: DemoReport): number {
  return report.recovery.resolutions.filter((r) => r.resolution === 'not_found').length;
}
