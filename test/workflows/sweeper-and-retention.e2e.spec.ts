// docs/api.md "Recovery and operator workflows": the lease sweeper (from the status projection, decided
// on the stream with the expected revision read) including its race with a late worker on real
// PostgreSQL, and retention (tombstones that keep key, fingerprint and outcome).
import { SQL_EXECUTOR } from '../../src/event-store/sql-executor.token.js';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { LeaseSweeper } from '../../src/jobs/lease-sweeper.js';
import { RetentionJob } from '../../src/jobs/retention-job.js';
import { waitForCaughtUp } from '../projections/support/wait-for.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const key = (action: string, subject: string) => ({ tenant: 'acme', source: 'erp', action, subject });
const caughtUp = (l: TestLedger) =>
  waitForCaughtUp(l.store, l.app.get<SqlExecutor>(SQL_EXECUTOR), ['operations'], 90_000);
const streamTypes = async (l: TestLedger, action: string, subject: string) =>
  (await l.store.read(`operation-acme/erp/${action}/${subject}@1`)).map((e) => e.type);

describe('lease sweeper (PGlite)', () => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await startTestLedger('pglite');
  });
  afterAll(() => ledger.close());

  it('makes expired work visible: started step → unknown, nothing started → released, live or renewed → untouched', async () => {
    const c = ledger.client;
    const started = await c.claim(key('sweep.test', 'S-1'), { n: 1 }, { leaseMs: 5_000 });
    await c.op(started.body.operationId, 'steps/send/start', { fencingToken: 1 });
    const idle = await c.claim(key('sweep.test', 'S-2'), { n: 1 }, { leaseMs: 5_000 });
    const renewed = await c.claim(key('sweep.test', 'S-3'), { n: 1 }, { leaseMs: 5_000 });
    const live = await c.claim(key('sweep.test', 'S-4'), { n: 1 }, { leaseMs: 60_000 });
    ledger.clock.advance(4_000);
    await c.op(renewed.body.operationId, 'lease/renew', { fencingToken: 1, leaseMs: 60_000 });
    ledger.clock.advance(2_000);
    await caughtUp(ledger);

    const report = await ledger.app.get(LeaseSweeper).sweepOnce();
    expect(report).toEqual({ examined: 2, unknown: 1, released: 1, unchanged: 0 });
    expect(await streamTypes(ledger, 'sweep.test', 'S-1')).toEqual([
      'OperationClaimed',
      'StepStarted',
      'OutcomeUnknown',
    ]);
    expect(await streamTypes(ledger, 'sweep.test', 'S-2')).toEqual(['OperationClaimed', 'OperationReleased']);
    expect(await streamTypes(ledger, 'sweep.test', 'S-3')).toEqual(['OperationClaimed', 'LeaseRenewed']);
    expect(await streamTypes(ledger, 'sweep.test', 'S-4')).toEqual(['OperationClaimed']);
    const released = (await c.history(idle.body.operationId)).body.events[1];
    expect(released.data).toMatchObject({ releasedBy: 'sweeper' });
    expect((await c.status(live.body.operationId)).body.state).toBe('in_progress');

    // A second sweep finds nothing more to do once the view caught up.
    await caughtUp(ledger);
    expect(await ledger.app.get(LeaseSweeper).sweepOnce()).toMatchObject({ examined: 0 });
  });
});

describe('lease sweeper racing late workers (PostgreSQL)', () => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await startTestLedger('postgres');
  });
  afterAll(() => ledger.close());

  it('the expected-revision append decides each race: every late confirmation lands, no update is lost', async () => {
    const c = ledger.client;
    const subjects = Array.from({ length: 30 }, (_, i) => `RACE-${i}`);
    const ids: string[] = [];
    for (const s of subjects) {
      const claim = await c.claim(key('race.test', s), { s }, { leaseMs: 5_000 });
      await c.op(claim.body.operationId, 'steps/send/start', { fencingToken: 1 });
      ids.push(claim.body.operationId);
    }
    ledger.clock.advance(6_000);
    await caughtUp(ledger);
    const sweeper = ledger.app.get(LeaseSweeper);
    const [report, confirms] = await Promise.all([
      sweeper.sweepOnce(),
      Promise.all(ids.map((id, i) => c.op(id, 'confirm', { fencingToken: 1, destinationRef: `REF-${i}` }))),
    ]);
    expect(confirms.every((r) => r.status === 200)).toBe(true);
    for (const [i, s] of subjects.entries()) {
      const types = await streamTypes(ledger, 'race.test', s);
      expect(types.filter((t) => t === 'OperationConfirmed')).toHaveLength(1);
      // Either the worker confirmed first (the sweeper then found nothing to do), or the sweeper
      // recorded the unknown outcome first and the confirmation came in as late evidence.
      expect([
        ['OperationClaimed', 'StepStarted', 'OperationConfirmed'],
        ['OperationClaimed', 'StepStarted', 'OutcomeUnknown', 'OperationConfirmed'],
      ]).toContainEqual(types);
      expect((await c.status(ids[i]!)).body).toMatchObject({
        state: 'confirmed',
        destinationRef: `REF-${i}`,
      });
    }
    // The sweeper lists what the view shows when it starts; confirmations projected before that
    // are not listed. Whatever it listed, it either marked unknown or found already changed.
    expect(report.examined).toBeLessThanOrEqual(30);
    expect(report.unknown + report.unchanged).toBe(report.examined);
  }, 150_000);
});

describe('retention', () => {
  let ledger: TestLedger;
  const HOUR = 3_600_000;
  beforeAll(async () => {
    ledger = await startTestLedger('pglite');
    for (const [action, afterRetention] of [
      ['ret.keep', 'tombstone'],
      ['ret.refuse', 'refuse'],
    ]) {
      await ledger.client.request('PUT', `/v1/tenants/acme/policies/${action}`, {
        policy: { retentionMs: HOUR, afterRetention },
        reason: 'GDPR: keep a day of history',
      });
    }
  });
  afterAll(() => ledger.close());

  it('compacts finished operations into tombstones; repeats replay or are refused per policy; live work stays', async () => {
    const c = ledger.client;
    const kept = await c.claim(key('ret.keep', 'K-1'), { amount: 5 });
    await c.op(kept.body.operationId, 'confirm', { fencingToken: 1, destinationRef: 'INV-9' });
    await c.claim(key('ret.keep', 'K-1'), { amount: 5 }); // a duplicate in the audit stream
    const refused = await c.claim(key('ret.refuse', 'R-1'), { amount: 5 });
    await c.op(refused.body.operationId, 'confirm', { fencingToken: 1, destinationRef: 'INV-10' });
    const live = await c.claim(key('ret.keep', 'L-1'), { amount: 5 }, { leaseMs: 60_000 });
    ledger.clock.advance(2 * HOUR);
    await caughtUp(ledger);

    const report = await ledger.app.get(RetentionJob).compactOnce();
    expect(report.archived).toBe(2);
    expect(await streamTypes(ledger, 'ret.keep', 'K-1')).toEqual(['OperationArchived']);
    expect(await ledger.store.read('audit-operation-acme/erp/ret.keep/K-1@1')).toEqual([]);
    expect(await streamTypes(ledger, 'ret.keep', 'L-1')).toEqual(['OperationClaimed']);

    const replay = await c.claim(key('ret.keep', 'K-1'), { amount: 5 });
    expect(replay.status).toBe(200);
    expect(replay.body.outcome.destinationRef).toBe('INV-9');
    const conflict = await c.claim(key('ret.keep', 'K-1'), { amount: 6 });
    expect(conflict.status).toBe(422);
    const gone = await c.claim(key('ret.refuse', 'R-1'), { amount: 5 });
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe('retention-expired');
    expect((await c.status(live.body.operationId)).body.state).toBe('in_progress');

    // The tombstones are final: a second pass archives nothing.
    await caughtUp(ledger);
    expect((await ledger.app.get(RetentionJob).compactOnce()).archived).toBe(0);
  });
});
