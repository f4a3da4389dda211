// A loaded client must not see its connection reset (docs/decisions.md "Keep-alive"): fetch
// (undici) reuses a pooled connection for the server's advertised keep-alive time minus 2 s; if
// the server closes idle connections right at the advertised time, a client whose event loop
// stalls past it — as on a loaded machine — writes into a closing socket and gets ECONNRESET.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
}, 30_000);
afterAll(() => ledger?.close());

/**
 * Blocks this process's event loop (client and server alike), as a loaded machine does. The thread
 * sleeps in `Atomics.wait` (nothing notifies it) instead of spinning, so it leaves the CPU to the
 * other test files.
 */
function stall(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

it('a claim on a connection reused after an idle pause and a 4.5 s stall is answered, not reset', async () => {
  const first = await fetch(`${ledger.url}/health/live`);
  expect(first.status).toBe(200);
  await first.text();
  await new Promise((r) => setTimeout(r, 2500)); // idle, within fetch's reuse window
  stall(4500); // past Node's default idle timeout (5 s + 1 s)
  // fetch again (not the test client, which pools its own connections): the pooled connection.
  const claim = await fetch(`${ledger.url}/v1/claims`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ledger.client.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      key: { tenant: 'acme', source: 'shop', action: 'invoice.sync', subject: 'KA-1' },
      payload: { n: 1 },
    }),
  });
  expect(claim.status).toBe(201);
  const events = await ledger.store.read('operation-acme/shop/invoice.sync/KA-1@1');
  expect(events.map((e) => e.type)).toEqual(['OperationClaimed']);
  // It promises clients less idle time than it keeps connections open.
  expect(first.headers.get('keep-alive')).toBe('timeout=60');
  expect(ledger.app.getHttpServer().keepAliveTimeout).toBeGreaterThanOrEqual(60_000 + 10_000);
}, 30_000);
