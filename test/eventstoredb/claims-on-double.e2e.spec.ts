// Claim races and lost answers on the EventStoreDB adapter, through the HTTP API and directly,
// against the wire-level double: the expected-revision append is the only guard, on this store too.
import { randomUUID } from 'node:crypto';
import { NO_STREAM, WrongExpectedVersionError } from '../../src/event-store/event-store.port.js';
import {
  startEventStoreDbDouble,
  type EventStoreDbDouble,
} from '../support/eventstoredb-double/eventstoredb-double.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { newEvents } from '../event-store/event-store-test-kit.js';

let double: EventStoreDbDouble;
let ledger: TestLedger;
beforeAll(async () => {
  double = await startEventStoreDbDouble();
  ledger = await startTestLedger('eventstoredb', {
    eventStoreConnectionString: double.connectionString,
    // Every duplicate recorded at once: a window's count flushed later would add an append request
    // to the lost-answer test's count.
    duplicateAuditWindowMs: 0,
  });
});
afterAll(async () => {
  await ledger.close();
  await double.stop();
});

const key = (subject: string) => ({ tenant: 'race', source: 'queue', action: 'receipt.send', subject });
const streamOf = (subject: string) => `operation-race/queue/receipt.send/${subject}@1`;
const claimed = (subject: string) =>
  double.log.stream(streamOf(subject))?.filter((e) => e.type === 'OperationClaimed') ?? [];

it('64 concurrent HTTP claims of one new key: exactly one acquires, one OperationClaimed stored', async () => {
  const answers = await Promise.all(
    Array.from({ length: 64 }, (_, i) =>
      ledger.client.claim(key('E-64'), { to: 'a@b.c' }, { workerId: `w${i}` }),
    ),
  );
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(1);
  expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
  expect(claimed('E-64')).toHaveLength(1);
  const status = await ledger.client.status(answers.find((a) => a.status === 201)!.body.operationId);
  expect(status.status).toBe(200);
});

it('64 concurrent first appends (no_stream, one stream id) through the adapter: exactly one wins', async () => {
  const stream = `operation-race/queue/receipt.send/adapter-${randomUUID()}@1`;
  const streamId = randomUUID();
  const settled = await Promise.allSettled(
    Array.from({ length: 64 }, () =>
      ledger.store.append(stream, newEvents(1, 'Claimed'), NO_STREAM, { streamId }),
    ),
  );
  expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
  for (const s of settled) {
    if (s.status === 'rejected') expect((s.reason as WrongExpectedVersionError).actual).toBe(0n);
  }
  expect(double.log.count(stream)).toBe(1);
  expect(await ledger.store.findStreamName(streamId)).toBe(stream);
});

it('a claim whose append answer was lost is retried by the adapter: 201, one copy of each event', async () => {
  double.faults.inject({ target: 'append', kind: 'unavailable', when: 'after', streamPrefix: 'operation-' });
  const before = double.faults.appendRequests;

  const answer = await ledger.client.claim(key('E-lost'), { to: 'a@b.c' });

  expect(answer.status).toBe(201);
  expect(double.faults.appendRequests - before).toBe(3); // the alias, the lost append, its retry
  expect(claimed('E-lost')).toHaveLength(1);
  const ids = double.log.stream(streamOf('E-lost'))!.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  const again = await ledger.client.claim(key('E-lost'), { to: 'a@b.c' });
  expect(again.status).toBe(409); // the holder's claim stands
});

it('answers 503 with Retry-After while EventStoreDB stays unavailable, and works again after', async () => {
  double.faults.always({ target: 'append', kind: 'unavailable' });
  try {
    const answer = await ledger.client.claim(key('E-down'), { to: 'a@b.c' });
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(double.log.stream(streamOf('E-down'))).toBeUndefined();
  } finally {
    double.faults.clear();
  }
  expect((await ledger.client.claim(key('E-down'), { to: 'a@b.c' })).status).toBe(201);
});
