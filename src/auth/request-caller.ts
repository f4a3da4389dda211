import type { IncomingMessage } from 'node:http';
import { rawRequestOf } from '../common/raw-request.js';
import type { Caller } from './caller.js';

/** A Node.js request after authentication: `caller` is set by the middleware or the guard. */
export type RequestWithCaller = IncomingMessage & { caller?: Caller };

/**
 * The Node.js request that carries the caller of `req` (Fastify's `request.raw`, or `req` itself
 * in middleware), so the authentication middleware and the guards see one caller.
 */
export function callerHolderOf(req: object): RequestWithCaller {
  return rawRequestOf<RequestWithCaller>(req);
}
