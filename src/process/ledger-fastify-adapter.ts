import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Server as HttpServer } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Nest's Fastify adapter, plus `app.listen(reserved.server, LISTEN_BACKLOG)` on the socket bound
 * before the application was built (docs/decisions.md "Bind the port before opening anything"):
 * Fastify's own `listen` takes a port or a path only.
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
