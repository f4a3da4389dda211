/** Paths pino replaces with {@link REDACTED} (pino `redact`; `*` is one level). */
export const REDACT_PATHS: readonly string[] = [
  'authorization',
  'cookie',
  'token',
  'password',
  'secret',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["proxy-authorization"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["proxy-authorization"]',
  '*.authorization',
  '*.token',
  '*.adminToken',
  '*.password',
  '*.secret',
  '*.databaseUrl',
  'body.*.token',
];

/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Ledger API tokens `olk_<24 hex id>_<secret>`: the id may be logged, the secret never. */
const LEDGER_TOKEN = /\bolk_([0-9a-f]{24})_[A-Za-z0-9_-]+/g;
/** `Bearer <anything>` as it would appear in a header echoed into a message. */
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;
/** Passwords in connection URLs (`postgres://user:secret@host`). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]+:)[^@/?#\s]+@/gi;

/**
 * `text` with token secrets, Bearer credentials and URL passwords replaced by {@link REDACTED}
 * (a token's key id is kept): for free text, which path redaction cannot see.
 */
export function scrubSecrets(text: string): string {
  return text
    .replace(LEDGER_TOKEN, `olk_$1_${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}@`);
}
