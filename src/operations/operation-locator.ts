import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import { keyFromStreamName, type OperationKey } from '../ledger/index.js';
import { canAccessTenant, type Caller } from '../auth/caller.js';

/** Most operationId → key entries kept in memory (the mapping never changes, so caching is safe). */
const CACHE_LIMIT = 10_000;

/**
 * An operation id that names no operation, or one of a tenant the caller may not see (told the
 * same way: no existence oracle). Answered 404 at the HTTP edge.
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
   * The key of `operationId` as `caller` may see it (default: any tenant), else `not-found`.
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
