// The Idempotency-Key adapters (@operation-ledger/client/nestjs, /fastify, /express) against the
// rules of draft-ietf-httpapi-idempotency-key-header-09; each test names the section it covers.
// One in-memory ledger for the file; each framework's app runs twice (two replicas sharing it),
// and a third instance plays a restarted app (its in-process replay cache empty).
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { LedgerClient } from '@operation-ledger/client';
import { readFileSync } from 'node:fs';
import { Orders } from './example/orders.js';
import { startApp, type AppOptions, type Framework, type RunningApp } from './support/three-apps.js';
import { appHeaders, freshKey, sendOrder } from './support/send-order.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
let client: LedgerClient;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
  client = new LedgerClient({ baseUrl: ledger.url, token: ledger.rootToken });
  await client.policies.set('retained', 'order.create', {
    policy: { retentionMs: 2 * 86_400_000 },
    reason: 'test',
  });
});
afterAll(() => ledger?.close());

const order = { sku: 'tea', qty: 2 };

describe.each<Framework>(['nestjs', 'fastify', 'express'])('%s adapter', (framework) => {
  const orders = new Orders();
  let a: RunningApp;
  let b: RunningApp;
  const options = (): AppOptions => ({ client, required: true, fingerprint: { exclude: ['traceId'] } });
  beforeAll(async () => {
    a = await startApp(framework, orders, options());
    b = await startApp(framework, orders, options());
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  const runs = () => orders.executions;

  it('§2.1 Syntax: a key that is not a Structured Field string → 400 problem+json naming the header', async () => {
    const before = runs();
    for (const bad of ['abc', '"unterminated', '""', '12']) {
      const answer = await sendOrder(a.url, bad, order);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(answer.text)).toMatchObject({
        status: 400,
        code: 'invalid-idempotency-key',
        errors: [{ field: 'Idempotency-Key' }],
      });
    }
    expect(runs()).toBe(before);
  });

  it('§2.7 Error Scenarios: the key missing where required → 400 problem+json, the handler not run', async () => {
    const before = runs();
    const answer = await sendOrder(a.url, null, order);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'idempotency-key-missing' });
    expect(runs()).toBe(before);
  });

  it('§2.6 Enforcement: a retry replays the recorded answer byte for byte, from the cache, the other replica and after a restart', async () => {
    const key = freshKey();
    const before = runs();
    const first = await sendOrder(a.url, key, order);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const restarted = await startApp(framework, orders, options());
    try {
      for (const app of [a, b, restarted, a]) {
        const again = await sendOrder(app.url, key, order);
        expect(again.status).toBe(201);
        expect(again.text).toBe(first.text);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(appHeaders(again)).toEqual(appHeaders(first));
      }
    } finally {
      await restarted.close();
    }
    expect(runs()).toBe(before + 1);
  });

  it('§2.6 Enforcement: 10 identical concurrent retries on 2 replicas run the handler once; the busy ones get 409 with Retry-After', async () => {
    const key = freshKey();
    const slow = { ...order, mode: 'slow' };
    const before = runs();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => sendOrder([a, b][i % 2]!.url, key, slow)),
    );
    expect(runs()).toBe(before + 1);
    const created = answers.filter((x) => x.status === 201);
    const busy = answers.filter((x) => x.status === 409);
    expect(created.length + busy.length).toBe(10);
    expect(new Set(created.map((x) => x.text)).size).toBe(1);
    for (const x of busy) {
      expect(JSON.parse(x.text)).toMatchObject({ code: 'in-progress' });
      expect(Number(x.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const later = await Promise.all([a, b].map((app) => sendOrder(app.url, key, slow)));
    expect(later.map((x) => x.text)).toEqual([created[0]!.text, created[0]!.text]);
    expect(runs()).toBe(before + 1);
  });

  it('§2.6 Enforcement: a client that gives up and retries while the first request runs gets 409, and the handler runs once', async () => {
    const key = freshKey();
    const slow = { ...order, mode: 'slow' };
    const before = runs();
    const gaveUp = await fetch(`${a.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'acme', 'idempotency-key': key },
      body: JSON.stringify(slow),
      signal: AbortSignal.timeout(50),
    }).then(
      () => 'answered',
      () => 'gave up',
    );
    expect(gaveUp).toBe('gave up');
    await new Promise((r) => setTimeout(r, 50));
    const retry = await sendOrder(a.url, key, slow);
    expect(retry.status).toBe(409);
    expect(JSON.parse(retry.text)).toMatchObject({ code: 'in-progress' });
    await new Promise((r) => setTimeout(r, 600));
    const replay = await sendOrder(b.url, key, slow);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(runs()).toBe(before + 1);
  });

  it('§2.7 Error Scenarios: the key reused with another payload → 422 naming both fingerprints', async () => {
    const key = freshKey();
    await sendOrder(a.url, key, order);
    const before = runs();
    const answer = await sendOrder(b.url, key, { ...order, qty: 3 });
    expect(answer.status).toBe(422);
    const problem = JSON.parse(answer.text);
    expect(problem).toMatchObject({ code: 'payload-conflict' });
    expect(problem.existingFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(problem.incomingFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(problem.existingFingerprint).not.toBe(problem.incomingFingerprint);
    expect(runs()).toBe(before);
  });

  it('§2.4 Fingerprint: a field left out of the fingerprint may differ between retries', async () => {
    const key = freshKey();
    const first = await sendOrder(a.url, key, { ...order, traceId: 't-1' });
    const again = await sendOrder(b.url, key, { ...order, traceId: 't-2' });
    expect([again.status, again.text]).toEqual([first.status, first.text]);
  });

  it('§2.6 Enforcement: a 5xx is not recorded, so a retry runs the handler again', async () => {
    const key = freshKey();
    const before = runs();
    const crash = { ...order, mode: 'crash' };
    expect((await sendOrder(a.url, key, crash)).status).toBe(500);
    expect((await sendOrder(b.url, key, crash)).status).toBe(500);
    expect(runs()).toBe(before + 2);
  });

  it('§2.6 Enforcement: a 4xx is recorded and replayed without running the handler', async () => {
    const key = freshKey();
    const before = runs();
    const reject = { ...order, mode: 'reject' };
    const first = await sendOrder(a.url, key, reject);
    expect(first.status).toBe(400);
    const again = await sendOrder(b.url, key, reject);
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([
      400,
      first.text,
      'true',
    ]);
    expect(runs()).toBe(before + 1);
  });

  it('§2.6 Enforcement: an effect marked by req.idempotency.step, then a crash → the retry is 409 awaiting-recovery, never a re-run', async () => {
    const key = freshKey();
    const before = { runs: runs(), charges: orders.charges };
    const risky = { ...order, mode: 'charge-then-crash' };
    expect((await sendOrder(a.url, key, risky)).status).toBe(500);
    const again = await sendOrder(b.url, key, risky);
    expect(again.status).toBe(409);
    expect(JSON.parse(again.text)).toMatchObject({ code: 'awaiting-recovery' });
    expect({ runs: runs(), charges: orders.charges }).toEqual({
      runs: before.runs + 1,
      charges: before.charges + 1,
    });
  });

  it("§2.3 Validity and Expiry: the answer and its replay carry the key's expiry, from the action's retention policy", async () => {
    const key = freshKey();
    const retention = 2 * 86_400_000;
    // The answer's confirm time is the app's clock; a replay's, the ledger's (a hand-moved test
    // clock, which stands still from the ledger's start); an HTTP-date has whole seconds.
    const earliest = Math.min(ledger.clock.now(), Date.now()) + retention - 1_000;
    const first = await sendOrder(a.url, key, order, 'retained');
    const again = await sendOrder(b.url, key, order, 'retained');
    const latest = Date.now() + retention;
    for (const answer of [first, again]) {
      const expires = Date.parse(answer.headers.get('idempotency-key-expires') ?? '');
      expect(expires).toBeGreaterThanOrEqual(earliest);
      expect(expires).toBeLessThanOrEqual(latest);
    }
    expect((await sendOrder(a.url, freshKey(), order)).headers.get('idempotency-key-expires')).toBeNull();
  });
});

it('§2.6 Enforcement: a new key costs the ledger a claim and a confirm; a replay this process saw costs no request', async () => {
  const sent: string[] = [];
  const counting = new LedgerClient({
    baseUrl: ledger.url,
    token: ledger.rootToken,
    fetch: (input: string, init: RequestInit) => {
      sent.push(`${init.method} ${new URL(input).pathname.replace(/[0-9a-f-]{36}/, '{id}')}`);
      return fetch(input, init);
    },
  });
  const orders = new Orders();
  const options: AppOptions = { client: counting, required: true, expiry: false };
  const [app, replica] = [
    await startApp('fastify', orders, options),
    await startApp('fastify', orders, options),
  ];
  try {
    const key = freshKey();
    await sendOrder(app.url, key, order); // the client's first run also asks the capabilities, once
    expect(sent.splice(0)).toEqual(['GET /health', 'POST /v1/claims', 'POST /v1/operations/{id}/confirm']);
    await sendOrder(app.url, freshKey(), order);
    expect(sent.splice(0)).toEqual(['POST /v1/claims', 'POST /v1/operations/{id}/confirm']);
    await sendOrder(app.url, key, order);
    expect(sent.splice(0)).toEqual([]);
    await sendOrder(replica.url, key, order); // another process: one claim, answered with the record
    await sendOrder(replica.url, key, order);
    expect(sent.splice(0)).toEqual(['POST /v1/claims']);
    expect(orders.executions).toBe(2);
  } finally {
    await app.close();
    await replica.close();
  }
});

it('§2.6 Enforcement: with waitMs a concurrent retry waits for the first answer and replays it', async () => {
  const orders = new Orders();
  const app = await startApp('fastify', orders, { client, required: true, waitMs: 5_000 });
  try {
    const key = freshKey();
    const slow = { ...order, mode: 'slow' };
    const [first, second] = await Promise.all([sendOrder(app.url, key, slow), sendOrder(app.url, key, slow)]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.text).toBe(first.text);
    expect(orders.executions).toBe(1);
  } finally {
    await app.close();
  }
});

it('§2.6 Enforcement: the example of docs/protect-your-api.md (verbatim) runs a retried order once', async () => {
  const example = readFileSync(new URL('./example/orders-app.ts', import.meta.url), 'utf8');
  expect(readFileSync(new URL('../../docs/protect-your-api.md', import.meta.url), 'utf8')).toContain(
    example.trimEnd(),
  );
  process.env.LEDGER_URL = ledger.url;
  process.env.LEDGER_TOKEN = ledger.rootToken;
  const { AppModule } = await import('./example/orders-app.js');
  const { orders } = await import('./example/orders.js');
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  try {
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const key = freshKey();
    const first = await sendOrder(url, key, order);
    const again = await sendOrder(url, key, order);
    expect([first.status, again.status, again.text]).toEqual([201, 201, first.text]);
    expect(orders.executions).toBe(1);
  } finally {
    await app.close();
  }
});
