// Regression: list pages and live feeds must follow numeric global positions even when positions
// gain a digit (they are transaction id × 2^20): sorting the text alias skipped and repeated items.
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../src/event-store/sql-executor.token.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { waitForCaughtUp } from './support/wait-for.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
});
afterAll(() => ledger.close());

it('pages through every operation and conflict exactly once across position digit changes', async () => {
  const subjects = Array.from({ length: 400 }, (_, i) => `PG-${i}`);
  for (let i = 0; i < subjects.length; i += 20) {
    await Promise.all(
      subjects
        .slice(i, i + 20)
        .map((s) => ledger.client.claim({ tenant: 'acme', source: 'x', action: 'a.b', subject: s }, { s })),
    );
  }
  for (const s of subjects.slice(0, 60)) {
    await ledger.client.claim(
      { tenant: 'acme', source: 'x', action: 'a.b', subject: s },
      { s, changed: true },
    );
  }
  const positions = (await ledger.store.readAll(-1n, 100_000)).map((e) => e.globalPosition.toString().length);
  expect(new Set(positions).size).toBeGreaterThan(1); // the digit count really changes
  await waitForCaughtUp(ledger.store, ledger.app.get<SqlExecutor>(SQL_EXECUTOR), ['operations', 'conflicts']);

  const seen: string[] = [];
  for (let cursor: string | null = null, n = 0; n < 50; n++) {
    const res = await ledger.client.get(
      `/v1/tenants/acme/operations?limit=37${cursor ? `&cursor=${cursor}` : ''}`,
    );
    seen.push(...res.body.items.map((i: any) => i.operationId));
    cursor = res.body.nextCursor;
    if (!cursor) break;
  }
  expect(seen).toHaveLength(400);
  expect(new Set(seen).size).toBe(400);

  const conflicts: string[] = [];
  for (let cursor: string | null = null, n = 0; n < 50; n++) {
    const res = await ledger.client.get(
      `/v1/tenants/acme/conflicts?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
    );
    conflicts.push(...res.body.items.map((i: any) => i.eventId ?? i.position));
    cursor = res.body.nextCursor;
    if (!cursor) break;
  }
  expect(new Set(conflicts).size).toBe(60);
  expect(conflicts).toHaveLength(60);
}, 120_000);

it('a newest-first walk returns an operation that changed after the walk began (it moved ahead of the cursor)', async () => {
  const sql = ledger.app.get<SqlExecutor>(SQL_EXECUTOR);
  const key = (i: number) => ({ tenant: 'walk', source: 'x', action: 'a.b', subject: `W-${i}` });
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push((await ledger.client.claim(key(i), { i })).body.operationId);
  await waitForCaughtUp(ledger.store, sql, ['operations']);
  const page = (cursor: string | null) =>
    ledger.client.get(`/v1/tenants/walk/operations?limit=2${cursor ? `&cursor=${cursor}` : ''}`);

  const first = await page(null);
  expect(first.body.items.map((i: any) => i.key.subject)).toEqual(['W-5', 'W-4']);
  // The oldest operation changes now: its row's position becomes the newest, behind the cursor.
  expect((await ledger.client.claim(key(0), { i: 0, changed: true })).status).toBe(422);
  await waitForCaughtUp(ledger.store, sql, ['operations']);

  const seen: any[] = [...first.body.items];
  for (let cursor = first.body.nextCursor, n = 0; cursor && n < 20; n++) {
    const next = await page(cursor);
    seen.push(...next.body.items);
    cursor = next.body.nextCursor;
  }
  expect(new Set(seen.map((i) => i.operationId))).toEqual(new Set(ids));
  const changed = seen.filter((i) => i.key.subject === 'W-0');
  expect(changed[changed.length - 1].payloadConflicts).toBe(1);
}, 60_000);
