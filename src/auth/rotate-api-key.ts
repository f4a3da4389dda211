import type { SqlQueryable } from '../event-store/sql-executor.js';
import { viewOf, type IssuedApiKey } from './api-key.js';
import { tokenWithId } from './api-key-token.js';
import { hashToken } from './secret-hash.js';
import { findApiKey, rotateApiKey } from './sql/api-key-repository.js';

/** Longest overlap a rotation may grant: 30 days, in ms. */
export const MAX_ROTATION_OVERLAP_MS = 30 * 24 * 3600 * 1000;

/** The key to rotate is revoked: a revoked key stays revoked (create a new one). */
export class ApiKeyRevokedError extends Error {
  override readonly name = 'ApiKeyRevokedError';
  constructor(readonly keyId: string) {
    super(`API key ${keyId} is revoked and cannot be rotated`);
  }
}

/**
 * Gives key `id` a new secret; the old one keeps working for `overlapMs` after `now`. Only one
 * previous secret is kept: rotating again during an overlap ends the older one.
 * @returns the key with its new token, or null when there is no key `id`.
 * @throws ApiKeyRevokedError for a revoked key; RangeError for an overlap outside
 *   0..{@link MAX_ROTATION_OVERLAP_MS}; EventStoreUnavailableError when the database is down.
 */
export async function rotateApiKeySecret(
  sql: SqlQueryable,
  id: string,
  overlapMs: number,
  now: number,
): Promise<IssuedApiKey | null> {
  if (!Number.isInteger(overlapMs) || overlapMs < 0 || overlapMs > MAX_ROTATION_OVERLAP_MS) {
    throw new RangeError(`overlapMs must be an integer in 0..${MAX_ROTATION_OVERLAP_MS}`);
  }
  const { token } = tokenWithId(id);
  const rotated = await rotateApiKey(sql, id, hashToken(token), now, overlapMs > 0 ? now + overlapMs : null);
  if (rotated) return { key: viewOf(rotated, now), token };
  const existing = await findApiKey(sql, id);
  if (existing) throw new ApiKeyRevokedError(id);
  return null;
}
