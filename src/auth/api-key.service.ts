import { Inject, Injectable } from '@nestjs/common';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { CLOCK, type Clock } from '../common/clock.js';
import type { ApiKeyInput } from './api-key-input.js';
import { viewOf, type ApiKeyRecord, type ApiKeyView, type IssuedApiKey } from './api-key.js';
import { parseToken } from './api-key-token.js';
import type { Caller } from './caller.js';
import { createApiKey } from './create-api-key.js';
import { rotateApiKeySecret } from './rotate-api-key.js';
import { tokenMatches } from './secret-hash.js';
import { findApiKey, listApiKeys, revokeApiKey } from './sql/api-key-repository.js';

/** Most keys kept in the verification cache. */
const CACHE_LIMIT = 10_000;

/**
 * API keys of the running ledger: verifies presented tokens and manages keys. Records are cached
 * for `authCacheMs`; a mismatch against a cached record re-reads it once, so a rotation elsewhere
 * is seen at once, and a revocation elsewhere within `authCacheMs`.
 */
@Injectable()
export class ApiKeyService {
  private readonly cache = new Map<string, { record: ApiKeyRecord; loadedAt: number }>();

  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The caller a token stands for, or null when it is malformed, unknown, wrong, expired or
   * revoked (one answer for all, so callers cannot tell them apart).
   * @throws EventStoreUnavailableError when the key must be read and the database is down.
   */
  async authenticate(token: string): Promise<Caller | null> {
    const parsed = parseToken(token);
    if (!parsed) return null;
    let record = this.cached(parsed.id);
    let fresh = false;
    if (!record) {
      record = await this.load(parsed.id);
      fresh = true;
    }
    if (record && this.accepts(record, token)) return callerOf(record);
    if (fresh) return null;
    record = await this.load(parsed.id);
    return record && this.accepts(record, token) ? callerOf(record) : null;
  }

  /** Creates a key (token shown once). @throws ApiKeyInputError; EventStoreUnavailableError. */
  async create(input: ApiKeyInput): Promise<IssuedApiKey> {
    return createApiKey(this.sql, input, { now: this.clock.now(), installSchema: false });
  }

  /** Keys of `tenant`, or all keys when undefined, oldest first. */
  async list(tenant?: string): Promise<ApiKeyView[]> {
    const now = this.clock.now();
    return (await listApiKeys(this.sql, tenant)).map((r) => viewOf(r, now));
  }

  /** The stored record of key `id`, or null. */
  find(id: string): Promise<ApiKeyRecord | null> {
    return findApiKey(this.sql, id);
  }

  /** Revokes key `id` at once (also in this process's cache); null when there is no such key. */
  async revoke(id: string): Promise<ApiKeyView | null> {
    const now = this.clock.now();
    const record = await revokeApiKey(this.sql, id, now);
    this.cache.delete(id);
    return record ? viewOf(record, now) : null;
  }

  /**
   * New secret for key `id`; the old one works `overlapMs` longer. Null when there is no such key.
   * @throws ApiKeyRevokedError; RangeError for a bad overlap.
   */
  async rotate(id: string, overlapMs: number): Promise<IssuedApiKey | null> {
    const issued = await rotateApiKeySecret(this.sql, id, overlapMs, this.clock.now());
    this.cache.delete(id);
    return issued;
  }

  private accepts(record: ApiKeyRecord, token: string): boolean {
    if (record.revokedAt !== null) return false;
    const current = tokenMatches(token, record.secretHash);
    const previousInForce =
      record.previousSecretExpiresAt !== null && this.clock.now() < record.previousSecretExpiresAt;
    const previous = tokenMatches(token, record.previousSecretHash) && previousInForce;
    return current || previous;
  }

  private cached(id: string): ApiKeyRecord | null {
    const entry = this.cache.get(id);
    if (!entry) return null;
    if (Date.now() - entry.loadedAt >= this.config.authCacheMs) {
      this.cache.delete(id);
      return null;
    }
    return entry.record;
  }

  private async load(id: string): Promise<ApiKeyRecord | null> {
    const record = await findApiKey(this.sql, id);
    if (record && this.config.authCacheMs > 0) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, { record, loadedAt: Date.now() });
    }
    return record;
  }
}

function callerOf(record: ApiKeyRecord): Caller {
  return { keyId: record.id, name: record.name, tenant: record.tenant, roles: record.roles };
}
