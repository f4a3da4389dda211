import { problem } from '../common/problem.js';
import { ProblemException } from '../common/problem.exception.js';

/** Realm of the `WWW-Authenticate` challenge (RFC 6750 §3). */
export const AUTH_REALM = 'operation-ledger';

/**
 * 401 `unauthenticated` with a Bearer challenge (RFC 9110 §11.6.1, RFC 6750 §3): one body for every
 * bad token, so a refusal tells an attacker nothing about which keys exist.
 */
export function unauthenticated(tokenPresented: boolean): ProblemException {
  const challenge = `Bearer realm="${AUTH_REALM}"` + (tokenPresented ? ', error="invalid_token"' : '');
  return new ProblemException(
    problem('unauthenticated', 401, 'a valid API key is required: send Authorization: Bearer <token>'),
    { 'WWW-Authenticate': challenge },
  );
}

/**
 * 400 `validation` naming `authorization`: more than one Authorization header (a singleton field,
 * RFC 9110 §11.6.2) would let a proxy and the ledger authenticate different keys.
 */
export function repeatedAuthorization(count: number): ProblemException {
  const message = `send one Authorization header, not ${count}`;
  return new ProblemException(
    problem('validation', 400, message, { errors: [{ field: 'authorization', message }] }),
  );
}

/** 403 `forbidden`: the key is valid but lacks every role the route accepts. */
export function forbidden(detail: string): ProblemException {
  return new ProblemException(problem('forbidden', 403, detail));
}

/** 403 `forbidden-tenant`: the request names a tenant the key is not bound to. */
export function forbiddenTenant(tenant: string): ProblemException {
  return new ProblemException(
    problem('forbidden-tenant', 403, `this API key may not act for tenant ${JSON.stringify(tenant)}`, {
      errors: [{ field: 'tenant', message: 'not the tenant of this API key' }],
    }),
  );
}

/** 429 `rate-limited` with `Retry-After` in whole seconds (at least 1). */
export function rateLimited(detail: string, retryAfterS: number): ProblemException {
  const seconds = Math.max(1, Math.ceil(retryAfterS));
  return new ProblemException(problem('rate-limited', 429, detail, { retryAfterS: seconds }), {
    'Retry-After': String(seconds),
  });
}
