// W1–W3 (workers through the SDK), C9, the 32-way race and recovery, written with the SDK and
// counting records at a simulated destination (C7/C8 in lease-scenarios.ts). Time moves on the
// ledger's own (fake) clock.
import {
  AwaitingRecoveryError,
  JobFailedError,
  LeaseLostError,
  type LedgerClient,
  type OperationContext,
} from '@operation-ledger/client';
import { execFile } from 'node:child_process';
import type { StoreKind } from '../../../src/config/ledger-config.js';
import { buildUnlessFresh } from '../../support/build-unless-fresh.js';
import { Destination } from '../../support/destination.js';
import { startTestLedger, type TestLedger } from '../../support/test-ledger.js';
import { leaseScenarios } from './lease-scenarios.js';
import { aborted, deferred, eventually, PausableFetch, sdkClient } from './sdk-harness.js';

const LEASE = 1_500;
const TENANT = 'acme';
const key = (subject: string) => ({ tenant: TENANT, source: 'shop', action: 'invoice.create', subject });

/** A destination call that saves on receipt and answers after the client's timeout. */
async function saveThenTimeOut(destination: Destination, ref: string, providerKey: string): Promise<string> {
  destination.create(ref, providerKey);
  throw Object.assign(new Error('no answer within 50 ms'), { name: 'TimeoutError' });
}

/** Runs recovery passes until one settles something (the review queue is a projection). */
async function recoverUntilSettled(ledger: LedgerClient, destination: Destination) {
  return eventually(async () => {
    const r = await ledger.recover({
      tenant: TENANT,
      action: 'invoice.create',
      lookup: (op) => {
        const found = destination.find(op.key.subject);
        return found.length === 1
          ? { found: found[0]!.id, checkedFields: { externalRef: op.key.subject } }
          : { notFound: true };
      },
    });
    return r.found + r.notFound > 0 ? r : null;
  });
}

export function sdkScenarios(store: StoreKind): void {
  let ledger: TestLedger;
  let sdk: LedgerClient;
  beforeAll(async () => {
    ledger = await startTestLedger(store);
    sdk = sdkClient(ledger);
  });
  afterAll(() => ledger.close());
  leaseScenarios(() => ({ ledger, sdk }));

  it('W1/C9 timeout after the destination saved: unknown, redeliveries await recovery, recover confirms; 1 record', async () => {
    const destination = new Destination();
    const calls = { n: 0 };
    const job = (op: OperationContext) =>
      op
        .step('create', (pk) => (calls.n++, saveThenTimeOut(destination, 'W1', pk)))
        .then((id) => ({ destinationRef: id }));
    const first = await sdk
      .runOnce(key('W1'), { total: '10.00' }, job, { leaseMs: LEASE })
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(JobFailedError);
    expect(first).toMatchObject({ recorded: 'unknown', startedSteps: ['create'] });

    for (let i = 0; i < 3; i++) {
      const again = await sdk.runOnce(key('W1'), { total: '10.00' }, job).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(AwaitingRecoveryError);
    }
    expect(calls.n).toBe(1);

    const lookups: string[] = [];
    const report = await eventually(async () => {
      const r = await sdk.recover({
        tenant: TENANT,
        action: 'invoice.create',
        lookup: (op) => {
          lookups.push(op.providerKey('create'));
          expect(op.payload).toEqual({ total: '10.00' });
          const found = destination.find('W1');
          return found.length === 1 ? { found: found[0]!.id } : { notFound: true };
        },
      });
      return r.found > 0 ? r : null;
    });
    expect(report.found).toBe(1);
    expect(lookups[0]).toBe(destination.records[0]!.idempotencyKey);
    const replay = await sdk.runOnce(key('W1'), { total: '10.00' }, job);
    expect(replay).toMatchObject({
      status: 'replayed',
      outcome: { destinationRef: destination.records[0]!.id },
    });
    expect(destination.count).toBe(1);
    expect(calls.n).toBe(1);
  });

  it('W2 lease lost while running: op.signal aborts, the late step is refused; 1 record', async () => {
    const destination = new Destination();
    const stalled = new PausableFetch();
    const a = sdkClient(ledger, { fetch: stalled.fetch });
    const entered = deferred<OperationContext>();
    const wake = deferred();
    const aRun = a
      .runOnce(
        key('W2'),
        { n: 2 },
        async (op) => {
          entered.resolve(op);
          await wake.promise;
          return { destinationRef: await op.step('create', (pk) => destination.create('W2', pk)) };
        },
        { leaseMs: LEASE, workerId: 'A' },
      )
      .catch((e: unknown) => e);
    const opA = await entered.promise;
    await stalled.pause();
    ledger.clock.advance(LEASE + 1);

    const b = await sdk.runOnce(
      key('W2'),
      { n: 2 },
      async (op) => ({
        destinationRef: await op.step('create', (pk) => destination.create('W2', pk)),
      }),
      { leaseMs: LEASE, workerId: 'B' },
    );
    expect(b).toMatchObject({ status: 'executed', attempt: 2 });

    stalled.resume();
    expect(await aborted(opA.signal)).toBeInstanceOf(LeaseLostError);
    wake.resolve();
    const errA = await aRun;
    expect(errA).toBeInstanceOf(JobFailedError);
    expect((errA as JobFailedError).cause).toBeInstanceOf(LeaseLostError);
    expect(destination.count).toBe(1);
    expect((await sdk.operations.get(b.operationId)).destinationRef).toBe(destination.records[0]!.id);
  });

  it('W3 re-run after a completed step: step one is replayed from its outputs, step two runs; each effect once', async () => {
    const invoices = new Destination();
    const mails = new Destination();
    const crashed = await new Promise<string>((resolve) => {
      void sdk.runOnce(
        key('W3'),
        { n: 3 },
        async (op) => {
          await op.step('create-invoice', (pk) => ({ invoiceId: invoices.create('W3', pk) }));
          resolve(op.operationId);
          await new Promise(() => {}); // the process dies here: nothing more is sent
        },
        { leaseMs: LEASE, renewLease: false },
      );
    });
    await eventually(async () =>
      (await sdk.operations.get(crashed)).steps.some((s) => s.status === 'completed'),
    );
    ledger.clock.advance(LEASE + 1);

    let replayed: unknown;
    const r = await sdk.runOnce(
      key('W3'),
      { n: 3 },
      async (op) => {
        replayed = await op.step('create-invoice', (pk) => ({ invoiceId: invoices.create('W3', pk) }));
        await op.step('send-receipt', (pk) => mails.create('W3', pk));
        return { destinationRef: (replayed as { invoiceId: string }).invoiceId };
      },
      { leaseMs: LEASE },
    );
    expect(r).toMatchObject({
      status: 'executed',
      attempt: 2,
      outcome: { destinationRef: invoices.records[0]!.id },
    });
    expect(replayed).toEqual({ invoiceId: invoices.records[0]!.id });
    expect([invoices.count, mails.count]).toEqual([1, 1]);
  });

  it('W3, a real crash: a worker SIGKILLed while its job waits after a step; the re-run gets the outputs', async () => {
    buildUnlessFresh(
      process.cwd(),
      'packages/client/dist/index.js',
      ['packages/client/src', 'packages/protocol/src'],
      ['run', 'build:client'],
    );
    const died = await new Promise<NodeJS.Signals | null>((resolve) => {
      const child = execFile(process.execPath, [
        new URL('./step-then-die.mjs', import.meta.url).pathname,
        ledger.url,
        ledger.rootToken,
        'W3-KILLED',
      ]);
      child.on('exit', (_code, signal) => resolve(signal));
    });
    expect(died).toBe('SIGKILL');
    ledger.clock.advance(LEASE + 1);
    let ran = false;
    const r = await sdk.runOnce(
      key('W3-KILLED'),
      { n: 1 },
      async (op) => {
        const invoice = await op.step('create-invoice', () => ((ran = true), { invoiceId: 'INV-again' }));
        return { destinationRef: invoice.invoiceId };
      },
      { leaseMs: LEASE },
    );
    expect(r).toMatchObject({ status: 'executed', attempt: 2, outcome: { destinationRef: 'INV-W3-KILLED' } });
    expect(ran).toBe(false);
  });

  it('32 concurrent runOnce of one key: the effect happens once, everyone gets its outcome', async () => {
    const destination = new Destination();
    const clients = Array.from({ length: 4 }, () => sdkClient(ledger));
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        clients[i % 4]!.runOnce(
          key('race-32'),
          { lines: [1, 2] },
          async (op) => ({
            destinationRef: await op.step('create', (pk) => destination.create('race', pk)),
          }),
          { waitIfInProgress: { timeoutMs: 30_000, pollMs: 50 }, leaseMs: 10_000 },
        ),
      ),
    );
    expect(destination.count).toBe(1);
    expect(results.filter((r) => r.status === 'executed')).toHaveLength(1);
    expect(new Set(results.map((r) => r.outcome.destinationRef))).toEqual(
      new Set([destination.records[0]!.id]),
    );
    expect(new Set(results.map((r) => r.operationId))).toEqual(new Set([sdk.operationIdOf(key('race-32'))]));
  });

  it('recover: not found releases the operation and a re-run creates the record once', async () => {
    const destination = new Destination();
    const lost = (op: OperationContext) =>
      op.step('create', () => Promise.reject(Object.assign(new Error('reset'), { name: 'ECONNRESET' })));
    await sdk.runOnce(key('lost'), {}, lost).catch(() => undefined);
    const r = await recoverUntilSettled(sdk, destination);
    expect(r.notFound).toBe(1);
    const rerun = await sdk.runOnce(key('lost'), {}, async (op) => ({
      destinationRef: await op.step('create', (pk) => destination.create('lost', pk)),
    }));
    expect(rerun).toMatchObject({ status: 'executed', attempt: 2 });
    expect(destination.count).toBe(1);
  });
}
