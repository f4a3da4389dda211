import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The stored form of an API key token: SHA-256 of the whole token, lowercase hex (64 characters).
 *
 * Why no slow KDF (bcrypt, scrypt, Argon2): those exist to make guessing LOW-entropy human
 * passwords expensive. Our tokens carry 256 bits from the CSPRNG (api-key-token.ts), so even a
 * leaked hash table cannot be brute-forced (2^255 SHA-256 evaluations on average), while a slow
 * KDF would cost tens of milliseconds of CPU per request and hand attackers a cheap way to
 * exhaust the server. This is the practice of GitHub and Stripe tokens (NIST SP 800-63B §5.1.1.2
 * requires a KDF for memorised secrets only). The token is hashed whole, so the hash is bound to
 * its key id.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Whether `token` hashes to `storedHash`, comparing the 32-byte digests with
 * `crypto.timingSafeEqual` (the time taken does not depend on where they differ). A malformed or
 * missing stored hash never matches.
 */
export function tokenMatches(token: string, storedHash: string | null): boolean {
  if (storedHash === null || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  const presented = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(presented, Buffer.from(storedHash, 'hex'));
}
