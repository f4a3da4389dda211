import type { ApiKeyService } from './api-key.service.js';
import { unauthenticated } from './auth-problems.js';
import { presentedCredentials } from './bearer-token.js';
import type { Caller } from './caller.js';
import { callerHolderOf } from './request-caller.js';

/**
 * Establishes the caller of `req` (a Node.js or a Fastify request) from its Bearer token and
 * stores it on the Node.js request's `caller` ({@link callerHolderOf}).
 * @throws ProblemException 401 `unauthenticated` (with `WWW-Authenticate`) for a missing or
 *   invalid key; EventStoreUnavailableError when the key table cannot be read (→ 503).
 */
export async function authenticateRequest(keys: ApiKeyService, request: object): Promise<Caller> {
  const req = callerHolderOf(request);
  if (req.caller) return req.caller;
  const credentials = presentedCredentials(req.headers.authorization);
  if (credentials.kind !== 'bearer') throw unauthenticated(credentials.kind === 'malformed');
  const caller = await keys.authenticate(credentials.token);
  if (!caller) throw unauthenticated(true);
  req.caller = caller;
  return caller;
}
