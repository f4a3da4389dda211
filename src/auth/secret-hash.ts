import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The stored form of an API key token: SHA-256 of the whole token, lowercase hex (64 characters).
 *
 * No slow KDF (bcrypt, Argon2): those make guessing low-entropy passwords expensive, and NIST SP
 * 800-63B §5.1.1.2 requires them for memorised secrets only. Our tokens carry 256 random bits, so
 * a leaked hash cannot be brute-forced, while a KDF would cost CPU per request and hand attackers
 * a cheap way to exhaust the server. Hashed whole, so the hash is bound to its key id.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` hashes to `storedHash`, in constant time; a malformed stored hash never matches. */
export function tokenMatches(token: string, storedHash: string | null): boolean {
  if (storedHash === null || !/^[0-9a-f]{64}$/.test(storedHash)) return false;
  const presented = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(presented, Buffer.from(storedHash, 'hex'));
}
