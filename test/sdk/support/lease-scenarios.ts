// C7 (zombie worker) and C8 (lease expires after the external call started, and its control)
// written with the SDK, counting destination records. Time moves on the ledger's own clock.
import { jest } from '@jest/globals';
import {
  AwaitingRecoveryError,
  JobFailedError,
  LeaseLostError,
  type Job,
  type LedgerClient,
} from '@operation-ledger/client';
import { Destination } from '../../support/destination.js';
import type { TestLedger } from '../../support/test-ledger.js';
import { deferred } from './sdk-harness.js';

const LEASE = 1_500;
const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });

/** Registers C7 and C8 on the ledger and client `get()` returns (set in the caller's beforeAll). */
export function leaseScenarios(get: () => { ledger: TestLedger; sdk: LedgerClient }): void {
  let ledger: TestLedger;
  let sdk: LedgerClient;
  beforeAll(() => ({ ledger, sdk } = get()));

  it('C7 zombie worker: its late confirm is refused as stale; history shows both attempts; 1 record', async () => {
    const destination = new Destination();
    const wake = deferred();
    const entered = deferred();
    const zombie = sdk
      .runOnce(
        key('C7'),
        { parcel: 1 },
        async (op) => {
          await op.step('validate', () => ({ ok: true }));
          entered.resolve();
          await wake.promise;
          return { outputs: { zombie: true } };
        },
        { leaseMs: LEASE, renewLease: false, workerId: 'A' },
      )
      .catch((e: unknown) => e);
    await entered.promise;
    await new Promise((r) => setTimeout(r, 30)); // the deferred step completion is flushed
    ledger.clock.advance(LEASE + 1);
    const b = await sdk.runOnce(
      key('C7'),
      { parcel: 1 },
      async (op) => ({
        destinationRef: await op.step('dispatch', (pk) => destination.create('C7', pk)),
      }),
      { leaseMs: LEASE, workerId: 'B' },
    );
    expect(b).toMatchObject({ status: 'executed', attempt: 2 });
    wake.resolve();
    expect(await zombie).toBeInstanceOf(LeaseLostError);
    expect(destination.count).toBe(1);
    const events = (await sdk.operations.history(b.operationId)).events;
    expect(
      events.filter((e) => e.type === 'OperationClaimed').map((e) => [e.data.attempt, e.data.workerId]),
    ).toEqual([
      [1, 'A'],
      [2, 'B'],
    ]);
    expect(events.filter((e) => e.type === 'OperationConfirmed')).toHaveLength(1);
  });

  it('C8 lease expires after the call started: awaiting recovery, no second call, the late confirm changes nothing', async () => {
    const destination = new Destination();
    const wake = deferred();
    const called = deferred<string>();
    const frozen = sdk
      .runOnce(
        key('C8'),
        { parcel: 2 },
        async (op) => {
          const ref = await op.step('dispatch', async (pk) => {
            const id = destination.create('C8', pk);
            called.resolve(op.operationId);
            await wake.promise; // frozen after the destination saved, before the answer
            return id;
          });
          return { destinationRef: ref };
        },
        { leaseMs: LEASE, renewLease: false },
      )
      .catch((e: unknown) => e);
    const id = await called.promise;
    ledger.clock.advance(LEASE + 1);
    const second = jest.fn<Job>();
    expect(await sdk.runOnce(key('C8'), { parcel: 2 }, second).catch((e: unknown) => e)).toBeInstanceOf(
      AwaitingRecoveryError,
    );
    expect(second).not.toHaveBeenCalled();
    await sdk.operator.resolve(id, {
      resolution: 'confirmed',
      destinationRef: destination.records[0]!.id,
      reason: 'found it',
    });
    wake.resolve();
    const late = await frozen;
    // The resolution stands. Refused at the step's completion: LeaseLostError; refused at the
    // confirm: the operation is confirmed with this worker's own reference, so it learns its
    // effect was recorded (executed) instead of a lost lease.
    if (late instanceof JobFailedError) expect(late.cause).toBeInstanceOf(LeaseLostError);
    else
      expect(late).toMatchObject({
        status: 'executed',
        outcome: { destinationRef: destination.records[0]!.id },
      });
    expect(destination.count).toBe(1);
    expect(await sdk.runOnce(key('C8'), { parcel: 2 }, second)).toMatchObject({ status: 'replayed' });
    expect(
      (await sdk.operations.history(id)).events.filter((e) => e.type === 'DuplicateEffectDetected'),
    ).toHaveLength(0);
  });

  it('C8 control: a worker frozen before its step is safely reclaimed; its late step is refused; 1 record', async () => {
    const destination = new Destination();
    const wake = deferred();
    const entered = deferred();
    const frozen = sdk
      .runOnce(
        key('C8-control'),
        { parcel: 3 },
        async (op) => {
          entered.resolve();
          await wake.promise;
          return { destinationRef: await op.step('dispatch', (pk) => destination.create('C8c', pk)) };
        },
        { leaseMs: LEASE, renewLease: false },
      )
      .catch((e: unknown) => e);
    await entered.promise;
    ledger.clock.advance(LEASE + 1);
    const b = await sdk.runOnce(key('C8-control'), { parcel: 3 }, async (op) => ({
      destinationRef: await op.step('dispatch', (pk) => destination.create('C8c', pk)),
    }));
    expect(b).toMatchObject({ status: 'executed', attempt: 2 });
    wake.resolve();
    const late = await frozen;
    expect((late as JobFailedError).cause).toBeInstanceOf(LeaseLostError);
    expect(destination.count).toBe(1);
  });
}
