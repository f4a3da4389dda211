// The worker of packages/client/README.md "A safe worker" (test/sdk/quickstart/invoice-worker.ts,
// 15 lines, copied there verbatim) against a flaky billing system: orders delivered
// three times, some at once; billing sometimes fails before saving and sometimes saves and then
// times out. With the README's recovery snippet, every order ends with exactly one invoice.
import { readFileSync } from 'node:fs';
import { LedgerClient } from '@operation-ledger/client';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

type Order = { id: string; customer: string; total: string };

/** Billing that does not honour idempotency keys: any duplicate call would show. */
class FlakyBilling {
  readonly invoices: { id: string; orderId: string; idempotencyKey: string }[] = [];
  private seed = 7;
  private random(): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return this.seed / 2 ** 31;
  }
  async create(order: Order, idempotencyKey: string): Promise<{ id: string }> {
    await new Promise((r) => setTimeout(r, 1));
    const roll = this.random();
    if (roll < 0.25) throw new Error('billing answered 503'); // nothing saved
    const invoice = { id: `INV-${this.invoices.length + 1}`, orderId: order.id, idempotencyKey };
    this.invoices.push(invoice);
    if (roll < 0.45) throw Object.assign(new Error('no answer in 10 s'), { name: 'TimeoutError' }); // saved
    return { id: invoice.id };
  }
}

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
  process.env.LEDGER_URL = ledger.url;
  process.env.LEDGER_TOKEN = ledger.rootToken;
});
afterAll(() => ledger.close());

it('is the code the package README shows, in at most 15 lines', () => {
  const worker = readFileSync(new URL('./quickstart/invoice-worker.ts', import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../../packages/client/README.md', import.meta.url), 'utf8');
  expect(worker.trimEnd().split('\n').length).toBeLessThanOrEqual(15);
  expect(readme).toContain(worker.trimEnd());
});

it('makes a job with a flaky destination safe: one invoice per order, every order confirmed', async () => {
  const { invoiceOrder } = await import('./quickstart/invoice-worker.js');
  const billing = new FlakyBilling();
  const ops = new LedgerClient({ baseUrl: ledger.url, token: ledger.rootToken });
  const orders: Order[] = Array.from({ length: 15 }, (_, i) => ({
    id: `${1000 + i}`,
    customer: `c-${i}`,
    total: `${i}.00`,
  }));
  const confirmed = new Set<string>();
  for (let round = 0; round < 12 && confirmed.size < orders.length; round++) {
    const pending = orders.filter((o) => !confirmed.has(o.id));
    // Each pending order is delivered three times, two of them at the same moment.
    const deliveries = pending.flatMap((o) => [o, o, o]);
    await Promise.all(deliveries.map((o) => invoiceOrder(billing, o).catch(() => undefined)));
    await ops.recover({
      tenant: 'acme',
      action: 'invoice.create',
      lookup: (op) => {
        const found = billing.invoices.filter((i) => i.orderId === (op.payload as Order).id);
        return found.length === 1 ? { found: found[0]!.id } : { notFound: true };
      },
    });
    for (const o of pending) {
      const status = await ops.operations.get(
        ops.operationIdOf({
          tenant: 'acme',
          source: 'shop',
          action: 'invoice.create',
          subject: `order:${o.id}`,
        }),
      );
      if (status.state === 'confirmed') confirmed.add(o.id);
    }
  }
  expect(confirmed.size).toBe(orders.length);
  for (const o of orders) expect(billing.invoices.filter((i) => i.orderId === o.id)).toHaveLength(1);
  expect(billing.invoices).toHaveLength(orders.length);
});
