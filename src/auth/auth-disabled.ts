import { Logger, type INestApplication } from '@nestjs/common';
import { isLoopbackHost } from './loopback.js';

/**
 * Applies LEDGER_AUTH=disabled to a built app: logs a loud warning, and replaces `app.listen` by
 * one that refuses any host but loopback (an omitted host would bind every interface), so an
 * unauthenticated ledger can never be reached from another machine.
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
    value: function listenOnLoopback(this: unknown, port: number | string, ...rest: unknown[]) {
      const host = typeof rest[0] === 'string' ? rest[0] : undefined;
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
