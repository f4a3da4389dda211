import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { LedgerClient } from '@operation-ledger/client';
import { ledgerProcessor } from '@operation-ledger/client/bullmq';
import type { Billing } from './billing.js';

export function invoiceWorker(connection: Redis, queue: string, billing: Billing) {
  const processor = ledgerProcessor({
    client: new LedgerClient({ baseUrl: process.env.LEDGER_URL!, token: process.env.LEDGER_TOKEN }),
    operation: { tenant: 'acme', source: 'orders', action: 'invoice.create' }, // + job id
    job: async (op, order) => ({
      destinationRef: await op.step('create', (pk) => billing.create(order, pk)),
    }),
  });
  return new Worker(queue, processor, { connection, concurrency: 8, maxStalledCount: 1_000 });
}
