import { Body, Controller, Module, Post, Req, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { IdempotencyOptions } from '@operation-ledger/client';
import { expressIdempotency } from '@operation-ledger/client/express';
import { fastifyIdempotency } from '@operation-ledger/client/fastify';
import { Idempotent, IdempotencyModule, type IdempotentRequest } from '@operation-ledger/client/nestjs';
import express from 'express';
import Fastify from 'fastify';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NewOrder, Orders } from '../example/orders.js';

/** The frameworks the adapters serve. */
export type Framework = 'nestjs' | 'fastify' | 'express';

/** One app on a loopback port (0: any free one). */
export interface RunningApp {
  readonly url: string;
  close(): Promise<void>;
}

/** Options of the test apps: the adapters' own, tenant from the `x-tenant` header. */
export type AppOptions = Omit<IdempotencyOptions, 'tenant'>;

const tenant = (req: { headers: Record<string, unknown> }) => String(req.headers['x-tenant']);

/**
 * `POST /orders` (action `order.create`) of `orders` on `framework`, guarded by its adapter —
 * the same handler everywhere: a 201 with the order and a Location header, or the failure the
 * order's `mode` asks for.
 */
export async function startApp(
  framework: Framework,
  orders: Orders,
  options: AppOptions,
): Promise<RunningApp> {
  if (framework === 'nestjs') return startNest(orders, options);
  if (framework === 'fastify') return startFastify(orders, options);
  return startExpress(orders, options);
}

async function startNest(orders: Orders, options: AppOptions): Promise<RunningApp> {
  @Controller('orders')
  class OrdersController {
    @Post()
    @Idempotent({ action: 'order.create' })
    async create(@Body() order: NewOrder, @Req() req: IdempotentRequest) {
      return orders.create(order, req.idempotency);
    }
  }
  @Module({ imports: [IdempotencyModule.forRoot({ ...options, tenant })], controllers: [OrdersController] })
  class OrdersModule {}
  const app: INestApplication = await NestFactory.create(OrdersModule, new FastifyAdapter(), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  return { url: (await app.getUrl()).replace('[::1]', '127.0.0.1'), close: () => app.close() };
}

async function startFastify(orders: Orders, options: AppOptions): Promise<RunningApp> {
  const app = Fastify();
  await app.register(fastifyIdempotency, { ...options, tenant });
  app.post('/orders', { config: { idempotency: { action: 'order.create' } } }, async (req, reply) => {
    const order = await orders.create(
      req.body as NewOrder,
      (req as unknown as IdempotentRequest).idempotency,
    );
    return reply
      .code(201)
      .header('location', `/orders/${String(order.id)}`)
      .send(order);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

async function startExpress(orders: Orders, options: AppOptions): Promise<RunningApp> {
  const app = express();
  app.use(express.json());
  const idempotent = expressIdempotency({ ...options, tenant });
  app.post('/orders', idempotent({ action: 'order.create' }), async (req, res) => {
    const order = await orders.create(
      req.body as NewOrder,
      (req as unknown as IdempotentRequest).idempotency,
    );
    res
      .status(201)
      .location(`/orders/${String(order.id)}`)
      .json(order);
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
