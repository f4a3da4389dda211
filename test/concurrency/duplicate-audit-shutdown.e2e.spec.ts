// The coalesced audit of duplicate claims (docs/domain.md "Audit of duplicate claims"): counts
// still pending in a duplicate window are recorded when the ledger shuts down cleanly, so the
// audit stream accounts for every duplicate answered.
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store.js';
import { createTestDatabase } from '../support/postgres-test-db.js';
import { startTestLedger } from '../support/test-ledger.js';

const key = { tenant: 'shop-1', source: 'shopify', action: 'invoice.create', subject: 'S-1' };
const payload = { order: 'O-1', total: 10 };

it('a clean shutdown records the counts of open duplicate windows', async () => {
  const db = await createTestDatabase();
  try {
    // a window far longer than the test: only the shutdown can record its count
    const ledger = await startTestLedger('postgres', {
      databaseUrl: db.connectionString,
      duplicateAuditWindowMs: 600_000,
    });
    const first = await ledger.client.claim(key, payload);
    expect(first.status).toBe(201);
    const id = first.body.operationId;
    expect((await ledger.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-1' })).status).toBe(
      200,
    );
    for (let i = 0; i < 6; i++) expect((await ledger.client.claim(key, payload)).status).toBe(200);
    const before = await ledger.store.read('audit-operation-shop-1/shopify/invoice.create/S-1@1');
    expect(before).toHaveLength(1); // the first duplicate of the window, recorded before its answer
    await ledger.close();

    const store = await PostgresEventStore.open({ connectionString: db.connectionString, poolSize: 1 });
    try {
      const audit = await store.read('audit-operation-shop-1/shopify/invoice.create/S-1@1');
      expect(audit.map((e) => [e.type, (e.data as { count?: number }).count ?? 1])).toEqual([
        ['DuplicateClaimPrevented', 1],
        ['DuplicateClaimPrevented', 5],
      ]);
      expect(audit[1]!.data).toMatchObject({ answer: 'replayed', state: 'confirmed' });
    } finally {
      await store.close();
    }
  } finally {
    await db.drop();
  }
});
