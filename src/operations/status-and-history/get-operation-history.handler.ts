import type { HistoryEventDto } from './status-answers.dto.js';
import { Inject, Optional } from '@nestjs/common';
import { ApiKeyService } from '../../auth/api-key.service.js';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { EventStore, RecordedEvent } from '../../event-store/event-store.port.js';
import { EVENT_STORE } from '../../event-store/event-store.token.js';
import { auditStreamName, operationStreamName } from '../../ledger/index.js';
import { OperationLocator } from '../operation-locator.js';
import { eventActors, unnamedKeyIds, type EventActor } from './event-actor.js';
import { GetOperationHistoryQuery, type OperationHistoryResult } from './get-operation-history.query.js';

/**
 * The audit trail of one operation (docs/api.md "Reading one operation"): decision and audit
 * streams merged in commit order, each event with its actor.
 * @throws EventStoreUnavailableError.
 */
@QueryHandler(GetOperationHistoryQuery)
export class GetOperationHistoryHandler implements IQueryHandler<GetOperationHistoryQuery> {
  constructor(
    private readonly locator: OperationLocator,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() private readonly keys?: ApiKeyService,
  ) {}

  async execute({ operationId, caller }: GetOperationHistoryQuery): Promise<OperationHistoryResult> {
    const located = await this.locator.locate(operationId, caller);
    if (located.kind === 'not-found') return located;
    const key = located.key;
    const streamName = operationStreamName(key);
    const [decisions, audit] = await Promise.all([
      this.store.read(streamName),
      this.store.read(auditStreamName(key)),
    ]);
    const events = [...decisions, ...audit].sort((a, b) =>
      a.globalPosition < b.globalPosition ? -1 : a.globalPosition > b.globalPosition ? 1 : 0,
    );
    const actors = eventActors(events, await this.keyNames(unnamedKeyIds(events)));
    return {
      kind: 'history',
      history: {
        operationId,
        key,
        streamName,
        auditStreamName: auditStreamName(key),
        events: events.map((e, i) => present(e, actors[i]!)),
      },
    };
  }

  /** Names of the keys `ids` (a deleted key or no key store: left out, the id is shown). */
  private async keyNames(ids: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (!this.keys) return names;
    for (const id of ids) {
      const record = await this.keys.find(id).catch(() => null);
      if (record) names.set(id, record.name);
    }
    return names;
  }
}

function present(e: RecordedEvent, actor: EventActor): HistoryEventDto {
  return {
    type: e.type,
    streamName: e.streamName,
    streamPosition: Number(e.streamPosition),
    globalPosition: Number(e.globalPosition),
    recordedAt: e.recordedAt.toISOString(),
    data: e.data,
    metadata: e.metadata,
    actor,
  };
}
