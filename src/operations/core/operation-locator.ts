import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '../../event-store/event-store.port.js';
import { EVENT_STORE } from '../../event-store/event-store.token.js';
import { keyFromStreamName, type OperationKey } from '../../ledger/index.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';

/** Most operationId → key entries kept in memory (the mapping never changes, so caching is safe). */
const CACHE_LIMIT = 10_000;

/**
 * Finds an operation's key from its operationId (UUID v5 of the key), through the stream alias
 * the first claim recorded. Unknown ids answer 404 `not-found`.
 */
@Injectable()
export class OperationLocator {
  private readonly cache = new Map<string, OperationKey>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /**
   * The key of `operationId`.
   * @throws ProblemException 404 `not-found` when no claim ever created it.
   */
  async keyOf(operationId: string): Promise<OperationKey> {
    const id = operationId.toLowerCase();
    const cached = this.cache.get(id);
    if (cached) return cached;
    const streamName = await this.store.findStreamName(id);
    const key = streamName ? keyFromStreamName(streamName) : null;
    if (!key) throw new ProblemException(problem('not-found', 404, `no operation ${operationId}`));
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(id, key);
    return key;
  }
}
