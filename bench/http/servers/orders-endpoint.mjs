/* global URL, setTimeout */
// One NestJS endpoint (Nest on Fastify), `POST /orders`, as a user's own API would have it —
// bare, guarded by this repository's interceptor (@operation-ledger/client/nestjs, on the ledger
// at LEDGER_URL), or by @node-idempotency/nestjs on Redis (installed in bench/http/baselines, as
// npm run bench:http installs it). Plain ESM, no build: the Idempotency-Key bench and the fault
// tier's comparison run the same file. Env: GUARD = none | ledger | node-idempotency; HOST, PORT;
// LEDGER_URL, LEDGER_TOKEN, LEASE_MS (ledger); REDIS_URL, KEY_PREFIX (node-idempotency);
// COUNT_FILE: a byte is appended per handler execution (counted across processes).
import 'reflect-metadata';
import { BadRequestException, Controller, Get, Module, Post, Body, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const guard = process.env.GUARD ?? 'none';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class OrdersController {
  health() {
    return { status: 'ok' };
  }

  async create(order, req, res) {
    if (process.env.COUNT_FILE) appendFileSync(process.env.COUNT_FILE, 'x');
    if (order.mode === 'reject') throw new BadRequestException({ code: 'out-of-stock', sku: order.sku });
    if (order.mode === 'crash') throw new Error('the database went away');
    if (order.mode === 'charge-then-crash') {
      if (req.idempotency) await req.idempotency.step('charge', () => 'charged');
      throw new Error('crashed after the charge');
    }
    if (order.mode === 'slow') await sleep(300);
    if (order.hangIn === process.pid) await sleep(60_000); // the fault test's SIGKILL mid-request
    const id = `ord_${randomUUID()}`;
    res.header('location', `/orders/${id}`);
    return { id, sku: order.sku, qty: order.qty };
  }
}

const decorators = [Post('orders')];
const imports = [];
if (guard === 'ledger') {
  const { LedgerClient } = await import('@operation-ledger/client');
  const { Idempotent, IdempotencyModule } = await import('@operation-ledger/client/nestjs');
  const client = new LedgerClient({ baseUrl: process.env.LEDGER_URL, token: process.env.LEDGER_TOKEN });
  const leaseMs = process.env.LEASE_MS ? Number(process.env.LEASE_MS) : undefined;
  const tenant = () => process.env.TENANT ?? 'bench-gmbh';
  imports.push(IdempotencyModule.forRoot({ client, tenant, required: true, leaseMs }));
  decorators.push(Idempotent({ action: 'order.create' }));
} else if (guard === 'node-idempotency') {
  const baselines = new URL('../baselines/package.json', import.meta.url);
  const ni = createRequire(baselines)('@node-idempotency/nestjs');
  imports.push(
    ni.NodeIdempotencyModule.forRootAsync({
      storage: { adapter: 'redis', options: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } },
      enforceIdempotency: true,
      cacheKeyPrefix: process.env.KEY_PREFIX ?? `orders-${randomUUID()}`,
    }),
  );
  decorators.push(ni.Idempotent());
} else if (guard !== 'none') {
  throw new Error(`GUARD must be none, ledger or node-idempotency, got "${guard}"`);
}

const proto = OrdersController.prototype;
Reflect.decorate([Get('health')], proto, 'health', Object.getOwnPropertyDescriptor(proto, 'health'));
Reflect.decorate(decorators, proto, 'create', Object.getOwnPropertyDescriptor(proto, 'create'));
Body()(proto, 'create', 0);
Req()(proto, 'create', 1);
Res({ passthrough: true })(proto, 'create', 2);
Controller()(OrdersController);

class OrdersModule {}
Module({ imports, controllers: [OrdersController] })(OrdersModule);

const app = await NestFactory.create(OrdersModule, new FastifyAdapter(), { logger: ['error'] });
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.stdout.write(`orders-endpoint (${guard}) listening on ${await app.getUrl()}\n`);
