import { Body, Controller, Module, Post, Req } from '@nestjs/common';
import { LedgerClient } from '@operation-ledger/client';
import { Idempotent, IdempotencyModule, type IdempotentRequest } from '@operation-ledger/client/nestjs';
import { orders, type NewOrder } from './orders.js';

const client = new LedgerClient({ baseUrl: process.env.LEDGER_URL!, token: process.env.LEDGER_TOKEN });
const tenant = (req: { headers: Record<string, unknown> }) => String(req.headers['x-tenant']); // your auth

@Controller('orders')
class OrdersController {
  @Post()
  @Idempotent({ action: 'order.create' })
  create(@Body() order: NewOrder, @Req() req: IdempotentRequest) {
    return orders.create(order, req.idempotency);
  }
}
@Module({ imports: [IdempotencyModule.forRoot({ client, tenant })], controllers: [OrdersController] })
export class AppModule {}
