import type { ApiKeyService } from './api-key.service.js';
import { unauthenticated } from './auth-problems.js';
import { presentedCredentials } from './bearer-token.js';
import type { Caller } from './caller.js';
import type { RequestWithCaller } from './request-caller.js';

/**
 * Establishes the caller of `req` from its Bearer token and stores it on `req.caller`.
 * @throws ProblemException 401 `unauthenticated` (with `WWW-Authenticate`) for a missing or
 *   invalid key; EventStoreUnavailableError when the key table cannot be read (→ 503).
 */
export async function authenticateRequest(keys: ApiKeyService, req: RequestWithCaller): Promise<Caller> {
  if (req.caller) return req.caller;
  const credentials = presentedCredentials(req.headers.authorization);
  if (credentials.kind !== 'bearer') throw unauthenticated(credentials.kind === 'malformed');
  const caller = await keys.authenticate(credentials.token);
  if (!caller) throw unauthenticated(true);
  req.caller = caller;
  return caller;
}
