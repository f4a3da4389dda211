// A subscription outlives the request that authenticated it: revoking its key must end it.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

// Re-checked every 500 ms instead of the default 2 s (config `sseKeyRecheckMs`), so the test waits less.
const KEY_RECHECK_MS = 500;

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres', { sseKeyRecheckMs: KEY_RECHECK_MS });
});
afterAll(() => ledger.close());

it('ends an open subscription once its key is revoked', async () => {
  const auditor = await ledger.createKey({ tenant: 'acme', roles: ['auditor'] });
  const res = await fetch(`${ledger.url}/v1/tenants/acme/operations/changes`, {
    headers: { authorization: `Bearer ${auditor.token}`, accept: 'text/event-stream' },
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain('ready');

  const revoked = await ledger.client.post(`/v1/admin/keys/${auditor.key.id}/revoke`, {});
  expect(revoked.status).toBe(200);
  const started = Date.now();
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    // generous on a loaded machine: the point is that it ends, within a few re-checks
    if (Date.now() - started > 20 * KEY_RECHECK_MS)
      throw new Error('subscription still open after revocation');
  }
  expect(Date.now() - started).toBeLessThan(20 * KEY_RECHECK_MS);
});
