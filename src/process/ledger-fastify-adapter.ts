import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Server as HttpServer } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Nest's Fastify adapter, plus `app.listen(reserved.server, LISTEN_BACKLOG)`: listening on the
 * socket `src/process/reserve-port.ts` bound before the application was built (docs/decisions.md
 * "Bind the port before opening anything"). Fastify's own `listen` takes a port or a path only,
 * so for a bound server the adapter waits for Fastify to be ready (its plugins loaded) and then
 * calls Node's `server.listen(handle, backlog)` itself. Any other argument goes to Fastify as
 * before.
 */
export class LedgerFastifyAdapter extends FastifyAdapter {
  override listen(listenOptions: unknown, ...args: unknown[]): void {
    if (!(listenOptions instanceof NetServer)) {
      (super.listen as (...all: unknown[]) => void)(listenOptions, ...args);
      return;
    }
    const callback = args.find((a): a is (err?: Error) => void => typeof a === 'function');
    const backlog = args.find((a): a is number => typeof a === 'number');
    this.getInstance().ready((err) => {
      if (err) return callback?.(err);
      (this.getHttpServer() as HttpServer).listen(listenOptions, backlog, () => callback?.());
    });
  }
}
