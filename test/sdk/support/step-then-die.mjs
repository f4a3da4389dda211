// A worker process for the "process dies" row of the SDK's outcome table: it claims
// `acme/shop/invoice.create/<subject>`, runs step `create-invoice`, then — the job not returning
// at once — waits a millisecond and is SIGKILLed, as a crashed worker would be.
// Arguments: <ledger url> <token> <subject>. Runs the built SDK (packages/client/dist).
import { setTimeout as sleep } from 'node:timers/promises';
import { LedgerClient } from '../../../packages/client/dist/index.js';

const [baseUrl, token, subject] = process.argv.slice(2);
const ledger = new LedgerClient({ baseUrl, token });
await ledger.runOnce(
  { tenant: 'acme', source: 'shop', action: 'invoice.create', subject },
  { n: 1 },
  async (op) => {
    await op.step('create-invoice', () => ({ invoiceId: `INV-${subject}` }));
    await sleep(1);
    process.kill(process.pid, 'SIGKILL');
  },
  { leaseMs: 1_500, renewLease: false },
);
