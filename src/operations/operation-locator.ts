import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import { keyFromStreamName, type OperationKey } from '../ledger/index.js';
import { problem } from '../common/problem.js';
import { ProblemException } from '../common/problem.exception.js';
import { canAccessTenant, type Caller } from '../auth/caller.js';

/** Most operationId → key entries kept in memory (the mapping never changes, so caching is safe). */
const CACHE_LIMIT = 10_000;

/**
 * The 404 of an operation id that does not exist — and, with the same body, of one that exists in
 * a tenant the caller may not see (no existence oracle across tenants).
 */
export function operationNotFound(operationId: string): ProblemException {
  return new ProblemException(problem('not-found', 404, `no operation ${operationId}`));
}

/**
 * Finds an operation's key from its operationId (UUID v5 of the key), through the stream alias
 * the first claim recorded. Unknown ids answer 404 `not-found`.
 */
@Injectable()
export class OperationLocator {
  private readonly cache = new Map<string, OperationKey>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /**
   * The key of `operationId`, as seen by `caller` (default: no tenant restriction, for in-process
   * callers): an operation of a tenant the caller's key is not bound to is reported exactly as an
   * unknown id.
   * @throws ProblemException 404 `not-found` when no claim ever created it, or it is another tenant's.
   */
  async keyOf(operationId: string, caller?: Caller): Promise<OperationKey> {
    const key = await this.lookUp(operationId);
    if (caller && !canAccessTenant(caller, key.tenant)) throw operationNotFound(operationId);
    return key;
  }

  /**
   * Records that operation `operationId` exists with `key` (its stream was created or seen by this
   * process, e.g. by a claim), so the worker's follow-ups do not look the id up again.
   */
  remember(operationId: string, key: OperationKey): void {
    const id = operationId.toLowerCase();
    if (this.cache.has(id)) return;
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(id, key);
  }

  private async lookUp(operationId: string): Promise<OperationKey> {
    const id = operationId.toLowerCase();
    const cached = this.cache.get(id);
    if (cached) return cached;
    const streamName = await this.store.findStreamName(id);
    const key = streamName ? keyFromStreamName(streamName) : null;
    if (!key) throw operationNotFound(operationId);
    this.remember(id, key);
    return key;
  }
}
