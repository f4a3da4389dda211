import type { NodeMiddleware } from '../common/node-middleware.js';
import { onRequestStoreBudget } from '../common/request-store-budget.js';
import { ANONYMOUS_CALLER } from './caller.js';
import type { ApiKeyService } from './api-key.service.js';
import { authenticateRequest } from './authenticate-request.js';
import type { RequestWithCaller } from './request-caller.js';

/**
 * Middleware on `/v1`, before the body is read: an unauthenticated request is answered 401 before
 * its body (up to 16 MiB) is parsed. Other routes are left to the global AccessGuard. A key
 * looked up in the database spends from the request's store budget (request-store-budget.ts).
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
