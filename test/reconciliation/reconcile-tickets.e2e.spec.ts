// docs/reconciliation.md "Worked example: the demo's ticket system": counts every category
// exactly, records the rogue second ticket as a duplicate effect once (also on a re-run),
// resolves the unknown outcome through the evidence path, on PGlite and on PostgreSQL.
import { startTicketSystem, type TicketSystem } from '../../demo/ticket-system.js';
import { waitFor } from '../projections/support/wait-for.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { ReconcileClient } from './support/reconcile-client.js';
import {
  ACTION,
  exportTickets,
  runTicketScenario,
  SOURCE_NDJSON,
  TENANT,
  type Scenario,
} from './support/ticket-scenario.js';

const START = {
  action: ACTION,
  match: 'subject',
  refField: 'externalRef',
  compare: 'title',
  awaitSource: 'true',
};
const SOURCE = { sourceTemplate: 'shop', subjectTemplate: 'order:{order}' };

describe.each(['pglite', 'postgres'] as const)('reconciliation against the ticket system on %s', (store) => {
  let ledger: TestLedger;
  let tickets: TicketSystem;
  let scenario: Scenario;
  let rc: ReconcileClient;
  let firstRun: any;

  beforeAll(async () => {
    ledger = await startTestLedger(store);
    tickets = await startTicketSystem({ seed: 1, slowAfterSaveRate: 0, faultDelayMs: 10 });
    scenario = await runTicketScenario(ledger.client, tickets);
    ledger.clock.advance(60_000);
    const operator = await ledger.createKey({ tenant: TENANT, roles: ['operator'], name: 'month-end' });
    rc = new ReconcileClient(ledger.url, operator.token);
  });
  afterAll(async () => {
    await tickets?.close();
    await ledger?.close();
  });

  const duplicateEvents = async (id: string) =>
    (await ledger.client.history(id)).body.events.filter((e: any) => e.type === 'DuplicateEffectDetected');

  it('counts each category exactly and resolves the unknown outcome with apply=evidence', async () => {
    const started = await rc.start(
      TENANT,
      { ...START, apply: 'evidence' },
      await exportTickets(tickets, 'csv'),
      'text/csv',
    );
    expect(started.status).toBe(202);
    expect(started.body.status).toBe('awaiting_source');
    expect(started.headers.get('location')).toBe(`/v1/tenants/${TENANT}/reconciliations/${started.body.id}`);
    const queued = await rc.source(TENANT, started.body.id, SOURCE, SOURCE_NDJSON, 'application/x-ndjson');
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ status: 'queued', destinationRows: 6, sourceRows: 7 });

    firstRun = await rc.finished(TENANT, started.body.id);
    expect(firstRun.status).toBe('completed');
    expect(firstRun.totals.byCategory).toEqual({
      matched: 2,
      fields_differ: 1,
      missing_at_destination: 1,
      duplicate_effect: 1,
      unknown_found: 1,
      unconfirmed_found: 0,
      orphan: 1,
      never_claimed: 1,
      not_confirmed: 1,
    });
    expect(firstRun.totals.byAction[ACTION].duplicate_effect).toBe(1);
    expect(firstRun.totals.outcomes).toEqual({ evidence_applied: 1, recorded: 1 });

    const items = await rc.allItems(TENANT, firstRun.id);
    const by = (category: string) => items.filter((i) => i.category === category);
    expect(
      by('matched')
        .map((i) => i.operationId)
        .sort(),
    ).toEqual([scenario.ids.matched, scenario.ids.rogue].sort());
    expect(by('fields_differ')).toMatchObject([
      {
        operationId: scenario.ids.edited,
        detail: {
          differences: [{ field: 'title', ledger: 'Order 7', destination: 'Order 7 (edited by hand)' }],
        },
      },
    ]);
    expect(by('duplicate_effect')).toMatchObject([
      { operationId: scenario.ids.rogue, recordId: scenario.tickets.rogueSecond, outcome: 'recorded' },
    ]);
    expect(by('unknown_found')).toMatchObject([
      { operationId: scenario.ids.unknown, recordId: scenario.tickets.unknown, outcome: 'evidence_applied' },
    ]);
    expect(by('missing_at_destination')).toMatchObject([
      { operationId: scenario.ids.lost, state: 'confirmed' },
    ]);
    expect(by('orphan')).toMatchObject([
      { recordId: scenario.tickets.orphan, reference: 'order:99', operationId: null },
    ]);
    expect(by('never_claimed')).toMatchObject([{ subject: 'order:5', line: 5 }]);
    expect(by('not_confirmed')).toMatchObject([
      { operationId: scenario.ids.inProgress, state: 'in_progress' },
    ]);
    expect(by('not_confirmed')[0].ageMs).toBeGreaterThanOrEqual(60_000);

    // the second effect is on the operation's stream, once, marked as found by this run
    const dups = await duplicateEvents(scenario.ids.rogue);
    expect(dups).toHaveLength(1);
    expect(dups[0].data).toMatchObject({
      recordedRef: scenario.tickets.rogueFirst,
      incomingRef: scenario.tickets.rogueSecond,
      source: 'reconciliation',
      reconciliationId: firstRun.id,
    });
    // the unknown outcome went through the evidence path, recorded with the run id
    const status = await ledger.client.status(scenario.ids.unknown);
    expect(status.body).toMatchObject({ state: 'confirmed', destinationRef: scenario.tickets.unknown });
    const evidence = (await ledger.client.history(scenario.ids.unknown)).body.events.filter(
      (e: any) => e.type === 'RecoveryEvidenceSubmitted',
    );
    expect(evidence).toHaveLength(1);
    expect(evidence[0].data).toMatchObject({
      verdict: 'found',
      actor: 'month-end',
      checkedFields: { reconciliationId: firstRun.id },
    });
    expect(evidence[0].metadata.correlationId).toBe(firstRun.id);
    expect(dups[0].metadata.correlationId).toBe(firstRun.id);
  });

  it('puts the second effect in the review queue and the metrics like a worker-reported one', async () => {
    const queue = await waitFor(async () => {
      const r = await ledger.client.get(`/v1/tenants/${TENANT}/review-queue?reason=duplicate_effect`);
      return r.body.items?.length ? r.body.items : null;
    }, 'the review queue');
    expect(queue.map((i: any) => i.operationId)).toEqual([scenario.ids.rogue]);
    const metrics = await ledger.client.get(`/v1/tenants/${TENANT}/metrics?action=${ACTION}`);
    expect(metrics.body.totals.duplicateEffects).toBe(1);
  });

  it('records nothing new when the same export is reconciled again', async () => {
    const again = await rc.start(
      TENANT,
      START,
      await exportTickets(tickets, 'ndjson'),
      'application/x-ndjson',
      true,
    );
    expect(again.status).toBe(202);
    await rc.source(TENANT, again.body.id, SOURCE, SOURCE_NDJSON, 'application/x-ndjson');
    const run = await rc.finished(TENANT, again.body.id);
    expect(run.status).toBe('completed');
    expect(run.totals.byCategory).toMatchObject({
      matched: 3,
      unknown_found: 0,
      duplicate_effect: 1,
      orphan: 1,
      never_claimed: 1,
    });
    expect(run.totals.outcomes).toEqual({ already_recorded: 1 });
    expect(await duplicateEvents(scenario.ids.rogue)).toHaveLength(1);
  });

  it('downloads the items as CSV, filtered by category', async () => {
    const csv = await fetch(
      `${ledger.url}/v1/tenants/${TENANT}/reconciliations/${firstRun.id}/items?format=csv&category=orphan`,
      {
        headers: { authorization: `Bearer ${rc.token}` },
      },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'seq,category,operationId,action,subject,recordId,reference,line,state,destinationRef,firstSeen,ageMs,outcome,detail',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`orphan,,${ACTION},,${scenario.tickets.orphan},order:99`);
  });
});
