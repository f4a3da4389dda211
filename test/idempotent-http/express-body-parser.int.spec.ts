// docs/protect-your-api.md "Fastify and Express": the fingerprint is taken over the parsed body (`req.body`).
// Mounted without a body parser, every body read as `undefined`, so a different payload under
// the same Idempotency-Key was replayed the first answer instead of a 422 conflict. The adapter
// now refuses to guard a request whose body it cannot see: the app's error handler gets an error
// naming the missing parser, and the handler does not run.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { LedgerClient } from '../../packages/client/src/client.js';
import { expressIdempotency } from '../../packages/client/src/idempotent-http/express.js';

let server: Server;
let url: string;
let ran = 0;
const errors: unknown[] = [];

beforeAll(async () => {
  const app = express(); // no express.json()
  // never asked: the request is refused before the ledger is
  const idempotent = expressIdempotency({
    client: new LedgerClient({ baseUrl: 'http://127.0.0.1:9' }),
    tenant: () => 'acme',
    expiry: false,
  });
  app.post('/orders', idempotent({ action: 'order.create' }), (_req, res) => {
    ran++;
    res.status(201).json({ ok: true });
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    errors.push(err);
    res.status(500).json({ error: String(err) });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

it('refuses a body it cannot see, naming the missing parser, without running the handler', async () => {
  const res = await fetch(`${url}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': '"order-1"' },
    body: JSON.stringify({ amount: 1 }),
  });
  expect(res.status).toBe(500);
  expect(ran).toBe(0);
  expect(errors).toHaveLength(1);
  expect(String(errors[0])).toMatch(/req\.body is undefined.*body parser.*express\.json\(\)/);
});
