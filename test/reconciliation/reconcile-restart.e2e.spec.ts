// A run interrupted by a restart resumes at its recorded phase and records nothing twice; an
// upload cut off by a restart fails its run with a message saying so; a run in progress never
// shows its items.
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../src/event-store/sql-executor.token.js';
import { ReconciliationRunner } from '../../src/reconciliation/job/reconciliation-runner.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { ReconcileClient } from './support/reconcile-client.js';

describe.each(['pglite', 'postgres'] as const)('reconciliation after a restart on %s', (store) => {
  let ledger: TestLedger;
  let sql: SqlExecutor;
  let rc: ReconcileClient;
  let operationId: string;

  beforeAll(async () => {
    ledger = await startTestLedger(store);
    sql = ledger.app.get(SQL_EXECUTOR);
    rc = new ReconcileClient(ledger.url, ledger.rootToken);
    const c = ledger.client;
    const claim = await c.claim(
      { tenant: 'acme', source: 'erp', action: 'invoice.create', subject: 'order:1' },
      { total: '10.00' },
    );
    operationId = claim.body.operationId;
    await c.op(operationId, 'confirm', { fencingToken: 1, destinationRef: 'INV-1' });
  });
  afterAll(() => ledger?.close());

  const dupEvents = async () =>
    (await ledger.client.history(operationId)).body.events.filter(
      (e: any) => e.type === 'DuplicateEffectDetected',
    );

  it('resumes a run whose holder died during the apply phase, without a second event', async () => {
    const csv = `id,reference\r\nINV-1,${operationId}\r\nINV-2,${operationId.toUpperCase()}\r\n`;
    const started = await rc.start('acme', { action: 'invoice.create' }, csv, 'text/csv');
    const first = await rc.finished('acme', started.body.id);
    expect(first.totals.outcomes).toEqual({ recorded: 1 });
    expect(await dupEvents()).toHaveLength(1);

    // as if the instance died after appending the event but before storing the item's outcome
    await sql.query(
      `update ledger_reconciliations set status = 'running', phase = 'apply', holder = 'dead:1',
              heartbeat_at = now() - interval '1 hour', totals = null, finished_at = null where id = $1`,
      [first.id],
    );
    await sql.query(
      `update ledger_recon_items set apply_state = 'pending', outcome = null
        where recon_id = $1 and category = 'duplicate_effect'`,
      [first.id],
    );
    const during = await rc.get(`/v1/tenants/acme/reconciliations/${first.id}`);
    expect(during.body).toMatchObject({ status: 'running', phase: 'apply', totals: null });
    const items = await rc.get(`/v1/tenants/acme/reconciliations/${first.id}/items`);
    expect(items.status).toBe(409);
    expect(items.body.code).toBe('reconciliation-not-complete');

    ledger.app.get(ReconciliationRunner).poke();
    const resumed = await rc.finished('acme', first.id);
    expect(resumed.status).toBe('completed');
    expect(resumed.totals.byCategory).toMatchObject({ matched: 1, duplicate_effect: 1 });
    expect(resumed.totals.outcomes).toEqual({ already_recorded: 1 });
    expect(await dupEvents()).toHaveLength(1);
  });

  it('fails an upload that was cut off by a restart, saying so', async () => {
    const id = '00000000-0000-4000-8000-000000000016';
    await sql.query(
      `insert into ledger_reconciliations (id, tenant, match, apply, options, created_by, status, holder, heartbeat_at, created_at)
       values ($1, 'acme', 'operationId', 'none', '{"compare":[]}', '{"name":"x"}', 'receiving', 'dead:1',
               now() - interval '1 hour', now())`,
      [id],
    );
    ledger.app.get(ReconciliationRunner).poke();
    const run = await rc.finished('acme', id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/upload was interrupted/);
    const items = await rc.get(`/v1/tenants/acme/reconciliations/${id}/items`);
    expect(items.status).toBe(409);
    expect(items.body.code).toBe('reconciliation-failed');
  });
});
