// A worker's follow-ups after its claim cost one event-store statement each — the
// append — with no read of the stream and no lookup of the operation id: the claim leaves this
// process holding the stream it created and the id's key, and the append's expected revision
// proves the held copy current. Counted on the store's executor (statements naming the event
// store's functions; the projectors' reads of the log are not counted). What is stored is read
// back from the store, not taken from the answers.
import type { SqlEventStore } from '../../src/event-store/sql-event-store.js';
import { operationStreamName } from '../../src/ledger/index.js';
import { createTestDatabase } from '../support/postgres-test-db.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

/** Event-store functions and statements a command can run (sql/statements/*). */
const EVENT_STORE_STATEMENT =
  /\b(ledger_read_stream|ledger_append_batch|ledger_append|ledger_create_streams|ledger_append_any)\b|from ledger_streams where stream_id/;

/** Records the event-store statements sent through `store`'s executor from now on. */
function countStatements(store: SqlEventStore): { taken: () => string[] } {
  const executor = store.executor;
  const seen: string[] = [];
  // PGlite's queryPrepared runs through its query with the same parameters: count such a call once.
  const viaPrepared = new WeakSet<unknown[]>();
  const note = (text: string) => {
    const m = EVENT_STORE_STATEMENT.exec(text);
    if (m) seen.push(m[1] ?? 'ledger_find_stream_name');
  };
  const query = executor.query.bind(executor);
  const queryPrepared = executor.queryPrepared.bind(executor);
  executor.query = ((text: string, params?: unknown[]) => {
    if (!params || !viaPrepared.has(params)) note(text);
    return query(text, params);
  }) as typeof executor.query;
  executor.queryPrepared = ((name: string, text: string, params: unknown[]) => {
    note(text);
    viaPrepared.add(params);
    return queryPrepared(name, text, params);
  }) as typeof executor.queryPrepared;
  return { taken: () => seen.splice(0) };
}

const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });

describe.each(['pglite', 'postgres'] as const)('a worker cycle in event-store round trips (%s)', (kind) => {
  let ledger: TestLedger;
  let statements: { taken: () => string[] };
  const stored = (subject: string) =>
    ledger.store
      .read(operationStreamName({ ...key(subject), revision: 1 }))
      .then((es) => es.map((e) => e.type));

  beforeAll(async () => {
    ledger = await startTestLedger(kind);
    statements = countStatements(ledger.store as SqlEventStore);
    // The action's policy is read on its first claim (and cached, on the test's fake clock).
    expect((await ledger.client.claim(key('warm-up'), {})).status).toBe(201);
  });
  afterAll(() => ledger?.close());

  it('one-step job: claim+startStep, then confirm+completeStep — one append each, nothing read', async () => {
    const c = ledger.client;
    statements.taken();
    const claim = await c.claim(key('R-1'), { total: 3 }, { startStep: 'create-invoice' });
    expect(claim.status).toBe(201);
    expect(statements.taken()).toEqual(['ledger_create_streams']);

    const confirm = await c.op(claim.body.operationId, 'confirm', {
      fencingToken: 1,
      destinationRef: 'INV-R-1',
      completeStep: { name: 'create-invoice', outputs: { invoiceId: 'INV-R-1' } },
    });
    expect(confirm.status).toBe(200);
    expect(statements.taken()).toEqual(['ledger_append']);
    expect(await stored('R-1')).toEqual([
      'OperationClaimed',
      'StepStarted',
      'StepCompleted',
      'OperationConfirmed',
    ]);
  });

  it('claim → step start → confirm: three requests, three appends, nothing read', async () => {
    const c = ledger.client;
    statements.taken();
    const claim = await c.claim(key('R-2'), { total: 4 });
    const id = claim.body.operationId;
    const step = await c.op(id, 'steps/create-invoice/start', { fencingToken: 1 });
    expect(step.status).toBe(200);
    const confirm = await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-R-2' });
    expect(confirm.status).toBe(200);
    expect(statements.taken()).toEqual(['ledger_create_streams', 'ledger_append', 'ledger_append']);
    expect(await stored('R-2')).toEqual(['OperationClaimed', 'StepStarted', 'OperationConfirmed']);
  });
});

// Two replicas on one database: each holds what it wrote, so the other's copy goes stale. Every
// answer must follow the stream as stored — a stale copy costs a round trip, never a wrong answer.
describe('follow-ups decided on a held copy that another replica made stale (postgres)', () => {
  let a: TestLedger;
  let b: TestLedger;
  let drop: () => Promise<void>;
  let onB: { taken: () => string[] };
  const stored = (subject: string) =>
    a.store.read(operationStreamName({ ...key(subject), revision: 1 })).then((es) => es.map((e) => e.type));

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    a = await startTestLedger('postgres', { databaseUrl: db.connectionString, poolSize: 5 });
    b = await startTestLedger('postgres', { databaseUrl: db.connectionString, poolSize: 5 });
    onB = countStatements(b.store as SqlEventStore);
    for (const replica of [a, b])
      expect((await replica.client.claim(key(`warm-up-${replica.url}`), {})).status).toBe(201);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
  });

  it('a replica that holds nothing looks the operation up and reads it once, then holds it', async () => {
    const claim = await a.client.claim(key('S-1'), { total: 5 });
    const id = claim.body.operationId;
    onB.taken();
    expect((await b.client.op(id, 'steps/send/start', { fencingToken: 1 })).status).toBe(200);
    expect(onB.taken()).toEqual(['ledger_find_stream_name', 'ledger_read_stream', 'ledger_append']);
    expect((await b.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'R-S-1' })).status).toBe(200);
    expect(onB.taken()).toEqual(['ledger_append']);
    expect(await stored('S-1')).toEqual(['OperationClaimed', 'StepStarted', 'OperationConfirmed']);
  });

  it('a follow-up on a stale copy is decided again on the stored stream and accepted', async () => {
    const id = (await a.client.claim(key('S-2'), { total: 6 })).body.operationId;
    expect((await b.client.op(id, 'steps/send/start', { fencingToken: 1 })).status).toBe(200);
    const confirm = await a.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'R-S-2' });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({ state: 'confirmed' });
    expect(await stored('S-2')).toEqual(['OperationClaimed', 'StepStarted', 'OperationConfirmed']);
  });

  it('a refusal is never decided on a stale copy: A answers a late fail as B does', async () => {
    const id = (await a.client.claim(key('S-3'), { total: 7 })).body.operationId;
    expect((await b.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'R-S-3' })).status).toBe(200);
    const onA = await a.client.op(id, 'fail', {
      fencingToken: 1,
      error: { code: 'late', message: 'too late' },
      retryable: true,
    });
    const onBToo = await b.client.op(id, 'fail', {
      fencingToken: 1,
      error: { code: 'late', message: 'too late' },
      retryable: true,
    });
    expect(onA.status).toBe(onBToo.status);
    expect(onA.body).toEqual(onBToo.body);
    expect(onA.status).toBe(409);
    expect(await stored('S-3')).toEqual(['OperationClaimed', 'OperationConfirmed']);
  });

  it('a token the stale copy does not know yet is accepted once the stored stream is read', async () => {
    const id = (await a.client.claim(key('S-4'), { total: 8 })).body.operationId;
    expect((await b.client.op(id, 'release', { fencingToken: 1 })).status).toBe(200);
    const again = await b.client.claim(key('S-4'), { total: 8 });
    expect(again.body).toMatchObject({ attempt: 2, fencingToken: 2 });
    const confirm = await a.client.op(id, 'confirm', { fencingToken: 2, destinationRef: 'R-S-4' });
    expect(confirm.status).toBe(200);
    expect(await stored('S-4')).toEqual([
      'OperationClaimed',
      'OperationReleased',
      'OperationClaimed',
      'OperationConfirmed',
    ]);
  });
});
