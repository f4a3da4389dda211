// docs/protect-your-api.md "Options" (`claimTimeoutMs`): a ledger that accepts connections and
// never answers must not hold the user's API. The claim is given up and the request answered 503
// `ledger-unavailable` with Retry-After, without running the handler; before this bound, the
// answer came only when the client's retries ran out (five attempts of its request timeout).
import { createServer, type Server, type Socket } from 'node:net';
import { LedgerClient } from '../../packages/client/src/client.js';
import { IdempotencyGuard } from '../../packages/client/src/idempotent-http/idempotency-guard.js';

let silent: Server;
const sockets: Socket[] = [];
let baseUrl: string;

beforeAll(async () => {
  silent = createServer((s) => void sockets.push(s)); // reads nothing, answers nothing
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const address = silent.address() as { port: number };
  baseUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

it('answers 503 with Retry-After and does not run the handler when the ledger does not answer', async () => {
  const guard = new IdempotencyGuard<unknown>({
    client: new LedgerClient({ baseUrl }),
    tenant: () => 'acme',
    expiry: false,
    claimTimeoutMs: 300,
  });
  let ran = false;
  const outcome = await guard.handle(
    {},
    { method: 'POST', route: '/orders', body: { n: 1 }, idempotencyKey: '"order-1"' },
    'order.create',
    () => {
      ran = true;
      return Promise.resolve({ kind: 'answer', status: 201, getHeader: () => undefined, body: null });
    },
  );
  expect(ran).toBe(false);
  expect(outcome.kind).toBe('send');
  const answer = (outcome as Extract<typeof outcome, { kind: 'send' }>).answer;
  expect(answer.status).toBe(503);
  expect(new Map(answer.headers).get('retry-after')).toBe('1');
  expect(JSON.parse(String(answer.body))).toMatchObject({ code: 'ledger-unavailable' });
}, 8_000);
