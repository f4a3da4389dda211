import { BadRequestException } from '@nestjs/common';
import type { IdempotencyContext } from '@operation-ledger/client/nestjs';

/** An order as the example's clients send it; `mode` makes the handler misbehave for a test. */
export interface NewOrder {
  readonly sku: string;
  readonly qty: number;
  readonly mode?: 'reject' | 'crash' | 'charge-then-crash' | 'slow';
  readonly traceId?: string;
}

/** A 4xx the handler answers (Nest's BadRequestException, which Fastify and Express read too). */
export class Rejected extends BadRequestException {
  readonly statusCode = 400;
}

/**
 * The example's order service, counting how often its handler ran and how often its card charge
 * (the effect a `step` marks) happened — the business effects the conformance tests assert.
 */
export class Orders {
  executions = 0;
  charges = 0;
  private next = 1;

  async create(order: NewOrder, idempotency?: IdempotencyContext | null): Promise<Record<string, unknown>> {
    this.executions += 1;
    if (order.mode === 'reject') throw new Rejected({ code: 'out-of-stock', sku: order.sku });
    if (order.mode === 'crash') throw new Error('the database went away');
    if (order.mode === 'charge-then-crash') {
      await idempotency!.step('charge', () => (this.charges += 1));
      throw new Error('crashed after the charge');
    }
    if (order.mode === 'slow') await new Promise((r) => setTimeout(r, 300));
    return { id: `ord_${this.next++}`, sku: order.sku, qty: order.qty, at: new Date().toISOString() };
  }
}

/** The one service of the example app (a module-level instance, as the example imports it). */
export const orders = new Orders();
