import { parseItem } from 'structured-headers';

/** The request header the IETF draft defines (draft-ietf-httpapi-idempotency-key-header §2). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Most bytes of a key: the ledger's limit on an operation key's `subject` (docs/api.md). */
export const MAX_IDEMPOTENCY_KEY_BYTES = 256;

/** The header read: absent, a key, or why it is malformed. */
export type IdempotencyKeyHeader =
  | { readonly kind: 'absent' }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'malformed'; readonly message: string };

/**
 * Reads `Idempotency-Key` as the draft's §2.1 defines it: an Item Structured Header (RFC 9651
 * §3.3) whose value is an sf-string (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`); parameters are
 * allowed and ignored. A bare token, a number, an empty string, a repeated header or a key over
 * {@link MAX_IDEMPOTENCY_KEY_BYTES} is malformed. Pure.
 * @param raw the header's value(s) as Node's `IncomingMessage.headers` holds them.
 */
export function readIdempotencyKey(raw: string | readonly string[] | undefined): IdempotencyKeyHeader {
  if (raw === undefined) return { kind: 'absent' };
  if (typeof raw !== 'string') {
    if (raw.length !== 1) return { kind: 'malformed', message: 'Idempotency-Key must be sent once' };
    raw = raw[0]!;
  }
  let value: unknown;
  try {
    [value] = parseItem(raw);
  } catch {
    return { kind: 'malformed', message: 'Idempotency-Key must be a Structured Field string, e.g. "a1b2c3"' };
  }
  if (typeof value !== 'string')
    return {
      kind: 'malformed',
      message: 'Idempotency-Key must be a quoted Structured Field string, e.g. "a1b2c3"',
    };
  if (value.length === 0) return { kind: 'malformed', message: 'Idempotency-Key must not be empty' };
  if (Buffer.byteLength(value) > MAX_IDEMPOTENCY_KEY_BYTES)
    return {
      kind: 'malformed',
      message: `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_BYTES} bytes`,
    };
  return { kind: 'key', key: value };
}
