import type { ApiKeyService } from './api-key.service.js';
import { repeatedAuthorization, unauthenticated } from './auth-problems.js';
import { presentedCredentials } from './bearer-token.js';
import type { Caller } from './caller.js';
import { callerHolderOf } from './request-caller.js';

/**
 * Establishes the caller of `req` (a Node.js or a Fastify request) from its Bearer token and
 * stores it on the Node.js request's `caller` ({@link callerHolderOf}).
 * @throws ProblemException 401 `unauthenticated` (with `WWW-Authenticate`) for a missing or
 *   invalid key; 400 `validation` naming `authorization` for several Authorization headers;
 *   EventStoreUnavailableError when the key table cannot be read (→ 503).
 */
export async function authenticateRequest(keys: ApiKeyService, request: object): Promise<Caller> {
  const req = callerHolderOf(request);
  if (req.caller) return req.caller;
  const count = authorizationHeaders(req.rawHeaders);
  if (count > 1) throw repeatedAuthorization(count);
  const credentials = presentedCredentials(req.headers.authorization);
  if (credentials.kind !== 'bearer') throw unauthenticated(credentials.kind === 'malformed');
  const caller = await keys.authenticate(credentials.token);
  if (!caller) throw unauthenticated(true);
  req.caller = caller;
  return caller;
}

/** How many Authorization headers `rawHeaders` (Node's name, value, name, value … list) holds. */
function authorizationHeaders(rawHeaders: readonly string[] | undefined): number {
  let n = 0;
  for (let i = 0; i < (rawHeaders?.length ?? 0); i += 2) {
    if (rawHeaders![i]!.length === 13 && rawHeaders![i]!.toLowerCase() === 'authorization') n++;
  }
  return n;
}
