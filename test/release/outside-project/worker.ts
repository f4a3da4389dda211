import { LedgerClient } from '@operation-ledger/client';
const ledger = new LedgerClient({ baseUrl: process.env.LEDGER_URL!, token: process.env.LEDGER_TOKEN });
const order = { id: '1001', total: '42.00' };
const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: `order:${order.id}` };
const result = await ledger.runOnce(key, order, async (op) => {
  // the effect, once: e.g. billing.create(order, { idempotencyKey }) with op.step's key argument
  const invoice = await op.step('create-invoice', async () => ({ id: `INV-${order.id}` }));
  return { destinationRef: invoice.id };
});
console.log(result.status, result.outcome.destinationRef); // "executed INV-1001", then "replayed INV-1001"
