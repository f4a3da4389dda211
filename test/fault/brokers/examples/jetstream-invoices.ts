import type { NatsConnection } from 'nats';
import { LedgerClient } from '@operation-ledger/client';
import { consumeWithLedger } from '@operation-ledger/client/jetstream';
import type { Billing } from './billing.js';

export async function consumeInvoices(nc: NatsConnection, stream: string, durable: string, billing: Billing) {
  return consumeWithLedger(await nc.jetstream().consumers.get(stream, durable), {
    client: new LedgerClient({ baseUrl: process.env.LEDGER_URL!, token: process.env.LEDGER_TOKEN }),
    operation: { tenant: 'acme', source: 'orders', action: 'invoice.create' }, // + Nats-Msg-Id
    job: async (op, order) => ({
      destinationRef: await op.step('create', (pk) => billing.create(order, pk)),
    }),
  });
}
