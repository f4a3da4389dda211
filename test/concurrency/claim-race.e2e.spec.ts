// Acceptance: concurrent HTTP claims of one new key on real PostgreSQL → exactly one 201, the rest
// 409/200, one OperationClaimed in the stream. The expected-revision append is the only guard.
// The configuration is the fastest one bench:http measures (PostgreSQL, pool 20, projectors on with
// their default batching), so the projected status row must agree with the stream too.
import { LedgerMetrics } from '../../src/observability/prometheus/ledger-metrics.js';
import { mapBounded } from '../support/map-bounded.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres', { poolSize: 20 });
});
afterAll(() => ledger.close());

const key = (subject: string) => ({ tenant: 'race', source: 'queue', action: 'receipt.send', subject });

async function claimedEvents(subject: string) {
  const events = await ledger.store.read(
    `operation-race/queue/receipt.send/${encodeURIComponent(subject)}@1`,
  );
  return events.filter((e) => e.type === 'OperationClaimed');
}

it('64 concurrent claims of one new key: exactly one acquires', async () => {
  const answers = await Promise.all(
    Array.from({ length: 64 }, (_, i) =>
      ledger.client.claim(key('R-64'), { to: 'a@b.c' }, { workerId: `w${i}` }),
    ),
  );
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(1);
  expect(statuses.every((s) => s === 201 || s === 409 || s === 200)).toBe(true);
  const refusals = answers.filter((a) => a.status === 409);
  expect(
    refusals.every((a) => a.body.code === 'in-progress' && Number(a.headers.get('retry-after')) >= 1),
  ).toBe(true);
  expect(await claimedEvents('R-64')).toHaveLength(1);
  const id = answers.find((a) => a.status === 201)!.body.operationId;
  // every refused claim is counted once; the first of a window is recorded at once, the rest
  // as one counted record when the window ends (docs/domain.md "Audit of duplicate claims")
  expect(await duplicatesCounted(`audit-operation-race/queue/receipt.send/R-64@1`, 63)).toBe(63);
  const row = await projectedRow(id, (r) => r.duplicateClaims === 63);
  expect(row).toMatchObject({ operationId: id, state: 'in_progress', attempt: 1, duplicateClaims: 63 });
});

/** Duplicate claims recorded in `auditStream` (counts added up), once they reach `n` or after 30 s. */
async function duplicatesCounted(auditStream: string, n: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const counted = (await ledger.store.read(auditStream))
      .filter((e) => e.type === 'DuplicateClaimPrevented')
      .reduce((sum, e) => sum + ((e.data as { count?: number }).count ?? 1), 0);
    if (counted >= n || Date.now() > deadline) return counted;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The operation's row in the status read model once `done(row)` holds (the projector is async). */
async function projectedRow(id: string, done: (row: Record<string, unknown>) => boolean) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await ledger.client.get(`/v1/tenants/race/operations?limit=200`);
    const row = (body.items as Record<string, unknown>[]).find((r) => r.operationId === id);
    if (row && done(row)) return row;
    if (Date.now() > deadline) return row ?? null;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Appends of tenant `race` refused because the stream had moved on (the guard's lost races). */
async function lostRaces(): Promise<number> {
  const { values } = await ledger.app.get(LedgerMetrics).wrongExpectedVersion.get();
  return values.find((v) => v.labels.tenant === 'race')?.value ?? 0;
}

it('200 keys with 8 claimants each: one acquisition per key', async () => {
  const keys = Array.from({ length: 200 }, (_, i) => `R-200-${i}`);
  const lostBefore = await lostRaces();
  // 64 claims in flight rather than all 1 600 at once (a connection each): a key's 8 claimants
  // are consecutive, so they are still in flight together, and the server's pool (20) queues
  // them either way; the lost races counted below show the guard was contended.
  const claimants = keys.flatMap((subject) => Array.from({ length: 8 }, () => subject));
  const answers = await mapBounded(claimants, 64, (subject) =>
    ledger.client.claim(key(subject), { n: subject }).then((a) => ({ subject, a })),
  );
  expect(answers.filter(({ a }) => ![200, 201, 409].includes(a.status)).map(({ a }) => a.status)).toEqual([]);
  const acquired = new Map<string, number>();
  for (const { subject, a } of answers)
    if (a.status === 201) acquired.set(subject, (acquired.get(subject) ?? 0) + 1);
  expect(acquired.size).toBe(200);
  expect([...acquired.values()].every((n) => n === 1)).toBe(true);
  expect(await lostRaces()).toBeGreaterThan(lostBefore);
  const streams = await Promise.all(keys.map(claimedEvents));
  expect(streams.every((s) => s.length === 1)).toBe(true);
}, 60_000);
