import type { NodeMiddleware } from '../common/node-middleware.js';
import { onRequestStoreBudget } from '../common/request-store-budget.js';
import { ANONYMOUS_CALLER } from './caller.js';
import type { ApiKeyService } from './api-key.service.js';
import { authenticateRequest } from './authenticate-request.js';
import type { RequestWithCaller } from './request-caller.js';

/**
 * Middleware mounted on `/v1`, which runs before the body is read (Fastify's `onRequest`): every
 * `/v1` route needs a key, so an unauthenticated request is answered 401 before its body (up to
 * 16 MiB for a batch) is read or parsed. Routes outside `/v1` (health, docs, metrics) are left to
 * the global AccessGuard, which also checks roles everywhere. With auth disabled every request is
 * the anonymous caller. A key looked up in the database spends from the request's store budget
 * (`storeTimeoutMs`, shared with the handler: request-store-budget.ts).
 */
export function authenticationMiddleware(
  keys: ApiKeyService,
  authDisabled: boolean,
  storeTimeoutMs: number,
): NodeMiddleware {
  return (req: RequestWithCaller, _res, next) => {
    if (authDisabled) {
      req.caller = ANONYMOUS_CALLER;
      return next();
    }
    // `next` is called outside the budget's scope: the rest of the request is not bound by it here.
    onRequestStoreBudget(req, storeTimeoutMs, () => authenticateRequest(keys, req)).then(
      () => next(),
      (err: unknown) => next(err),
    );
  };
}
