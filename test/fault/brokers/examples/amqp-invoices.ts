import type { Channel } from 'amqplib';
import { LedgerClient } from '@operation-ledger/client';
import { consumeWithLedger } from '@operation-ledger/client/amqp';
import type { Billing } from './billing.js';

export async function consumeInvoices(channel: Channel, queue: string, billing: Billing) {
  await channel.prefetch(8);
  return consumeWithLedger(channel, queue, {
    client: new LedgerClient({ baseUrl: process.env.LEDGER_URL!, token: process.env.LEDGER_TOKEN }),
    operation: { tenant: 'acme', source: 'orders', action: 'invoice.create' }, // + message-id
    job: async (op, order) => ({
      destinationRef: await op.step('create', (pk) => billing.create(order, pk)),
    }),
  });
}
