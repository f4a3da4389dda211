import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import { keyFromStreamName, type OperationKey } from '../ledger/index.js';
import { canAccessTenant, type Caller } from '../auth/caller.js';

/** Most operationId → key entries kept in memory (the mapping never changes, so caching is safe). */
const CACHE_LIMIT = 10_000;

/**
 * An operation id that names no operation — or, told the same way, one of a tenant the caller may
 * not see (no existence oracle across tenants). A refusal as a value: the HTTP edge answers it 404
 * `not-found` (`notFoundAnswer`, problem-answer.ts).
 */
export interface OperationNotFound {
  readonly kind: 'not-found';
  readonly operationId: string;
}

/** An operation id's key, or {@link OperationNotFound}. */
export type Located = { readonly kind: 'located'; readonly key: OperationKey } | OperationNotFound;

/** The {@link OperationNotFound} of `operationId`. */
export function operationNotFound(operationId: string): OperationNotFound {
  return { kind: 'not-found', operationId };
}

/**
 * Finds an operation's key from its operationId (UUID v5 of the key), through the stream alias
 * the first claim recorded. An unknown id comes back `not-found`.
 */
@Injectable()
export class OperationLocator {
  private readonly cache = new Map<string, OperationKey>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /**
   * The key of `operationId`, as seen by `caller` (default: no tenant restriction, for in-process
   * callers): `not-found` when no claim ever created it, and — exactly the same — when it is of a
   * tenant the caller's key is not bound to.
   * @throws EventStoreUnavailableError.
   */
  async locate(operationId: string, caller?: Caller): Promise<Located> {
    const key = await this.lookUp(operationId);
    if (!key || (caller && !canAccessTenant(caller, key.tenant))) return operationNotFound(operationId);
    return { kind: 'located', key };
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

  private async lookUp(operationId: string): Promise<OperationKey | null> {
    const id = operationId.toLowerCase();
    const cached = this.cache.get(id);
    if (cached) return cached;
    const streamName = await this.store.findStreamName(id);
    const key = streamName ? keyFromStreamName(streamName) : null;
    if (key) this.remember(id, key);
    return key;
  }
}
