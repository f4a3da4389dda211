import { Logger, type INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from './loopback.js';

/**
 * Applies LEDGER_AUTH=disabled: `app.listen` refuses any host but loopback, so an unauthenticated
 * ledger can never be reached from another machine.
 * @throws Error from `listen` for a non-loopback host.
 */
export function restrictToLoopback(app: INestApplication): void {
  const logger = new Logger('Auth');
  logger.warn('*****************************************************************************');
  logger.warn('* AUTHENTICATION IS DISABLED (LEDGER_AUTH=disabled): every request may claim,  *');
  logger.warn('* resolve and read every tenant. Listening on loopback only. Never in production. *');
  logger.warn('*****************************************************************************');
  // NestFactory returns a Proxy whose `set` trap ignores assignments: define the property on the
  // target instead, and call the prototype's listen (the proxy would route `app.listen` back here).
  const original = (Object.getPrototypeOf(app) as { listen: (...args: unknown[]) => Promise<unknown> })
    .listen;
  Object.defineProperty(app, 'listen', {
    configurable: true,
    writable: true,
    value: function listenOnLoopback(this: unknown, port: unknown, ...rest: unknown[]) {
      // listen(server) hands over a socket bound already (src/process/reserve-port.ts): its address
      // is what counts; otherwise the host argument (an omitted one binds every interface).
      const bound = boundAddress(port);
      const host = bound ?? (typeof rest[0] === 'string' ? rest[0] : undefined);
      if (!isLoopbackHost(host)) {
        return Promise.reject(
          new Error(
            `LEDGER_AUTH=disabled: refusing to listen on ${host ?? 'all interfaces'}; use 127.0.0.1 or ::1`,
          ),
        );
      }
      return original.call(this, port, ...rest);
    },
  });
}

/** The address a server-like listen target is bound to, if it is one (Node `server.listen(handle)`). */
function boundAddress(target: unknown): string | undefined {
  const address = (target as { address?: () => unknown } | null)?.address?.();
  return address && typeof address === 'object' ? (address as AddressInfo).address : undefined;
}
