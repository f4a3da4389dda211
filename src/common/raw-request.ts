import type { IncomingMessage } from 'node:http';

/**
 * The Node.js request under a framework request (Fastify's `request.raw`, or itself): what the
 * ledger attaches to a request lives there, so middleware and guards read the same values.
 */
export function rawRequestOf<T extends object = IncomingMessage>(req: object): T {
  const raw = (req as { raw?: unknown }).raw;
  return (raw !== null && typeof raw === 'object' ? raw : req) as T;
}
