/**
 * Error codes that prove a request never left this process, so the destination cannot have acted
 * on it (package README, "Errors that prove nothing was sent"): the connection was refused or
 * could not be made, the name did not resolve, or TLS failed before any request byte was written.
 * A reset, a timeout after connecting, or an HTTP answer is no such proof and stays unknown.
 * Codes are Node's (`node:net`, `node:dns`, `node:tls`, OpenSSL's verify errors) and undici's
 * connect timeout.
 */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  // node:net — no connection was made
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  // node:dns — the name did not resolve
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  // undici — the connect phase timed out (no socket, no request)
  'UND_ERR_CONNECT_TIMEOUT',
  // node:tls / OpenSSL — the handshake failed, so no request was written
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
]);

/** How deep `cause` / `errors` chains are followed (fetch wraps the socket's error in `cause`). */
const MAX_DEPTH = 4;

/**
 * Whether `error` (or an error in its `cause` chain, or every error of an AggregateError, as
 * Node's happy-eyeballs connect throws) carries a {@link NOT_SENT_CODES} code. Pure.
 */
export function provesNotSent(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
  if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => provesNotSent(e, depth + 1)))
    return true;
  return provesNotSent(cause, depth + 1);
}
