// One store deadline per request (docs/production-ha.md "What clients see during a failover"): the
// pool wait, each statement, the group-commit wait and every retry share it, instead of each
// getting the whole store timeout. Fake timers: the clock moves only when the test says so.
import { jest } from '@jest/globals';
import type pg from 'pg';
import { onRequestStoreBudget } from '../../src/common/request-store-budget.js';
import { StoreDeadlineError, storeDeadline, withStoreDeadline } from '../../src/common/store-deadline.js';
import { GroupCommit } from '../../src/event-store/group-commit.js';
import { PgPoolExecutor } from '../../src/event-store/postgres/pg-pool-executor.js';
import type { PgliteConnection } from '../../src/event-store/postgres/pglite-connection.js';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** A promise the test settles, and whether it has been. */
function pending<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What became of `p` so far: its value, its error's name, or 'waiting'. */
function watch(p: Promise<unknown>) {
  const seen: { state: unknown } = { state: 'waiting' };
  p.then(
    (v) => (seen.state = v),
    (e: Error) => (seen.state = e.name),
  );
  return seen;
}

const advance = (ms: number) => jest.advanceTimersByTimeAsync(ms);

/** A pg pool whose connections and statements take as long as the test says. */
function slowPool() {
  const released: (Error | undefined)[] = [];
  const statements: string[] = [];
  const waits: { resolve: (v: unknown) => void }[] = [];
  const later = () => new Promise((resolve) => waits.push({ resolve }));
  const client = {
    query: (q: string | { text: string }) => {
      statements.push(typeof q === 'string' ? q : q.text);
      return later().then(() => ({ rows: [] }));
    },
    release: (e?: Error) => void released.push(e),
    on: () => client,
    removeListener: () => client,
  };
  const pool = { connect: () => later().then(() => client), query: client.query };
  const answerNext = () => waits.shift()!.resolve(undefined);
  return { pool: pool as unknown as pg.Pool, released, statements, answerNext };
}

describe('one store deadline per request', () => {
  it('gives the pool wait, BEGIN and a statement one budget, and starts nothing after it', async () => {
    const db = slowPool();
    const sql = new PgPoolExecutor(db.pool);
    const tx = watch(
      withStoreDeadline(performance.now() + 1000, () => sql.transaction((t) => t.query('select 1'))),
    );
    await advance(600);
    db.answerNext(); // a pooled connection after 600 ms of the 1000
    await advance(300);
    db.answerNext(); // BEGIN after 900 ms
    await advance(99);
    expect(tx.state).toBe('waiting'); // `select 1` sent at 900 ms, unanswered at 999
    await advance(1);
    // Not 1000 ms for each step: the transaction ends at the deadline, its connection closed
    // (PostgreSQL rolls it back) without waiting to send ROLLBACK behind the running statement.
    expect(tx.state).toBe('StoreDeadlineError');
    expect(db.statements).toEqual(['begin', 'select 1']);
    expect(db.released).toEqual([expect.any(StoreDeadlineError)]);
  });

  it('hands a connection that arrives after the deadline back to the pool unused', async () => {
    const db = slowPool();
    const sql = new PgPoolExecutor(db.pool);
    const tx = watch(withStoreDeadline(performance.now() + 500, () => sql.transaction(async () => 1)));
    await advance(500);
    expect(tx.state).toBe('StoreDeadlineError');
    db.answerNext();
    await advance(0);
    expect(db.statements).toEqual([]);
    expect(db.released).toEqual([undefined]);
  });

  it('ends a group-commit wait at the submitter deadline; a waiting request never reaches the batch', async () => {
    const batches: string[][] = [];
    const deadlinesSeen: (number | undefined)[] = [];
    const finish: (() => void)[] = [];
    const group = new GroupCommit<string, string>(
      (batch) => {
        batches.push([...batch]);
        deadlinesSeen.push(storeDeadline());
        return new Promise((resolve) => finish.push(() => resolve(batch.map((r) => `ok:${r}`))));
      },
      { maxInFlight: 1, maxBatchSize: 8 },
    );
    const at = performance.now() + 1000;
    const first = watch(withStoreDeadline(at, () => group.submit('a', 'a')));
    const second = watch(withStoreDeadline(at, () => group.submit('b', 'b')));
    const patient = watch(group.submit('c', 'c')); // no deadline (a background job)
    await advance(1000);
    expect([first.state, second.state, patient.state]).toEqual([
      'StoreDeadlineError',
      'StoreDeadlineError',
      'waiting',
    ]);
    finish.shift()!(); // the batch of `a` commits after its caller gave up
    await advance(0);
    finish.shift()!();
    await advance(0);
    expect(batches).toEqual([['a'], ['c']]); // `b` was taken out of the queue
    expect(patient.state).toBe('ok:c');
    expect(deadlinesSeen).toEqual([undefined, undefined]); // a batch runs on no request's deadline
    expect(await withStoreDeadline(performance.now() - 1, () => group.submit('d', 'd')).catch(String)).toBe(
      'StoreDeadlineError: Event store unavailable: no answer within the request deadline (LEDGER_STORE_TIMEOUT_MS)',
    );
  });

  it("bounds the wait in the embedded store's queue by the deadline; a call whose turn comes late runs nothing", async () => {
    const statements: string[] = [];
    const slow = pending<void>();
    const db = {
      query: async (sql: string) => {
        statements.push(sql);
        if (sql === 'slow') await slow.promise;
        return { rows: [] };
      },
      exec: async () => [],
    } as unknown as PgliteConnection;
    const executor = new PgliteExecutor(db);
    const first = watch(executor.query('slow')); // a long statement holds the one connection
    const at = performance.now() + 100;
    const late = watch(withStoreDeadline(at, () => executor.query('late')));
    const running = watch(withStoreDeadline(at, () => executor.query('slow-too')));
    await advance(99);
    expect([late.state, running.state]).toEqual(['waiting', 'waiting']);
    await advance(2);
    expect([late.state, running.state]).toEqual(['StoreDeadlineError', 'StoreDeadlineError']);
    slow.resolve();
    await advance(1);
    expect(first.state).toEqual({ rows: [] });
    expect(statements).toEqual(['slow']); // neither queued call reached the database
    const patient = await executor.query('no deadline'); // a background job waits as long as it takes
    expect(patient).toEqual({ rows: [] });
  });

  it('leaves a retry only what its request has left', async () => {
    // The first statement fails after 600 ms (a dropped connection); its retry gets 400 ms, not 1000.
    const calls: number[] = [];
    const pool = {
      query: () => {
        calls.push(performance.now());
        return calls.length === 1
          ? new Promise((_, reject) => setTimeout(() => reject(new Error('Connection terminated')), 600))
          : new Promise(() => undefined);
      },
    };
    const sql = new PgPoolExecutor(pool as unknown as pg.Pool);
    const withRetries = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await sql.query('select 1');
        } catch (error) {
          if (error instanceof StoreDeadlineError || attempt === 3) throw error;
        }
      }
    };
    const started = performance.now();
    const run = watch(withStoreDeadline(started + 1000, withRetries));
    await advance(999);
    expect(run.state).toBe('waiting');
    expect(calls.map((t) => t - started)).toEqual([0, 600]);
    await advance(1);
    expect(run.state).toBe('StoreDeadlineError');
    expect(calls).toHaveLength(2);
  });

  it('lets the handler spend only what authentication left of the request budget', async () => {
    const request = { raw: {} };
    const auth = pending<void>();
    const authenticated = watch(onRequestStoreBudget(request.raw, 1000, () => auth.promise));
    await advance(400);
    auth.resolve();
    await advance(0);
    expect(authenticated.state).toBeUndefined();
    await advance(5000); // the body arrives: not spent
    const handler = watch(
      onRequestStoreBudget(request, 1000, () => new PgPoolExecutor(slowPool().pool).query('select 1')),
    );
    await advance(599);
    expect(handler.state).toBe('waiting');
    await advance(1);
    expect(handler.state).toBe('StoreDeadlineError');
  });
});
