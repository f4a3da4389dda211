import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A Connect-style middleware on Node.js's own request and response, as `app.use()` runs them on
 * Fastify (through `@fastify/middie`, in the `onRequest` hook: after routing, before the body is
 * read). `next(err)` hands `err` to the exception filters.
 */
export type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;
