import { randomBytes } from 'node:crypto';

/** Prefix of every ledger API key token (makes leaked tokens greppable by secret scanners). */
export const TOKEN_PREFIX = 'olk_';

/** Random bytes of a key id: 96 bits, 24 hex characters. Not secret; used to look the key up. */
const ID_BYTES = 12;
/** Random bytes of a key secret: 256 bits, 43 base64url characters. */
const SECRET_BYTES = 32;

const TOKEN_PATTERN = /^olk_([0-9a-f]{24})_([A-Za-z0-9_-]{43,128})$/;
const ID_PATTERN = /^[0-9a-f]{24}$/;

/** A token split into its public id and its secret. */
export interface ParsedToken {
  /** The key id (24 lowercase hex characters), the primary key of `ledger_api_keys`. */
  readonly id: string;
  /** The whole token as presented (what is hashed). */
  readonly token: string;
}

/** A new token `olk_<id>_<secret>` from the CSPRNG. */
export function generateToken(): ParsedToken {
  return tokenWithId(randomBytes(ID_BYTES).toString('hex'));
}

/** A new token for the existing key id `id` (a fresh 256-bit secret). */
export function tokenWithId(id: string): ParsedToken {
  return { id, token: `${TOKEN_PREFIX}${id}_${randomBytes(SECRET_BYTES).toString('base64url')}` };
}

/** Splits a presented token; `null` unless it is `olk_<24 hex>_<43..128 base64url>`. */
export function parseToken(token: string): ParsedToken | null {
  const m = TOKEN_PATTERN.exec(token);
  return m ? { id: m[1]!, token } : null;
}

/** Whether `id` has the shape of a key id (24 lowercase hex characters). */
export function isKeyId(id: string): boolean {
  return ID_PATTERN.test(id);
}
