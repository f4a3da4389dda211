import type { IncomingMessage } from 'node:http';

/**
 * The Node.js request under a framework request: Fastify's `request.raw`, or the request itself
 * when it is one already (what `app.use()` middleware receives through `@fastify/middie`). What
 * the ledger attaches to a request — its caller, its correlation, its route template — lives on
 * this object, so that middleware (which sees only the Node.js request) and guards, decorators
 * and filters (which see Fastify's) read the same values.
 */
export function rawRequestOf<T extends object = IncomingMessage>(req: object): T {
  const raw = (req as { raw?: unknown }).raw;
  return (raw !== null && typeof raw === 'object' ? raw : req) as T;
}
