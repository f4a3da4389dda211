import { LedgerClient } from '@operation-ledger/client';

const ledger = new LedgerClient({ baseUrl: process.env.LEDGER_URL!, token: process.env.LEDGER_TOKEN });

type Order = { id: string; customer: string; total: string };
type Billing = { create(order: Order, idempotencyKey: string): Promise<{ id: string }> };

/** Creates the order's invoice at most once, however often (and wherever) the job runs. */
export function invoiceOrder(billing: Billing, order: Order) {
  const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: `order:${order.id}` };
  return ledger.runOnce(key, order, async (op) => {
    const invoice = await op.step('create-invoice', (providerKey) => billing.create(order, providerKey));
    return { destinationRef: invoice.id, outputs: invoice };
  });
}
