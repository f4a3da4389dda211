import { LedgerClient } from '@operation-ledger/client';

const ledger = new LedgerClient({ baseUrl: process.env.LEDGER_URL!, token: process.env.LEDGER_TOKEN });
const order = { id: '1001', total: '42.00' };
const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: `order:${order.id}` };

const result = await ledger.runOnce(key, order, async (op) => {
  const invoice = await op.step('create-invoice', async (providerKey) => ({ id: `INV-${providerKey.slice(0, 8)}` }));
  return { destinationRef: invoice.id };
});
console.log(result.status, result.outcome.destinationRef); // "executed INV-…", then "replayed INV-…"
